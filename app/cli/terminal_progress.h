// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/importer.h"

#include <ostream>

/// \file terminal_progress.h
/// Progress of a long import on the terminal, and Ctrl-C as its Cancel button.

/// A progress callback that redraws one line on `err` at most ten times a second (only when stderr is a
/// terminal: scripts get no control characters) and returns false once the user pressed Ctrl-C.
lx::ProgressCallback terminalProgress(std::ostream &err);

/// Installs the Ctrl-C handler that terminalProgress() reports; a second Ctrl-C ends the process at once.
void catchInterrupt();

/// True when Ctrl-C was pressed.
bool interrupted();
