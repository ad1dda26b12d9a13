// SPDX-License-Identifier: GPL-3.0-or-later
// The bench's peer: what an engineer's DuckDB notebook does with the same dump. Three modes, each its own
// process so that the bench times it and reads its peak RSS like ours:
//   node duckdb_peer.mjs persist TRACE.jsonl DB.duckdb   load into a database file, then the quantiles
//   node duckdb_peer.mjs memory  TRACE.jsonl             the same in memory, no file kept
//   node duckdb_peer.mjs reopen  DB.duckdb               reopen the file, then the quantiles
// The quantiles are the four figures an incident review asks first: end-to-end, queue, TTFT and decode,
// each at p50, p90, p99 and p99.9 (quantile_cont, DuckDB's exact interpolated percentile).
import { DuckDBInstance } from '@duckdb/node-api';

const QUANTILES = `SELECT
  quantile_cont(t_client_recv_ns - t_client_send_ns, [0.5, 0.9, 0.99, 0.999]) AS e2e,
  quantile_cont(t_sched_ns - t_preprocess_done_ns, [0.5, 0.9, 0.99, 0.999]) AS queue,
  quantile_cont(t_first_token_ns - t_server_recv_ns, [0.5, 0.9, 0.99, 0.999]) AS ttft,
  quantile_cont(t_last_token_ns - t_first_token_ns, [0.5, 0.9, 0.99, 0.999]) AS decode
FROM r`;

const [mode, first, second] = process.argv.slice(2);
const quote = (s) => `'${s.replaceAll("'", "''")}'`;
let instance;
if (mode === 'persist') instance = await DuckDBInstance.create(second);
else if (mode === 'memory') instance = await DuckDBInstance.create(':memory:');
else if (mode === 'reopen') instance = await DuckDBInstance.create(first);
else {
  console.error('usage: duckdb_peer.mjs persist TRACE DB | memory TRACE | reopen DB');
  process.exit(2);
}
const connection = await instance.connect();
if (mode !== 'reopen')
  await connection.run(`CREATE TABLE r AS SELECT * FROM read_json(${quote(first)}, format = 'newline_delimited')`);
const reader = await connection.runAndReadAll(QUANTILES);
console.log(JSON.stringify(reader.getRowObjectsJson()));
connection.closeSync();
instance.closeSync();
