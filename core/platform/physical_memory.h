// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>

/// \file physical_memory.h
/// The machine's physical memory, which bounds what an import may hold in memory (held_rows.h):
/// `sysconf(_SC_PHYS_PAGES)` on Linux and macOS, `GlobalMemoryStatusEx` on Windows.

namespace lx {

/// Bytes of physical memory; 0 when the system does not say.
std::uint64_t physicalMemoryBytes() noexcept;

} // namespace lx
