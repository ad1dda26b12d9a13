// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/text_util.h"

#include <algorithm>

namespace lx {

namespace {

/// Length of the valid UTF-8 sequence starting at text[i], or 0 when it is not one.
std::size_t utf8Length(std::string_view text, std::size_t i)
{
    const auto c = static_cast<unsigned char>(text[i]);
    std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > text.size())
        return 0;
    for (std::size_t k = 1; k < n; ++k) {
        if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80)
            return 0;
    }
    return n;
}

} // namespace

std::string excerptOf(std::string_view text, std::size_t maxBytes)
{
    std::string out;
    out.reserve(std::min(text.size(), maxBytes) + 3);
    std::size_t i = 0;
    while (i < text.size()) {
        const std::size_t n = utf8Length(text, i);
        if (out.size() + std::max<std::size_t>(n, 1) > maxBytes) {
            out += "...";
            break;
        }
        if (n == 0) {
            out += '?'; // not UTF-8: binary data
            ++i;
        } else if (n == 1 && static_cast<unsigned char>(text[i]) < 0x20) {
            out += text[i] == '\t' ? ' ' : '?';
            ++i;
        } else {
            out.append(text.substr(i, n));
            i += n;
        }
    }
    return out;
}

} // namespace lx
