// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <charconv>
#include <locale>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <vector>

/// \file cli_args.h
/// A small reader of `--name value` / `--flag` arguments shared by the CLI's commands.

class CliArgs {
public:
    explicit CliArgs(std::vector<std::string> args) : m_args(std::move(args)) {}

    /// True when the next argument is `name` (consumed).
    bool flag(const char *name);
    /// True when the next argument is `name` followed by a value (both consumed); an error when the
    /// value is missing.
    bool option(const char *name, std::string &value);
    /// The same for an option that takes one value: given a second time, an error that names both values
    /// (the last would otherwise win without a word, and a script run into the wrong store).
    bool single(const char *name, std::string &value);
    /// The next argument if it is not an option (consumed).
    bool positional(std::string &value);

    bool atEnd() const { return m_pos >= m_args.size(); }
    const std::string &current() const { return m_args[m_pos]; }
    const std::string &error() const { return m_error; }

private:
    std::vector<std::string> m_args;
    std::size_t m_pos = 0;
    std::map<std::string, std::string, std::less<>> m_singles; ///< the single options given, with their value
    std::string m_error;
};

/// The `--mapping NAME|FILE` option of import and report: how OTLP spans become requests (docs/OTLP.md).
inline constexpr const char *kSpanMappingUsage =
    "  --mapping NAME|FILE    how OTLP spans become requests: auto (default: vllm, sglang, tgi), vllm,\n"
    "                         sglang, tgi, http-gateway, or a mapping file (docs/OTLP.md)\n";

/// Empty when `nameOrFile` is a preset or a valid mapping file, else the reason, naming the file.
std::string checkSpanMapping(const std::string &nameOrFile);

/// A whole argument as a number of type T: nullopt for empty text, trailing characters or overflow.
/// Floating point is read in the "C" locale through a stream (some standard libraries lack
/// std::from_chars for it), integers by std::from_chars.
template<typename T>
std::optional<T> parseNumber(std::string_view text)
{
    if constexpr (std::is_floating_point_v<T>) {
        std::istringstream in{std::string(text)};
        in.imbue(std::locale::classic());
        T value{};
        in >> value;
        if (text.empty() || !in || in.peek() != std::char_traits<char>::eof())
            return std::nullopt;
        return value;
    } else {
        T value{};
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (ec != std::errc() || end != text.data() + text.size())
            return std::nullopt;
        return value;
    }
}
