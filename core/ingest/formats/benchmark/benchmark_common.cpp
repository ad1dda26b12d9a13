// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/formats/benchmark/benchmark_common.h"

#include "model/decompose.h"
#include "model/time_range.h"
#include "ingest/input_file.h"
#include "ingest/line_reader.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace lx::bench {

std::int64_t toNs(double value, double perUnit, std::string_view field, std::string *outOfRange)
{
    if (!std::isfinite(value))
        return kNotMeasured;
    if (const std::optional<std::int64_t> ns = scaledToNs(value, perUnit))
        return *ns;
    if (outOfRange && outOfRange->empty())
        *outOfRange = durationOutOfRange(field, numberText(value));
    return kNotMeasured;
}

std::int64_t sumOfGaps(const std::vector<std::int64_t> &gaps)
{
    std::int64_t sum = 0;
    for (std::int64_t gap : gaps) {
        const std::optional<std::int64_t> next = checkedAdd(sum, gap);
        if (!next)
            return kNotMeasured;
        sum = *next;
    }
    return sum;
}

double nsPerUnit(std::string_view unit)
{
    if (unit == "ns")
        return 1.0;
    if (unit == "us" || unit == "\xC2\xB5s")
        return 1e3;
    if (unit == "ms")
        return 1e6;
    if (unit == "s" || unit == "sec")
        return 1e9;
    return 0.0;
}

int nullifyNonFinite(std::string &json)
{
    int replaced = 0;
    bool inString = false;
    for (std::size_t i = 0; i < json.size(); ++i) {
        const char c = json[i];
        if (inString) {
            if (c == '\\')
                ++i; // the escaped character cannot end the string
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
            continue;
        }
        // A bare token can only start a value: after ':', ',', '[' or whitespace; "-Infinity" starts with '-'.
        const std::string_view rest(json.data() + i, json.size() - i);
        std::size_t length = 0;
        if (rest.starts_with("NaN"))
            length = 3;
        else if (rest.starts_with("Infinity"))
            length = 8;
        else if (rest.starts_with("-Infinity"))
            length = 9;
        if (length == 0)
            continue;
        json.replace(i, length, "null");
        i += 3;
        ++replaced;
    }
    return replaced;
}

bool readDocument(LineReader &lines, std::string &out, std::string *error, std::size_t maxBytes)
{
    out.clear();
    std::string_view line;
    std::int64_t number = 0;
    // A line too long for the reader is part of the document, so the document is too large: not a record
    // to reject on its own.
    bool tooLarge = false;
    lines.setOversizedLineHandler([&tooLarge](std::int64_t, std::string_view) { tooLarge = true; });
    while (!tooLarge && lines.next(line, number)) {
        if (out.size() + line.size() + 1 > maxBytes) {
            tooLarge = true;
            break;
        }
        out.append(line.data(), line.size());
        out += '\n';
    }
    if (tooLarge) {
        out.clear();
        out.shrink_to_fit();
        *error = documentTooLargeReason(maxBytes);
        return false;
    }
    if (lines.input() && !lines.input()->error().empty()) {
        *error = lines.input()->error();
        return false;
    }
    return true;
}

std::string_view firstLine(std::string_view head)
{
    std::string_view line = head.substr(0, std::min(head.find('\n'), head.size()));
    if (line.ends_with('\r'))
        line.remove_suffix(1);
    return line;
}

std::string_view firstObjectLine(std::string_view head)
{
    const std::string_view line = firstLine(head);
    return startsWith(line, '{') ? line : std::string_view{};
}

bool isBlankLine(std::string_view line) { return line.find_first_not_of(" \t") == std::string_view::npos; }

bool startsWith(std::string_view head, char c)
{
    const std::size_t first = head.find_first_not_of(" \t\r\n");
    return first != std::string_view::npos && head[first] == c;
}

bool hasKey(std::string_view text, std::string_view key)
{
    std::string quoted;
    quoted.reserve(key.size() + 2);
    quoted += '"';
    quoted += key;
    quoted += '"';
    return text.find(quoted) != std::string_view::npos;
}

bool startsWithNoCase(std::string_view text, std::string_view prefix)
{
    if (text.size() < prefix.size())
        return false;
    for (std::size_t i = 0; i < prefix.size(); ++i) {
        if (std::tolower(static_cast<unsigned char>(text[i])) != std::tolower(static_cast<unsigned char>(prefix[i])))
            return false;
    }
    return true;
}

void setClientScope(RequestRecord &record)
{
    record.metrics.tokenScope = E2eScope::Client;
    record.metrics.e2eScope = isMeasured(record.metrics.e2e) ? E2eScope::Client : E2eScope::None;
}

std::string buildClientRecord(RequestRecord &r, const ClientMeasures &m)
{
    const bool anyLatency = isMeasured(m.ttft) || isMeasured(m.decode) || isMeasured(m.e2e);
    if (!anyLatency && r.status == Status::Ok)
        return "no latency measured (TTFT and end-to-end time are both absent)";
    if ((isMeasured(m.ttft) && m.ttft < 0) || (isMeasured(m.e2e) && m.e2e < 0))
        return "negative latency";
    if (isMeasured(m.ttft) && isMeasured(m.e2e) && m.e2e < m.ttft)
        return "end-to-end time is less than TTFT";
    if (m.gaps) {
        for (std::int64_t gap : *m.gaps) {
            if (gap < 0)
                return "a gap between received chunks is negative";
        }
    }
    // Past kMaxRecordSpanNs no sum below can overflow (decompose.h); the end must still be a time.
    for (const auto &[name, value] : {std::pair<const char *, std::int64_t>{"TTFT", m.ttft}, {"the decode time", m.decode},
                                      {"the end-to-end time", m.e2e}}) {
        if (isMeasured(value) && value > kMaxRecordSpanNs)
            return std::string(name) + " is more than 73 years: not one request's time";
    }
    if (isMeasured(m.start)) {
        const std::int64_t last = std::max({isMeasured(m.e2e) ? m.e2e : 0, (isMeasured(m.ttft) ? m.ttft : 0) + (isMeasured(m.decode) ? m.decode : 0)});
        if (!checkedAdd(m.start, last))
            return "the request's end (its start " + std::to_string(m.start) + " ns + " + std::to_string(last)
                   + " ns) is past 2262-04-11, the last time that can be held in int64 ns";
    }
    std::string why;
    if (isMeasured(m.e2e)) {
        DurationsInput in;
        in.segments[static_cast<int>(Segment::Decode)] = m.decode;
        in.e2e = m.e2e;
        why = decomposeDurations(r, in);
        if (!why.empty())
            return why;
        // The durations form files its start as a server receive; ours is the client's send time.
        r.stamp(Stamp::ServerRecv) = kNotMeasured;
        r.stamp(Stamp::ClientSend) = m.start;
        r.metrics.start = m.start;
    } else {
        // No end-to-end time: the durations form would make one of the decode alone. The timestamps form
        // with the send time alone measures nothing; the decode it cannot see is set below.
        r.stamp(Stamp::ClientSend) = m.start;
        why = decompose(r);
        if (!why.empty())
            return why;
        if (isMeasured(m.decode)) {
            r.metrics.segments[static_cast<int>(Segment::Decode)] = m.decode;
            if (r.outputTokens >= 2)
                r.metrics.tpot = static_cast<std::int64_t>(
                    std::llround(static_cast<double>(m.decode) / static_cast<double>(r.outputTokens - 1)));
        }
    }
    RequestMetrics &metrics = r.metrics;
    metrics.ttft = m.ttft;
    if (isMeasured(m.ttft) && isMeasured(m.decode))
        metrics.ttlt = m.ttft + m.decode;
    if (isMeasured(m.ttft) && m.gaps) {
        std::int64_t t = (isMeasured(m.start) ? m.start : 0) + m.ttft;
        r.tokenTimes.push_back(t);
        for (std::int64_t gap : *m.gaps) {
            t += gap;
            r.tokenTimes.push_back(t);
        }
        if (!isMeasured(m.start))
            metrics.flags |= kFlagRelativeTime; // token times from the request's start, whose time is unknown
    }
    setClientScope(r);
    return {};
}

namespace {

class RefusalReader final : public TraceReader {
public:
    explicit RefusalReader(std::string_view message) : m_message(message) {}
    std::string read(LineReader &, ImportSink &) override { return m_message; }

private:
    std::string m_message;
};

} // namespace

std::unique_ptr<TraceReader> makeRefusal(std::string_view message) { return std::make_unique<RefusalReader>(message); }

} // namespace lx::bench
