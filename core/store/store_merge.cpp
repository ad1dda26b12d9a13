// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/store_merge.h"

#include "platform/utf8_path.h"
#include "store/import_runs.h"
#include "store/packed_stamps.h"
#include "store/request_join.h"
#include "store/sqlite_util.h"
#include "store/stamp_scan.h"
#include "store/store.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace lx {

namespace {

std::int64_t scalar(Store &store, const char *sql)
{
    Statement stmt(store.db(), sql);
    return stmt.valid() && stmt.step() == SQLITE_ROW ? sqlite3_column_int64(stmt.get(), 0) : 0;
}

/// Two rows of one import: a merge copies a run's path, start and counts as they are (only its id moves).
bool sameRun(const ImportRun &a, const ImportRun &b)
{
    return a.startedNs == b.startedNs && a.path == b.path && a.format == b.format && a.bytes == b.bytes
        && a.accepted == b.accepted && a.rejected == b.rejected;
}

/// Why `into` must not take the runs of `source` (empty when it may): it holds some or all of them already,
/// and their requests would be counted twice, every percentile weighted as if the incident had that traffic
/// twice. `*all` says whether it holds every one.
std::string runsHeldAlready(const Store &into, const Store &source, bool *all)
{
    const std::vector<ImportRun> held = listImportRuns(into);
    const std::vector<ImportRun> brought = listImportRuns(source);
    std::vector<const ImportRun *> twice;
    for (const ImportRun &run : brought) {
        if (std::any_of(held.begin(), held.end(), [&](const ImportRun &h) { return sameRun(h, run); }))
            twice.push_back(&run);
    }
    *all = !brought.empty() && twice.size() == brought.size();
    if (twice.empty())
        return {};
    const ImportRun &first = *twice.front();
    const std::string which = first.path + ", " + std::to_string(first.accepted) + " requests";
    if (*all)
        return "already in this investigation (merged before): its " + std::to_string(brought.size())
            + (brought.size() == 1 ? " import (" : " imports (the first: ") + which + "), not merged again";
    return "not merged: this investigation holds " + std::to_string(twice.size()) + " of its "
        + std::to_string(brought.size()) + " imports already (the first: " + which
        + "), whose requests would be counted twice; import its other files instead";
}

} // namespace

bool isSqliteFile(const std::string &path)
{
    // Only a regular file is opened to look: a pipe (`report <(zstdcat f)`) would lose what this read of it,
    // and a FIFO's second open would wait for a writer that never comes.
    std::error_code ec;
    if (!std::filesystem::is_regular_file(utf8Path(path), ec))
        return false;
    std::ifstream in(utf8Path(path), std::ios::binary);
    char header[16] = {};
    return in.read(header, sizeof header) && std::memcmp(header, "SQLite format 3", 16) == 0;
}

bool mergeStore(Store &into, const std::string &path, std::string *error, bool *alreadyIn)
{
    {
        // Open it on its own first, read-only: that checks it is an investigation of this schema version and
        // undamaged (store_trust.h), and plays back the journal of an import killed in it. It is only read:
        // nothing of it changes.
        std::unique_ptr<Store> source = Store::openReadOnly(path, error);
        if (!source)
            return false;
        // A what-if replay is a prediction: never mixed with what a server did, nor with another prediction.
        if (isSimulatedInvestigation(*source) || isSimulatedInvestigation(into)) {
            *error = isSimulatedInvestigation(*source)
                ? "a simulated investigation (a what-if replay) is not merged into another: open it on its own"
                : "the investigation is simulated (a what-if replay): no other store is merged into it";
            return false;
        }
        bool all = false;
        std::string held = runsHeldAlready(into, *source, &all);
        if (!held.empty()) {
            *error = std::move(held);
            if (alreadyIn)
                *alreadyIn = all;
            return false;
        }
    }
    Statement attach(into.db(), "ATTACH DATABASE ? AS source");
    attach.bindText(1, path);
    if (attach.step() != SQLITE_DONE) {
        *error = sqlite3_errmsg(into.db());
        return false;
    }
    const std::string runOffset = std::to_string(scalar(into, "SELECT coalesce(max(id), 0) FROM main.import_runs"));
    // Past the details rows too: those of joined server records have no request row (request_join.h).
    const std::string rowOffset = std::to_string(scalar(into, "SELECT max(coalesce((SELECT max(id) FROM main.requests), 0),"
                                                              " coalesce((SELECT max(request_id) FROM main.request_details), 0))"));
    // A store made before the join's tables has no joins to bring.
    const bool sourceHasJoins = scalar(into, "SELECT count(*) FROM source.sqlite_schema WHERE name = 'request_joins'") > 0;
    // The attribute sets of a version 2 source are brought as labels are, their ids mapped; the rows of a
    // version 1 source hold their attributes themselves.
    const bool sourceHasSets = scalar(into, "SELECT count(*) FROM source.sqlite_schema WHERE name = 'attribute_sets'") > 0;
    const std::string attributeSetsSql = std::string("CREATE TEMP TABLE merge_sets (old INTEGER PRIMARY KEY, new INTEGER);")
        + (sourceHasSets ? "INSERT OR IGNORE INTO main.attribute_sets (attributes) SELECT attributes FROM source.attribute_sets ORDER BY id;"
                           "INSERT INTO merge_sets SELECT s.id, m.id FROM source.attribute_sets s"
                           " JOIN main.attribute_sets m ON m.attributes = s.attributes;"
                         : "");
    // A version 3 source holds its stamps packed; an older one in columns, packed here (packed_stamps.h).
    const bool sourcePacksStamps = scalar(into, "SELECT count(*) FROM pragma_table_info('request_details', 'source') WHERE name = 'stamps'") > 0;
    const std::string detailStamps = sourcePacksStamps ? "stamps" : kPackedStampsOfColumns;
    const std::string detailAttributes = sourceHasSets
        ? "attributes, (SELECT new FROM merge_sets WHERE old = attribute_set)"
        : "attributes, NULL";
    // The columns are the same by construction (a schema version this one reads, checked on open; the details
    // rows named column by column): only the ids move.
    const std::string sql =
        "BEGIN;"
        "INSERT INTO main.import_runs SELECT id + " + runOffset + ", path, format, compressed, started_ns, duration_ns, bytes,"
        " accepted, rejected,"
        // A run still running in the copy (its importer killed, or not done yet) brings none of its rows.
        " CASE outcome WHEN 'running' THEN 'interrupted' ELSE outcome END,"
        " CASE outcome WHEN 'running' THEN 'the import had not finished when this store was merged' ELSE message END"
        " FROM source.import_runs;"
        "INSERT OR IGNORE INTO main.labels (text) SELECT text FROM source.labels;"
        "CREATE TEMP TABLE merge_labels AS SELECT s.id AS old, m.id AS new FROM source.labels s JOIN main.labels m ON m.text = s.text;"
        "CREATE TEMP TABLE merge_requests AS SELECT * FROM source.requests;"
        "UPDATE merge_requests SET id = id + " + rowOffset + ", run_id = run_id + " + runOffset + ","
        " model_id = (SELECT new FROM merge_labels WHERE old = model_id), route_id = (SELECT new FROM merge_labels WHERE old = route_id);"
        // The chunks describe the rows before the merge: the import after it writes them anew (request_columns.h).
        "DELETE FROM main.request_columns;"
        "INSERT INTO main.requests SELECT * FROM merge_requests;"
        + attributeSetsSql +
        "INSERT INTO main.request_details SELECT request_id + " + rowOffset + ", source_id, id_hash, source_line, "
        + detailStamps + ", " + detailAttributes + " FROM source.request_details;"
        "DROP TABLE merge_requests; DROP TABLE merge_labels; DROP TABLE merge_sets;"
        "INSERT INTO main.token_times SELECT request_id + " + rowOffset + ", times FROM source.token_times;"
        "INSERT INTO main.rejected (run_id, line, reason, excerpt) SELECT run_id + " + runOffset + ", line, reason, excerpt"
        " FROM source.rejected ORDER BY id;"
        + (sourceHasJoins ? "INSERT INTO main.request_joins SELECT request_id + " + rowOffset + ", server_request_id + " + rowOffset + ","
                            " server_run_id + " + runOffset + ", server_e2e_ns, server_e2e_scope, matched_by FROM source.request_joins;"
                          : std::string())
        + "COMMIT;";
    bool ok = into.exec(sql.c_str(), error);
    if (!ok)
        into.exec("ROLLBACK");
    into.exec("DETACH DATABASE source");
    // The unmatched lists of the stores are made anew: a client record of one may meet its server record in
    // the other, as when their files are imported together.
    if (ok)
        ok = joinClientServer(into, nullptr, error);
    return ok; // the column chunks are written anew by the import that follows (fillStore())
}

} // namespace lx
