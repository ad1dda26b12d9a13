// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <cstdio>
#include <vector>

/// \file cache_as_found.h
/// Reading a large file once leaves the system's page cache as it was found. A trace of ten million
/// requests is 5 GB: read while it is not in the cache, it used to fill the cache with pages it is done
/// with, each one a fresh page for the kernel to find and map. Dropping every window of the file that was
/// not cached before it was read, as soon as it is read, lets the kernel take the same few pages again for
/// the next ones: on the 10M-request bench trace read from disk, the import's system time went from 10.7 s
/// to 2.8 s and its time to 0.80x (docs/ARCHITECTURE.md, "A trace read from disk"). A window that was
/// in the cache before stays there: a file read from the cache is read from it again next time. "Not
/// cached" is fewer than 1 page in 32 of a window, whose few cached pages then go with it; the window a
/// read stops in (a cancel, an error) stays. Linux only (mincore, posix_fadvise); elsewhere nothing is
/// dropped, and on Linux nothing of a file the user neither owns nor may write: mincore then says every
/// page is cached (since Linux 5.0).

namespace lx {

class CacheAsFound {
public:
    static constexpr std::uint64_t kDefaultWindowBytes = std::uint64_t{64} << 20;

    /// For `file`, read from its start, of fileSize bytes. windowBytes is rounded up to whole pages. The
    /// file stays the caller's; this only looks at which of its pages are cached and drops some.
    CacheAsFound(std::FILE *file, std::uint64_t fileSize, std::uint64_t windowBytes = kDefaultWindowBytes);

    /// The file is about to be read from `offset` for up to `bytes`: the windows the read will touch are
    /// looked at now, while the cache still holds only what it held before.
    void aboutToRead(std::uint64_t offset, std::uint64_t bytes);
    /// The file's bytes before `offset` have been read and will not be read again: the windows they fill
    /// are dropped from the cache if they were not in it.
    void readUpTo(std::uint64_t offset);

    /// How many of the file's bytes were dropped from the cache so far.
    std::uint64_t droppedBytes() const { return m_droppedBytes; }

private:
    std::size_t windowOf(std::uint64_t offset) const;
    std::uint64_t windowEnd(std::size_t window) const;
    void lookUpTo(std::size_t window);
    bool wasCached(std::size_t window) const;

    int m_fd = -1; ///< -1: nothing to do (not Linux, or no descriptor)
    std::uint64_t m_fileSize = 0;
    std::uint64_t m_windowBytes = 0;
    std::vector<bool> m_cachedBefore; ///< by window, for those looked at so far
    std::size_t m_windows = 0;
    std::size_t m_nextToDrop = 0;
    std::uint64_t m_droppedBytes = 0;
};

} // namespace lx
