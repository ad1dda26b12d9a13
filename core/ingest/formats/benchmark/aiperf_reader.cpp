// SPDX-License-Identifier: GPL-3.0-or-later
// AIPerf's profile_export.jsonl: one request per line, client measures with a send time; its sniffer and
// its reader.

#include "ingest/formats/benchmark/benchmark_common.h"
#include "ingest/formats/benchmark/benchmark_json_util.h"
#include "ingest/formats/benchmark/benchmark_readers_impl.h"
#include "ingest/formats/benchmark/benchmark_json_lines.h"

#include "model/time_range.h"

#include <cmath>

namespace lx::bench {

namespace {

/// A metric's unit; AIPerf's latencies are in ms when it says nothing.
std::string_view unitOf(dom::object metric)
{
    std::string_view unit;
    const auto u = member(metric, "unit");
    if (!u || u->get_string().get(unit))
        return "ms";
    return unit;
}

/// An AIPerf metric {value, unit} as ns; kNotMeasured when absent or in an unknown unit, or out of range
/// (which `outOfRange` then says).
std::int64_t metricNs(dom::object metrics, std::string_view key, std::string &outOfRange)
{
    const auto metric = member(metrics, key);
    dom::object o;
    if (!metric || metric->get_object().get(o))
        return kNotMeasured;
    const auto value = member(o, "value");
    const auto v = value ? numberOf(*value) : std::nullopt;
    const std::string_view unit = unitOf(o);
    const double factor = nsPerUnit(unit);
    return v && factor > 0 ? toNs(*v, factor, key, &outOfRange) : kNotMeasured;
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

/// AIPerf's inter_chunk_latency: {value: [gaps], unit}. False when absent or not all numbers (or one out of
/// range, which `outOfRange` then says).
bool chunkGaps(dom::object metrics, std::vector<std::int64_t> &out, std::string &outOfRange)
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
        const std::int64_t ns = v ? toNs(*v, factor, "inter_chunk_latency", &outOfRange) : kNotMeasured;
        if (!isMeasured(ns))
            return false;
        out.push_back(ns);
    }
    return true;
}

class AiperfReader final : public JsonLinesBase {
    std::string readRecord(dom::object o, RequestRecord &r) override
    {
        ClientMeasures m;
        dom::object meta;
        if (auto e = member(o, "metadata"); e && !e->get_object().get(meta)) {
            std::string_view id;
            if (auto x = member(meta, "x_request_id"); x && !x->get_string().get(id))
                r.id.assign(id);
            if (auto t = member(meta, "timestamp_ns")) {
                const std::optional<double> number = numberOf(*t);
                m.start = integerOf(*t).value_or(kNotMeasured);
                if (number && !isMeasured(m.start) && *number == std::floor(*number))
                    return timeOutOfRange("timestamp_ns", numberText(*number)); // a whole number past int64
            }
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
            std::string outOfRange;
            m.ttft = metricNs(metrics, "ttft", outOfRange);
            m.e2e = metricNs(metrics, "request_latency", outOfRange);
            if (chunkGaps(metrics, m_gaps, outOfRange)) {
                m.decode = sumOfGaps(m_gaps);
                if (!isMeasured(m.decode))
                    return "inter_chunk_latency adds up to more than 292 years";
                m.gaps = &m_gaps;
            }
            if (!outOfRange.empty())
                return outOfRange;
        }
        if (isMeasured(m.e2e) && isMeasured(m.decode) && m.e2e < m.decode)
            m.e2e = kNotMeasured; // inconsistent; the per-chunk measure is the direct one
        return buildClientRecord(r, m);
    }

    std::vector<std::int64_t> m_gaps;
};

} // namespace

bool aiperfCanRead(std::string_view head)
{
    const std::string_view line = firstObjectLine(head);
    return hasKey(line, "metadata") && hasKey(line, "metrics")
           && (hasKey(line, "timestamp_ns") || hasKey(line, "x_request_id"));
}

std::unique_ptr<TraceReader> createAiperfReader(const ReaderOptions &) { return std::make_unique<AiperfReader>(); }

} // namespace lx::bench
