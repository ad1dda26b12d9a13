// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "platform/huge_pages.h"

#include <cstddef>
#include <new>

/// \file huge_page_allocator.h
/// An allocator for the large sample arrays of the analysis. The first touch of fresh memory costs a page
/// fault per 4 KiB page, and on these virtual machines that dominated a report over a million requests;
/// an array of 2 MiB or more gets huge pages where the system has them (platform/huge_pages.h), a smaller
/// one plain new.

namespace lx {

template<typename T>
struct HugePageAllocator {
    using value_type = T;

    HugePageAllocator() = default;
    template<typename U>
    HugePageAllocator(const HugePageAllocator<U> &) noexcept {}

    T *allocate(std::size_t n)
    {
        const std::size_t bytes = n * sizeof(T);
        if (bytes >= kHugePageBytes)
            return static_cast<T *>(allocateHugePages(bytes));
        return static_cast<T *>(::operator new(bytes));
    }

    void deallocate(T *p, std::size_t n) noexcept
    {
        const std::size_t bytes = n * sizeof(T);
        if (bytes >= kHugePageBytes)
            freeHugePages(p, bytes);
        else
            ::operator delete(p);
    }

    template<typename U>
    bool operator==(const HugePageAllocator<U> &) const noexcept { return true; }
};

} // namespace lx
