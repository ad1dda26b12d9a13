// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <ostream>
#include <string>
#include <vector>

/// \file generate_command.h
/// `latency-explorer-cli generate`: writes a simulated trace of a server under rising load
/// (core/simulation) in one of the native forms, optionally zstd-compressed. It makes sample_traces/
/// and the benchmark input.

/// Runs `generate` with \a args, the arguments after the word `generate`.
/// Options: --requests N, --seed S, --form timestamps|durations|csv, --token-times-every K, --zstd,
/// -o/--output FILE (required; `-` writes to \a out), --help.
/// \return 0 on success, 1 for bad arguments (with the usage on \a err), 2 when the output cannot be
/// written. A one-line summary goes to \a err.
int runGenerateCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
