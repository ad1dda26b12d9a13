#!/usr/bin/env bash
# Installs what Latency Explorer needs to build and test, from Debian 12's own packages. Used by the
# README's two commands and by CI, so that both install the same way. Installs only what is missing.
set -euo pipefail

packages=(
  cmake ninja-build g++ pkg-config   # the toolchain
  qt6-base-dev                       # Qt 6 Core, Widgets, Concurrent, Test and the offscreen platform
  libsqlite3-dev                     # the investigation store
  libzstd-dev zstd                   # compressed traces (the zstd tool makes test fixtures)
  libsimdjson-dev                    # the JSON readers
  libprotobuf-dev                    # OTLP/protobuf traces (the wire-format reader of the lite runtime)
  libcurl4-openssl-dev               # ClickHouse's HTTP interface (core/source, docs/CLICKHOUSE.md)
  qtkeychain-qt6-dev                 # trace store passwords in the system keychain (the app; optional to the build)
  libqcustomplot-dev qt6-svg-dev     # the charts (QCustomPlot, Qt 6 build), and their SVG export
  fonts-dejavu-core                  # text in offscreen renders (GUI tests, --screenshot)
)
# With LX_DEPS=ci, also what CI's further checks need (.ci/run): the portability checks (MinGW-w64, clang
# with libc++) and the package checks. The README's commands need only the above.
if [ "${LX_DEPS:-}" = ci ]; then
  packages+=(
    g++-mingw-w64-x86-64-posix clang-14 libc++-14-dev libc++abi-14-dev     # .ci/portability.sh
    dpkg-dev file desktop-file-utils appstream lintian shared-mime-info libglib2.0-bin  # .ci/check-package.sh
  )
  # node and npm for the ClickHouse engine of the trace-store suites (npm's chdb, docs/CLICKHOUSE.md), unless
  # the machine has them already (a Node.js of its own brings npm with it, and Debian's npm would clash).
  command -v npm >/dev/null 2>&1 || packages+=(nodejs npm)
fi

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "Installing: ${missing[*]}"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
