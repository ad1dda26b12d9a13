// SPDX-License-Identifier: GPL-3.0-or-later
// The benchmark outputs that are one JSON document: vLLM `bench serve --save-detailed` (column arrays,
// one request per index) and LLMPerf `*_individual_responses.json` (an array of objects). Neither has
// request ids: the id is the 0-based index. LLMPerf has no start times; vLLM writes `start_times` since
// 2025 (its client's time.perf_counter() at the send: a monotonic clock without a date); for an older
// result the sends are rebuilt from its request_rate, burstiness and max_concurrency (vllm_sends.h), and
// the import says so. Their sniffers are at the end.

#include "ingest/formats/benchmark/benchmark_common.h"
#include "ingest/formats/benchmark/benchmark_json_util.h"
#include "ingest/formats/benchmark/benchmark_readers_impl.h"
#include "ingest/formats/benchmark/vllm_sends.h"
#include "ingest/line_reader.h"

#include "model/decompose.h"

#include <algorithm>
#include <limits>

namespace lx::bench {

namespace {

/// Reads the input, makes Python's NaN/Infinity absent, and parses it; the fatal error or empty.
std::string parseDocument(LineReader &lines, std::string &text, dom::parser &parser, dom::element &doc, std::size_t maxBytes)
{
    std::string error;
    if (!readDocument(lines, text, &error, maxBytes))
        return error;
    nullifyNonFinite(text);
    if (auto e = parser.parse(text).get(doc))
        return std::string("malformed JSON: ") + simdjson::error_message(e);
    return {};
}

std::string recordText(std::size_t index) { return "record " + std::to_string(index); }

/// Converts a list of gaps in seconds; false when one is not a number (the list is then unusable) or out of
/// range (which `outOfRange` then says).
bool gapsOf(std::optional<dom::element> e, std::vector<std::int64_t> &out, std::string &outOfRange)
{
    out.clear();
    dom::array array;
    if (!e || e->get_array().get(array))
        return false;
    for (dom::element x : array) {
        const std::optional<double> s = numberOf(x);
        const std::int64_t ns = s ? secondsToNs(*s, "itls", &outOfRange) : kNotMeasured;
        if (!isMeasured(ns))
            return false;
        out.push_back(ns);
    }
    return true;
}

std::optional<dom::element> at(const std::vector<dom::element> &column, std::size_t i)
{
    if (i >= column.size() || column[i].is_null())
        return std::nullopt;
    return column[i];
}

std::int64_t secondsAt(const std::vector<dom::element> &column, std::size_t i, std::string_view field, std::string &outOfRange)
{
    const auto e = at(column, i);
    const auto s = e ? numberOf(*e) : std::nullopt;
    return s ? secondsToNs(*s, field, &outOfRange) : kNotMeasured;
}

std::int64_t tokensAt(const std::vector<dom::element> &column, std::size_t i)
{
    const auto e = at(column, i);
    const auto n = e ? integerOf(*e) : std::nullopt;
    return n && *n >= 0 ? *n : -1;
}

class VllmDetailedReader final : public TraceReader {
public:
    explicit VllmDetailedReader(std::size_t maxDocumentBytes) : m_maxBytes(maxDocumentBytes) {}

    std::string read(LineReader &lines, ImportSink &sink) override
    {
        dom::element doc;
        if (std::string why = parseDocument(lines, m_text, m_parser, doc, m_maxBytes); !why.empty())
            return why;
        dom::object root;
        if (doc.get_object().get(root))
            return "not a vLLM benchmark result: expected a JSON object";
        const auto ttfts = elementsOf(member(root, "ttfts"));
        if (!member(root, "ttfts"))
            return std::string(kVllmSummaryMessage);
        const auto itls = elementsOf(member(root, "itls"));
        const auto inputs = elementsOf(member(root, "input_lens"));
        const auto outputs = elementsOf(member(root, "output_lens"));
        const auto errors = elementsOf(member(root, "errors"));
        // Newer vLLM writes per-request end-to-end times as "e2els", some forks as "latencies".
        auto e2es = elementsOf(member(root, "e2els"));
        if (e2es.empty())
            e2es = elementsOf(member(root, "latencies"));
        const auto starts = elementsOf(member(root, "start_times"));
        std::vector<std::int64_t> rebuilt;
        if (starts.empty()) {
            if (std::optional<VllmSendPlan> plan = sendPlanOf(root)) {
                rebuilt = rebuildVllmSends(*plan, durations(ttfts, itls, e2es, errors));
                m_notice = rebuiltSendsNotice(*plan);
            }
        }
        std::vector<std::int64_t> gaps;
        for (std::size_t i = 0; i < ttfts.size(); ++i) {
            if (!sink.keepGoing())
                break;
            RequestRecord &r = sink.slot();
            r.id = std::to_string(i);
            r.sourceLine = static_cast<std::int64_t>(i) + 1;
            r.inputTokens = tokensAt(inputs, i);
            r.outputTokens = tokensAt(outputs, i);
            std::string_view error;
            if (auto e = at(errors, i); e && !e->get_string().get(error) && !error.empty()) {
                r.status = Status::Error;
                addAttributeText(r, "error", error);
            }
            ClientMeasures m;
            std::string outOfRange;
            // vLLM leaves a failed request's ttft at 0 and its itls empty: those are no measurements.
            m.start = i < rebuilt.size() ? rebuilt[i] : secondsAt(starts, i, "start_times", outOfRange);
            if (r.status == Status::Ok) {
                m.ttft = secondsAt(ttfts, i, "ttfts", outOfRange);
                if (gapsOf(at(itls, i), gaps, outOfRange)) {
                    m.decode = sumOfGaps(gaps);
                    if (!isMeasured(m.decode) && outOfRange.empty())
                        outOfRange = "itls add up to more than 292 years";
                    m.gaps = &gaps;
                }
                m.e2e = secondsAt(e2es, i, "e2els", outOfRange);
                if (!isMeasured(m.e2e) && isMeasured(m.ttft) && isMeasured(m.decode) && m.ttft <= kMaxRecordSpanNs
                    && m.decode <= kMaxRecordSpanNs)
                    m.e2e = m.ttft + m.decode; // vLLM's own e2e when it saved none: the last chunk's arrival
            }
            std::string why = outOfRange.empty() ? buildClientRecord(r, m) : outOfRange;
            if (why.empty() && isMeasured(m.start))
                r.metrics.flags |= kFlagRelativeTime; // perf_counter(): the sends' order and gaps, no date
            finish(sink, r, why, recordText(i));
        }
        return {};
    }

    std::string notice() const override { return m_notice; }

private:
    /// How the run sent its requests, from its request_rate ("inf" or a number), burstiness and
    /// max_concurrency; nullopt without a request_rate (not a result of vLLM's serving benchmark).
    static std::optional<VllmSendPlan> sendPlanOf(dom::object root)
    {
        dom::element rate;
        if (root.at_key("request_rate").get(rate))
            return std::nullopt;
        VllmSendPlan plan;
        std::string_view text;
        if (rate.is_null()) // json.dump writes a float inf as Infinity, which reads as null (nullifyNonFinite)
            plan.rate = std::numeric_limits<double>::infinity();
        else if (!rate.get_string().get(text))
            plan.rate = text == "inf" || text == "Infinity" ? std::numeric_limits<double>::infinity() : 0;
        else if (auto r = numberOf(rate))
            plan.rate = *r;
        if (!(plan.rate > 0))
            return std::nullopt;
        if (const auto b = member(root, "burstiness"); b && numberOf(*b) && *numberOf(*b) > 0)
            plan.burstiness = *numberOf(*b);
        if (const auto c = member(root, "max_concurrency"); c && integerOf(*c) && *integerOf(*c) > 0)
            plan.maxConcurrency = static_cast<int>(std::min<std::int64_t>(*integerOf(*c), 1'000'000));
        return plan;
    }

    /// Each request's time from its send to its end, as the client's semaphore saw it: the saved latency,
    /// else TTFT plus the chunk gaps; 0 for a failed or unmeasured one.
    static std::vector<std::int64_t> durations(const std::vector<dom::element> &ttfts, const std::vector<dom::element> &itls,
                                               const std::vector<dom::element> &e2es, const std::vector<dom::element> &errors)
    {
        std::vector<std::int64_t> out(ttfts.size(), 0), gaps;
        for (std::size_t i = 0; i < ttfts.size(); ++i) {
            std::string_view error;
            if (auto e = at(errors, i); e && !e->get_string().get(error) && !error.empty())
                continue;
            std::string outOfRange;
            std::int64_t e2e = secondsAt(e2es, i, "e2els", outOfRange);
            if (!isMeasured(e2e) || e2e <= 0) {
                const std::int64_t ttft = secondsAt(ttfts, i, "ttfts", outOfRange);
                const std::int64_t decode = gapsOf(at(itls, i), gaps, outOfRange) ? sumOfGaps(gaps) : kNotMeasured;
                const bool fits = isMeasured(ttft) && isMeasured(decode) && ttft <= kMaxRecordSpanNs && decode <= kMaxRecordSpanNs;
                e2e = fits ? ttft + decode : 0;
            }
            out[i] = outOfRange.empty() && e2e > 0 && e2e <= kMaxRecordSpanNs ? e2e : 0;
        }
        return out;
    }

    std::size_t m_maxBytes;
    std::string m_text;
    dom::parser m_parser;
    std::string m_notice;
};

class LlmperfReader final : public TraceReader {
public:
    explicit LlmperfReader(std::size_t maxDocumentBytes) : m_maxBytes(maxDocumentBytes) {}

    std::string read(LineReader &lines, ImportSink &sink) override
    {
        dom::element doc;
        if (std::string why = parseDocument(lines, m_text, m_parser, doc, m_maxBytes); !why.empty())
            return why;
        dom::array records;
        if (doc.get_array().get(records))
            return "not LLMPerf individual responses: expected a JSON array of objects";
        std::size_t i = 0;
        for (dom::element element : records) {
            if (!sink.keepGoing())
                break;
            RequestRecord &r = sink.slot();
            r.id = std::to_string(i);
            r.sourceLine = static_cast<std::int64_t>(i) + 1;
            dom::object o;
            if (element.get_object().get(o)) {
                sink.reject(r.sourceLine, "not a JSON object", recordText(i++));
                continue;
            }
            finish(sink, r, readRecord(o, r), simdjson::minify(element));
            ++i;
        }
        return {};
    }

private:
    static std::string readRecord(dom::object o, RequestRecord &r)
    {
        std::string outOfRange;
        const auto tokens = [&o](std::string_view key) {
            const auto e = member(o, key);
            const auto n = e ? integerOf(*e) : std::nullopt;
            return n && *n >= 0 ? *n : std::int64_t{-1};
        };
        const auto seconds = [&o, &outOfRange](std::string_view key) {
            const auto e = member(o, key);
            const auto s = e ? numberOf(*e) : std::nullopt;
            return s ? secondsToNs(*s, key, &outOfRange) : kNotMeasured;
        };
        r.inputTokens = tokens("number_input_tokens");
        r.outputTokens = tokens("number_output_tokens");
        std::string_view message;
        if (auto code = member(o, "error_code")) {
            r.status = Status::Error;
            addAttribute(r, "error_code", *code);
        }
        if (auto msg = member(o, "error_msg"); msg && !msg->get_string().get(message) && !message.empty()) {
            r.status = Status::Error;
            addAttributeText(r, "error", message);
        }
        // LLMPerf's own "inter token latency" averages over all tokens including the first (TTFT):
        // kept for reference, not as our TPOT (docs/BENCHMARKS.md).
        if (auto itl = member(o, "inter_token_latency_s"))
            addAttribute(r, "llmperf_inter_token_latency_s", *itl);
        ClientMeasures m;
        if (r.status == Status::Ok) {
            m.ttft = seconds("ttft_s");
            m.e2e = seconds("end_to_end_latency_s");
            // No chunk times: decode is everything after the first token, so TPOT = (e2e - TTFT) / (out - 1).
            if (isMeasured(m.ttft) && isMeasured(m.e2e) && m.e2e >= m.ttft && m.ttft >= 0)
                m.decode = m.e2e - m.ttft;
        }
        if (!outOfRange.empty())
            return outOfRange;
        return buildClientRecord(r, m);
    }

    std::size_t m_maxBytes;
    std::string m_text;
    dom::parser m_parser;
};

} // namespace

void finish(ImportSink &sink, RequestRecord &record, const std::string &why, std::string_view raw)
{
    if (why.empty())
        sink.accept(raw);
    else
        sink.reject(record.sourceLine, why, raw);
}

bool vllmDetailedCanRead(std::string_view head)
{
    // json.dump writes the whole result on one line; the column arrays may start past the head when the
    // run had many prompts (or its keys were sorted, "errors" first), so the run's own keys count too.
    return startsWith(head, '{')
           && (hasKey(head, "ttfts") || hasKey(head, "input_lens")
               || (hasKey(head, "backend") && hasKey(head, "num_prompts") && hasKey(head, "model_id"))
               || (hasKey(head, "backend") && (hasKey(head, "burstiness") || hasKey(head, "request_rate"))));
}

bool llmperfCanRead(std::string_view head)
{
    return startsWith(head, '[') && hasKey(head, "ttft_s") && hasKey(head, "end_to_end_latency_s");
}

std::unique_ptr<TraceReader> createVllmDetailedReader(const ReaderOptions &options)
{
    return std::make_unique<VllmDetailedReader>(options.maxDocumentBytes);
}
std::unique_ptr<TraceReader> createLlmperfReader(const ReaderOptions &options)
{
    return std::make_unique<LlmperfReader>(options.maxDocumentBytes);
}

} // namespace lx::bench
