// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/freed_memory.h"

#if defined(__GLIBC__) && !defined(__UCLIBC__)
#define LX_GLIBC_MALLOC 1
#include <malloc.h>
#endif

#include <mutex>

namespace lx {

#if defined(LX_GLIBC_MALLOC)

namespace {

std::mutex keptMutex;
int keptCount = 0;

/// glibc's defaults (malloc(3)): the trim threshold, and the largest mmap threshold it accepts on 64 bits.
constexpr int kDefaultTrimThreshold = 128 * 1024;
constexpr int kHeapUpTo = static_cast<int>(4 * 1024 * 1024 * sizeof(long));
constexpr int kKeepUpTo = 1 << 30;

} // namespace

FreedMemoryKept::FreedMemoryKept()
{
    const std::lock_guard lock(keptMutex);
    if (keptCount++ == 0) {
        // A refused value (0) leaves glibc as it was: slower, never wrong.
        mallopt(M_MMAP_THRESHOLD, kHeapUpTo);
        mallopt(M_TRIM_THRESHOLD, kKeepUpTo);
    }
}

FreedMemoryKept::~FreedMemoryKept()
{
    const std::lock_guard lock(keptMutex);
    if (--keptCount == 0) {
        mallopt(M_TRIM_THRESHOLD, kDefaultTrimThreshold);
        malloc_trim(0);
    }
}

#else

FreedMemoryKept::FreedMemoryKept() = default;
FreedMemoryKept::~FreedMemoryKept() = default;

#endif

} // namespace lx
