// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/file_refusal.h"

#include "ingest/already_imported.h"
#include "store/store.h"

namespace lx {

namespace {

FileImport refused(const std::string &path, FileImport::Outcome outcome, std::string message)
{
    FileImport result;
    result.path = path;
    result.outcome = outcome;
    result.message = std::move(message);
    return result;
}

} // namespace

std::optional<FileImport> refusedBeforeReading(const std::string &path, const Store &store, const ImportState &state,
                                               const std::vector<FileImport> &earlier)
{
    if (state.mappingError)
        return refused(path, FileImport::Outcome::Unreadable, *state.mappingError);
    if (!store.isWritable())
        return refused(path, FileImport::Outcome::StoreError,
                       "cannot write the store " + store.fileName()
                           + ": it is read-only (a read-only file system,"
                             " or no permission to write it): nothing imported");
    if (state.cancelled)
        return refused(path, FileImport::Outcome::Cancelled, "cancelled before this file was read");
    if (std::string why = alreadyImported(path, state.runs, earlier); !why.empty())
        return refused(path, FileImport::Outcome::AlreadyImported, std::move(why));
    return std::nullopt;
}

} // namespace lx
