// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/read_connection.h"

#include <sqlite3.h>

#include <utility>

namespace lx {

ReadConnection::~ReadConnection() { close(); }

ReadConnection::ReadConnection(ReadConnection &&other) noexcept
    : m_db(std::exchange(other.m_db, nullptr))
    , m_owned(std::exchange(other.m_owned, false))
{
}

ReadConnection &ReadConnection::operator=(ReadConnection &&other) noexcept
{
    if (this != &other) {
        close();
        m_db = std::exchange(other.m_db, nullptr);
        m_owned = std::exchange(other.m_owned, false);
    }
    return *this;
}

void ReadConnection::close()
{
    if (m_owned)
        sqlite3_close_v2(m_db); // _v2: statements still open finalize first, never a leak or a failure
    m_db = nullptr;
    m_owned = false;
}

} // namespace lx
