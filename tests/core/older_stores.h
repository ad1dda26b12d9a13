// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Stores as earlier schema versions wrote them, made from one of this version, for the suites that check
// that they are read as they are and migrated when opened for writing (store.h).

#include "ingest/importer.h"
#include "store/store.h"
#include "test_support.h"

#include <QTemporaryDir>
#include <QtGlobal>

#include <string>

namespace lxtest {

/// A store file `name` in `dir` holding `trace` (JSON lines) imported; its path, empty when it could not
/// be made.
inline std::string importedStoreFile(const QTemporaryDir &dir, const QString &name, const QByteArray &trace)
{
    const std::string path = dir.filePath(name).toStdString();
    std::string why;
    auto store = lx::Store::open(path, &why);
    if (!store)
        return {};
    lx::importFiles(*store, {writeFile(dir, name + QStringLiteral(".jsonl"), trace)});
    return path;
}

/// request_details as versions 1 and 2 had it, filled from this version's rows: the stamps as columns
/// (unpacked through request_timestamps), and with version 2 the column of the attribute sets.
inline std::string olderDetailsSql(int version)
{
    const bool sets = version >= 2;
    return std::string("CREATE TABLE old_details (request_id INTEGER PRIMARY KEY, source_id TEXT NOT NULL, id_hash INTEGER NOT NULL,"
                       " source_line INTEGER NOT NULL, t_client_send_ns INTEGER, t_server_recv_ns INTEGER,"
                       " t_preprocess_done_ns INTEGER, t_sched_ns INTEGER, t_first_token_ns INTEGER, t_last_token_ns INTEGER,"
                       " t_server_send_ns INTEGER, t_client_recv_ns INTEGER, attributes TEXT")
           + (sets ? ", attribute_set INTEGER" : "") + ");"
           + "INSERT INTO old_details SELECT d.request_id, d.source_id, d.id_hash, d.source_line, t.t_client_send_ns, t.t_server_recv_ns,"
             " t.t_preprocess_done_ns, t.t_sched_ns, t.t_first_token_ns, t.t_last_token_ns, t.t_server_send_ns, t.t_client_recv_ns,"
             " d.attributes" + (sets ? ", d.attribute_set" : "") + " FROM request_details d JOIN request_timestamps t USING (request_id);"
           + "DROP VIEW request_attributes; DROP VIEW requests_readable; DROP VIEW request_attributes_json;"
             " DROP VIEW join_unmatched_readable; DROP VIEW request_timestamps;"
             " DROP TABLE request_details; ALTER TABLE old_details RENAME TO request_details;";
}

/// Turns a store of this version into one as `version` (1 or 2) wrote it. Version 1: every attribute in its
/// row, no sets; both: the stamps in eight columns, and the views of their version (the parts of them the
/// suites read).
inline bool downgradeStore(const std::string &path, int version)
{
    std::string why;
    auto store = lx::Store::open(path, &why);
    const std::string toVersion1 = version == 1
        ? "UPDATE request_details SET attributes = (SELECT attributes FROM attribute_sets WHERE id = attribute_set)"
          " WHERE attribute_set IS NOT NULL;"
        : "";
    const std::string views = version == 1
        ? "DROP TABLE attribute_sets;"
          "CREATE VIEW request_attributes AS SELECT d.request_id AS request_id, a.key AS key, a.value AS value"
          " FROM requests r JOIN request_details d ON d.request_id = r.id, json_each(d.attributes) a"
          " WHERE d.attributes IS NOT NULL;"
          "CREATE VIEW requests_readable AS SELECT r.*, d.source_id, d.source_line, d.t_client_send_ns, d.t_server_recv_ns,"
          " d.t_last_token_ns, d.attributes FROM requests r JOIN request_details d ON d.request_id = r.id;"
        : "CREATE VIEW request_attributes_json AS SELECT d.request_id AS request_id, coalesce(d.attributes, aset.attributes) AS attributes"
          " FROM request_details d LEFT JOIN attribute_sets aset ON aset.id = d.attribute_set;"
          "CREATE VIEW request_attributes AS SELECT d.request_id AS request_id, a.key AS key, a.value AS value"
          " FROM requests r JOIN request_attributes_json d ON d.request_id = r.id, json_each(d.attributes) a"
          " WHERE d.attributes IS NOT NULL;"
          "CREATE VIEW requests_readable AS SELECT r.*, d.source_id, d.source_line, d.t_client_send_ns, d.t_server_recv_ns,"
          " d.t_last_token_ns, coalesce(d.attributes, aset.attributes) AS attributes FROM requests r"
          " JOIN request_details d ON d.request_id = r.id LEFT JOIN attribute_sets aset ON aset.id = d.attribute_set;";
    const std::string sql = "BEGIN;" + toVersion1 + olderDetailsSql(version) + views
                            + "CREATE VIEW join_unmatched_readable AS SELECT u.request_id, d.source_id FROM join_unmatched u"
                              " JOIN request_details d ON d.request_id = u.request_id;"
                              "UPDATE meta SET value = '" + std::to_string(version) + "' WHERE key = 'schema_version'; COMMIT;";
    const bool done = store && store->exec(sql.c_str(), &why);
    if (!done)
        qWarning("cannot make a version %d store: %s", version, why.c_str());
    return done;
}

} // namespace lxtest
