// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>

/// \file huge_pages.h
/// Memory for the analysis's large arrays, in the largest pages the system hands out without privileges.
/// The first touch of fresh memory costs a page fault per 4 KiB page, and on the virtual machines measured
/// that dominated a report over a million requests: on Linux, transparent huge pages make it one fault per
/// 2 MiB. Windows grants large pages only to accounts holding "Lock pages in memory", and macOS has no
/// transparent huge pages, so there the same calls give plain memory.

namespace lx {

/// The size from which an allocation asks for huge pages: below it, plain operator new serves better.
inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;

/// At least `bytes` (>= kHugePageBytes), suitably aligned for any type, backed by huge pages where the
/// system has them (on Linux aligned to kHugePageBytes). Throws std::bad_alloc when the memory cannot be
/// had. Free with freeHugePages(p, bytes).
void *allocateHugePages(std::size_t bytes);

/// Frees what allocateHugePages(bytes) returned; `bytes` is the size asked for.
void freeHugePages(void *p, std::size_t bytes) noexcept;

/// Asks for huge pages under the whole 2 MiB pages of [begin, begin + bytes) of memory already allocated
/// (a std::vector's reserved capacity). Only a hint: where the system has none, it does nothing.
void adviseHugePages(void *begin, std::size_t bytes) noexcept;

} // namespace lx
