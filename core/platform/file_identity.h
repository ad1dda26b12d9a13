// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>

/// \file file_identity.h
/// What tells a file's present content apart without reading it: on Linux and macOS the device and inode,
/// the size, and the modification and change times in ns (stat: every write moves the change time, and no
/// user can set it back); on Windows the volume serial number, the file index, the size, and the last write
/// and change times. A copy is another file, an edit another identity.

namespace lx {

/// The identity of the file at \a utf8Path as one line of text; nullopt when it cannot be queried.
std::optional<std::string> fileIdentity(const std::string &utf8Path);

/// When the file at \a utf8Path was last written or changed (renamed into place, its attributes set), in ns
/// since the Unix epoch: the later of its modification and change times. Nullopt when it cannot be queried.
std::optional<std::int64_t> lastChangedNs(const std::string &utf8Path);

} // namespace lx
