// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

/// \file input_file.h
/// A file read as a stream of bytes, transparently zstd-decompressed when it starts with the zstd magic
/// number (whatever its name). Never holds the whole file in memory, nor leaves it in the page cache when it
/// was not there before (platform/cache_as_found.h).

struct ZSTD_DCtx_s;

namespace lx {

class CacheAsFound;

/// What reading a file does to the page cache: leave it as found (a file read from the disk is dropped
/// from it once read), or keep what was read in it, for a file read again right after.
enum class InputCache { AsFound, Keep };

class InputFile {
public:
    /// Opens path; on failure returns null and says why (missing, a directory, unreadable).
    static std::unique_ptr<InputFile> open(const std::string &path, std::string *error,
                                           InputCache cache = InputCache::AsFound);
    ~InputFile();
    InputFile(const InputFile &) = delete;
    InputFile &operator=(const InputFile &) = delete;

    /// Reads up to size decompressed bytes; returns 0 at the end of the input or on an error.
    std::size_t read(char *buffer, std::size_t size);

    bool compressed() const { return m_dctx != nullptr; }
    /// True when the zstd stream ended inside a frame: the file was cut off.
    bool truncated() const { return m_truncated; }
    /// A read or decompression error; empty when none.
    const std::string &error() const { return m_error; }
    /// Bytes of the file consumed so far and the file's size, for progress.
    std::uint64_t fileBytesRead() const { return m_fileBytesRead; }
    std::uint64_t fileSize() const { return m_fileSize; }

private:
    InputFile() = default;
    std::size_t readRaw(char *buffer, std::size_t size);

    std::FILE *m_file = nullptr;
    std::unique_ptr<CacheAsFound> m_cache; ///< null with InputCache::Keep
    ZSTD_DCtx_s *m_dctx = nullptr;
    std::vector<char> m_compressed; ///< reused input buffer of the decompressor
    std::size_t m_compressedPos = 0;
    std::size_t m_compressedEnd = 0;
    bool m_frameOpen = false; ///< the decompressor is inside a frame that has not ended yet
    bool m_eof = false;
    bool m_truncated = false;
    std::string m_error;
    std::uint64_t m_fileBytesRead = 0;
    std::uint64_t m_fileSize = 0;
    std::uint64_t m_decodedBytes = 0; ///< of a compressed file, handed out so far
};

} // namespace lx
