# SPDX-License-Identifier: GPL-3.0-or-later
# Installs npm's chdb (ClickHouse's engine run in-process, some 550 MB) into DIR for tst_clickhouse_source.
# Run as `cmake -DDIR=... -DVERSION=... -P chdb_setup.cmake` (the chdb_engine target). Without node or npm,
# or when npm cannot reach its registry, it says so and the tests skip: never a build error.
find_program(NODE node)
find_program(NPM npm)
if(NOT NODE OR NOT NPM)
  message(STATUS "clickhouse: node/npm not found; tst_clickhouse_source will skip")
  return()
endif()
set(installed "${DIR}/node_modules/chdb/package.json")
if(EXISTS "${installed}")
  file(READ "${installed}" manifest)
  string(JSON have GET "${manifest}" version)
  if(have STREQUAL VERSION)
    return()
  endif()
endif()
file(MAKE_DIRECTORY "${DIR}")
message(STATUS "clickhouse: installing chdb@${VERSION} from npm into ${DIR}")
execute_process(COMMAND "${NPM}" install --no-audit --no-fund --prefix "${DIR}" "chdb@${VERSION}"
                RESULT_VARIABLE result OUTPUT_QUIET ERROR_VARIABLE npm_error)
if(NOT result EQUAL 0)
  message(STATUS "clickhouse: npm could not install chdb (${npm_error}); tst_clickhouse_source will skip")
endif()
