// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <optional>
#include <string>

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

/// The value of GLIBC_TUNABLES that also asks glibc's malloc for transparent huge pages under its large
/// blocks (`glibc.malloc.hugetlb=1`, glibc 2.35 and later; older ones ignore it), given the current value
/// (nullptr: unset). std::nullopt when there is nothing to add: the value already names that tunable (the
/// user's choice stands, and a process started again with the result does not start once more). Why: the
/// desktop application's large blocks are faulted in 4 KiB at a time otherwise; Qt's item views allocate a
/// block per row on the UI thread when a model resets (a reset to 10M rows: 0.44 s, 0.08 s with the
/// tunable), and the charts of 10M requests drew in half the time with it.
std::optional<std::string> tunablesWithHugePages(const char *current);

/// On Linux with glibc: starts this program again (same arguments) with tunablesWithHugePages(), unless
/// GLIBC_TUNABLES names that tunable already. Call it first thing in main(): tunables are read only when a
/// process starts, hence the exec; it costs the loading of the libraries once more (about 0.04 s). Where
/// the exec fails, and on the other systems, it returns and the program goes on as it is. The desktop
/// application and its GUI bench both call it, so that the bench times the memory the users' window gets.
void startAgainWithHugePages(char **argv);

} // namespace lx
