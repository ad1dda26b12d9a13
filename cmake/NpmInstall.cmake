# SPDX-License-Identifier: GPL-3.0-or-later
# lx_npm_install(DIR PACKAGE VERSION LABEL FALLBACK): installs npm's PACKAGE@VERSION into DIR for a peer or
# a test engine (the bench's DuckDB, the tests' chdb), unless that version is there already. Included by the
# `cmake -P` scripts that prepare them. Without node or npm, or when npm cannot reach its registry, it says
# so with LABEL and what follows (FALLBACK: "the DuckDB peer is skipped") and returns: never a build error.
function(lx_npm_install dir package version label fallback)
  find_program(NODE node)
  find_program(NPM npm)
  if(NOT NODE OR NOT NPM)
    message(STATUS "${label}: node/npm not found; ${fallback}")
    return()
  endif()
  set(installed "${dir}/node_modules/${package}/package.json")
  if(EXISTS "${installed}")
    file(READ "${installed}" manifest)
    string(JSON have GET "${manifest}" version)
    if(have STREQUAL version)
      return()
    endif()
  endif()
  file(MAKE_DIRECTORY "${dir}")
  message(STATUS "${label}: installing ${package}@${version} from npm into ${dir}")
  execute_process(COMMAND "${NPM}" install --no-audit --no-fund --prefix "${dir}" "${package}@${version}"
                  RESULT_VARIABLE result OUTPUT_QUIET ERROR_VARIABLE npm_error)
  if(NOT result EQUAL 0)
    message(STATUS "${label}: npm could not install ${package} (${npm_error}); ${fallback}")
  endif()
endfunction()
