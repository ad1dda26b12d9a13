// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

/// \file interrupt_signal.h
/// Ctrl-C as the Cancel button of a long import: SIGINT and SIGTERM on Linux and macOS, the console's
/// control handler on Windows (where a console program gets no signal of its own).

/// Installs the Ctrl-C handler that interrupted() reports; a second Ctrl-C (or SIGTERM) ends the process at once.
void catchInterrupt();

/// True when Ctrl-C was pressed.
bool interrupted();
