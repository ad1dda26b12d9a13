// SPDX-License-Identifier: GPL-3.0-or-later
#include "source/zstd_stream_decoder.h"

#include <zstd.h>

namespace lx::source {

ZstdStreamDecoder::ZstdStreamDecoder(Output output)
    : m_stream(ZSTD_createDStream()), m_output(std::move(output)), m_buffer(ZSTD_DStreamOutSize())
{
    if (!m_stream)
        m_error = "out of memory for the zstd decoder";
    else
        ZSTD_initDStream(static_cast<ZSTD_DStream *>(m_stream));
}

ZstdStreamDecoder::~ZstdStreamDecoder()
{
    ZSTD_freeDStream(static_cast<ZSTD_DStream *>(m_stream));
}

bool ZstdStreamDecoder::feed(std::string_view compressed)
{
    if (!m_error.empty())
        return false;
    ZSTD_inBuffer in{compressed.data(), compressed.size(), 0};
    // Loop until the input is used up and the decoder has flushed what it holds (a full output buffer may
    // hide more decoded bytes even when the input is gone).
    while (true) {
        ZSTD_outBuffer out{m_buffer.data(), m_buffer.size(), 0};
        const std::size_t hint = ZSTD_decompressStream(static_cast<ZSTD_DStream *>(m_stream), &out, &in);
        if (ZSTD_isError(hint)) {
            m_error = std::string("the zstd-compressed response is corrupt: ") + ZSTD_getErrorName(hint);
            return false;
        }
        m_atFrameEnd = hint == 0;
        if (out.pos > 0 && !m_output(std::string_view(m_buffer.data(), out.pos)))
            return false;
        if (in.pos == in.size && out.pos < out.size)
            return true;
    }
}

} // namespace lx::source
