// SPDX-License-Identifier: GPL-3.0-or-later
// The Azure LLM inference trace (2023): CSV of TIMESTAMP, ContextTokens, GeneratedTokens; its sniffer,
// its reader and its timestamps.

#include "ingest/formats/workload/workload_readers.h"

#include "ingest/formats/benchmark/benchmark_common.h"
#include "ingest/formats/benchmark/benchmark_readers_impl.h"
#include "ingest/line_reader.h"
#include "model/time_range.h"

#include <cctype>
#include <charconv>
#include <vector>

namespace lx::workload {

using namespace bench;

namespace {

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
std::int64_t daysFromCivil(std::int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const auto yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

bool digits(std::string_view s, std::size_t pos, std::size_t n, int &out)
{
    if (pos + n > s.size())
        return false;
    const auto r = std::from_chars(s.data() + pos, s.data() + pos + n, out);
    return r.ec == std::errc() && r.ptr == s.data() + pos + n;
}

std::int64_t parseCount(std::string_view cell)
{
    while (!cell.empty() && (cell.front() == ' ' || cell.front() == '"'))
        cell.remove_prefix(1);
    while (!cell.empty() && (cell.back() == ' ' || cell.back() == '"'))
        cell.remove_suffix(1);
    std::int64_t n = -1;
    const auto r = std::from_chars(cell.data(), cell.data() + cell.size(), n);
    return r.ec == std::errc() && r.ptr == cell.data() + cell.size() && n >= 0 ? n : -1;
}

class AzureReader final : public TraceReader {
public:
    std::string read(LineReader &lines, ImportSink &sink) override
    {
        std::string_view line;
        std::int64_t lineNumber = 0;
        int timeCol = -1, inCol = -1, outCol = -1;
        bool header = true;
        std::vector<std::string_view> cells;
        while (lines.next(line, lineNumber)) {
            if (isBlankLine(line))
                continue;
            split(line, cells);
            if (header) {
                // Columns by name, so that a reordered or extended export still reads.
                for (int i = 0; i < static_cast<int>(cells.size()); ++i) {
                    const std::string_view c = cells[static_cast<std::size_t>(i)];
                    if (startsWithNoCase(c, "timestamp") && c.size() == 9)
                        timeCol = i;
                    else if (startsWithNoCase(c, "contexttokens") && c.size() == 13)
                        inCol = i;
                    else if (startsWithNoCase(c, "generatedtokens") && c.size() == 15)
                        outCol = i;
                }
                if (timeCol < 0)
                    return "an Azure LLM inference trace without a TIMESTAMP column";
                header = false;
                continue;
            }
            if (!sink.keepGoing())
                break;
            RequestRecord &r = sink.slot();
            r.sourceLine = lineNumber;
            r.id = std::to_string(lineNumber);
            const auto cell = [&cells](int i) { return i >= 0 && i < static_cast<int>(cells.size()) ? cells[static_cast<std::size_t>(i)] : std::string_view{}; };
            bool outOfRange = false;
            const std::int64_t arrival = parseUtcTimestamp(cell(timeCol), &outOfRange);
            if (outOfRange) {
                sink.reject(lineNumber, timeOutOfRange("TIMESTAMP", cell(timeCol)), line);
                continue;
            }
            if (!isMeasured(arrival)) {
                sink.reject(lineNumber, "TIMESTAMP: expected a date and time such as 2023-11-16 18:17:03.9799600", line);
                continue;
            }
            r.inputTokens = parseCount(cell(inCol));
            r.outputTokens = parseCount(cell(outCol));
            finish(sink, r, buildArrival(r, arrival), line);
        }
        return {};
    }

private:
    static void split(std::string_view line, std::vector<std::string_view> &cells)
    {
        cells.clear();
        std::size_t from = 0;
        while (true) {
            const std::size_t comma = line.find(',', from);
            std::string_view c = line.substr(from, comma == std::string_view::npos ? std::string_view::npos : comma - from);
            while (!c.empty() && c.front() == ' ')
                c.remove_prefix(1);
            while (!c.empty() && c.back() == ' ')
                c.remove_suffix(1);
            cells.push_back(c);
            if (comma == std::string_view::npos)
                break;
            from = comma + 1;
        }
    }
};

} // namespace

std::int64_t parseUtcTimestamp(std::string_view s, bool *outOfRange)
{
    int y = 0, mo = 0, d = 0, h = 0, mi = 0, sec = 0;
    if (s.ends_with('Z'))
        s.remove_suffix(1);
    if (!digits(s, 0, 4, y) || s.size() < 19 || s[4] != '-' || !digits(s, 5, 2, mo) || s[7] != '-' || !digits(s, 8, 2, d)
        || (s[10] != ' ' && s[10] != 'T') || !digits(s, 11, 2, h) || s[13] != ':' || !digits(s, 14, 2, mi) || s[16] != ':'
        || !digits(s, 17, 2, sec) || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60)
        return kNotMeasured;
    std::int64_t frac = 0;
    if (s.size() > 19) {
        if (s[19] != '.' || s.size() == 20 || s.size() > 29)
            return kNotMeasured;
        for (std::size_t i = 20; i < 29; ++i) {
            if (i < s.size() && (s[i] < '0' || s[i] > '9'))
                return kNotMeasured;
            frac = frac * 10 + (i < s.size() ? s[i] - '0' : 0);
        }
    }
    // Checked: a date after 2262-04-11 or before 1677-09-21 does not fit int64 ns and must not wrap.
    const std::int64_t days = daysFromCivil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d));
    const std::int64_t seconds = ((days * 24 + h) * 60 + mi) * 60 + sec; // 10^4 years of seconds: no overflow
    // Before 1970 the fraction is added to a whole second that may itself lie just before 1677-09-21.
    const bool borrow = seconds < 0 && frac > 0;
    std::optional<std::int64_t> ns = checkedMul(seconds + (borrow ? 1 : 0), 1'000'000'000LL);
    if (ns)
        ns = checkedAdd(*ns, borrow ? frac - 1'000'000'000LL : frac);
    if (!ns) {
        if (outOfRange)
            *outOfRange = true;
        return kNotMeasured;
    }
    return *ns;
}

bool azureCanRead(std::string_view head)
{
    std::string header;
    for (char c : firstLine(head)) {
        if (c != ' ' && c != '"')
            header += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return header.starts_with("timestamp,") && header.find("contexttokens") != std::string::npos
           && header.find("generatedtokens") != std::string::npos;
}

std::unique_ptr<TraceReader> createAzureReader(const ReaderOptions &) { return std::make_unique<AzureReader>(); }

} // namespace lx::workload
