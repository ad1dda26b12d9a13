-- SPDX-License-Identifier: GPL-3.0-or-later
-- The schema of a Latency Explorer investigation (.lxdb): the one documented place for it.
-- Times are int64 nanoseconds (since the Unix epoch for timestamps); NULL always means "not measured",
-- never zero. Bumping the schema changes meta.schema_version. Version 2 added the attribute sets (below): a
-- version 1 file is migrated when it is opened for writing, and read as it is otherwise (store.cpp); any
-- other version is refused with a clear message.

CREATE TABLE IF NOT EXISTS meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL              -- 'schema_version', 'application', 'created_at_ns'
);

-- One row per imported input file (a report of several files is one investigation).
CREATE TABLE IF NOT EXISTS import_runs (
  id          INTEGER PRIMARY KEY,
  path        TEXT NOT NULL,      -- as given by the user
  format      TEXT NOT NULL,      -- 'jsonl', 'csv', ...
  compressed  INTEGER NOT NULL,   -- 1 when the input was zstd-compressed
  started_ns  INTEGER NOT NULL,   -- wall clock at the start of the import
  duration_ns INTEGER,            -- how long the import took
  bytes       INTEGER,            -- bytes of the file read
  accepted    INTEGER NOT NULL DEFAULT 0,
  rejected    INTEGER NOT NULL DEFAULT 0,
  outcome     TEXT NOT NULL,      -- 'complete', 'truncated', 'read-error', 'cancelled', 'running'
  message     TEXT                -- why the file did not import completely, if it did not
);

-- One row per accepted request: its decomposition, narrow on purpose, since every statistic scans it
-- (a wide row of timestamps and text made the scan twice as slow). The rest is in request_details.
CREATE TABLE IF NOT EXISTS requests (
  id              INTEGER PRIMARY KEY,          -- row id, stable within this store
  run_id          INTEGER NOT NULL,             -- import_runs.id
  status          INTEGER NOT NULL,             -- 0 ok, 1 error
  start_ns        INTEGER,                      -- earliest known timestamp: the time-range axis
  e2e_ns          INTEGER,                      -- end-to-end latency
  e2e_scope       INTEGER NOT NULL,             -- 0 none, 1 client, 2 server, 3 engine (last token - server recv)
  network_ns      INTEGER,                      -- segments (docs/DOMAIN.md); they add up to e2e_ns
  preprocess_ns   INTEGER,
  queue_ns        INTEGER,
  prefill_ns      INTEGER,
  decode_ns       INTEGER,
  postprocess_ns  INTEGER,
  unattributed_ns INTEGER,
  ttft_ns         INTEGER,                      -- t_first_token - t_server_recv
  tpot_ns         INTEGER,                      -- decode / (output_tokens - 1), rounded to the ns
  ttlt_ns         INTEGER,                      -- t_last_token - t_server_recv
  token_scope     INTEGER NOT NULL,             -- clock of ttft/tpot/ttlt and token times: 1 client, 2 server
  dominant        INTEGER,                      -- segments.id of the largest segment
  flags           INTEGER NOT NULL,             -- bit 0 clock skew (negative network), bit 1 durations form,
                                                -- bit 2 relative times (offsets from an unknown origin, not
                                                -- since the epoch), bit 3 joined (client + server record)
  model_id        INTEGER,                      -- labels.id of the model
  route_id        INTEGER,                      -- labels.id of the route
  input_tokens    INTEGER,
  output_tokens   INTEGER
);

-- Model and route names, stored once.
CREATE TABLE IF NOT EXISTS labels (
  id   INTEGER PRIMARY KEY,
  text TEXT NOT NULL UNIQUE
);

-- What a request was imported from: its id, raw timestamps and attributes. One row per accepted record:
-- the server record of a joined request keeps its row, whose request_id then has no requests row
-- (request_joins.server_request_id points to it).
CREATE TABLE IF NOT EXISTS request_details (
  request_id           INTEGER PRIMARY KEY,     -- requests.id
  source_id            TEXT NOT NULL,           -- the id in the source, unique within its file
  id_hash              INTEGER NOT NULL,        -- 64-bit FNV-1a of source_id: look-ups by id without a text index
  source_line          INTEGER NOT NULL,        -- line (or record number) in the source file
  t_client_send_ns     INTEGER,                 -- raw timestamps as imported
  t_server_recv_ns     INTEGER,
  t_preprocess_done_ns INTEGER,
  t_sched_ns           INTEGER,
  t_first_token_ns     INTEGER,
  t_last_token_ns      INTEGER,
  t_server_send_ns     INTEGER,
  t_client_recv_ns     INTEGER,
  attributes           TEXT,                    -- JSON object of the keys the format does not define, when not
                                                -- one of the attribute sets (NULL then, and with no attribute)
  attribute_set        INTEGER                  -- attribute_sets.id of the request's attributes; NULL: as above
);

-- The attributes most requests share (a region, a client, a deployment), stored once: a request names its
-- set instead of holding a copy (request_details.attribute_set). A store keeps up to 4096 sets
-- (core/store/attribute_sets.h); attributes past them, or longer than 1 KiB, stay in their row, so that a
-- key with a value per request (a trace id, a user) costs what it did before the sets. Read a request's
-- attributes from request_attributes_json (either place), never from one of the two columns alone.
CREATE TABLE IF NOT EXISTS attribute_sets (
  id         INTEGER PRIMARY KEY,
  attributes TEXT NOT NULL UNIQUE               -- a JSON object, as in request_details.attributes
);

-- Output-token times of the requests that have them: a BLOB of little-endian int64 ns, one per token.
CREATE TABLE IF NOT EXISTS token_times (
  request_id INTEGER PRIMARY KEY,               -- requests.id
  times      BLOB NOT NULL
);

-- The analysis columns of `requests` a second time, column after column, in chunks of up to 65,536
-- requests (core/store/request_columns.h): every statistic reads these columns of every request, and
-- decoding them out of the rows above was most of a report's time. Not for SQL: the rows are the truth,
-- and this program drops and rebuilds the chunks whenever it changes the rows other than by appending.
-- A chunk's BLOB holds, for its `rows` requests in id order: id, start_ns, e2e_ns, the seven segments,
-- ttft_ns, tpot_ns, ttlt_ns, flags and the states (ok, e2e_scope, token_scope), each column in as few
-- bytes as its values need (core/store/column_chunk_codec.h). A chunk of another layout (an earlier
-- version's) is not read: the next import writes the chunks anew. (An addition: the schema version stays 1.)
CREATE TABLE IF NOT EXISTS request_columns (
  first_id INTEGER PRIMARY KEY,                 -- requests.id of the chunk's first request
  last_id  INTEGER NOT NULL,                    -- and of its last
  rows     INTEGER NOT NULL,
  data     BLOB NOT NULL
);

-- Every record an import refused, with the reason and the start of its text.
CREATE TABLE IF NOT EXISTS rejected (
  id      INTEGER PRIMARY KEY,
  run_id  INTEGER NOT NULL,                     -- import_runs.id
  line    INTEGER NOT NULL,                     -- 1-based line in the source file
  reason  TEXT NOT NULL,
  excerpt TEXT NOT NULL                         -- at most 200 bytes of the record
);

-- Client records and server records of the same requests joined into one request (docs/JOIN.md,
-- core/store/request_join.h). The joined request keeps the client record's row; the server record's requests
-- and token_times rows go, its request_details row stays (its id, raw stamps and attributes), linked here.
-- (Created on open in stores made before it existed: an addition, so the schema version stays 1.)
CREATE TABLE IF NOT EXISTS request_joins (
  request_id         INTEGER PRIMARY KEY,       -- requests.id of the joined request (the client record's row)
  server_request_id  INTEGER NOT NULL,          -- request_details.request_id of the server record (no requests row)
  server_run_id      INTEGER NOT NULL,          -- import_runs.id of the server record's file
  server_e2e_ns      INTEGER,                   -- the server record's own e2e
  server_e2e_scope   INTEGER NOT NULL,          -- its scope: 2 server, 3 engine
  matched_by         INTEGER NOT NULL           -- 1 request id, 2 request id without vLLM's cmpl-/chatcmpl- prefix, 3 trace id
);

-- The client and server records the last join left unjoined, rebuilt by every join.
CREATE TABLE IF NOT EXISTS join_unmatched (
  request_id INTEGER PRIMARY KEY,               -- requests.id
  side       INTEGER NOT NULL,                  -- 1 client record, 2 server record
  reason     INTEGER NOT NULL                   -- 0 no record on the other side, 1 its key is shared by several records
);

-- The segment table of core/model/segments.h, in its order: the names here and the requests' <segment>_ns
-- columns follow it (tst_segments checks both).
CREATE TABLE IF NOT EXISTS segments (
  id   INTEGER PRIMARY KEY,                     -- the value of requests.dominant
  name TEXT NOT NULL
);
INSERT OR IGNORE INTO segments VALUES
  (0,'network'),(1,'preprocess'),(2,'queue'),(3,'prefill'),(4,'decode'),(5,'postprocess'),(6,'unattributed');

-- Each request's attributes as one JSON object (NULL: none), from its row or its attribute set.
CREATE VIEW IF NOT EXISTS request_attributes_json AS
  SELECT d.request_id AS request_id, coalesce(d.attributes, aset.attributes) AS attributes
  FROM request_details d LEFT JOIN attribute_sets aset ON aset.id = d.attribute_set;

-- Attributes as rows, for SQL that wants them so.
CREATE VIEW IF NOT EXISTS request_attributes AS
  SELECT d.request_id AS request_id, a.key AS key, a.value AS value
  FROM requests r JOIN request_attributes_json d ON d.request_id = r.id, json_each(d.attributes) a
  WHERE d.attributes IS NOT NULL;

-- Everything about a request in one row, with readable names and the file it came from.
CREATE VIEW IF NOT EXISTS requests_readable AS
  SELECT r.*, d.source_id, d.source_line, d.t_client_send_ns, d.t_server_recv_ns, d.t_preprocess_done_ns,
         d.t_sched_ns, d.t_first_token_ns, d.t_last_token_ns, d.t_server_send_ns, d.t_client_recv_ns,
         coalesce(d.attributes, aset.attributes) AS attributes,
         CASE r.status WHEN 0 THEN 'ok' ELSE 'error' END AS status_name,
         CASE r.e2e_scope WHEN 1 THEN 'client' WHEN 2 THEN 'server' WHEN 3 THEN 'engine' END AS scope_name,
         s.name AS dominant_name, m.text AS model, rt.text AS route, i.path AS source_path
  FROM requests r JOIN request_details d ON d.request_id = r.id LEFT JOIN attribute_sets aset ON aset.id = d.attribute_set
  LEFT JOIN segments s ON s.id = r.dominant LEFT JOIN labels m ON m.id = r.model_id
  LEFT JOIN labels rt ON rt.id = r.route_id JOIN import_runs i ON i.id = r.run_id;

-- The records the last join left unjoined, with their file and why.
CREATE VIEW IF NOT EXISTS join_unmatched_readable AS
  SELECT u.request_id, CASE u.side WHEN 1 THEN 'client' ELSE 'server' END AS side,
         CASE u.reason WHEN 0 THEN 'no record on the other side' ELSE 'key shared by several records' END AS reason,
         d.source_id, d.source_line, i.path AS source_path
  FROM join_unmatched u JOIN request_details d ON d.request_id = u.request_id
  JOIN requests r ON r.id = u.request_id JOIN import_runs i ON i.id = r.run_id;
