// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/file_identity.h"

#include "platform/utf8_path.h"

#include <algorithm>
#include <cstdint>

#if defined(_WIN32)
#include <windows.h>
#else
#include <sys/stat.h>
#endif

namespace lx {

#if defined(_WIN32)

namespace {

struct FileInfo {
    BY_HANDLE_FILE_INFORMATION byHandle {};
    FILE_BASIC_INFO basic {}; // the change time, which BY_HANDLE_FILE_INFORMATION does not give
};

/// Both records of a file, read through a handle that asks no access (a file another program holds open
/// is read too) and opens a directory as well.
std::optional<FileInfo> readFileInfo(const std::string &utf8Path)
{
    const std::wstring wide = lx::utf8Path(utf8Path).wstring();
    HANDLE file = ::CreateFileW(wide.c_str(), 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                                OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, nullptr);
    if (file == INVALID_HANDLE_VALUE)
        return std::nullopt;
    FileInfo info;
    const bool ok = ::GetFileInformationByHandle(file, &info.byHandle)
        && ::GetFileInformationByHandleEx(file, FileBasicInfo, &info.basic, sizeof info.basic);
    ::CloseHandle(file);
    if (!ok)
        return std::nullopt;
    return info;
}

} // namespace

std::optional<std::string> fileIdentity(const std::string &utf8Path)
{
    const std::optional<FileInfo> read = readFileInfo(utf8Path);
    if (!read)
        return std::nullopt;
    const BY_HANDLE_FILE_INFORMATION &info = read->byHandle;
    const auto join = [](DWORD high, DWORD low) { return (static_cast<std::uint64_t>(high) << 32) | low; };
    return std::to_string(info.dwVolumeSerialNumber) + ':'
        + std::to_string(join(info.nFileIndexHigh, info.nFileIndexLow)) + ':'
        + std::to_string(join(info.nFileSizeHigh, info.nFileSizeLow)) + ':'
        + std::to_string(join(info.ftLastWriteTime.dwHighDateTime, info.ftLastWriteTime.dwLowDateTime)) + ':'
        + std::to_string(read->basic.ChangeTime.QuadPart);
}

std::optional<std::int64_t> lastChangedNs(const std::string &utf8Path)
{
    const std::optional<FileInfo> read = readFileInfo(utf8Path);
    if (!read)
        return std::nullopt;
    const FILE_BASIC_INFO &basic = read->basic;
    // 100 ns ticks since 1601-01-01.
    constexpr std::int64_t kTicksTo1970 = 116444736000000000;
    const std::int64_t ticks = std::max(basic.LastWriteTime.QuadPart, basic.ChangeTime.QuadPart);
    return (ticks - kTicksTo1970) * 100;
}

#else // Linux, macOS

namespace {

/// The file's stat and its modification and change times in ns since the Unix epoch.
struct StatTimes {
    struct stat st { };
    std::int64_t modifiedNs = 0;
    std::int64_t changedNs = 0;
};

std::optional<StatTimes> statTimes(const std::string &utf8Path)
{
    StatTimes t;
    if (::stat(utf8Path.c_str(), &t.st) != 0)
        return std::nullopt;
#if defined(__APPLE__)
    const struct timespec modified = t.st.st_mtimespec, changed = t.st.st_ctimespec;
#else
    const struct timespec modified = t.st.st_mtim, changed = t.st.st_ctim;
#endif
    const auto ns = [](const struct timespec &time) {
        return static_cast<std::int64_t>(time.tv_sec) * 1'000'000'000 + static_cast<std::int64_t>(time.tv_nsec);
    };
    t.modifiedNs = ns(modified);
    t.changedNs = ns(changed);
    return t;
}

} // namespace

std::optional<std::string> fileIdentity(const std::string &utf8Path)
{
    const std::optional<StatTimes> t = statTimes(utf8Path);
    if (!t)
        return std::nullopt;
    return std::to_string(static_cast<std::uint64_t>(t->st.st_dev)) + ':'
        + std::to_string(static_cast<std::uint64_t>(t->st.st_ino)) + ':'
        + std::to_string(static_cast<std::int64_t>(t->st.st_size)) + ':' + std::to_string(t->modifiedNs) + ':'
        + std::to_string(t->changedNs);
}

std::optional<std::int64_t> lastChangedNs(const std::string &utf8Path)
{
    const std::optional<StatTimes> t = statTimes(utf8Path);
    if (!t)
        return std::nullopt;
    return std::max(t->modifiedNs, t->changedNs);
}

#endif

} // namespace lx
