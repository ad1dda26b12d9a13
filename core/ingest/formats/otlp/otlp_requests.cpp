// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/formats/otlp/otlp_requests.h"

#include "model/decompose.h"
#include "model/time_range.h"
#include "ingest/formats/native/native_fields.h"
#include "ingest/formats/otlp/otlp_duration_string.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace lx {

using otlp::Span;

namespace {

constexpr std::size_t kNone = std::size_t(-1);

/// The spans of one batch linked into trees.
struct SpanTree {
    const std::vector<Span> &spans;
    std::vector<std::size_t> parent;
    std::vector<std::vector<std::size_t>> children;

    explicit SpanTree(const std::vector<Span> &all) : spans(all), parent(all.size(), kNone), children(all.size())
    {
        std::unordered_map<std::string, std::size_t> byId;
        byId.reserve(spans.size());
        for (std::size_t i = 0; i < spans.size(); ++i)
            byId.emplace(spans[i].traceId + spans[i].spanId, i);
        for (std::size_t i = 0; i < spans.size(); ++i) {
            if (spans[i].parentId.empty())
                continue;
            const auto it = byId.find(spans[i].traceId + spans[i].parentId);
            if (it != byId.end() && it->second != i) {
                parent[i] = it->second;
                children[it->second].push_back(i);
            }
        }
    }

    /// The descendants of `root` in breadth-first order; bounded, so that a parent cycle cannot hang it.
    std::vector<std::size_t> descendants(std::size_t root) const
    {
        std::vector<std::size_t> out;
        for (std::size_t c : children[root])
            out.push_back(c);
        for (std::size_t k = 0; k < out.size() && out.size() <= spans.size(); ++k) {
            for (std::size_t c : children[out[k]]) {
                if (c != root)
                    out.push_back(c);
            }
        }
        return out;
    }

    bool matches(const SpanSelector &s, std::size_t i, const Span *root) const
    {
        const Span &span = spans[i];
        if (!s.names.empty() && std::find(s.names.begin(), s.names.end(), span.name) == s.names.end())
            return false;
        if (!s.attribute.empty() && !span.attribute(s.attribute))
            return false;
        if (!s.attributePrefix.empty() && !span.hasAttributePrefix(s.attributePrefix))
            return false;
        if (s.kind >= 0 && span.kind != s.kind)
            return false;
        if (s.noParent && parent[i] != kNone)
            return false;
        if (s.otherService && (!root || span.service == root->service))
            return false;
        if (!s.childNames.empty()) {
            bool found = false;
            for (std::size_t c : children[i])
                found = found || std::find(s.childNames.begin(), s.childNames.end(), spans[c].name) != s.childNames.end();
            if (!found)
                return false;
        }
        return true;
    }

    bool matchesAny(const std::vector<SpanSelector> &selectors, std::size_t i, const Span *root) const
    {
        for (const SpanSelector &s : selectors) {
            if (matches(s, i, root))
                return true;
        }
        return false;
    }
};

/// One source's outcome: a measurement, nothing (try the next source), or a reason to reject.
struct Measured {
    std::int64_t ns = kNotMeasured;
    std::string error;
};

Measured attributeNs(const Span &span, const SegmentSource &source)
{
    const otlp::AttributeValue *value = span.attribute(source.attribute);
    if (!value)
        return {};
    if (source.unit == ValueUnit::DurationString) {
        const auto ns = otlp::parseDurationString(value->text);
        if (!ns)
            return {kNotMeasured, source.attribute + " \"" + value->text.substr(0, 40)
                                      + "\" is not a duration such as \"12.3ms\", \"1.2s\" or \"450µs\""};
        return {*ns, {}};
    }
    if (!value->number)
        return {kNotMeasured, source.attribute + " is not a number"};
    static constexpr double kScale[] = {1e9, 1e6, 1e3, 1};
    const double ns = *value->number * kScale[static_cast<int>(source.unit)];
    if (!std::isfinite(ns) || ns < 0)
        return {kNotMeasured, source.attribute + " is negative or not finite"};
    const std::optional<std::int64_t> checked = scaledToNs(*value->number, kScale[static_cast<int>(source.unit)]);
    if (!checked)
        return {kNotMeasured, durationOutOfRange(source.attribute, numberText(*value->number))};
    return {*checked, {}};
}

/// What one mapping measures of one request.
class MappedRequest {
public:
    MappedRequest(const SpanTree &tree, std::size_t root, const SpanMapping &mapping)
        : m_tree(tree), m_root(tree.spans[root]), m_mapping(mapping)
    {
        m_inner = &m_root;
        if (mapping.inner.empty())
            return;
        const std::vector<std::size_t> below = tree.descendants(root);
        m_descendants = below;
        // Selectors in their order of preference, each over the spans in breadth-first order.
        for (const SpanSelector &selector : mapping.inner) {
            for (std::size_t d : below) {
                if (tree.matches(selector, d, &m_root)) {
                    m_inner = &tree.spans[d];
                    m_innerFound = true;
                    return;
                }
            }
        }
    }

    const Span &inner() const { return *m_inner; }

    /// Fills `in` (segments and e2e); returns why the request must be rejected, or empty.
    std::string measure(DurationsInput &in, std::string &e2eName)
    {
        if (m_descendants.empty() && needsDescendants())
            m_descendants = m_tree.descendants(static_cast<std::size_t>(&m_root - m_tree.spans.data()));
        // Segments without subtractions first: the others subtract them.
        for (int pass = 0; pass < 2; ++pass) {
            for (int s = 0; s < kMappedSegments; ++s) {
                const auto &sources = m_mapping.segments[s];
                const bool subtracts = std::any_of(sources.begin(), sources.end(), [](const SegmentSource &x) { return !x.minus.empty(); });
                if (subtracts != (pass == 1))
                    continue;
                for (const SegmentSource &source : sources) {
                    Measured m = evaluate(source, in);
                    if (!m.error.empty())
                        return m.error;
                    if (isMeasured(m.ns)) {
                        in.segments[s] = m.ns;
                        break;
                    }
                }
            }
        }
        for (const SegmentSource &source : m_mapping.e2e) {
            Measured m = evaluate(source, in);
            if (!m.error.empty())
                return m.error;
            if (isMeasured(m.ns)) {
                in.e2e = m.ns;
                e2eName = source.kind == SegmentSource::Kind::Attribute ? source.attribute : "the e2e source";
                return {};
            }
        }
        in.e2e = m_root.durationNs();
        e2eName = "the span's duration";
        return {};
    }

private:
    bool needsDescendants() const
    {
        const auto sumsSpans = [](const std::vector<SegmentSource> &sources) {
            return std::any_of(sources.begin(), sources.end(),
                               [](const SegmentSource &source) { return source.kind == SegmentSource::Kind::Spans; });
        };
        // The e2e's sources too: an e2e summed from spans measured nothing, and fell back to the span's duration.
        return sumsSpans(m_mapping.e2e) || std::any_of(m_mapping.segments.begin(), m_mapping.segments.end(), sumsSpans);
    }

    Measured evaluate(const SegmentSource &source, const DurationsInput &in) const
    {
        switch (source.kind) {
        case SegmentSource::Kind::Attribute: {
            Measured m = attributeNs(source.onRoot ? m_root : *m_inner, source);
            if (!isMeasured(m.ns))
                return m;
            for (int s : source.minus) {
                if (!isMeasured(in.segments[s]))
                    return {};
                m.ns -= in.segments[s];
            }
            // A negative rest means the parts were measured on different clocks: "not measured", not a guess.
            return m.ns >= 0 ? m : Measured{};
        }
        case SegmentSource::Kind::Spans: {
            std::int64_t sum = 0;
            bool any = false;
            for (std::size_t d : m_descendants) {
                const Span &span = m_tree.spans[d];
                if (std::find(source.spanNames.begin(), source.spanNames.end(), span.name) == source.spanNames.end())
                    continue;
                if (!isMeasured(span.durationNs()))
                    return {}; // a named span of unknown length (Zipkin): the sum would be a guess
                const std::optional<std::int64_t> more = checkedAdd(sum, span.durationNs());
                if (!more)
                    return {kNotMeasured, "the spans named for a segment add up to more than 292 years"};
                sum = *more;
                any = true;
            }
            return any ? Measured{sum, {}} : Measured{};
        }
        case SegmentSource::Kind::BeforeInner:
        case SegmentSource::Kind::AfterInner: {
            if (!m_innerFound)
                return {};
            const bool known = source.kind == SegmentSource::Kind::BeforeInner
                                   ? isMeasured(m_inner->startNs) && isMeasured(m_root.startNs)
                                   : isMeasured(m_inner->endNs) && isMeasured(m_root.endNs);
            if (!known)
                return {};
            const std::int64_t gap = source.kind == SegmentSource::Kind::BeforeInner ? m_inner->startNs - m_root.startNs
                                                                                     : m_root.endNs - m_inner->endNs;
            return gap >= 0 ? Measured{gap, {}} : Measured{};
        }
        }
        return {};
    }

    const SpanTree &m_tree;
    const Span &m_root;
    const SpanMapping &m_mapping;
    const Span *m_inner = nullptr;
    bool m_innerFound = false;
    std::vector<std::size_t> m_descendants;
};

/// Why each span without id must be rejected (empty: it may stay). Its id was needed only if it is the
/// parent of a span of its trace whose parent cannot be found: then the tree cannot be put together, and
/// taking that span for a root of its own would count its time twice or lose it.
std::vector<std::string> unlinkableSpans(const SpanTree &tree)
{
    const std::vector<Span> &spans = tree.spans;
    std::vector<std::string> why(spans.size());
    if (std::none_of(spans.begin(), spans.end(), [](const Span &s) { return s.idMadeUp; }))
        return why;
    // Per trace, up to two spans whose parent is not here: a span never needs itself as parent.
    std::unordered_map<std::string_view, std::pair<std::size_t, std::size_t>> lost;
    for (std::size_t i = 0; i < spans.size(); ++i) {
        if (spans[i].parentId.empty() || tree.parent[i] != kNone)
            continue;
        auto [it, added] = lost.try_emplace(spans[i].traceId, i, kNone);
        if (!added && it->second.second == kNone)
            it->second.second = i;
    }
    for (std::size_t i = 0; i < spans.size(); ++i) {
        const auto it = spans[i].idMadeUp ? lost.find(spans[i].traceId) : lost.end();
        if (it == lost.end())
            continue;
        const std::size_t orphan = it->second.first != i ? it->second.first : it->second.second;
        if (orphan == kNone)
            continue;
        why[i] = "no span id, and span \"" + spans[orphan].name + "\" of its trace names a parent (" + spans[orphan].parentId
                 + ") that is not in the file: it may be this span, so the trace cannot be linked";
    }
    return why;
}

void appendAttribute(std::string &json, std::string_view key, std::string_view value)
{
    appendJsonKey(json, key);
    appendJsonString(json, value);
}

/// One request span in the durations form (docs/OTLP.md); `mapping` null for a span no mapping claims,
/// whose whole duration is unattributed.
std::string fill(const SpanTree &tree, std::size_t root, const SpanMapping *mapping, RequestRecord &record)
{
    const Span &span = tree.spans[root];
    DurationsInput in;
    in.startNs = span.startNs;
    in.e2e = span.durationNs();
    std::string e2eName = "the span's duration";
    const Span *inner = &span;
    if (mapping) {
        MappedRequest mapped(tree, root, *mapping);
        inner = &mapped.inner();
        if (std::string why = mapped.measure(in, e2eName); !why.empty())
            return why;
    }
    record.id = !inner->requestId.empty() ? inner->requestId : !span.requestId.empty() ? span.requestId : span.spanId;
    const auto model = [](const Span &s) { return !s.responseModel.empty() ? s.responseModel : s.requestModel; };
    record.model = !model(*inner).empty() ? model(*inner) : model(span);
    record.status = span.error || inner->error ? Status::Error : Status::Ok;
    record.inputTokens = inner->inputTokens >= 0 ? inner->inputTokens : span.inputTokens;
    record.outputTokens = inner->outputTokens >= 0 ? inner->outputTokens : span.outputTokens;
    if (record.inputTokens < -1 || record.outputTokens < -1)
        return "negative token count";
    appendAttribute(record.attributesJson, "span.name", span.name);
    if (!span.service.empty())
        appendAttribute(record.attributesJson, "service.name", span.service);
    appendAttribute(record.attributesJson, "trace_id", span.traceId);
    if (mapping)
        appendAttribute(record.attributesJson, "mapping", mapping->name);
    std::int64_t covered = 0;
    for (std::int64_t d : in.segments) {
        const std::optional<std::int64_t> more = checkedAdd(covered, isMeasured(d) ? d : 0);
        if (!more)
            return "the measured segments add up to more than 292 years";
        covered = *more;
    }
    if (isMeasured(in.e2e) && in.e2e < covered)
        return e2eName + " is less than the sum of the measured segments";
    const bool anySegment = std::any_of(in.segments.begin(), in.segments.end(), [](std::int64_t d) { return isMeasured(d); });
    std::string why;
    if (!isMeasured(in.e2e) && !anySegment) {
        // A Zipkin span without duration: a record of what it has (its start, when known), no e2e to split.
        record.stamp(Stamp::ServerRecv) = span.startNs;
        why = decompose(record);
    } else {
        why = decomposeDurations(record, in);
    }
    if (!mapping)
        record.metrics.flags |= kFlagUnmappedSpan;
    return why;
}

} // namespace

OtlpSpanReader::OtlpSpanReader(std::shared_ptr<const SpanMappings> mappings)
{
    if (mappings)
        setSpanMappings(std::move(mappings));
}

void OtlpSpanReader::setSpanMappings(std::shared_ptr<const SpanMappings> mappings)
{
    m_mappings = std::move(mappings);
    m_filter = {};
    for (const SpanMapping &mapping : *m_mappings) {
        for (const auto *selectors : {&mapping.root, &mapping.inner}) {
            for (const SpanSelector &s : *selectors) {
                if (!s.attribute.empty())
                    m_filter.keys.push_back(s.attribute);
                if (!s.attributePrefix.empty())
                    m_filter.prefixes.push_back(s.attributePrefix);
            }
        }
        for (const auto *sources : {&mapping.e2e, &mapping.segments[0], &mapping.segments[1], &mapping.segments[2],
                                    &mapping.segments[3], &mapping.segments[4], &mapping.segments[5]}) {
            for (const SegmentSource &source : *sources) {
                if (source.kind == SegmentSource::Kind::Attribute)
                    m_filter.keys.push_back(source.attribute);
            }
        }
    }
}

const SpanMappings &OtlpSpanReader::mappings()
{
    if (!m_mappings) {
        std::string error;
        auto automatic = loadSpanMappings("auto", &error);
        setSpanMappings(automatic ? automatic : std::make_shared<SpanMappings>()); // the presets are tested
    }
    return *m_mappings;
}

std::string OtlpSpanReader::notice() const
{
    return m_mappings ? unclaimedSpansNotice(m_census, *m_mappings) : std::string();
}

const otlp::AttributeFilter &OtlpSpanReader::attributeFilter()
{
    mappings();
    return m_filter;
}

void OtlpSpanReader::collect(otlp::Span &&span, std::string &&raw, std::int64_t line)
{
    // A rejection keeps kExcerptBytes (200) of the text; the rest would only take memory until the end.
    constexpr std::size_t kKeptBytes = 256;
    if (span.spanId.empty()) {
        span.spanId = span.traceId + '-' + std::to_string(++m_madeUpIds);
        span.idMadeUp = true;
    }
    m_batch.spans.push_back(std::move(span));
    m_batch.raw.push_back(raw.size() > kKeptBytes ? raw.substr(0, kKeptBytes) : std::move(raw));
    m_batch.lines.push_back(line);
}

void OtlpSpanReader::emitCompleteTraces(ImportSink &sink)
{
    const std::size_t unitStart = std::exchange(m_unitStart, m_batch.spans.size());
    if (m_batch.spans.size() >= kMaxCollectedSpans) {
        emitAllCollected(sink);
        return;
    }
    std::unordered_set<std::string> complete;
    for (std::size_t i = unitStart; i < m_batch.spans.size(); ++i) {
        if (m_batch.spans[i].parentId.empty())
            complete.insert(m_batch.spans[i].traceId);
    }
    if (complete.empty())
        return;
    const auto isComplete = [&](std::size_t i) { return complete.contains(m_batch.spans[i].traceId); };
    std::size_t waiting = 0;
    for (std::size_t i = 0; i < m_batch.spans.size(); ++i)
        waiting += isComplete(i) ? 0 : 1;
    if (waiting == 0) { // the usual case: every span of the line is in a trace that ends with it
        emitAllCollected(sink);
        return;
    }
    SpanBatch ready, rest;
    for (std::size_t i = 0; i < m_batch.spans.size(); ++i) {
        SpanBatch &to = isComplete(i) ? ready : rest;
        to.spans.push_back(std::move(m_batch.spans[i]));
        to.raw.push_back(std::move(m_batch.raw[i]));
        to.lines.push_back(m_batch.lines[i]);
    }
    emitSpanRequests(ready, mappings(), sink, &m_census);
    m_batch = std::move(rest);
    m_unitStart = m_batch.spans.size();
}

void OtlpSpanReader::emitAllCollected(ImportSink &sink)
{
    emitSpanRequests(m_batch, mappings(), sink, &m_census);
    m_batch.clear();
    m_unitStart = 0;
}

void emitSpanRequests(const SpanBatch &batch, const SpanMappings &mappings, ImportSink &sink, SpanCensus *census)
{
    const std::vector<Span> &spans = batch.spans;
    const std::size_t n = spans.size();
    const SpanTree tree(spans);
    if (const std::vector<std::string> unlinkable = unlinkableSpans(tree);
        std::any_of(unlinkable.begin(), unlinkable.end(), [](const std::string &why) { return !why.empty(); })) {
        // Rejected spans take no part in the tree; they are nobody's parent, so the rest links as before.
        SpanBatch rest;
        for (std::size_t i = 0; i < n; ++i) {
            if (!unlinkable[i].empty()) {
                sink.reject(batch.lines[i], otlp::spanReason(spans[i], unlinkable[i]), batch.raw[i]);
                continue;
            }
            rest.spans.push_back(spans[i]);
            rest.raw.push_back(batch.raw[i]);
            rest.lines.push_back(batch.lines[i]);
        }
        for (std::size_t i = 0; i < n && census; ++i) {
            if (!unlinkable[i].empty())
                census->countSpan(spans[i].name, false);
        }
        emitSpanRequests(rest, mappings, sink, census);
        return;
    }
    // The first mapping whose root selectors claim the span.
    std::vector<const SpanMapping *> claimedBy(n, nullptr);
    for (std::size_t i = 0; i < n; ++i) {
        for (const SpanMapping &mapping : mappings) {
            if (tree.matchesAny(mapping.root, i, nullptr)) {
                claimedBy[i] = &mapping;
                break;
            }
        }
        if (census)
            census->countSpan(spans[i].name, claimedBy[i] != nullptr);
    }
    // A claimed span is a request unless a claimed span is its ancestor; any other span is a request when it
    // is a root here and no claimed span lies below it, so that one user request is never counted twice.
    std::vector<char> claimedBelow(n, 0), nested(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
        if (!claimedBy[i])
            continue;
        std::size_t steps = 0; // bounded: a parent cycle in a malformed file must not hang the import
        for (std::size_t p = tree.parent[i]; p != kNone && steps < n; p = tree.parent[p], ++steps) {
            claimedBelow[p] = 1;
            if (claimedBy[p])
                nested[i] = 1;
        }
    }
    for (std::size_t i = 0; i < n; ++i) {
        const bool request = claimedBy[i] ? !nested[i] : (tree.parent[i] == kNone && !claimedBelow[i]);
        if (!request)
            continue;
        if (!sink.keepGoing())
            return;
        RequestRecord &record = sink.slot();
        record.sourceLine = batch.lines[i];
        if (std::string why = fill(tree, i, claimedBy[i], record); why.empty())
            sink.accept(batch.raw[i]);
        else
            sink.reject(batch.lines[i], otlp::spanReason(spans[i], why), batch.raw[i]);
    }
}

} // namespace lx
