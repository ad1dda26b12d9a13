// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/file_identity.h"

#include "platform/utf8_path.h"

#include <cstdint>

#if defined(_WIN32)
#include <windows.h>
#else
#include <sys/stat.h>
#endif

namespace lx {

#if defined(_WIN32)

std::optional<std::string> fileIdentity(const std::string &utf8Path)
{
    const std::wstring wide = lx::utf8Path(utf8Path).wstring();
    HANDLE file = ::CreateFileW(wide.c_str(), 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr, OPEN_EXISTING,
                                FILE_FLAG_BACKUP_SEMANTICS, nullptr);
    if (file == INVALID_HANDLE_VALUE)
        return std::nullopt;
    BY_HANDLE_FILE_INFORMATION info{};
    FILE_BASIC_INFO basic{};
    const bool ok = ::GetFileInformationByHandle(file, &info) && ::GetFileInformationByHandleEx(file, FileBasicInfo, &basic, sizeof basic);
    ::CloseHandle(file);
    if (!ok)
        return std::nullopt;
    const auto join = [](DWORD high, DWORD low) { return (static_cast<std::uint64_t>(high) << 32) | low; };
    return std::to_string(info.dwVolumeSerialNumber) + ':' + std::to_string(join(info.nFileIndexHigh, info.nFileIndexLow)) + ':'
           + std::to_string(join(info.nFileSizeHigh, info.nFileSizeLow)) + ':'
           + std::to_string(join(info.ftLastWriteTime.dwHighDateTime, info.ftLastWriteTime.dwLowDateTime)) + ':'
           + std::to_string(basic.ChangeTime.QuadPart);
}

#else // Linux, macOS

std::optional<std::string> fileIdentity(const std::string &utf8Path)
{
    struct stat st {};
    if (::stat(utf8Path.c_str(), &st) != 0)
        return std::nullopt;
#if defined(__APPLE__)
    const struct timespec modified = st.st_mtimespec, changed = st.st_ctimespec;
#else
    const struct timespec modified = st.st_mtim, changed = st.st_ctim;
#endif
    const auto ns = [](const struct timespec &t) {
        return static_cast<std::int64_t>(t.tv_sec) * 1'000'000'000 + static_cast<std::int64_t>(t.tv_nsec);
    };
    return std::to_string(static_cast<std::uint64_t>(st.st_dev)) + ':' + std::to_string(static_cast<std::uint64_t>(st.st_ino)) + ':'
           + std::to_string(static_cast<std::int64_t>(st.st_size)) + ':' + std::to_string(ns(modified)) + ':' + std::to_string(ns(changed));
}

#endif

} // namespace lx
