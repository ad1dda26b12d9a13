// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/formats/otlp/otlp_proto_reader.h"

#include "ingest/line_reader.h"
#include "ingest/formats/otlp/otlp_proto_spans.h"
#include "ingest/formats/otlp/otlp_requests.h"

#include <algorithm>

namespace lx {

namespace {

/// A bare message is read whole, and a length prefix may not announce more: beyond this the input is
/// surely something else (or corrupt), and the import stops with a reason.
constexpr std::uint64_t kMaxMessageBytes = std::uint64_t(512) << 20;

std::uint32_t bigEndian32(std::string_view bytes)
{
    std::uint32_t n = 0;
    for (int i = 0; i < 4; ++i)
        n = (n << 8) | static_cast<unsigned char>(bytes[i]);
    return n;
}

/// Text (JSON, CSV, ...) has no control characters but tabs and line ends; a protobuf message always has
/// some (tags such as 0x12, short lengths, the bytes of ids and times).
bool looksLikeText(std::string_view head)
{
    return std::none_of(head.begin(), head.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u < 0x20 && c != '\n' && c != '\r' && c != '\t';
    });
}

/// The first bytes of `bytes` as hex, for the excerpt of a part that is no protobuf.
std::string hexExcerpt(std::string_view bytes)
{
    std::string hex;
    static constexpr char kHex[] = "0123456789abcdef";
    for (std::size_t i = 0; i < std::min<std::size_t>(bytes.size(), 48); ++i) {
        const auto u = static_cast<unsigned char>(bytes[i]);
        if (i > 0)
            hex += ' ';
        hex += kHex[u >> 4];
        hex += kHex[u & 0xF];
    }
    return hex;
}

/// The input's bytes in order, through the LineReader's buffer, counting the offset.
class ByteSource {
public:
    explicit ByteSource(LineReader &lines) : m_lines(lines) {}

    /// Appends up to `n` bytes to `out`; returns how many (fewer only at the end of the input).
    std::uint64_t read(std::uint64_t n, std::string &out)
    {
        std::uint64_t got = 0;
        while (got < n) {
            if (m_chunk.empty() && (m_chunk = m_lines.nextBytes()).empty())
                break;
            const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(n - got, m_chunk.size()));
            out.append(m_chunk.data(), take);
            m_chunk.remove_prefix(take);
            got += take;
        }
        m_offset += got;
        return got;
    }

    std::uint64_t offset() const { return m_offset; }

private:
    LineReader &m_lines;
    std::string_view m_chunk;
    std::uint64_t m_offset = 0;
};

class OtlpProtoReader final : public OtlpSpanReader {
public:
    using OtlpSpanReader::OtlpSpanReader;

    std::string read(LineReader &lines, ImportSink &sink) override
    {
        const OtlpProtoLayout layout = otlpProtoLayout(lines.head());
        m_unit = layout == OtlpProtoLayout::Bare ? "span" : "message";
        ByteSource input(lines);
        std::string message;
        if (layout == OtlpProtoLayout::Bare) {
            if (input.read(kMaxMessageBytes + 1, message) > kMaxMessageBytes)
                return "the protobuf message is larger than 512 MiB: write it length-prefixed (the Collector's file "
                       "exporter with format: proto) to import it";
            readMessage(message, 0, 0, sink);
        } else {
            for (std::int64_t ordinal = 1; sink.keepGoing(); ++ordinal) {
                const std::uint64_t at = input.offset();
                message.clear();
                const std::uint64_t got = input.read(4, message);
                if (got == 0)
                    break;
                const std::string where = "message " + std::to_string(ordinal) + " at byte " + std::to_string(at) + ": ";
                if (got < 4) {
                    sink.reject(ordinal, where + "cut off inside its 4-byte length prefix", hexExcerpt(message));
                    stopEarly("the file ends inside the length prefix of message " + std::to_string(ordinal) + " (byte "
                                  + std::to_string(at) + ")",
                              true);
                    break;
                }
                const std::uint32_t length = bigEndian32(message);
                if (length > kMaxMessageBytes) {
                    sink.reject(ordinal, where + "the length prefix says " + std::to_string(length)
                                             + " bytes, more than 512 MiB: corrupt, the rest of the file cannot be read",
                                hexExcerpt(message));
                    stopEarly("the length prefix of message " + std::to_string(ordinal) + " (byte " + std::to_string(at)
                                  + ") is corrupt, so the messages after it cannot be found",
                              false);
                    break;
                }
                message.clear();
                if (const std::uint64_t read = input.read(length, message); read < length) {
                    sink.reject(ordinal, where + "truncated: the length prefix says " + std::to_string(length) + " bytes, only "
                                             + std::to_string(read) + " follow",
                                hexExcerpt(message));
                    stopEarly("the file ends inside message " + std::to_string(ordinal) + " (byte " + std::to_string(at)
                                  + "), " + std::to_string(read) + " of its " + std::to_string(length) + " bytes read",
                              true);
                    break;
                }
                readMessage(message, at + 4, ordinal, sink);
            }
        }
        emitAllCollected(sink);
        if (m_spansSeen == 0 && m_problems == 0)
            return "no OTLP span in this protobuf input: nothing to import (the messages hold no spans)";
        return {};
    }

    std::string_view locationUnit() const override { return m_unit; }

private:
    /// Reads one message (at `offset`; `ordinal` 0 for the bare form) and emits its requests. Spans of a
    /// length-prefixed file take their message's ordinal as line, those of a bare message their own ordinal.
    void readMessage(std::string_view message, std::uint64_t offset, std::int64_t ordinal, ImportSink &sink)
    {
        std::int64_t spanOrdinal = 0;
        otlp::ProtoSpanHandler handler;
        handler.span = [&](otlp::Span &&span, const std::string &why, const std::string &excerpt) {
            ++m_spansSeen;
            const std::int64_t line = ordinal > 0 ? ordinal : ++spanOrdinal;
            if (!why.empty()) {
                sink.reject(line, why, excerpt);
                return;
            }
            collect(std::move(span), std::string(excerpt), line);
        };
        handler.problem = [&](std::uint64_t at, const std::string &reason, std::string_view bytes) {
            ++m_problems;
            const std::string where = ordinal > 0 ? "message " + std::to_string(ordinal) + ": " : std::string();
            sink.reject(ordinal > 0 ? ordinal : spanOrdinal + 1, where + reason + " (part starting at byte " + std::to_string(at) + ")",
                        hexExcerpt(bytes));
        };
        if (ordinal == 0) // the bare form: the message is the file, and nothing after a broken framing is read
            handler.framing = [&](const std::string &reason, bool pastTheEnd) {
                stopEarly(pastTheEnd ? "the file ends inside its protobuf message (" + reason + ")"
                                     : "the protobuf message is malformed (" + reason
                                  + "), so the rest of the file cannot be read",
                          pastTheEnd);
            };
        otlp::readProtoTraces(message, offset, attributeFilter(), handler);
        emitCompleteTraces(sink);
    }

    std::int64_t m_spansSeen = 0;
    std::int64_t m_problems = 0;
    std::string_view m_unit = "message";
};

} // namespace

OtlpProtoLayout otlpProtoLayout(std::string_view head)
{
    if (head.empty() || looksLikeText(head))
        return OtlpProtoLayout::None;
    // A bare message starts with its first resource_spans tag (0x0A); a length prefix of a message under
    // 160 MiB starts with a smaller byte, so the two forms never meet. A bare message cut off in the head
    // (or in the file) is still one: the reader says where it ends.
    if (static_cast<unsigned char>(head[0]) == 0x0A)
        return otlp::looksLikeProtoTraces(head, false) ? OtlpProtoLayout::Bare : OtlpProtoLayout::None;
    // The first non-empty message must read as TracesData; the ones after it are the reader's to judge, so
    // that one corrupt message is a rejection with its offset rather than a file refused as "binary data".
    std::size_t pos = 0;
    while (pos + 4 <= head.size()) {
        const std::uint32_t length = bigEndian32(head.substr(pos));
        pos += 4;
        const std::size_t available = head.size() - pos;
        const std::string_view shown = head.substr(pos, std::min<std::size_t>(length, available));
        if (length > kMaxMessageBytes || !otlp::looksLikeProtoTraces(shown, length <= available))
            return OtlpProtoLayout::None;
        if (length > 0)
            return OtlpProtoLayout::LengthPrefixed;
        pos += length;
    }
    // Only empty messages so far, up to the end of the head or a prefix cut off by it.
    return pos > 0 ? OtlpProtoLayout::LengthPrefixed : OtlpProtoLayout::None;
}

bool otlpProtoCanRead(std::string_view head) { return otlpProtoLayout(head) != OtlpProtoLayout::None; }

std::unique_ptr<TraceReader> createOtlpProtoReader(const ReaderOptions &options)
{
    return std::make_unique<OtlpProtoReader>(options.spanMappings);
}

} // namespace lx
