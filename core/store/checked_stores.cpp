// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/checked_stores.h"

#include "platform/file_identity.h"
#include "platform/utf8_path.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <vector>

namespace lx {

namespace {

/// The list keeps the newest identities: a few hundred stores, a few kB.
constexpr std::size_t kKeptIdentities = 256;

std::mutex listMutex;

std::string environment(const char *name)
{
    const char *value = std::getenv(name);
    return value ? std::string(value) : std::string();
}

std::vector<std::string> readList(const std::string &file)
{
    std::vector<std::string> lines;
    std::ifstream in(utf8Path(file));
    for (std::string line; std::getline(in, line);)
        if (!line.empty())
            lines.push_back(line);
    return lines;
}

} // namespace

std::string checkedStoresFile()
{
    if (const char *set = std::getenv("LX_CHECKED_STORES_FILE"))
        return set;
#if defined(_WIN32)
    const std::string base = environment("LOCALAPPDATA");
#elif defined(__APPLE__)
    const std::string home = environment("HOME");
    const std::string base = home.empty() ? std::string() : home + "/Library/Caches";
#else
    std::string base = environment("XDG_CACHE_HOME");
    if (base.empty() && !environment("HOME").empty())
        base = environment("HOME") + "/.cache";
#endif
    return base.empty() ? std::string() : utf8Name(utf8Path(base) / "latency-explorer" / "checked-stores");
}

bool checkedBefore(const std::string &fileName)
{
    const std::string list = checkedStoresFile();
    const std::optional<std::string> identity = fileIdentity(fileName);
    if (list.empty() || !identity)
        return false;
    std::lock_guard lock(listMutex);
    const std::vector<std::string> lines = readList(list);
    return std::find(lines.begin(), lines.end(), *identity) != lines.end();
}

void rememberChecked(const std::string &fileName, const std::string &identityBefore)
{
    const std::string list = checkedStoresFile();
    const std::optional<std::string> identity = fileIdentity(fileName);
    if (list.empty() || !identity || (!identityBefore.empty() && *identity != identityBefore))
        return;
    std::lock_guard lock(listMutex);
    std::vector<std::string> lines = readList(list);
    if (std::find(lines.begin(), lines.end(), *identity) != lines.end())
        return;
    lines.push_back(*identity);
    std::error_code ec;
    std::filesystem::create_directories(utf8Path(list).parent_path(), ec);
    // Rewritten whole beside and renamed over: a reader never sees half a list (another process writing at
    // once may drop an entry, which costs a check).
    const std::size_t first = lines.size() > kKeptIdentities ? lines.size() - kKeptIdentities : 0;
    const std::string partial = list + ".partial-" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
    {
        std::ofstream out(utf8Path(partial), std::ios::trunc);
        for (std::size_t i = first; i < lines.size(); ++i)
            out << lines[i] << '\n';
        if (!out)
            return;
    }
    std::filesystem::rename(utf8Path(partial), utf8Path(list), ec);
}

} // namespace lx
