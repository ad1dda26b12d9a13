// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "filter/request_filter.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

/// \file filter_expression.h
/// The filter bar's expression language, shared by the GUI and the CLI, e.g.
/// `model = "llama-3.1-70b" and e2e > 2s and dominant = queue`. The grammar, the fields and their units
/// are in docs/FILTER.md.

namespace lx {

/// Why an expression does not compile, and where: the GUI underlines [position, position + length).
struct FilterError {
    std::size_t position = 0; ///< byte offset of the offending token in the text
    std::size_t length = 0; ///< its length in bytes; 0 at the end of the text
    std::string message; ///< for people, e.g. `unknown field "e2" (did you mean e2e?)`
};

/// Compiles a filter expression into a condition over `requests r` for RequestFilter::expression.
///
/// The SQL text of the result is assembled only from fixed fragments of this program: every literal of
/// the user's text (strings, numbers, attribute names as JSON paths) reaches SQLite as a bound value, so
/// no character the user typed can ever become SQL. An empty or all-blank text compiles to "1".
/// Comparisons never match a value that was not measured (docs/FILTER.md, "Not measured").
std::variant<SqlCondition, FilterError> compileFilterExpression(std::string_view text);

/// A filter of the requests the expression selects: its compiled condition, or no condition at all for
/// an empty text (so that an unfiltered query stays the plain one). What the filter bar, `plot --filter`
/// and the CDF comparison apply.
std::variant<RequestFilter, FilterError> filterFromExpression(std::string_view text);

/// The field names the language knows, in the order of docs/FILTER.md, for completion in the GUI.
/// Any other name is an attribute of the request (`region`, `attr."odd name"`).
std::vector<std::string_view> filterFieldNames();

} // namespace lx
