// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/importer.h"

#include <ostream>

/// \file terminal_progress.h
/// Progress of a long import on the terminal; Ctrl-C (interrupt_signal.h) is its Cancel button.

/// A progress callback that redraws one line on `err` at most ten times a second (only when stderr is a
/// terminal: scripts get no control characters) and returns false once the user pressed Ctrl-C.
lx::ProgressCallback terminalProgress(std::ostream &err);
