// SPDX-License-Identifier: GPL-3.0-or-later
// The Mooncake trace: JSON lines of timestamp (ms from the trace's start), input_length, output_length and
// hash_ids; its sniffer and its reader.

#include "ingest/formats/workload/workload_readers.h"

#include "ingest/formats/benchmark/benchmark_json_lines.h"

namespace lx::workload {

using namespace bench;

namespace {

class MooncakeReader final : public JsonLinesBase {
    std::string readRecord(dom::object o, RequestRecord &r) override
    {
        r.id = std::to_string(r.sourceLine);
        std::int64_t arrival = kNotMeasured;
        std::string outOfRange;
        for (auto field : o) {
            const std::string_view key = field.key;
            if (key == "timestamp") {
                // Milliseconds from the start of the trace, whose date the trace does not say: stored as
                // ns from an origin of 0 and flagged as relative times (kFlagRelativeTime).
                if (auto ms = numberOf(field.value))
                    arrival = toNs(*ms, 1e6, "timestamp", &outOfRange);
            } else if (key == "input_length") {
                r.inputTokens = integerOf(field.value).value_or(-1);
            } else if (key == "output_length") {
                r.outputTokens = integerOf(field.value).value_or(-1);
            } else {
                addAttribute(r, key, field.value); // hash_ids: the prompt's KV-cache blocks, for cache studies
            }
        }
        if (!outOfRange.empty())
            return outOfRange;
        if (!isMeasured(arrival))
            return "timestamp: expected milliseconds from the start of the trace";
        std::string why = buildArrival(r, arrival);
        r.metrics.flags |= kFlagRelativeTime; // no date: time-based views say "from the trace's start"
        return why;
    }
};

} // namespace

bool mooncakeCanRead(std::string_view head)
{
    const std::string_view line = firstObjectLine(head);
    return hasKey(line, "timestamp") && hasKey(line, "input_length") && hasKey(line, "output_length");
}

std::unique_ptr<TraceReader> createMooncakeReader(const ReaderOptions &) { return std::make_unique<MooncakeReader>(); }

} // namespace lx::workload
