// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/early_writeback.h"

#if defined(__linux__)
#include <fcntl.h>
#include <unistd.h>
#endif

namespace lx {

#if defined(__linux__)

EarlyWriteback::EarlyWriteback(const std::string &utf8Path)
    : m_fd(::open(utf8Path.c_str(), O_RDONLY | O_CLOEXEC)) // Linux file names are the UTF-8 bytes
{
}

EarlyWriteback::~EarlyWriteback()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

void EarlyWriteback::start() noexcept
{
    // The whole file (0, 0); pages already on their way are left alone. A failure only means the commit
    // writes them, as without this.
    if (m_fd >= 0)
        ::sync_file_range(m_fd, 0, 0, SYNC_FILE_RANGE_WRITE);
}

#else // macOS and Windows: no call that starts the writing without waiting for it

EarlyWriteback::EarlyWriteback(const std::string &) {}
EarlyWriteback::~EarlyWriteback() = default;
void EarlyWriteback::start() noexcept {}

#endif

} // namespace lx
