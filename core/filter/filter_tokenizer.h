// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "filter/filter_expression.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

/// \file filter_tokenizer.h
/// The tokens of the filter language (docs/FILTER.md) and the text helpers its messages need. Internal to
/// filter_expression.cpp: the public interface is compileFilterExpression().

namespace lx::filter {

enum class Tok { End, Word, Number, String, Time, Attr, Op };

/// One token, with its place in the text for error messages.
struct Token {
    Tok kind = Tok::End;
    std::size_t pos = 0; ///< byte offset in the text
    std::size_t len = 0; ///< bytes
    std::string text; ///< Word, Op, Time: as typed; String, Attr (attr."name"): decoded; Number: without its unit
    std::string unit; ///< Number: a unit written against it ("2s"), else empty
};

/// Thrown by fail() and caught by compileFilterExpression() only: errors leave deep recursion in one step.
struct SyntaxError {
    FilterError error;
};

[[noreturn]] void fail(std::size_t pos, std::size_t len, std::string message);

/// The tokens of the text, ending with one End token; fails on an unclosed string, a bad escape, a control
/// character or a character that starts no token.
std::vector<Token> tokenize(std::string_view text);

/// The offset of the first byte that is not part of well-formed UTF-8, or npos.
std::size_t invalidUtf8At(std::string_view text);

/// ASCII letters in lower case; other bytes as they are.
std::string lowered(std::string_view text);

/// Text of the input for a message: in double quotes, cut at 40 bytes on a character boundary.
std::string quoted(std::string_view text);

/// Optimal string alignment distance: edits, with a swap of neighbours counted as one.
std::size_t editDistance(std::string_view a, std::string_view b);

} // namespace lx::filter
