# Packages with CPack: `cmake --build --preset release --target package` (or `cpack -G <generator>` in the
# build folder) packs what `install()` names: the programs, and on Linux the desktop file, AppStream
# metainfo, MIME type and icons (resources/resources.cmake). The version comes from project(VERSION) in the
# top-level CMakeLists.txt. Generators: TGZ everywhere; DEB on Debian; NSIS on Windows; DragNDrop on macOS.
# .ci/check-package.sh builds the .deb and checks its files.
include(GNUInstallDirs)

set(LX_PACKAGE_MAINTAINER "Latency Explorer developers <latency-explorer@users.noreply.github.com>"
    CACHE STRING "The packages' maintainer, \"Name <address>\" (the .deb's Maintainer field)")

# The values reach cpack exactly as written here (backslashes of the NSIS paths included).
set(CPACK_VERBATIM_VARIABLES ON)
set(CPACK_PACKAGE_NAME "latency-explorer")
set(CPACK_PACKAGE_VENDOR "Latency Explorer developers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_CONTACT "${LX_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_HOMEPAGE_URL "https://github.com/latencyexplorer/latency-explorer")
set(CPACK_RESOURCE_FILE_LICENSE "${PROJECT_SOURCE_DIR}/LICENSE")
set(CPACK_PACKAGE_INSTALL_DIRECTORY "Latency Explorer")
# The Start-menu entry (NSIS): the program and the name it shows.
set(CPACK_PACKAGE_EXECUTABLES "latency-explorer" "Latency Explorer")
set(CPACK_STRIP_FILES ON)
set(CPACK_SOURCE_IGNORE_FILES "/build/;/\\\\.git/")

if(WIN32)
  set(CPACK_GENERATOR "NSIS;TGZ")
elseif(APPLE)
  set(CPACK_GENERATOR "DragNDrop;TGZ")
else()
  set(CPACK_GENERATOR "TGZ")
  if(EXISTS /etc/debian_version)
    list(APPEND CPACK_GENERATOR "DEB")
  endif()
endif()

# --- DEB ------------------------------------------------------------------------------------------------
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${LX_PACKAGE_MAINTAINER}")
# The libraries the binaries link (Qt, SQLite, zstd, simdjson...), by dpkg-shlibdeps.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Not linked, loaded: Qt's native Wayland platform (without it the window runs through XWayland) and the
# platform themes and input-method plugins that libqt6gui6 itself only recommends.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "qt6-wayland, qt6-qpa-plugins")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# The extended description, in lines shorter than 80 characters (lintian): CPack puts the summary before it
# as the synopsis, indents each line and writes the empty line between the paragraphs as Debian's " .".
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "Latency Explorer loads the traces of an LLM service (native JSON lines
and CSV, OpenTelemetry, Jaeger and Zipkin spans, vLLM, AIPerf and LLMPerf
benchmarks) and decomposes every request's end-to-end latency into
network, preprocess, queue, prefill, decode, postprocess and an
unattributed remainder, with exact percentiles, the token metrics, the knee
under load, SLO checks and incident reports.

This package holds the desktop application (latency-explorer) and the
command-line tool (latency-explorer-cli).")
# What Debian's policy asks of every package: the copyright file and a changelog (a version without a
# Debian revision is a native package: changelog.gz), compressed reproducibly (no name, no time stamp).
if(UNIX AND NOT APPLE)
  set(lx_doc_dir "${CMAKE_INSTALL_DATADIR}/doc/${CPACK_PACKAGE_NAME}")
  configure_file("${CMAKE_CURRENT_LIST_DIR}/debian/changelog.in" "${PROJECT_BINARY_DIR}/debian/changelog" @ONLY)
  # Compressed when CMake configures; configure_file() already makes an edited changelog.in configure again.
  find_program(LX_GZIP gzip)
  if(LX_GZIP)
    execute_process(COMMAND "${LX_GZIP}" -9 -n -c "${PROJECT_BINARY_DIR}/debian/changelog"
                    OUTPUT_FILE "${PROJECT_BINARY_DIR}/debian/changelog.gz" COMMAND_ERROR_IS_FATAL ANY)
    install(FILES "${PROJECT_BINARY_DIR}/debian/changelog.gz" DESTINATION "${lx_doc_dir}")
  endif()
  install(FILES "${CMAKE_CURRENT_LIST_DIR}/debian/copyright" DESTINATION "${lx_doc_dir}")
endif()

# --- NSIS (Windows) -------------------------------------------------------------------------------------
set(CPACK_NSIS_DISPLAY_NAME "Latency Explorer")
set(CPACK_NSIS_PACKAGE_NAME "Latency Explorer")
set(CPACK_NSIS_MUI_ICON "${PROJECT_SOURCE_DIR}/resources/icons/latency-explorer.ico")
set(CPACK_NSIS_MUI_UNIICON "${PROJECT_SOURCE_DIR}/resources/icons/latency-explorer.ico")
set(CPACK_NSIS_INSTALLED_ICON_NAME "bin\\latency-explorer.exe")
set(CPACK_NSIS_URL_INFO_ABOUT "${CPACK_PACKAGE_HOMEPAGE_URL}")
set(CPACK_NSIS_ENABLE_UNINSTALL_BEFORE_INSTALL ON)
# A 64-bit program: "Program Files", not "Program Files (x86)".
set(CPACK_NSIS_INSTALL_ROOT "$PROGRAMFILES64")
# The .lxdb association, taken only if no program owns the extension and released on uninstall.
file(READ "${CMAKE_CURRENT_LIST_DIR}/nsis/associate.nsh" CPACK_NSIS_EXTRA_INSTALL_COMMANDS)
file(READ "${CMAKE_CURRENT_LIST_DIR}/nsis/unassociate.nsh" CPACK_NSIS_EXTRA_UNINSTALL_COMMANDS)

# --- DragNDrop (macOS) ----------------------------------------------------------------------------------
set(CPACK_DMG_VOLUME_NAME "Latency Explorer ${PROJECT_VERSION}")
set(CPACK_DMG_FORMAT "UDBZ")
if(APPLE)
  set(CPACK_PACKAGE_ICON "${PROJECT_SOURCE_DIR}/resources/icons/latency-explorer.icns") # the disk image's icon
endif()

include(CPack)
