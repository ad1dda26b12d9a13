// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/cache_as_found.h"

#include <algorithm>

#if defined(__linux__)
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace lx {

namespace {

#if defined(__linux__)
std::uint64_t pageBytes()
{
    const long page = ::sysconf(_SC_PAGESIZE);
    return page > 0 ? static_cast<std::uint64_t>(page) : 4096;
}

/// A window counts as cached when at least this share of its pages is: the kernel's read-ahead of the
/// window before may have brought in its first pages (at most a few MiB of the 64), which the read would
/// have brought in anyway.
constexpr std::uint64_t kCachedShare = 32; // 1 page in 32
#endif

} // namespace

CacheAsFound::CacheAsFound(std::FILE *file, std::uint64_t fileSize, std::uint64_t windowBytes)
    : m_fileSize(fileSize)
{
#if defined(__linux__)
    const std::uint64_t page = pageBytes();
    m_windowBytes = (std::max<std::uint64_t>(windowBytes, 1) + page - 1) / page * page;
    m_windows = static_cast<std::size_t>((fileSize + m_windowBytes - 1) / m_windowBytes);
    m_fd = file ? ::fileno(file) : -1;
    lookUpTo(1); // the first windows are looked at before anything is read
#else
    (void)file;
    (void)windowBytes;
#endif
}

std::uint64_t CacheAsFound::windowEnd(std::size_t window) const
{
    return std::min(m_fileSize, (window + 1) * m_windowBytes);
}

std::size_t CacheAsFound::windowOf(std::uint64_t offset) const
{
    return static_cast<std::size_t>(std::min(offset, m_fileSize) / m_windowBytes);
}

void CacheAsFound::lookUpTo(std::size_t window)
{
    if (m_fd < 0 || m_windows == 0)
        return;
    window = std::min(window, m_windows - 1);
    while (m_cachedBefore.size() <= window)
        m_cachedBefore.push_back(wasCached(m_cachedBefore.size()));
}

void CacheAsFound::aboutToRead(std::uint64_t offset, std::uint64_t bytes)
{
    // Every window the read will touch, and the one after it, before the read and the kernel's read-ahead
    // get there.
    if (m_fd < 0 || m_windows == 0)
        return;
    lookUpTo(windowOf(offset + std::min(bytes, m_fileSize)) + 1);
}

void CacheAsFound::readUpTo(std::uint64_t offset)
{
    if (m_fd < 0 || m_windows == 0)
        return;
    lookUpTo(windowOf(offset) + 1); // for a caller that does not say before it reads
    for (; m_nextToDrop < m_windows && windowEnd(m_nextToDrop) <= offset; ++m_nextToDrop) {
        if (m_cachedBefore[m_nextToDrop])
            continue;
#if defined(__linux__)
        const std::uint64_t start = m_nextToDrop * m_windowBytes;
        const std::uint64_t length = windowEnd(m_nextToDrop) - start;
        if (::posix_fadvise(m_fd, static_cast<off_t>(start), static_cast<off_t>(length), POSIX_FADV_DONTNEED) == 0)
            m_droppedBytes += length;
#endif
    }
}

bool CacheAsFound::wasCached(std::size_t window) const
{
#if defined(__linux__)
    const std::uint64_t start = window * m_windowBytes;
    const std::uint64_t length = windowEnd(window) - start;
    // Mapping a window reads nothing: mincore only says which of its pages are in memory.
    void *map = ::mmap(nullptr, length, PROT_READ, MAP_SHARED, m_fd, static_cast<off_t>(start));
    if (map == MAP_FAILED)
        return true; // not known: leave the window as it is
    const std::uint64_t page = pageBytes();
    std::vector<unsigned char> resident((length + page - 1) / page);
    std::uint64_t cached = 0;
    if (::mincore(map, length, resident.data()) == 0)
        cached = static_cast<std::uint64_t>(std::count_if(resident.begin(), resident.end(), [](unsigned char r) { return (r & 1) != 0; }));
    else
        cached = resident.size();
    ::munmap(map, length);
    return cached * kCachedShare >= resident.size();
#else
    (void)window;
    return true;
#endif
}

} // namespace lx
