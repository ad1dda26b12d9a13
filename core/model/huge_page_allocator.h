// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdlib>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

/// \file huge_page_allocator.h
/// An allocator for the large sample arrays of the analysis. The first touch of fresh memory costs a page
/// fault per 4 KiB page, and on these virtual machines that dominated a report over a million requests;
/// on Linux, asking for transparent huge pages makes it one fault per 2 MiB. Elsewhere it is plain new.

namespace lx {

template<typename T>
struct HugePageAllocator {
    using value_type = T;
    static constexpr std::size_t kHugePage = std::size_t{2} << 20;

    HugePageAllocator() = default;
    template<typename U>
    HugePageAllocator(const HugePageAllocator<U> &) noexcept {}

    T *allocate(std::size_t n)
    {
        const std::size_t bytes = n * sizeof(T);
#if defined(__linux__)
        if (bytes >= kHugePage) {
            void *p = nullptr;
            const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
            if (posix_memalign(&p, kHugePage, rounded) != 0)
                throw std::bad_alloc();
            madvise(p, rounded, MADV_HUGEPAGE);
            return static_cast<T *>(p);
        }
#endif
        return static_cast<T *>(::operator new(bytes));
    }

    void deallocate(T *p, std::size_t n) noexcept
    {
#if defined(__linux__)
        if (n * sizeof(T) >= kHugePage) {
            std::free(p);
            return;
        }
#endif
        ::operator delete(p);
        (void)n;
    }

    template<typename U>
    bool operator==(const HugePageAllocator<U> &) const noexcept { return true; }
};

} // namespace lx
