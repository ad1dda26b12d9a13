// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

/// \file console.h
/// The terminal the CLI runs in, on every system: its arguments and its output as UTF-8, and whether
/// stderr is a terminal (the progress line is drawn only there).

/// The command line's arguments after the program's name, as UTF-8. On Linux and macOS these are argv as
/// it is; on Windows argv is in the ANSI code page, which cannot hold `trace-é-中.jsonl`, so the arguments
/// are taken from the wide command line instead.
std::vector<std::string> utf8Arguments(int argc, char **argv);

/// Makes the console show the UTF-8 the CLI writes (Windows: the UTF-8 code page, and the escape sequences
/// the progress line redraws itself with); elsewhere the terminal does already.
void prepareConsole();

/// True when the standard error is a terminal, not a file or a pipe.
bool stderrIsTerminal();
