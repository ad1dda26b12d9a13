// SPDX-License-Identifier: GPL-3.0-or-later
#include "source/clickhouse_endpoint.h"

#include "model/text_util.h"

#include <charconv>

namespace lx::source {

namespace {

bool urlDecode(std::string_view text, std::string &out)
{
    out.clear();
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '%') {
            const int high = i + 1 < text.size() ? hexDigit(text[i + 1]) : -1;
            const int low = i + 2 < text.size() ? hexDigit(text[i + 2]) : -1;
            if (high < 0 || low < 0)
                return false;
            out += static_cast<char>(high * 16 + low);
            i += 2;
        } else {
            out += text[i] == '+' ? ' ' : text[i];
        }
    }
    return true;
}

/// A database, table or user name: the store binds them as identifiers, but a name that no ClickHouse
/// deployment uses (control characters, empty) is refused here with a clearer reason.
bool plausibleName(std::string_view name)
{
    if (name.empty() || name.size() > 255)
        return false;
    for (char c : name) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            return false;
    }
    return true;
}

} // namespace

std::string ClickHouseEndpoint::httpBase() const
{
    const bool ipv6 = host.find(':') != std::string::npos;
    return scheme + "://" + (ipv6 ? "[" + host + "]" : host) + ":" + std::to_string(port) + "/";
}

std::string ClickHouseEndpoint::displayUrl() const
{
    const bool ipv6 = host.find(':') != std::string::npos;
    const std::string authority = (ipv6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
    return (scheme == "https" ? "https://" : "clickhouse://") + authority + "/" + urlEncode(database)
           + "?table=" + urlEncode(table) + "&user=" + urlEncode(user);
}

std::string urlEncode(std::string_view text)
{
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if ((u >= 'A' && u <= 'Z') || (u >= 'a' && u <= 'z') || (u >= '0' && u <= '9') || u == '-' || u == '_'
            || u == '.' || u == '~') {
            out += c;
        } else {
            out += '%';
            out += kHex[u >> 4];
            out += kHex[u & 0xF];
        }
    }
    return out;
}

bool parseClickHouseUrl(std::string_view url, ClickHouseEndpoint &endpoint, std::string *error)
{
    const auto fail = [&](std::string why) {
        if (error)
            *error = "not a ClickHouse URL (" + std::string(url) + "): " + why;
        return false;
    };
    ClickHouseEndpoint parsed;
    const std::size_t schemeEnd = url.find("://");
    if (schemeEnd == std::string_view::npos)
        return fail("expected clickhouse://HOST:PORT/DB?table=T, http:// or https://");
    const std::string_view scheme = url.substr(0, schemeEnd);
    if (scheme == "clickhouse" || scheme == "http") {
        parsed.scheme = "http";
        parsed.port = 8123;
    } else if (scheme == "https") {
        parsed.scheme = "https";
        parsed.port = 8443;
    } else {
        return fail("the scheme must be clickhouse, http or https");
    }
    std::string_view rest = url.substr(schemeEnd + 3);
    const std::size_t authorityEnd = rest.find_first_of("/?#");
    std::string_view authority = rest.substr(0, authorityEnd);
    rest = authorityEnd == std::string_view::npos ? std::string_view() : rest.substr(authorityEnd);
    if (const std::size_t at = authority.rfind('@'); at != std::string_view::npos) {
        const std::string_view userInfo = authority.substr(0, at);
        if (userInfo.find(':') != std::string_view::npos)
            return fail(std::string("a password in the URL is not accepted: set ") + kClickHousePasswordVariable);
        if (!urlDecode(userInfo, parsed.user) || !plausibleName(parsed.user))
            return fail("the user name is not valid");
        authority = authority.substr(at + 1);
    }
    std::string_view portText;
    if (authority.starts_with('[')) { // an IPv6 literal
        const std::size_t close = authority.find(']');
        if (close == std::string_view::npos)
            return fail("an IPv6 address without its closing ]");
        parsed.host = std::string(authority.substr(1, close - 1));
        const std::string_view after = authority.substr(close + 1);
        if (!after.empty() && !after.starts_with(':'))
            return fail("unexpected text after the IPv6 address");
        portText = after.empty() ? after : after.substr(1);
    } else {
        const std::size_t colon = authority.find(':');
        parsed.host = std::string(authority.substr(0, colon));
        portText = colon == std::string_view::npos ? std::string_view() : authority.substr(colon + 1);
    }
    if (parsed.host.empty())
        return fail("no host");
    for (char c : parsed.host) {
        if (static_cast<unsigned char>(c) <= 0x20 || c == '/' || c == '\\' || c == '%')
            return fail("the host is not valid");
    }
    if (!portText.empty() || authority.ends_with(':')) {
        int port = 0;
        const auto [end, ec] = std::from_chars(portText.data(), portText.data() + portText.size(), port);
        if (ec != std::errc() || end != portText.data() + portText.size() || port < 1 || port > 65535)
            return fail("the port must be a number from 1 to 65535");
        parsed.port = port;
    }
    if (const std::size_t hash = rest.find('#'); hash != std::string_view::npos)
        rest = rest.substr(0, hash);
    std::string_view path = rest.substr(0, rest.find('?'));
    const std::string_view query = rest.find('?') == std::string_view::npos ? std::string_view() : rest.substr(rest.find('?') + 1);
    while (path.starts_with('/'))
        path.remove_prefix(1);
    while (path.ends_with('/'))
        path.remove_suffix(1);
    if (!path.empty()) {
        if (path.find('/') != std::string_view::npos)
            return fail("the path must be the database alone");
        if (!urlDecode(path, parsed.database) || !plausibleName(parsed.database))
            return fail("the database name is not valid");
    }
    std::string_view remaining = query;
    while (!remaining.empty()) {
        const std::size_t amp = remaining.find('&');
        const std::string_view pair = remaining.substr(0, amp);
        remaining = amp == std::string_view::npos ? std::string_view() : remaining.substr(amp + 1);
        if (pair.empty())
            continue;
        const std::size_t eq = pair.find('=');
        const std::string_view key = pair.substr(0, eq);
        std::string value;
        if (eq == std::string_view::npos || !urlDecode(pair.substr(eq + 1), value))
            return fail("the query parameter '" + std::string(key) + "' has no valid value");
        if (key == "password")
            return fail(std::string("a password in the URL is not accepted: set ") + kClickHousePasswordVariable);
        std::string *target = key == "table" ? &parsed.table
                              : key == "database" ? &parsed.database
                              : key == "user" ? &parsed.user
                                              : nullptr;
        if (!target)
            return fail("unknown query parameter '" + std::string(key) + "' (table, database and user are read)");
        if (!plausibleName(value))
            return fail("the " + std::string(key) + " name is not valid");
        *target = std::move(value);
    }
    endpoint = std::move(parsed);
    return true;
}

} // namespace lx::source
