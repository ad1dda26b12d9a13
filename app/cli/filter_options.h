// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "filter/request_filter.h"

#include <ostream>
#include <string>
#include <vector>

class CliArgs;

/// \file filter_options.h
/// One filter language on the command line: `report`, `compare` and `plot` take `--filter EXPR`
/// (docs/FILTER.md); `--model`, `--route`, `--status` and `--time-range` are shorthands that narrow the
/// same RequestFilter, so that every option given is ANDed.

/// The filter options of one command, as given: the expressions are compiled after the arguments are
/// read, since a bad expression is no usage error but a refused filter (exit status 2).
struct FilterOptions {
    lx::RequestFilter filter;             ///< the shorthands, then the compiled expressions
    std::vector<std::string> expressions; ///< each --filter, ANDed
    bool allowTimeRange = true;           ///< false for `compare`, whose windows are its own ranges
    std::vector<std::string> given;       ///< each option as given ("--model x"), for saying what was kept
};

/// The usage lines of the filter options, `withTimeRange` or without --time-range.
std::string filterUsage(bool withTimeRange);

/// True when the next argument is a filter option (consumed), with `error` set when its value is bad.
bool parseFilterOption(CliArgs &args, FilterOptions &options, std::string &error);

/// Compiles the --filter expressions into options.filter. On error writes `<command>: --filter: <message>`
/// with the expression and a caret under the offending token to `err`, and returns false.
bool compileFilterOptions(FilterOptions &options, const char *command, std::ostream &err);

/// The options as given, space-separated ("--model x --status ok"); empty for none.
std::string givenText(const FilterOptions &options);

/// The compiled options' filter within the request starts of `window` (a comparison's --baseline-range or
/// --incident-range).
lx::RequestFilter withinWindow(const FilterOptions &options, const lx::RequestFilter &window);
