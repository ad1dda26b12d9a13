# SPDX-License-Identifier: GPL-3.0-or-later
# Installs npm's chdb (ClickHouse's engine run in-process, some 550 MB) into DIR for tst_clickhouse_source.
# Run as `cmake -DDIR=... -DVERSION=... -P chdb_setup.cmake` (the chdb_engine target). Without node or npm,
# or when npm cannot reach its registry, it says so and the tests skip: never a build error.
include(${CMAKE_CURRENT_LIST_DIR}/../../cmake/NpmInstall.cmake)
lx_npm_install("${DIR}" chdb "${VERSION}" clickhouse "tst_clickhouse_source will skip")
