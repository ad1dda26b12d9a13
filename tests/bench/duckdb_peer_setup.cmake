# SPDX-License-Identifier: GPL-3.0-or-later
# Prepares the bench's DuckDB peer in DIR: duckdb_peer.mjs beside an npm install of @duckdb/node-api.
# Run as `cmake -DDIR=... -DSCRIPT=... -DVERSION=... -P duckdb_peer_setup.cmake`. Without node or npm, or
# when npm cannot reach its registry, it says so and the bench runs without the peer: never a build error.
file(MAKE_DIRECTORY "${DIR}")
# Node resolves an ES module's imports from where the file is, so the script is copied beside node_modules.
configure_file("${SCRIPT}" "${DIR}/duckdb_peer.mjs" COPYONLY)
find_program(NODE node)
find_program(NPM npm)
if(NOT NODE OR NOT NPM)
  message(STATUS "bench: node/npm not found, the DuckDB peer is skipped")
  return()
endif()
set(installed "${DIR}/node_modules/@duckdb/node-api/package.json")
if(EXISTS "${installed}")
  file(READ "${installed}" manifest)
  string(JSON have GET "${manifest}" version)
  if(have STREQUAL VERSION)
    return()
  endif()
endif()
message(STATUS "bench: installing @duckdb/node-api@${VERSION} from npm into ${DIR}")
execute_process(COMMAND "${NPM}" install --no-audit --no-fund --prefix "${DIR}" "@duckdb/node-api@${VERSION}"
                RESULT_VARIABLE result OUTPUT_QUIET ERROR_VARIABLE npm_error)
if(NOT result EQUAL 0)
  message(STATUS "bench: npm could not install @duckdb/node-api (${npm_error}); the DuckDB peer is skipped")
endif()
