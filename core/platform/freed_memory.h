// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

/// \file freed_memory.h
/// What the C library does with memory a program frees, while a bulk import runs. glibc gives the top of a
/// heap back to the system as soon as 128 KiB of it is free, and serves each allocation past a moving
/// threshold with a mapping of its own: the batches, blocks and records an import frees and allocates again
/// by the thousand went back and forth, each time as fresh pages the kernel zeroes and faults in again. On
/// the 10M-request bench import, keeping them (tried first through GLIBC_TUNABLES, trim threshold 1 GiB)
/// measured 0.95x the time (median of 3 paired runs; sys time 3.9 s to 3.2 s), with the same peak.
/// Elsewhere than glibc, nothing changes.

namespace lx {

/// While one of these lives (on any thread), freed memory stays with the process; when the last one goes,
/// what is free is given back (malloc_trim) and the heaps are trimmed as before. Allocations of up to 32 MiB
/// (glibc's largest threshold) come from the heaps for the rest of the process: setting a threshold ends
/// glibc's own moving of it.
class FreedMemoryKept {
public:
    FreedMemoryKept();
    ~FreedMemoryKept();
    FreedMemoryKept(const FreedMemoryKept &) = delete;
    FreedMemoryKept &operator=(const FreedMemoryKept &) = delete;
};

} // namespace lx
