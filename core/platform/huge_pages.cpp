// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/huge_pages.h"

#include <cstdint>
#include <algorithm>
#include <cstdlib>
#include <new>
#include <string_view>

#if defined(_WIN32)
#include <windows.h>
#elif defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace lx {

namespace {

// Unused on macOS, whose branch asks operator new for the bytes as they are.
[[maybe_unused]] std::size_t roundedUp(std::size_t bytes) { return (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes; }

} // namespace

#if defined(_WIN32)

// VirtualAlloc, not _aligned_malloc: its memory comes straight from the system in 64 KiB-aligned regions
// that are committed as they are touched, and a freed array goes back to the system at once. Large pages
// (MEM_LARGE_PAGES) are not asked for: without SeLockMemoryPrivilege the call fails, and with it the pages
// could never be paged out.
void *allocateHugePages(std::size_t bytes)
{
    void *p = ::VirtualAlloc(nullptr, roundedUp(bytes), MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
    if (!p)
        throw std::bad_alloc();
    return p;
}

void freeHugePages(void *p, std::size_t) noexcept { ::VirtualFree(p, 0, MEM_RELEASE); }

void adviseHugePages(void *, std::size_t) noexcept {}

#elif defined(__linux__)

void *allocateHugePages(std::size_t bytes)
{
    void *p = nullptr;
    const std::size_t rounded = roundedUp(bytes);
    if (posix_memalign(&p, kHugePageBytes, rounded) != 0)
        throw std::bad_alloc();
    adviseHugePages(p, rounded);
    return p;
}

void freeHugePages(void *p, std::size_t) noexcept { std::free(p); }

void adviseHugePages(void *begin, std::size_t bytes) noexcept
{
    const auto first = (reinterpret_cast<std::uintptr_t>(begin) + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
    const auto last = (reinterpret_cast<std::uintptr_t>(begin) + bytes) / kHugePageBytes * kHugePageBytes;
    if (last > first)
        madvise(reinterpret_cast<void *>(first), last - first, MADV_HUGEPAGE);
}

#else // macOS and the other systems

// macOS has no transparent huge pages (its superpages are asked for when a region is mapped, and the kernel
// may refuse them): the arrays get plain memory, and aligning them to 2 MiB would only waste the rounding.
void *allocateHugePages(std::size_t bytes) { return ::operator new(bytes); }

void freeHugePages(void *p, std::size_t) noexcept { ::operator delete(p); }

void adviseHugePages(void *, std::size_t) noexcept {}

#endif

std::optional<std::string> tunablesWithHugePages(const char *current)
{
    constexpr std::string_view kTunable = "glibc.malloc.hugetlb";
    const std::string value = current ? current : "";
    // Tunables are name=value pairs separated by colons.
    for (std::size_t at = 0; at <= value.size();) {
        const std::size_t end = std::min(value.find(':', at), value.size());
        const std::string_view pair = std::string_view(value).substr(at, end - at);
        if (pair.substr(0, pair.find('=')) == kTunable)
            return std::nullopt;
        at = end + 1;
    }
    return value.empty() ? std::string(kTunable) + "=1" : value + ":" + std::string(kTunable) + "=1";
}

void startAgainWithHugePages(char **argv)
{
#if defined(__linux__) && defined(__GLIBC__)
    const std::optional<std::string> tunables = tunablesWithHugePages(std::getenv("GLIBC_TUNABLES"));
    if (!tunables || setenv("GLIBC_TUNABLES", tunables->c_str(), 1) != 0)
        return;
    execv("/proc/self/exe", argv);
#else
    (void)argv;
#endif
}

} // namespace lx
