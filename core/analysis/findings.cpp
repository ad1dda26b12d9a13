// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/findings.h"

#include "analysis/knee_text.h"
#include "analysis/row_halves.h"
#include "model/decompose.h"
#include "model/duration_format.h"
#include "model/percentiles.h"
#include "model/rank_histogram.h"

#include <algorithm>
#include <cstdio>

namespace lx {

namespace {

struct Rule {
    const char *title;
    const char *fix;
};

/// The rules of docs/LOAD.md ("Findings"): the segment that dominates the slow requests, and what usually fixes it.
Rule ruleFor(Segment s)
{
    switch (s) {
    case Segment::Network: return {"Network dominates the slow requests", "serve from a closer region or the edge, reuse connections"};
    case Segment::Preprocess: return {"Preprocessing dominates the slow requests", "look at tokenizing, validation and routing before the engine"};
    case Segment::Queue: return {"Queueing dominates the slow requests", "add capacity, raise the batch size, or admit fewer requests"};
    case Segment::Prefill: return {"Prefill dominates the slow requests", "shorten the prompt, use prefix caching"};
    case Segment::Decode: return {"Decode dominates the slow requests", "a smaller model, output limits, speculative decoding"};
    case Segment::Postprocess: return {"Postprocessing dominates the slow requests", "fix the downstream call (retrieval, tools, formatting) after generation"};
    case Segment::Unattributed: return {"Unattributed time dominates the slow requests", "instrument the missing stamps: the time is between known ones"};
    }
    return {"", ""};
}

std::string percentText(double share)
{
    char text[16];
    std::snprintf(text, sizeof text, share > 0 && share < 0.01 ? "%.1f%%" : "%.0f%%", 100.0 * share); // 0.2%, not 0%
    return text;
}

/// A threshold the filter language reads back exactly: ns as ms with six decimals, trailing zeros cut.
std::string exactMs(std::int64_t ns)
{
    return jsonNumber(static_cast<double>(ns) / 1e6, 6) + "ms";
}

/// What one pass over the rows counts for the findings: every request, and those of the tail (e2e above
/// the cut). Tallies of parts of the rows (the halves of row_halves.h) add up. The sums are exact, as the
/// load windows' are: those over every request may be theirs added up (WindowRowTallies).
struct TailTally {
    std::int64_t total = 0, errors = 0, skewed = 0;
    std::int64_t tail = 0, tailSkewed = 0;
    std::array<std::int64_t, kSegmentCount> dominated {}, dominatedUnmapped {};
    WindowSums allSums, tailSums;

    /// `everyRow`: count what every request adds too, which the windows' tallies hold when there are some.
    void add(const LatencyRow &r, std::int64_t cut, bool includeErrors, bool everyRow)
    {
        if (everyRow) {
            ++total;
            errors += r.ok ? 0 : 1;
            skewed += (r.flags & kFlagClockSkew) ? 1 : 0;
        }
        if (!inLatencyStats(r, includeErrors))
            return;
        if (everyRow)
            allSums.add(r);
        if (r.e2e <= cut)
            return;
        ++tail;
        tailSums.add(r);
        tailSkewed += (r.flags & kFlagClockSkew) ? 1 : 0;
        if (const int d = dominantSegment(r.segments); d >= 0) {
            ++dominated[static_cast<std::size_t>(d)];
            dominatedUnmapped[static_cast<std::size_t>(d)] += (r.flags & kFlagUnmappedSpan) ? 1 : 0;
        }
    }
    void add(const TailTally &o)
    {
        total += o.total;
        errors += o.errors;
        skewed += o.skewed;
        tail += o.tail;
        tailSkewed += o.tailSkewed;
        allSums.add(o.allSums);
        tailSums.add(o.tailSums);
        for (std::size_t s = 0; s < kSegmentCount; ++s) {
            dominated[s] += o.dominated[s];
            dominatedUnmapped[s] += o.dominatedUnmapped[s];
        }
    }
    /// Takes what every request adds from the windows' tallies of the same rows.
    void takeEveryRow(const WindowRowTallies &windows)
    {
        total = static_cast<std::int64_t>(windows.rows);
        errors = windows.errors;
        skewed = windows.skewed;
        allSums = windows.outside;
        for (const WindowSums &sums : windows.sums)
            allSums.add(sums);
    }
};

} // namespace

std::vector<Finding> findFindings(std::span<const LatencyRow> rows, const LoadAnalysis *load,
                                  const FindingsOptions &options)
{
    std::vector<Finding> out;
    // Read in place: a copy of every e2e was 80 MB at 10M requests, beside the rows, at a report's peak.
    const std::optional<double> threshold = options.tailThresholdNs
        ? *options.tailThresholdNs
        : summarizeHalvesInPlace(
              rows,
              [&](std::size_t, const LatencyRow &r, auto &&take) {
                  if (inLatencyStats(r, options.includeErrors))
                      take(r.e2e);
              },
              { options.tailPercentile }, options.twoThreadsFrom)
              .percentilesNs[0];
    // e2e is whole ns, so e2e > p90 is e2e > floor(p90): a threshold the filter reads back exactly. Without
    // one (no e2e measured) the pass still counts the errors and the skew, and nothing is in the tail.
    const std::int64_t cut = threshold ? static_cast<std::int64_t>(*threshold) : INT64_MAX;
    // What every request adds is the load windows' when they were counted over these rows: the pass then
    // reads the tail alone.
    const WindowRowTallies *windows = options.windowTallies.get();
    if (windows && !windows->describe(rows, options.includeErrors))
        windows = nullptr;
    std::array<TailTally, 2> halves;
    tallyHalves(
        rows, halves,
        [&](TailTally &t, std::size_t, const LatencyRow &r) { t.add(r, cut, options.includeErrors, !windows); },
        options.twoThreadsFrom);
    halves[0].add(halves[1]);
    if (windows)
        halves[0].takeEveryRow(*windows);
    const TailTally &t = halves[0];
    const std::int64_t total = t.total, errors = t.errors, skewed = t.skewed, tail = t.tail, tailSkewed = t.tailSkewed;
    const std::string statusClause = options.includeErrors ? "" : "status = ok and ";
    if (threshold) {
        const auto &dominated = t.dominated, &dominatedUnmapped = t.dominatedUnmapped;
        std::array<double, kSegmentCount> tailTime, allTime;
        for (std::size_t s = 0; s < kSegmentCount; ++s) {
            tailTime[s] = t.tailSums.parts[s].value();
            allTime[s] = t.allSums.parts[s].value();
        }
        const double tailE2e = t.tailSums.e2e.value(), allE2e = t.allSums.e2e.value();
        const std::string tailName = "the " + std::to_string(tail) + " requests above p" + jsonNumber(options.tailPercentile, 3)
                                     + " (e2e > " + formatDuration(static_cast<double>(cut)) + ")";
        for (int s = 0; s < kSegmentCount && tail > 0; ++s) {
            const double share = static_cast<double>(dominated[static_cast<std::size_t>(s)]) / static_cast<double>(tail);
            if (share < options.minTailShare || dominated[static_cast<std::size_t>(s)] == 0)
                continue;
            const auto seg = static_cast<Segment>(s);
            const std::string name(segmentName(seg));
            Finding f;
            f.id = name;
            f.title = ruleFor(seg).title;
            f.fix = ruleFor(seg).fix;
            f.count = dominated[static_cast<std::size_t>(s)];
            f.tailShare = share;
            f.evidence = name + " is the largest segment of " + std::to_string(f.count) + " of " + tailName + ", "
                         + percentText(share) + "; it takes " + percentText(tailTime[static_cast<std::size_t>(s)] / tailE2e)
                         + " of their e2e time against " + percentText(allE2e > 0 ? allTime[static_cast<std::size_t>(s)] / allE2e : 0)
                         + " over all requests";
            // A segment that is the largest of most slow requests, yet a smaller share of their time than of
            // everyone's, is not what made them slow: name the segment whose share grew most in the tail.
            const auto shareOf = [&](int k, bool inTail) {
                const double whole = inTail ? tailE2e : allE2e;
                return whole > 0 ? (inTail ? tailTime : allTime)[static_cast<std::size_t>(k)] / whole : 0.0;
            };
            int grown = -1;
            for (int k = 0; k < kSegmentCount; ++k)
                if (k != s && shareOf(k, true) > shareOf(k, false)
                    && (grown < 0
                        || shareOf(k, true) - shareOf(k, false) > shareOf(grown, true) - shareOf(grown, false)))
                    grown = k;
            if (shareOf(s, true) < shareOf(s, false) && grown >= 0)
                f.evidence += "; its share is smaller in the tail than over all requests, where "
                    + std::string(segmentName(static_cast<Segment>(grown))) + " grows from "
                    + percentText(shareOf(grown, false)) + " to " + percentText(shareOf(grown, true))
                    + " of the e2e time";
            if (seg == Segment::Queue && load && load->knee) {
                // The knee is the server's capacity: where the offered load passed it, and when.
                f.evidence += "; the load passes the knee near " + kneeText(*load->knee) + ", first at "
                              + formatTimestamp(load->knee->timeNs, 0);
            }
            const std::int64_t unmapped = dominatedUnmapped[static_cast<std::size_t>(s)];
            if (seg == Segment::Unattributed && unmapped * 2 >= f.count) {
                // Spans that no mapping claimed are unattributed whole: no stamp is missing, the mapping is.
                f.title = "No span mapping claimed the slow requests' spans";
                f.fix = "choose a span mapping (File ▸ OTLP Span Mapping, or --mapping): each root span is now a request "
                        "whose time is all unattributed";
                f.evidence += "; " + std::to_string(unmapped) + " of them are spans that no mapping claimed";
            }
            f.filter = statusClause + "dominant = " + name + " and e2e > " + exactMs(cut);
            out.push_back(std::move(f));
        }
        if (tailSkewed > 0 || skewed > 0) {
            Finding f;
            f.id = "clock_skew";
            f.title = "Client and server clocks disagree";
            f.fix = "synchronise the clocks (NTP/PTP); until then their network time is left out of the statistics";
            f.count = skewed;
            f.tailShare = tail > 0 ? static_cast<double>(tailSkewed) / static_cast<double>(tail) : 0;
            f.evidence = std::to_string(skewed) + " of " + std::to_string(total) + " requests have a negative network time ("
                         + percentText(static_cast<double>(skewed) / static_cast<double>(total)) + ")";
            f.filter = "skew";
            out.push_back(std::move(f));
        }
    }
    if (errors > 0) {
        Finding f;
        f.id = "errors";
        f.title = "Requests failed";
        f.fix = "look at the error requests' stage: a failure in preprocess never reached the engine";
        f.count = errors;
        f.evidence = std::to_string(errors) + " of " + std::to_string(total) + " requests are errors ("
                     + percentText(static_cast<double>(errors) / static_cast<double>(total)) + ")"
                     + (options.includeErrors ? ", counted in the latency statistics" : ", outside the latency statistics");
        f.filter = "status = error";
        out.push_back(std::move(f));
    }
    std::stable_sort(out.begin(), out.end(), [](const Finding &a, const Finding &b) { return a.tailShare > b.tailShare; });
    return out;
}

} // namespace lx
