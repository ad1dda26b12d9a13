// SPDX-License-Identifier: GPL-3.0-or-later
// The filter language's tokens. Numbers keep a unit written against them ("150ms"); a word "attr." right
// before a quote makes one token of an attribute name that needs quoting; 2024-05-01T12:00:00Z is one
// token, so that a time needs no quotes.

#include "filter/filter_tokenizer.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iterator>

namespace lx::filter {

void fail(std::size_t pos, std::size_t len, std::string message)
{
    throw SyntaxError{{pos, len, std::move(message)}};
}

namespace {

bool isDigit(unsigned char c)
{
    return c >= '0' && c <= '9';
}
bool isLetter(unsigned char c)
{
    return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
}
// Bytes of multi-byte UTF-8 count as letters: attribute names and the unit µs may use them.
bool isWordStart(unsigned char c)
{
    return isLetter(c) || c == '_' || c >= 0x80;
}
bool isWordChar(unsigned char c)
{
    return isWordStart(c) || isDigit(c) || c == '.';
}

/// One ASCII byte for a message: "#", or \x00 for a control character.
std::string describeByte(unsigned char c)
{
    char buf[8];
    std::snprintf(buf, sizeof buf, c >= 0x20 && c < 0x7F ? "\"%c\"" : "\\x%02x", static_cast<unsigned>(c));
    return buf;
}

/// Reads the string literal whose quote is at `i` into `out`; returns the offset after its closing quote.
std::size_t readString(std::string_view s, std::size_t i, std::string &out)
{
    const char quote = s[i];
    for (std::size_t k = i + 1; k < s.size(); ++k) {
        const auto c = static_cast<unsigned char>(s[k]);
        if (c == static_cast<unsigned char>(quote))
            return k + 1;
        if (c < 0x20 && c != '\t')
            fail(k, 1, "control character " + describeByte(c) + " in a string (write \\n or \\t)");
        if (c != '\\') {
            out += static_cast<char>(c);
            continue;
        }
        if (++k == s.size())
            break;
        const std::size_t at = std::string_view("\\\"'ntr").find(s[k]);
        if (at == std::string_view::npos) {
            std::size_t end = k + 1; // the whole character after the backslash, for the underline
            while (end < s.size() && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80)
                ++end;
            fail(k - 1, end - k + 1,
                 "unknown escape \"\\" + std::string(s.substr(k, end - k))
                     + "\" (use \\\\, \\\", \\', \\n, \\t or \\r)");
        }
        out += "\\\"'\n\t\r"[at];
    }
    fail(i, s.size() - i, "unclosed string: it needs a closing " + std::string(1, quote));
}

/// Whether the token just read puts a value next: after =, !=, ~ (a text compared), or in a list of
/// `in (...)`. There a bare value runs to the next space or symbol (bareValueEnd()).
bool valueComesNext(const std::vector<Token> &tokens)
{
    if (tokens.empty() || tokens.back().kind != Tok::Op)
        return false;
    const std::string &op = tokens.back().text;
    if (op == "=" || op == "==" || op == "!=" || op == "<>" || op == "~" || op == ",")
        return true;
    return op == "(" && tokens.size() >= 2 && tokens[tokens.size() - 2].kind == Tok::Word
        && lowered(tokens[tokens.size() - 2].text) == "in";
}

/// Where a bare value starting at `i` ends: `model = llama-3.1-70b`, `route = /v1/chat/completions`,
/// written without quotes as people write them. It starts with a letter or '/' and runs to a space, a
/// parenthesis, a comma, a quote or a comparison or logic symbol. npos when it is a plain word (or not a
/// bare value at all), which the usual tokens read.
std::size_t bareValueEnd(std::string_view s, std::size_t i)
{
    const auto c = static_cast<unsigned char>(s[i]);
    if (!isWordStart(c) && c != '/')
        return std::string_view::npos;
    std::size_t end = i;
    bool plainWord = true;
    for (; end < s.size() && std::string_view(" \t\r\n(),\"'&|!<>=~").find(s[end]) == std::string_view::npos; ++end)
        plainWord = plainWord && isWordChar(static_cast<unsigned char>(s[end]));
    return plainWord && c != '/' ? std::string_view::npos : end;
}

} // namespace

std::string lowered(std::string_view s)
{
    std::string out(s);
    for (char &c : out)
        c = c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c;
    return out;
}

std::string quoted(std::string_view s)
{
    std::size_t cut = std::min<std::size_t>(s.size(), 40);
    while (cut < s.size() && cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80)
        --cut;
    return "\"" + std::string(s.substr(0, cut)) + (cut < s.size() ? "...\"" : "\"");
}

std::size_t invalidUtf8At(std::string_view s)
{
    static constexpr std::uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        const std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
        if (n == 0 || i + n > s.size())
            return i;
        std::uint32_t cp = n == 1 ? c : c & (0x7Fu >> n);
        for (std::size_t k = 1; k < n; ++k) {
            const auto b = static_cast<unsigned char>(s[i + k]);
            if ((b & 0xC0) != 0x80)
                return i;
            cp = cp << 6 | (b & 0x3Fu);
        }
        if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return i;
        i += n;
    }
    return std::string_view::npos;
}

std::vector<Token> tokenize(std::string_view s)
{
    static constexpr std::string_view kSymbols[]
        = {"==", "!=", "<>", "<=", ">=", "&&", "||", "=", "<", ">", "~", "!", "(", ")", ","};
    std::vector<Token> out;
    const auto at = [&](std::size_t k) { return k < s.size() ? static_cast<unsigned char>(s[k]) : 0; };
    for (std::size_t i = 0;;) {
        while (at(i) == ' ' || at(i) == '\t' || at(i) == '\n' || at(i) == '\r')
            ++i;
        Token t;
        t.pos = i;
        const unsigned char c = at(i);
        if (i >= s.size()) {
            out.push_back(std::move(t));
            return out;
        }
        if (c == '"' || c == '\'') {
            t.kind = Tok::String;
            i = readString(s, i, t.text);
        } else if (const std::size_t end = valueComesNext(out) ? bareValueEnd(s, i) : std::string_view::npos;
                   end != std::string_view::npos) {
            t.kind = Tok::String; // as if it were quoted
            t.text = s.substr(i, end - i);
            i = end;
        } else if (isDigit(c) && isDigit(at(i + 1)) && isDigit(at(i + 2)) && isDigit(at(i + 3)) && at(i + 4) == '-') {
            t.kind = Tok::Time; // 2024-05-01T12:00:00Z, written without quotes
            while (isDigit(at(i)) || isLetter(at(i)) || at(i) == ':' || at(i) == '.' || at(i) == '-' || at(i) == '+')
                ++i;
            t.text = s.substr(t.pos, i - t.pos);
        } else if (isDigit(c) || (c == '-' && isDigit(at(i + 1)))) {
            t.kind = Tok::Number;
            for (++i; isDigit(at(i));)
                ++i;
            if (at(i) == '.' && isDigit(at(i + 1))) {
                for (i += 2; isDigit(at(i));)
                    ++i;
            }
            t.text = s.substr(t.pos, i - t.pos);
            const std::size_t unitStart = i;
            while (isWordStart(at(i)) || isDigit(at(i)))
                ++i;
            t.unit = s.substr(unitStart, i - unitStart);
        } else if (isWordStart(c)) {
            t.kind = Tok::Word;
            while (isWordChar(at(i)))
                ++i;
            t.text = s.substr(t.pos, i - t.pos);
            if (lowered(t.text) == "attr." && (at(i) == '"' || at(i) == '\'')) {
                t.kind = Tok::Attr; // attr."odd name": the decoded string is the attribute's name
                t.text.clear();
                i = readString(s, i, t.text);
            }
        } else {
            const auto *symbol = std::find_if(std::begin(kSymbols), std::end(kSymbols),
                                              [&](std::string_view op) { return s.substr(i).starts_with(op); });
            if (symbol == std::end(kSymbols)) { // one ASCII byte: bytes >= 0x80 start words
                fail(i, 1,
                     "unexpected character " + describeByte(c)
                         + (c == '&' || c == '|' ? " (did you mean " + std::string(2, static_cast<char>(c)) + "?)"
                                                 : ""));
            }
            t.kind = Tok::Op;
            t.text = *symbol;
            i += symbol->size();
        }
        t.len = i - t.pos;
        out.push_back(std::move(t));
    }
}

std::size_t editDistance(std::string_view a, std::string_view b)
{
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i) {
        for (std::size_t j = 0; j <= b.size(); ++j) {
            if (i == 0 || j == 0) {
                d[i][j] = i + j;
                continue;
            }
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    }
    return d[a.size()][b.size()];
}

} // namespace lx::filter
