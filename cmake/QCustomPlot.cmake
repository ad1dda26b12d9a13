# QCustomPlot (GPL-3.0, as compatible with this project's GPL-3.0-or-later) for the charts of lxwidgets.
#
# Defines the target QCustomPlotQt6::QCustomPlotQt6, whichever way QCustomPlot comes:
#  - the system's CMake package QCustomPlotQt6 (Debian's libqcustomplot-dev; CI's Debian build keeps it);
#  - otherwise, or with -DLX_FETCH_QCUSTOMPLOT=ON, its source archive, fetched at configure time and
#    checked against a pinned hash, built here as a static library. Homebrew has no QCustomPlot formula,
#    and vcpkg's port installs a qmake-built library with no CMake package and needs vcpkg's own Qt
#    (docs/PLATFORMS.md), so Windows and macOS take this path.
# Offline (or a mirror): -DLX_QCUSTOMPLOT_URL=file:///path/QCustomPlot-source.tar.gz with its
# -DLX_QCUSTOMPLOT_HASH=SHA256=<hex>.

option(LX_FETCH_QCUSTOMPLOT "Build QCustomPlot from its source archive even when the system has its package" OFF)
set(LX_QCUSTOMPLOT_URL "https://www.qcustomplot.com/release/2.1.1/QCustomPlot-source.tar.gz"
    CACHE STRING "Where the QCustomPlot source archive is fetched from when no system package is used")
# The SHA-256 of exactly that archive as two packagers pin it, independently: xmake-repo's qcustomplot
# package (add_versions 2.1.1) and nixpkgs' qcustomplot (fetchurl hash, SRI base64 of the same digest).
# vcpkg's port pins no hash of this file: it downloads the larger QCustomPlot.tar.gz (with the examples and
# the documentation) instead, SHA512 2e49a9b3...642dc19.
set(LX_QCUSTOMPLOT_HASH "SHA256=5e2d22dec779db8f01f357cbdb25e54fbcf971adaee75eae8d7ad2444487182f"
    CACHE STRING "The hash LX_QCUSTOMPLOT_URL must match, as ALGORITHM=hex (FetchContent's URL_HASH)")

find_package(Qt6 REQUIRED COMPONENTS Widgets PrintSupport)

if(NOT LX_FETCH_QCUSTOMPLOT)
  find_package(QCustomPlotQt6 CONFIG QUIET)
  if(QCustomPlotQt6_FOUND AND TARGET QCustomPlotQt6::QCustomPlotQt6)
    message(STATUS "QCustomPlot: the system's package (${QCustomPlotQt6_DIR})")
    return()
  endif()
endif()

include(FetchContent)
message(STATUS "QCustomPlot: built from ${LX_QCUSTOMPLOT_URL}")
FetchContent_Declare(lx_qcustomplot
  URL "${LX_QCUSTOMPLOT_URL}"
  URL_HASH "${LX_QCUSTOMPLOT_HASH}"
  DOWNLOAD_EXTRACT_TIMESTAMP ON)
# The archive has no CMakeLists.txt, so this only downloads, checks and unpacks it.
FetchContent_MakeAvailable(lx_qcustomplot)

set(lx_qcustomplot_dir "${lx_qcustomplot_SOURCE_DIR}")
foreach(file qcustomplot.h qcustomplot.cpp)
  if(NOT EXISTS "${lx_qcustomplot_dir}/${file}")
    message(FATAL_ERROR "QCustomPlot: ${LX_QCUSTOMPLOT_URL} unpacked into ${lx_qcustomplot_dir} without "
                        "${file}: not a QCustomPlot source archive (expected one folder holding "
                        "qcustomplot.h and qcustomplot.cpp)")
  endif()
endforeach()

# Static, so the application carries it and no installer has to deploy another library. Neither
# QCUSTOMPLOT_COMPILE_LIBRARY nor QCUSTOMPLOT_USE_LIBRARY is defined: QCP_LIB_DECL stays empty, which is
# the header's setting for code compiled into the program itself (no dllexport/dllimport on Windows).
add_library(lx_qcustomplot STATIC "${lx_qcustomplot_dir}/qcustomplot.cpp" "${lx_qcustomplot_dir}/qcustomplot.h")
set_target_properties(lx_qcustomplot PROPERTIES AUTOMOC ON POSITION_INDEPENDENT_CODE ON)
# SYSTEM: the header's warnings are not ours, and the project's targets build with -Werror.
target_include_directories(lx_qcustomplot SYSTEM PUBLIC "${lx_qcustomplot_dir}")
target_link_libraries(lx_qcustomplot PUBLIC Qt6::Widgets Qt6::PrintSupport)
# Someone else's source: compiled without warnings, as a system package's would have been.
target_compile_options(lx_qcustomplot PRIVATE $<IF:$<CXX_COMPILER_ID:MSVC>,/w,-w>)
add_library(QCustomPlotQt6::QCustomPlotQt6 ALIAS lx_qcustomplot)
