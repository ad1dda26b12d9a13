// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

/// \file early_writeback.h
/// Has the system start writing a file's changed pages to the disk while the program goes on writing it.
/// An import writes the whole store in one transaction, whose commit waits for the disk (fsync): at ten
/// million requests that was gigabytes written at the very end, where nothing else could go on meanwhile.
/// Started as the import goes, the writing overlaps the parse. Linux has the call (sync_file_range, which
/// only starts the writing and waits for nothing); elsewhere this does nothing and the commit waits as before.

namespace lx {

class EarlyWriteback {
public:
    /// For the file at `utf8Path`, opened to be named to the system (read-only); nothing when it cannot be.
    explicit EarlyWriteback(const std::string &utf8Path);
    ~EarlyWriteback();
    EarlyWriteback(const EarlyWriteback &) = delete;
    EarlyWriteback &operator=(const EarlyWriteback &) = delete;

    /// Starts writing the pages of the file changed so far that are not being written already.
    void start() noexcept;

private:
    [[maybe_unused]] int m_fd = -1; // Linux only
};

} // namespace lx
