// SPDX-License-Identifier: GPL-3.0-or-later
#include "trace_output.h"

#include <zstd.h>

#include <vector>

namespace lx::sim {

struct TraceOutput::Zstd {
    ZSTD_CCtx *context = nullptr;
    std::vector<char> buffer;

    ~Zstd() { ZSTD_freeCCtx(context); }
};

TraceOutput::TraceOutput(std::ostream &out, bool compress, int level) : m_out(out)
{
    if (!compress)
        return;
    m_zstd = std::make_unique<Zstd>();
    m_zstd->context = ZSTD_createCCtx();
    m_zstd->buffer.resize(ZSTD_CStreamOutSize());
    if (!m_zstd->context) {
        m_error = "cannot create a zstd compression context";
        return;
    }
    const std::size_t rc = ZSTD_CCtx_setParameter(m_zstd->context, ZSTD_c_compressionLevel, level);
    if (ZSTD_isError(rc))
        m_error = std::string("zstd: ") + ZSTD_getErrorName(rc);
}

TraceOutput::~TraceOutput() = default;

bool TraceOutput::write(std::string_view data)
{
    if (!m_error.empty())
        return false;
    m_bytesIn += data.size();
    if (m_zstd)
        return compress(data, false);
    return put(data.data(), data.size());
}

bool TraceOutput::finish()
{
    if (!m_error.empty())
        return false;
    if (m_zstd && !compress({}, true))
        return false;
    m_out.flush();
    if (!m_out) {
        m_error = "write failed";
        return false;
    }
    return true;
}

bool TraceOutput::compress(std::string_view data, bool end)
{
    ZSTD_inBuffer input{data.data(), data.size(), 0};
    const ZSTD_EndDirective mode = end ? ZSTD_e_end : ZSTD_e_continue;
    // With ZSTD_e_continue, the input is consumed once it is fully read; with ZSTD_e_end, a return of 0
    // says the frame is complete.
    for (;;) {
        ZSTD_outBuffer output{m_zstd->buffer.data(), m_zstd->buffer.size(), 0};
        const std::size_t remaining = ZSTD_compressStream2(m_zstd->context, &output, &input, mode);
        if (ZSTD_isError(remaining)) {
            m_error = std::string("zstd: ") + ZSTD_getErrorName(remaining);
            return false;
        }
        if (!put(m_zstd->buffer.data(), output.pos))
            return false;
        if (end ? remaining == 0 : input.pos == input.size)
            return true;
    }
}

bool TraceOutput::put(const char *data, std::size_t size)
{
    if (size == 0)
        return true;
    m_out.write(data, static_cast<std::streamsize>(size));
    if (!m_out) {
        m_error = "write failed";
        return false;
    }
    m_bytesWritten += size;
    return true;
}

} // namespace lx::sim
