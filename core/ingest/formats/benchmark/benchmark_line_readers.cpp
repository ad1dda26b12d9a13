// SPDX-License-Identifier: GPL-3.0-or-later
// The benchmark formats that hold one request per line: AIPerf's profile_export.jsonl (client measures
// with a send time), and the arrival-only workload traces of Azure (CSV) and Mooncake (JSON lines), which
// carry an arrival time and token counts but no latency at all.

#include "ingest/formats/benchmark/benchmark_common.h"
#include "ingest/formats/benchmark/benchmark_json_util.h"
#include "ingest/formats/benchmark/benchmark_readers_impl.h"
#include "analysis/decompose.h"
#include "ingest/line_reader.h"

#include <charconv>
#include <numeric>

namespace lx::bench {

namespace {

bool blank(std::string_view line) { return line.find_first_not_of(" \t") == std::string_view::npos; }

/// A metric's unit; AIPerf's latencies are in ms when it says nothing.
std::string_view unitOf(dom::object metric)
{
    std::string_view unit;
    const auto u = member(metric, "unit");
    if (!u || u->get_string().get(unit))
        return "ms";
    return unit;
}

/// An AIPerf metric {value, unit} as ns; kNotMeasured when absent or in an unknown unit.
std::int64_t metricNs(dom::object metrics, std::string_view key)
{
    const auto metric = member(metrics, key);
    dom::object o;
    if (!metric || metric->get_object().get(o))
        return kNotMeasured;
    const auto value = member(o, "value");
    const auto v = value ? numberOf(*value) : std::nullopt;
    const std::string_view unit = unitOf(o);
    const double factor = nsPerUnit(unit);
    return v && factor > 0 ? toNs(*v, factor) : kNotMeasured;
}

std::int64_t metricCount(dom::object metrics, std::string_view key)
{
    const auto metric = member(metrics, key);
    dom::object o;
    if (!metric || metric->get_object().get(o))
        return -1;
    const auto value = member(o, "value");
    const auto n = value ? integerOf(*value) : std::nullopt;
    return n && *n >= 0 ? *n : -1;
}

/// AIPerf's inter_chunk_latency: {value: [gaps], unit}. False when absent or not all numbers.
bool chunkGaps(dom::object metrics, std::vector<std::int64_t> &out)
{
    out.clear();
    const auto metric = member(metrics, "inter_chunk_latency");
    dom::object o;
    if (!metric || metric->get_object().get(o))
        return false;
    const std::string_view unit = unitOf(o);
    const double factor = nsPerUnit(unit);
    const auto values = member(o, "value");
    dom::array array;
    if (factor <= 0 || !values || values->get_array().get(array))
        return false;
    for (dom::element x : array) {
        const auto v = numberOf(x);
        const std::int64_t ns = v ? toNs(*v, factor) : kNotMeasured;
        if (!isMeasured(ns))
            return false;
        out.push_back(ns);
    }
    return true;
}

/// One JSON object per line, parsed with the DOM after making NaN/Infinity absent.
class JsonLinesBase : public TraceReader {
public:
    std::string read(LineReader &lines, ImportSink &sink) override
    {
        std::string_view line;
        std::int64_t lineNumber = 0;
        while (lines.next(line, lineNumber)) {
            if (blank(line))
                continue;
            if (!sink.keepGoing())
                break;
            RequestRecord &r = sink.slot();
            r.sourceLine = lineNumber;
            m_text.assign(line);
            nullifyNonFinite(m_text);
            dom::element doc;
            dom::object o;
            if (auto e = m_parser.parse(m_text).get(doc)) {
                sink.reject(lineNumber, std::string("malformed JSON: ") + simdjson::error_message(e), line);
                continue;
            }
            if (doc.get_object().get(o)) {
                sink.reject(lineNumber, "not a JSON object", line);
                continue;
            }
            finish(sink, r, readRecord(o, r), line);
        }
        return {};
    }

protected:
    virtual std::string readRecord(dom::object o, RequestRecord &r) = 0;

private:
    std::string m_text;
    dom::parser m_parser;
};

class AiperfReader final : public JsonLinesBase {
    std::string readRecord(dom::object o, RequestRecord &r) override
    {
        ClientMeasures m;
        dom::object meta;
        if (auto e = member(o, "metadata"); e && !e->get_object().get(meta)) {
            std::string_view id;
            if (auto x = member(meta, "x_request_id"); x && !x->get_string().get(id))
                r.id.assign(id);
            if (auto t = member(meta, "timestamp_ns"))
                m.start = integerOf(*t).value_or(kNotMeasured);
        }
        if (r.id.empty())
            r.id = std::to_string(r.sourceLine); // no request id: the line number is unique in the file
        if (auto e = member(o, "error")) {
            r.status = Status::Error;
            addAttribute(r, "error", *e);
        }
        dom::object metrics;
        if (auto e = member(o, "metrics"); e && !e->get_object().get(metrics)) {
            r.inputTokens = metricCount(metrics, "input_sequence_length");
            // output_sequence_length counts reasoning tokens too: every token the stream delivered.
            r.outputTokens = metricCount(metrics, "output_sequence_length");
            if (r.outputTokens < 0)
                r.outputTokens = metricCount(metrics, "output_token_count");
            m.ttft = metricNs(metrics, "ttft");
            m.e2e = metricNs(metrics, "request_latency");
            if (chunkGaps(metrics, m_gaps)) {
                m.decode = std::accumulate(m_gaps.begin(), m_gaps.end(), std::int64_t{0});
                m.gaps = &m_gaps;
            }
        }
        if (isMeasured(m.e2e) && isMeasured(m.decode) && m.e2e < m.decode)
            m.e2e = kNotMeasured; // inconsistent; the per-chunk measure is the direct one
        return buildClientRecord(r, m);
    }

    std::vector<std::int64_t> m_gaps;
};

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

} // namespace

/// "2023-11-16 18:17:03.9799600" (or with 'T', up to 9 fractional digits, an optional 'Z') as ns since the
/// epoch; no zone means UTC, as the Azure trace is. kNotMeasured when malformed.
std::int64_t parseUtcTimestamp(std::string_view s)
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
    const std::int64_t days = daysFromCivil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d));
    return ((days * 24 + h) * 60 + mi) * 60'000'000'000LL + sec * 1'000'000'000LL + frac;
}

namespace {

/// An arrival-only record: the send time alone, so decompose() measures nothing but the start.
std::string buildArrival(RequestRecord &r, std::int64_t arrival)
{
    r.stamp(Stamp::ClientSend) = arrival;
    std::string why = decompose(r);
    setClientScope(r);
    return why;
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
            if (blank(line))
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
            const std::int64_t arrival = parseUtcTimestamp(cell(timeCol));
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

class MooncakeReader final : public JsonLinesBase {
    std::string readRecord(dom::object o, RequestRecord &r) override
    {
        r.id = std::to_string(r.sourceLine);
        std::int64_t arrival = kNotMeasured;
        for (auto field : o) {
            const std::string_view key = field.key;
            if (key == "timestamp") {
                // Milliseconds from the start of the trace, whose date the trace does not say: stored as
                // ns from an origin of 0 and flagged as relative times (kFlagRelativeTime).
                if (auto ms = numberOf(field.value))
                    arrival = toNs(*ms, 1e6);
            } else if (key == "input_length") {
                r.inputTokens = integerOf(field.value).value_or(-1);
            } else if (key == "output_length") {
                r.outputTokens = integerOf(field.value).value_or(-1);
            } else {
                addAttribute(r, key, field.value); // hash_ids: the prompt's KV-cache blocks, for cache studies
            }
        }
        if (!isMeasured(arrival))
            return "timestamp: expected milliseconds from the start of the trace";
        std::string why = buildArrival(r, arrival);
        r.metrics.flags |= kFlagRelativeTime; // no date: time-based views say "from the trace's start"
        return why;
    }
};

} // namespace

std::unique_ptr<TraceReader> createAiperfReader() { return std::make_unique<AiperfReader>(); }
std::unique_ptr<TraceReader> createAzureReader() { return std::make_unique<AzureReader>(); }
std::unique_ptr<TraceReader> createMooncakeReader() { return std::make_unique<MooncakeReader>(); }

} // namespace lx::bench
