// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/already_imported.h"

#include "platform/file_identity.h"
#include "platform/utf8_path.h"

#include <filesystem>

namespace lx {

namespace {

bool sameFile(const std::filesystem::path &a, const std::string &b)
{
    std::error_code ec;
    return std::filesystem::equivalent(a, utf8Path(b), ec) && !ec;
}

} // namespace

std::string alreadyImported(const std::string &path, const std::vector<ImportRun> &runs,
                            const std::vector<FileImport> &earlier)
{
    const std::filesystem::path file = utf8Path(path);
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec))
        return {};
    for (const FileImport &before : earlier) {
        if (before.outcome == FileImport::Outcome::Complete && before.accepted > 0 && sameFile(file, before.path))
            return "given twice: imported once, as " + before.path;
    }
    const auto size = std::filesystem::file_size(file, ec);
    if (ec)
        return {};
    // A file written or moved into place since its import began (a log still written to, a benchmark run
    // again into the same name) is imported again: what it holds now is not what the investigation holds.
    // The store keeps the path, not the file: the one it names now must be as large, and unchanged since.
    const std::optional<std::int64_t> changed = lastChangedNs(path);
    if (!changed)
        return {};
    for (const ImportRun &run : runs) {
        if (run.outcome == outcomeName(FileImport::Outcome::Complete) && run.accepted > 0
            && run.bytes == static_cast<std::int64_t>(size) && *changed < run.startedNs && sameFile(file, run.path))
            return "already in this investigation (import " + std::to_string(run.id) + ", "
                + std::to_string(run.accepted) + " requests): not imported again";
    }
    return {};
}

std::string alreadyMerged(const std::string &path, const std::string &intoPath, const std::vector<StoreMerge> &earlier)
{
    const std::filesystem::path file = utf8Path(path);
    if (!intoPath.empty() && sameFile(file, intoPath))
        return "is this investigation itself: not merged into itself";
    for (const StoreMerge &before : earlier) {
        if (before.merged && sameFile(file, before.path))
            return "given twice: merged once, as " + before.path;
    }
    return {};
}

} // namespace lx
