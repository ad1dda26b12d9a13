// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/integrity_check.h"

#include "store/sqlite_open.h"
#include "store/store_trust.h"

#include <sqlite3.h>

namespace lx {

BackgroundIntegrityCheck::BackgroundIntegrityCheck(std::string fileName) : m_fileName(std::move(fileName))
{
    if (knownSound(m_fileName))
        return;
    m_thread = std::thread([this] {
        sqlite3 *db = nullptr;
        if (openSqlite(m_fileName, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX) != SQLITE_OK) {
            m_problem = "the store could not be checked (" + std::string(db ? sqlite3_errmsg(db) : "out of memory") + ")";
            sqlite3_close_v2(db);
            return;
        }
        hardenConnection(db);
        if (!checkIntegrityOnce(db, m_fileName, &m_problem) && m_problem.empty())
            m_problem = "the store is damaged";
        sqlite3_close_v2(db);
    });
}

BackgroundIntegrityCheck::~BackgroundIntegrityCheck()
{
    if (m_thread.joinable())
        m_thread.join();
}

std::string BackgroundIntegrityCheck::wait()
{
    if (m_thread.joinable())
        m_thread.join();
    return m_problem;
}

} // namespace lx
