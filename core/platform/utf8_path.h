// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>

/// \file utf8_path.h
/// File names cross the core as UTF-8 std::string (what the command line, Qt's toStdString() and SQLite
/// speak). On Linux and macOS a narrow path is those bytes as they are; on Windows a narrow path is read in
/// the ANSI code page, so `std::fopen(name)`, `std::ifstream(name)` or `std::filesystem::path(name)` would
/// not find `trace-é-中.jsonl`. Every file the core opens goes through these functions instead.

namespace lx {

/// The path named by UTF-8 text. Elsewhere than Windows the bytes are kept as they are, so that a Linux
/// file name that is not valid UTF-8 still opens.
std::filesystem::path utf8Path(std::string_view utf8);

/// A path as UTF-8 text, the inverse of utf8Path().
std::string utf8Name(const std::filesystem::path &path);

/// std::fopen(utf8, mode) that opens the same file on every system (_wfopen on Windows).
std::FILE *openFile(const std::string &utf8, const char *mode);

} // namespace lx
