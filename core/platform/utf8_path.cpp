// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/utf8_path.h"

namespace lx {

#if defined(_WIN32)

std::filesystem::path utf8Path(std::string_view utf8)
{
    // A char8_t string is decoded as UTF-8 by std::filesystem::path on every standard library.
    return std::filesystem::path(std::u8string(utf8.begin(), utf8.end()));
}

std::string utf8Name(const std::filesystem::path &path)
{
    const std::u8string text = path.u8string();
    return std::string(text.begin(), text.end());
}

std::FILE *openFile(const std::string &utf8, const char *mode)
{
    // The mode is ASCII: widened character by character.
    const std::wstring wideMode(mode, mode + std::char_traits<char>::length(mode));
    return ::_wfopen(utf8Path(utf8).c_str(), wideMode.c_str());
}

#else // Linux, macOS: a file name is bytes, and these are UTF-8 text

std::filesystem::path utf8Path(std::string_view utf8) { return std::filesystem::path(utf8); }

std::string utf8Name(const std::filesystem::path &path) { return path.string(); }

std::FILE *openFile(const std::string &utf8, const char *mode) { return std::fopen(utf8.c_str(), mode); }

#endif

} // namespace lx
