// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

/// \file thread_priority.h
/// A thread whose work can wait: the parsers of an import, which are more than the cores beside the writer
/// and the thread that puts their blocks in order. Each of those two is one thread the whole import waits
/// on; a parser that takes their core when all are ready slows the import, a parser that takes a core left
/// idle speeds it up. Linux lowers the calling thread's priority (nice 10 more: against every process of
/// the machine, as any nice value), Windows to below normal, macOS to the utility class (on Apple silicon
/// that may mean its efficiency cores); elsewhere nothing changes.

namespace lx {

void lowerThisThreadsPriority() noexcept;

} // namespace lx
