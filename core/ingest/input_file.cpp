// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/input_file.h"

#include "platform/cache_as_found.h"
#include "platform/utf8_path.h"

#include <zstd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace lx {

namespace {
constexpr unsigned char kZstdMagic[4] = {0x28, 0xB5, 0x2F, 0xFD};
} // namespace

std::unique_ptr<InputFile> InputFile::open(const std::string &path, std::string *error, InputCache cache)
{
    std::error_code ec;
    const std::filesystem::path file = utf8Path(path);
    const auto status = std::filesystem::status(file, ec);
    if (ec || !std::filesystem::exists(status)) {
        *error = "no such file";
        return nullptr;
    }
    if (std::filesystem::is_directory(status)) {
        *error = "is a directory, not a trace file";
        return nullptr;
    }
    std::FILE *stream = openFile(path, "rb");
    if (!stream) {
        *error = std::string("cannot open: ") + std::strerror(errno);
        return nullptr;
    }
    std::unique_ptr<InputFile> in(new InputFile);
    in->m_file = stream;
    in->m_fileSize = std::filesystem::file_size(file, ec);
    if (ec) // a pipe or a device: no size, and nothing of it in the page cache
        in->m_fileSize = 0;
    if (cache == InputCache::AsFound)
        in->m_cache = std::make_unique<CacheAsFound>(stream, in->m_fileSize);

    // Sniff the magic number: a compressed file is recognised by its content, not its extension.
    in->m_compressed.resize(ZSTD_DStreamInSize());
    in->m_compressedEnd = in->readRaw(in->m_compressed.data(), in->m_compressed.size());
    if (in->m_compressedEnd >= 4 && std::memcmp(in->m_compressed.data(), kZstdMagic, 4) == 0) {
        in->m_dctx = ZSTD_createDCtx();
    }
    return in;
}

InputFile::~InputFile()
{
    if (m_dctx)
        ZSTD_freeDCtx(m_dctx);
    if (m_file)
        std::fclose(m_file);
}

std::size_t InputFile::readRaw(char *buffer, std::size_t size)
{
    if (m_eof)
        return 0;
    if (m_cache)
        m_cache->aboutToRead(m_fileBytesRead, size);
    const std::size_t n = std::fread(buffer, 1, size, m_file);
    if (n < size) {
        if (std::ferror(m_file))
            m_error = std::string("read error: ") + std::strerror(errno);
        m_eof = true;
    }
    m_fileBytesRead += n;
    if (m_cache)
        m_cache->readUpTo(m_fileBytesRead);
    return n;
}

std::size_t InputFile::read(char *buffer, std::size_t size)
{
    if (!m_dctx) {
        // Plain file: first hand out what the sniffing read, then read straight into the caller's buffer.
        if (m_compressedPos < m_compressedEnd) {
            const std::size_t n = std::min(size, m_compressedEnd - m_compressedPos);
            std::memcpy(buffer, m_compressed.data() + m_compressedPos, n);
            m_compressedPos += n;
            return n;
        }
        return readRaw(buffer, size);
    }
    // At most a block's output a call: zstd hands out nothing of a call that fails, so that with a larger
    // window the blocks decoded before a damaged one would be lost with it (and with them, in a small file,
    // every record). A window of its own output size still decodes straight into the buffer.
    ZSTD_outBuffer out { buffer, std::min(size, ZSTD_DStreamOutSize()), 0 };
    while (out.pos == 0 && m_error.empty()) {
        if (m_compressedPos == m_compressedEnd && !m_eof) {
            m_compressedPos = 0;
            m_compressedEnd = readRaw(m_compressed.data(), m_compressed.size());
        }
        // Called with empty input too: the decompressor may still hold output it could not hand out.
        ZSTD_inBuffer in{m_compressed.data(), m_compressedEnd, m_compressedPos};
        const std::size_t inBefore = in.pos;
        const std::size_t ret = ZSTD_decompressStream(m_dctx, &out, &in);
        m_compressedPos = in.pos;
        if (ZSTD_isError(ret)) {
            // Where, within a block: zstd may have taken the start of the damaged block in an earlier call.
            m_error = std::string("zstd: ") + ZSTD_getErrorName(ret) + " before compressed byte "
                + std::to_string(m_fileBytesRead) + " of the file, after " + std::to_string(m_decodedBytes)
                + " bytes decoded whole";
            return 0;
        }
        // A call that consumed nothing and produced nothing says nothing about the frame: at the end of a
        // complete file zstd still answers with the size hint of a next frame's header.
        if (in.pos != inBefore || out.pos > 0)
            m_frameOpen = ret != 0;
        if (out.pos == 0 && m_compressedPos == m_compressedEnd && m_eof) {
            // The input ended; a frame still open means the file was cut off.
            m_truncated = m_frameOpen;
            return 0;
        }
    }
    m_decodedBytes += out.pos;
    return out.pos;
}

} // namespace lx
