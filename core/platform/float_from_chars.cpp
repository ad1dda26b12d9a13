// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/float_from_chars.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>

#if defined(_WIN32)
#include <locale.h>
#elif defined(__APPLE__)
#include <xlocale.h>
#else
#include <locale.h>
#endif

namespace lx {

namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

/// Whether [p, last) starts with `word`, ignoring case.
bool startsWith(const char *p, const char *last, const char *word)
{
    for (; *word; ++p, ++word)
        if (p == last || lower(*p) != *word)
            return false;
    return true;
}

/// The end of the longest prefix in from_chars' general format, and whether a non-zero digit is in its
/// mantissa (a zero result of such text underflowed); `first` when there is none.
const char *scanNumber(const char *first, const char *last, bool &nonZero)
{
    const char *p = first;
    if (p != last && *p == '-')
        ++p;
    if (startsWith(p, last, "inf")) {
        nonZero = true;
        return p + (startsWith(p, last, "infinity") ? 8 : 3);
    }
    if (startsWith(p, last, "nan")) {
        p += 3;
        // nan(n-char-sequence), taken only when the parenthesis closes
        if (p != last && *p == '(') {
            const char *q = p + 1;
            while (q != last && (isDigit(*q) || (lower(*q) >= 'a' && lower(*q) <= 'z') || *q == '_'))
                ++q;
            if (q != last && *q == ')')
                p = q + 1;
        }
        return p;
    }
    std::size_t digits = 0;
    for (; p != last && isDigit(*p); ++p, ++digits)
        nonZero = nonZero || *p != '0';
    if (p != last && *p == '.') {
        ++p;
        for (; p != last && isDigit(*p); ++p, ++digits)
            nonZero = nonZero || *p != '0';
    }
    if (digits == 0)
        return first;
    if (p != last && (*p == 'e' || *p == 'E')) {
        const char *q = p + 1;
        if (q != last && (*q == '+' || *q == '-'))
            ++q;
        if (q != last && isDigit(*q)) {
            while (q != last && isDigit(*q))
                ++q;
            p = q;
        }
    }
    return p;
}

/// strtod in the "C" locale, whatever locale the process (Qt's, a user's LC_NUMERIC) has set.
double strtodC(const char *text, char **end)
{
#if defined(_WIN32)
    static const _locale_t c = _create_locale(LC_ALL, "C");
    return _strtod_l(text, end, c);
#else
    static const locale_t c = newlocale(LC_ALL_MASK, "C", static_cast<locale_t>(nullptr));
    return strtod_l(text, end, c);
#endif
}

} // namespace

std::from_chars_result fromCharsFallback(const char *first, const char *last, double &value)
{
    bool nonZero = false;
    const char *end = scanNumber(first, last, nonZero);
    if (end == first)
        return {first, std::errc::invalid_argument};
    const std::string text(first, end); // strtod reads up to a NUL, which [first, last) need not have
    errno = 0;
    const double result = strtodC(text.c_str(), nullptr);
    const bool isInfinityText = lower(text[text[0] == '-' ? 1 : 0]) == 'i';
    if ((std::isinf(result) && !isInfinityText) || (result == 0 && nonZero))
        return {end, std::errc::result_out_of_range};
    value = result;
    return {end, std::errc()};
}

} // namespace lx
