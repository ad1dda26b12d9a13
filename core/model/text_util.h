// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <string_view>

/// \file text_util.h
/// Small text helpers shared by the importers and the reports.

namespace lx {

/// At most maxBytes of text as valid UTF-8 without control characters (a binary line stays readable and
/// safe to print or put in JSON); "..." marks a cut.
std::string excerptOf(std::string_view text, std::size_t maxBytes);

/// The value of a hexadecimal digit (either case), -1 for any other character.
constexpr int hexDigit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

} // namespace lx
