// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/freed_memory.h"

#if defined(__GLIBC__)
#include <malloc.h>

#include <mutex>
#endif

namespace lx {

#if defined(__GLIBC__)

void keepFreedMemory() noexcept
{
    static std::once_flag once;
    std::call_once(once, [] {
        // Fixed values also end glibc's adjusting of both. A block of a few MiB stays in the heap; only
        // what is larger than any batch (the id set's table, huge pages of its own) is mapped apart.
        mallopt(M_MMAP_THRESHOLD, 64 << 20);
        mallopt(M_TRIM_THRESHOLD, 1 << 30);
    });
}

void releaseFreedMemory() noexcept { malloc_trim(0); }

#else

void keepFreedMemory() noexcept {}
void releaseFreedMemory() noexcept {}

#endif

} // namespace lx
