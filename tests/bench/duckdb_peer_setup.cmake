# SPDX-License-Identifier: GPL-3.0-or-later
# Prepares the bench's DuckDB peer in DIR: duckdb_peer.mjs beside an npm install of @duckdb/node-api.
# Run as `cmake -DDIR=... -DSCRIPT=... -DVERSION=... -P duckdb_peer_setup.cmake`. Without node or npm, or
# when npm cannot reach its registry, it says so and the bench runs without the peer: never a build error.
file(MAKE_DIRECTORY "${DIR}")
# Node resolves an ES module's imports from where the file is, so the script is copied beside node_modules.
configure_file("${SCRIPT}" "${DIR}/duckdb_peer.mjs" COPYONLY)
include(${CMAKE_CURRENT_LIST_DIR}/../../cmake/NpmInstall.cmake)
lx_npm_install("${DIR}" @duckdb/node-api "${VERSION}" bench "the DuckDB peer is skipped")
