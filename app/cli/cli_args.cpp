// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_args.h"

#include "ingest/span_mapping.h"

bool CliArgs::flag(const char *name)
{
    if (atEnd() || m_args[m_pos] != name)
        return false;
    ++m_pos;
    return true;
}

bool CliArgs::option(const char *name, std::string &value)
{
    if (atEnd())
        return false;
    const std::string &arg = m_args[m_pos];
    const std::string prefix = std::string(name) + "=";
    if (arg.rfind(prefix, 0) == 0) {
        value = arg.substr(prefix.size());
        ++m_pos;
        return true;
    }
    if (arg != name)
        return false;
    if (m_pos + 1 >= m_args.size()) {
        m_error = std::string(name) + " needs a value";
        return false;
    }
    value = m_args[m_pos + 1];
    m_pos += 2;
    return true;
}

bool CliArgs::single(const char *name, std::string &value)
{
    const std::size_t at = m_pos;
    if (!option(name, value))
        return false;
    const auto [given, first] = m_singles.emplace(name, value);
    if (first)
        return true;
    m_pos = at; // left unconsumed: the command stops at it and says why
    m_error = std::string(name) + " is given twice ('" + given->second + "', then '" + value + "'): give it once";
    return false;
}

bool CliArgs::positional(std::string &value)
{
    if (atEnd() || (m_args[m_pos].size() > 1 && m_args[m_pos][0] == '-'))
        return false;
    value = m_args[m_pos++];
    return true;
}

std::string checkSpanMapping(const std::string &nameOrFile)
{
    std::string why;
    return lx::loadSpanMappings(nameOrFile, &why) ? std::string() : why;
}
