// SPDX-License-Identifier: GPL-3.0-or-later
// A stand-in for ClickHouse's HTTP server, for the tests of core/source (docs/CLICKHOUSE.md): the engine
// behind it is ClickHouse's own (chdb, ClickHouse run in-process), so the SQL, the types, the functions,
// the formats, the bound parameters and the exceptions are ClickHouse's; what this file stands in for is
// only the HTTP interface around them: authentication, the settings read from the query string, the
// progress header, compression and the way an exception is written once the body has begun.
//
// Usage: node shim.mjs CHDB_NODE_MODULES DATA_DIR
//   Listens on 127.0.0.1 at a free port and prints "port NNNN" on stdout once it listens.
//   Environment: LX_SHIM_PASSWORD, the password of the user "default" (none: any password is wrong
//   unless none is sent).
//
// What it reads of a request, as ClickHouse does: the POSTed body (the SQL), `database`, `default_format`,
// `param_NAME` (bound as {NAME:Type}, unescaped as the server reads it), `enable_http_compression`, `send_progress_in_http_headers`,
// `max_block_size`; the user and password from X-ClickHouse-User / X-ClickHouse-Key; `Accept-Encoding`.
import http from 'node:http';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const [modulesDir, dataDir] = process.argv.slice(2);
if (!modulesDir || !dataDir) {
  console.error('usage: node shim.mjs CHDB_NODE_MODULES DATA_DIR');
  process.exit(2);
}
const require = createRequire(path.join(modulesDir, 'index.js'));
const { Session } = require('chdb');
const session = new Session(dataDir);
const password = process.env.LX_SHIM_PASSWORD ?? '';

// chdb runs one streamed query per session at a time: the requests wait their turn.
let queue = Promise.resolve();
function serially(work) {
  const run = queue.then(work, work);
  queue = run.catch(() => {});
  return run;
}

function exceptionCode(message) {
  const match = /Code: (\d+)\./.exec(message);
  return match ? match[1] : '1001';
}

// The HTTP status ClickHouse gives an exception raised before the body began: 404 for an unknown table or
// database, 400 for a query it cannot parse or bind, 500 for the rest (an exception while executing).
function statusOf(message) {
  const code = Number(exceptionCode(message));
  if (code === 60 || code === 81)
    return 404;
  if (code === 62 || code === 456 || code === 457 || code === 47)
    return 400;
  return 500;
}

/// The body writer: plain, or through the zstd command line tool when the client asked for compression
/// (node has no zstd of its own).
function bodyWriter(request, response, headers, compress) {
  if (!compress) {
    response.writeHead(200, headers);
    return { write: (bytes) => response.write(bytes), end: () => response.end() };
  }
  response.writeHead(200, { ...headers, 'Content-Encoding': 'zstd' });
  const zstd = spawn('zstd', ['-q', '-c', '--no-progress'], { stdio: ['pipe', 'pipe', 'inherit'] });
  zstd.stdout.pipe(response);
  // A client that hangs up (a cancel, a timeout) closes the pipe: not the shim's failure.
  zstd.stdin.on('error', () => {});
  zstd.stdout.on('error', () => {});
  response.on('close', () => zstd.kill());
  return { write: (bytes) => zstd.stdin.write(bytes), end: () => zstd.stdin.end() };
}

function fail(response, status, message) {
  response.writeHead(status, {
    'Content-Type': 'text/plain; charset=UTF-8',
    'X-ClickHouse-Exception-Code': exceptionCode(message),
  });
  response.end(message + '\n');
}

/// A value in ClickHouse's escaped text form, unescaped; undefined for a backslash with nothing after it.
function unescapeValue(text) {
  const escapes = { b: '\b', f: '\f', r: '\r', n: '\n', t: '\t', 0: '\0', a: '\x07', v: '\v' };
  let out = '';
  for (let i = 0; i < text.length; ++i) {
    if (text[i] !== '\\') {
      out += text[i];
      continue;
    }
    if (++i === text.length)
      return undefined;
    out += escapes[text[i]] ?? text[i];
  }
  return out;
}

async function answer(request, response, sql) {
  const url = new URL(request.url, 'http://localhost');
  const user = request.headers['x-clickhouse-user'] ?? url.searchParams.get('user') ?? 'default';
  const key = request.headers['x-clickhouse-key'] ?? url.searchParams.get('password') ?? '';
  if (user !== 'default' || key !== password) {
    // ClickHouse's own words for it (HTTP 401 since 23.x, before that 403 or 500).
    fail(response, 401, `Code: 516. DB::Exception: ${user}: Authentication failed: password is incorrect, or there is no user with such name. (AUTHENTICATION_FAILED)`);
    return;
  }
  // ClickHouse's server reads a parameter's value in its escaped form (a backslash starts an escape) before
  // the value is parsed as its type, except an Identifier's, taken as it is; chdb's binding takes values as
  // they are, so the unescaping is done here, as the server would.
  const identifiers = new Set([...sql.matchAll(/\{\s*(\w+)\s*:\s*Identifier\s*\}/g)].map((m) => m[1]));
  const params = {};
  for (const [name, value] of url.searchParams) {
    if (!name.startsWith('param_'))
      continue;
    const bare = name.slice(6);
    const unescaped = identifiers.has(bare) ? value : unescapeValue(value);
    if (unescaped === undefined) {
      fail(response, 400, `Code: 25. DB::Exception: Cannot parse escape sequence: value ${value} cannot be parsed as String for query parameter '${bare}'. (CANNOT_PARSE_ESCAPE_SEQUENCE)`);
      return;
    }
    params[bare] = unescaped;
  }
  const format = url.searchParams.get('default_format') ?? 'TabSeparated';
  const database = url.searchParams.get('database');
  const blockSize = url.searchParams.get('max_block_size');
  const compress = url.searchParams.get('enable_http_compression') === '1'
    && /\bzstd\b/.test(request.headers['accept-encoding'] ?? '');
  const progress = url.searchParams.get('send_progress_in_http_headers') === '1';

  let statement = sql.trim().replace(/;$/, '');
  if (blockSize && !/\bSETTINGS\b/i.test(statement))
    statement += ` SETTINGS max_block_size = ${Number(blockSize)}`;
  try {
    if (database)
      session.query(`USE ${'`' + database.replaceAll('`', '``') + '`'}`);
  } catch (error) {
    fail(response, statusOf(error.message), error.message.replace(/^Query failed: /, ''));
    return;
  }
  // A statement that returns no rows (CREATE, INSERT) runs whole: no stream.
  if (!/^\s*(SELECT|WITH)\b/i.test(statement)) {
    try {
      session.queryBind(statement, params, format);
      response.writeHead(200, { 'Content-Type': 'text/plain' });
      response.end();
    } catch (error) {
      fail(response, statusOf(error.message), error.message.replace(/^Query failed: /, ''));
    }
    return;
  }
  let stream;
  try {
    stream = session.queryStreamBind(statement, params, { format });
  } catch (error) {
    fail(response, statusOf(error.message), error.message.replace(/^Query failed: /, ''));
    return;
  }
  let body = null; // begun at the first chunk: an error before it is an HTTP error status, as in ClickHouse
  let readRows = 0;
  let readBytes = 0;
  response.on('close', () => { if (!stream.closed) stream.cancel(); });
  try {
    for await (const chunk of stream) {
      readRows += chunk.numRows;
      readBytes += chunk.numBytes;
      if (!body) {
        const headers = { 'Content-Type': 'text/plain; charset=UTF-8', 'X-ClickHouse-Format': format };
        if (progress) // ClickHouse sends them while it reads; here, what the first block says
          headers['X-ClickHouse-Progress'] = JSON.stringify({ read_rows: String(readRows), read_bytes: String(readBytes), total_rows_to_read: '0' });
        body = bodyWriter(request, response, headers, compress);
      }
      body.write(Buffer.from(chunk.raw()));
      if (response.destroyed)
        return;
    }
  } catch (error) {
    const message = String(error.message).replace(/^Query failed: /, '');
    if (!body) {
      fail(response, statusOf(message), message);
      return;
    }
    // The status went out with the first rows: ClickHouse writes the exception into the body, between
    // markers since 24.11 (older versions: the "Code: ..." line alone).
    body.write(`\n__exception__\r\n${message}\n__exception__\r\n`);
    body.end();
    return;
  }
  if (!body)
    body = bodyWriter(request, response, { 'Content-Type': 'text/plain; charset=UTF-8' }, compress);
  body.end();
}

const server = http.createServer((request, response) => {
  response.on('error', () => {}); // a client gone mid-body
  const pieces = [];
  request.on('data', (piece) => pieces.push(piece));
  request.on('end', () => {
    const sql = Buffer.concat(pieces).toString('utf8');
    serially(() => answer(request, response, sql)).catch((error) => {
      if (!response.headersSent)
        fail(response, 500, `Code: 1001. DB::Exception: shim: ${error.message}`);
      else
        response.destroy();
    });
  });
});
server.listen(0, '127.0.0.1', () => {
  console.log(`port ${server.address().port}`);
});
process.on('SIGTERM', () => { session.close(); process.exit(0); });
