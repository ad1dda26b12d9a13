// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

/// \file zstd_stream_decoder.h
/// Decodes a zstd stream as its pieces arrive (an HTTP body with `Content-Encoding: zstd`), handing the
/// decoded bytes on in pieces of at most ZSTD_DStreamOutSize(): the body is never held whole.

namespace lx::source {

class ZstdStreamDecoder {
public:
    /// Takes each piece of decoded bytes; returning false stops the decoding (feed() returns false).
    using Output = std::function<bool(std::string_view decoded)>;

    explicit ZstdStreamDecoder(Output output);
    ~ZstdStreamDecoder();
    ZstdStreamDecoder(const ZstdStreamDecoder &) = delete;
    ZstdStreamDecoder &operator=(const ZstdStreamDecoder &) = delete;

    /// Decodes `compressed`, the next bytes of the stream. False when the stream is corrupt (error() says
    /// why) or the output asked to stop.
    bool feed(std::string_view compressed);
    /// True when the stream ended exactly at a frame's end: what a complete body does. A body cut off in
    /// a frame is a transfer that did not finish.
    bool atFrameEnd() const { return m_atFrameEnd; }
    const std::string &error() const { return m_error; }

private:
    void *m_stream = nullptr; // a ZSTD_DStream; void* keeps zstd.h out of this header
    Output m_output;
    std::vector<char> m_buffer;
    bool m_atFrameEnd = true;
    std::string m_error;
};

} // namespace lx::source
