// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <charconv>

/// \file float_from_chars.h
/// std::from_chars for a double, on every standard library. libc++ (macOS, clang -stdlib=libc++) has it for
/// integers only in version 14 (Debian 12's, and older Xcodes'); there the same contract is kept by a fallback: the text is the general
/// format of from_chars (no leading '+' or space, no hexadecimal), read whatever the process's locale.

namespace lx {

/// Reads the longest prefix of [first, last) in from_chars' general format: `-`? digits with an optional
/// fraction and exponent, or inf, infinity, nan. Returns invalid_argument when there is none (value
/// untouched) and result_out_of_range (value untouched) when the number overflows a double or underflows
/// to zero. The fallback for the standard libraries without std::from_chars(double); always compiled, so
/// that the tests compare it with std::from_chars where that exists.
std::from_chars_result fromCharsFallback(const char *first, const char *last, double &value);

/// std::from_chars(first, last, value) where the standard library has it, else fromCharsFallback().
inline std::from_chars_result fromChars(const char *first, const char *last, double &value)
{
#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L
    return std::from_chars(first, last, value);
#else
    return fromCharsFallback(first, last, value);
#endif
}

} // namespace lx
