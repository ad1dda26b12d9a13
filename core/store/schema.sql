-- SPDX-License-Identifier: GPL-3.0-or-later
-- The schema of a Latency Explorer investigation (.lxdb): the one documented place for it.
-- Times are int64 nanoseconds (since the Unix epoch for timestamps); NULL always means "not measured",
-- never zero. Bumping the schema changes meta.schema_version. Version 2 added the attribute sets (below);
-- version 3 packed a request's eight raw timestamps into one column (request_details.stamps, read in SQL
-- through request_timestamps). An older file is migrated when it is opened for writing, and read as it is
-- otherwise (store.cpp); any other version is refused with a clear message.

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
                                                -- since the epoch), bit 3 joined (client + server record),
                                                -- bit 4 an OTLP span no mapping claimed; of a joined
                                                -- request, bits 5-7: TTFT, TPOT, TTLT are the server
                                                -- record's (read on its clock), bit 8 its token times too
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
  stamps               BLOB,                    -- the raw timestamps as imported, in pipeline order (t_client_send,
                                                -- t_server_recv, t_preprocess_done, t_sched, t_first_token,
                                                -- t_last_token, t_server_send, t_client_recv): 8 little-endian
                                                -- int64 ns, -2^63 for one not measured, NULL when none is. One
                                                -- value, not eight: an import binds and encodes a value at a time
                                                -- (core/store/packed_stamps.h). Read them from request_timestamps.
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
-- bytes as its values need (core/store/column_chunk_codec.h); layout v3 stores the codes of TTFT, TTLT and
-- the states first, v2 (still read) every column in this order. A chunk of another layout (an earlier
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

-- Each request's raw timestamps as columns (NULL: not measured), decoded from request_details.stamps in
-- plain SQL: the value of a byte is its place in a BLOB of the 256 byte values, and a stamp is its eight
-- bytes, the first the lowest.
CREATE VIEW IF NOT EXISTS request_timestamps AS
  WITH bytes(x) AS (SELECT X'000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F404142434445464748494A4B4C4D4E4F505152535455565758595A5B5C5D5E5F606162636465666768696A6B6C6D6E6F707172737475767778797A7B7C7D7E7F808182838485868788898A8B8C8D8E8F909192939495969798999A9B9C9D9E9FA0A1A2A3A4A5A6A7A8A9AAABACADAEAFB0B1B2B3B4B5B6B7B8B9BABBBCBDBEBFC0C1C2C3C4C5C6C7C8C9CACBCCCDCECFD0D1D2D3D4D5D6D7D8D9DADBDCDDDEDFE0E1E2E3E4E5E6E7E8E9EAEBECEDEEEFF0F1F2F3F4F5F6F7F8F9FAFBFCFDFEFF')
  SELECT d.request_id AS request_id,
  nullif((instr(b.x, substr(d.stamps, 1, 1)) - 1) | ((instr(b.x, substr(d.stamps, 2, 1)) - 1) << 8) | ((instr(b.x, substr(d.stamps, 3, 1)) - 1) << 16) | ((instr(b.x, substr(d.stamps, 4, 1)) - 1) << 24) | ((instr(b.x, substr(d.stamps, 5, 1)) - 1) << 32) | ((instr(b.x, substr(d.stamps, 6, 1)) - 1) << 40) | ((instr(b.x, substr(d.stamps, 7, 1)) - 1) << 48) | ((instr(b.x, substr(d.stamps, 8, 1)) - 1) << 56), -9223372036854775808) AS t_client_send_ns,
  nullif((instr(b.x, substr(d.stamps, 9, 1)) - 1) | ((instr(b.x, substr(d.stamps, 10, 1)) - 1) << 8) | ((instr(b.x, substr(d.stamps, 11, 1)) - 1) << 16) | ((instr(b.x, substr(d.stamps, 12, 1)) - 1) << 24) | ((instr(b.x, substr(d.stamps, 13, 1)) - 1) << 32) | ((instr(b.x, substr(d.stamps, 14, 1)) - 1) << 40) | ((instr(b.x, substr(d.stamps, 15, 1)) - 1) << 48) | ((instr(b.x, substr(d.stamps, 16, 1)) - 1) << 56), -9223372036854775808) AS t_server_recv_ns,
  nullif((instr(b.x, substr(d.stamps, 17, 1)) - 1) | ((instr(b.x, substr(d.stamps, 18, 1)) - 1) << 8) | ((instr(b.x, substr(d.stamps, 19, 1)) - 1) << 16) | ((instr(b.x, substr(d.stamps, 20, 1)) - 1) << 24) | ((instr(b.x, substr(d.stamps, 21, 1)) - 1) << 32) | ((instr(b.x, substr(d.stamps, 22, 1)) - 1) << 40) | ((instr(b.x, substr(d.stamps, 23, 1)) - 1) << 48) | ((instr(b.x, substr(d.stamps, 24, 1)) - 1) << 56), -9223372036854775808) AS t_preprocess_done_ns,
  nullif((instr(b.x, substr(d.stamps, 25, 1)) - 1) | ((instr(b.x, substr(d.stamps, 26, 1)) - 1) << 8) | ((instr(b.x, substr(d.stamps, 27, 1)) - 1) << 16) | ((instr(b.x, substr(d.stamps, 28, 1)) - 1) << 24) | ((instr(b.x, substr(d.stamps, 29, 1)) - 1) << 32) | ((instr(b.x, substr(d.stamps, 30, 1)) - 1) << 40) | ((instr(b.x, substr(d.stamps, 31, 1)) - 1) << 48) | ((instr(b.x, substr(d.stamps, 32, 1)) - 1) << 56), -9223372036854775808) AS t_sched_ns,
  nullif((instr(b.x, substr(d.stamps, 33, 1)) - 1) | ((instr(b.x, substr(d.stamps, 34, 1)) - 1) << 8) | ((instr(b.x, substr(d.stamps, 35, 1)) - 1) << 16) | ((instr(b.x, substr(d.stamps, 36, 1)) - 1) << 24) | ((instr(b.x, substr(d.stamps, 37, 1)) - 1) << 32) | ((instr(b.x, substr(d.stamps, 38, 1)) - 1) << 40) | ((instr(b.x, substr(d.stamps, 39, 1)) - 1) << 48) | ((instr(b.x, substr(d.stamps, 40, 1)) - 1) << 56), -9223372036854775808) AS t_first_token_ns,
  nullif((instr(b.x, substr(d.stamps, 41, 1)) - 1) | ((instr(b.x, substr(d.stamps, 42, 1)) - 1) << 8) | ((instr(b.x, substr(d.stamps, 43, 1)) - 1) << 16) | ((instr(b.x, substr(d.stamps, 44, 1)) - 1) << 24) | ((instr(b.x, substr(d.stamps, 45, 1)) - 1) << 32) | ((instr(b.x, substr(d.stamps, 46, 1)) - 1) << 40) | ((instr(b.x, substr(d.stamps, 47, 1)) - 1) << 48) | ((instr(b.x, substr(d.stamps, 48, 1)) - 1) << 56), -9223372036854775808) AS t_last_token_ns,
  nullif((instr(b.x, substr(d.stamps, 49, 1)) - 1) | ((instr(b.x, substr(d.stamps, 50, 1)) - 1) << 8) | ((instr(b.x, substr(d.stamps, 51, 1)) - 1) << 16) | ((instr(b.x, substr(d.stamps, 52, 1)) - 1) << 24) | ((instr(b.x, substr(d.stamps, 53, 1)) - 1) << 32) | ((instr(b.x, substr(d.stamps, 54, 1)) - 1) << 40) | ((instr(b.x, substr(d.stamps, 55, 1)) - 1) << 48) | ((instr(b.x, substr(d.stamps, 56, 1)) - 1) << 56), -9223372036854775808) AS t_server_send_ns,
  nullif((instr(b.x, substr(d.stamps, 57, 1)) - 1) | ((instr(b.x, substr(d.stamps, 58, 1)) - 1) << 8) | ((instr(b.x, substr(d.stamps, 59, 1)) - 1) << 16) | ((instr(b.x, substr(d.stamps, 60, 1)) - 1) << 24) | ((instr(b.x, substr(d.stamps, 61, 1)) - 1) << 32) | ((instr(b.x, substr(d.stamps, 62, 1)) - 1) << 40) | ((instr(b.x, substr(d.stamps, 63, 1)) - 1) << 48) | ((instr(b.x, substr(d.stamps, 64, 1)) - 1) << 56), -9223372036854775808) AS t_client_recv_ns
  FROM request_details d, bytes b;

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
  SELECT r.*, d.source_id, d.source_line, ts.t_client_send_ns, ts.t_server_recv_ns, ts.t_preprocess_done_ns,
         ts.t_sched_ns, ts.t_first_token_ns, ts.t_last_token_ns, ts.t_server_send_ns, ts.t_client_recv_ns,
         coalesce(d.attributes, aset.attributes) AS attributes,
         CASE r.status WHEN 0 THEN 'ok' ELSE 'error' END AS status_name,
         CASE r.e2e_scope WHEN 1 THEN 'client' WHEN 2 THEN 'server' WHEN 3 THEN 'engine' END AS scope_name,
         s.name AS dominant_name, m.text AS model, rt.text AS route, i.path AS source_path
  FROM requests r JOIN request_details d ON d.request_id = r.id JOIN request_timestamps ts ON ts.request_id = r.id
  LEFT JOIN attribute_sets aset ON aset.id = d.attribute_set LEFT JOIN segments s ON s.id = r.dominant LEFT JOIN labels m ON m.id = r.model_id
  LEFT JOIN labels rt ON rt.id = r.route_id JOIN import_runs i ON i.id = r.run_id;

-- The records the last join left unjoined, with their file and why.
CREATE VIEW IF NOT EXISTS join_unmatched_readable AS
  SELECT u.request_id, CASE u.side WHEN 1 THEN 'client' ELSE 'server' END AS side,
         CASE u.reason WHEN 0 THEN 'no record on the other side' ELSE 'key shared by several records' END AS reason,
         d.source_id, d.source_line, i.path AS source_path
  FROM join_unmatched u JOIN request_details d ON d.request_id = u.request_id
  JOIN requests r ON r.id = u.request_id JOIN import_runs i ON i.id = r.run_id;
