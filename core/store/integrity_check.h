// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <thread>

/// \file integrity_check.h
/// The once-a-session `PRAGMA quick_check` of a store (store_trust.h) on a connection and a thread of its
/// own, beside a command that reads the store meanwhile. The check reads every page of the file: on a
/// million requests it took as long as the report itself (0.3-0.4 s each), so `report STORE` opens the
/// store with the check deferred (Store::openReadOnly(..., IntegrityCheck::Deferred)), starts this, computes,
/// and writes nothing before wait() says the file is sound. What it read of a damaged file is then dropped:
/// the command says the store is damaged, as an open with the check first does.

namespace lx {

class BackgroundIntegrityCheck {
public:
    /// Starts the check of \a fileName (the file SQLite opens), unless this process made or checked it.
    explicit BackgroundIntegrityCheck(std::string fileName);
    ~BackgroundIntegrityCheck();
    BackgroundIntegrityCheck(const BackgroundIntegrityCheck &) = delete;
    BackgroundIntegrityCheck &operator=(const BackgroundIntegrityCheck &) = delete;

    /// Waits for the check: empty when the file is sound (it is then trusted for the session), else the
    /// sentence an open would have refused it with ("the store is damaged (...)").
    std::string wait();

private:
    std::string m_fileName;
    std::string m_problem;
    std::thread m_thread;
};

} // namespace lx
