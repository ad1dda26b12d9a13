#!/usr/bin/env bash
# Portability proved on this Linux machine, without a Windows or a Mac:
#  1. the core (core/**/*.cpp) and the CLI's platform files compile for Windows: MinGW-w64's g++ in
#     -fsyntax-only mode, against the same sqlite3, zstd, simdjson, protobuf and curl headers as the Linux build;
#  2. the core library builds with clang and libc++ (what macOS has), which catches what only libstdc++
#     accepts. Compile and archive only: nothing is linked, since Debian's simdjson and protobuf are built
#     against libstdc++ and a libc++ program could not link them;
#  3. `latency-explorer --version` and `--help` (and the CLI's) work without a display, and say the version
#     of project(VERSION).
# Installs nothing (.ci/install-deps.sh does; this needs g++-mingw-w64-x86-64-posix, clang-14, libc++-14-dev
# and libc++abi-14-dev beside the build's packages). Runs after the release build it checks.
#
# Usage: .ci/portability.sh [RELEASE_BUILD_DIR]   (default build/release)
# Environment: LX_JOBS (parallel compilers, default 2).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
release=${1:-build/release}
jobs=${LX_JOBS:-2}
work=build/portability # scratch: the libc++ build and the MinGW include folder
mkdir -p "$work"

# A check that fails is said and the others still run; the script exits 1 at the end when any failed.
failed=()
step() { step_name=$1; shift; echo; echo "== $*"; step_started=$SECONDS; step_ok=1; }
problem() { echo "portability: $*" >&2; step_ok=0; }
done_step()
{
  if [ "$step_ok" = 1 ]; then echo "   ok ($((SECONDS - step_started)) s)"; else failed+=("$step_name"); echo "   FAILED ($((SECONDS - step_started)) s)"; fi
}
fail() { echo "portability: $*" >&2; exit 1; } # nothing more can be checked

for tool in x86_64-w64-mingw32-g++-posix clang++-14 clang-14 cmake ninja; do
  command -v "$tool" >/dev/null || fail "$tool is missing (see the packages at the top of this script)"
done
[ -x "$release/app/gui/latency-explorer" ] || fail "no release build in $release (build it first, or name its folder)"

# --- 1. configure the core with clang and libc++ -----------------------------------------------------------
# LX_FUZZ=ON configures the core alone, without Qt (the fuzz preset's switch; no fuzz target is built here).
# -O0 without -g: what is checked is what the library accepts, and the optimiser would only cost time.
# The configure also generates the headers every core source includes (schema_sql.h,
# span_mapping_presets.h), which the MinGW pass below takes from there.
step configure "configure the core with clang++-14 -stdlib=libc++ ($work/libcxx)"
cmake -S . -B "$work/libcxx" -G Ninja -Wno-dev \
  -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-O0 -DCMAKE_C_FLAGS_DEBUG=-O0 -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
  -DCMAKE_CXX_FLAGS=-stdlib=libc++ -DCMAKE_EXE_LINKER_FLAGS=-stdlib=libc++ \
  -DLX_FUZZ=ON -DLX_WARNINGS_AS_ERRORS=ON >"$work/libcxx-configure.log" \
  || { cat "$work/libcxx-configure.log"; fail "the clang/libc++ configure failed"; }
generated="$work/libcxx/core"
[ -f "$generated/schema_sql.h" ] && [ -f "$generated/span_mapping_presets.h" ] || fail "no generated headers in $generated"
done_step

# --- 2. MinGW-w64: every core source, for Windows ---------------------------------------------------------
# The libraries' headers come from a folder of links, not from /usr/include itself, where glibc's C headers
# would take the place of MinGW's.
step MinGW-w64 "MinGW-w64 (x86_64-w64-mingw32-g++-posix -std=c++20 -fsyntax-only) over core/ and the CLI's platform files"
includes="$work/mingw-include"
rm -rf "$includes" && mkdir -p "$includes"
for header in sqlite3.h sqlite3ext.h zstd.h zstd_errors.h simdjson.h google; do
  [ -e "/usr/include/$header" ] || fail "/usr/include/$header is missing (libsqlite3-dev, libzstd-dev, libsimdjson-dev, libprotobuf-dev)"
  ln -s "/usr/include/$header" "$includes/$header"
done
# libcurl's headers (core/source) are in Debian's multiarch folder, not in /usr/include itself.
curl_headers=$(dirname "$(find /usr/include -path '*/curl/curl.h' -print -quit)")
[ -d "$curl_headers" ] || fail "curl/curl.h is missing (libcurl4-openssl-dev)"
ln -s "$curl_headers" "$includes/curl"
version=$(sed -n 's/^project(LatencyExplorer VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
[ -n "$version" ] || fail "no project(LatencyExplorer VERSION ...) in CMakeLists.txt"
# The same warnings as the Linux build, as errors; the x86-64 flags the JSON readers are built with.
export MINGW_FLAGS="-std=c++20 -fsyntax-only -Wall -Wextra -Wpedantic -Werror -Wno-psabi -msse4.2 -mpclmul -mpopcnt
  -Icore -I$generated -isystem $includes -DLX_VERSION=\"$version\""
sources=$( (find core -name '*.cpp'; echo app/cli/console.cpp; echo app/cli/interrupt_signal.cpp) | sort)
count=$(echo "$sources" | wc -l)
# Each failure prints the compiler's messages and the file; xargs then exits non-zero.
echo "$sources" | xargs -P "$jobs" -n 1 sh -c \
  'out=$(x86_64-w64-mingw32-g++-posix $MINGW_FLAGS "$1" 2>&1) || { echo "$out"; echo "FAILED (MinGW): $1"; exit 1; }' sh \
  || problem "some sources do not compile for Windows (above)"
echo "   $count sources"
done_step

# --- 3. clang + libc++: the core library ------------------------------------------------------------------
step libc++ "clang++-14 -stdlib=libc++: build lxcore, lxsource and lxsimulation (compile and archive)"
# -k 0: every source that fails is named, not only the first.
cmake --build "$work/libcxx" --target lxcore lxsource lxsimulation -j "$jobs" -- -k 0 >"$work/libcxx-build.log" 2>&1 \
  || {
    grep -E '^FAILED|error:' "$work/libcxx-build.log" | head -40
    if grep -q "deleted function 'from_chars'" "$work/libcxx-build.log"; then
      echo "   (libc++ 14 has no std::from_chars for a double: read one with lx::fromChars, core/platform/float_from_chars.h)"
    fi
    problem "the core does not build with libc++ (log: $work/libcxx-build.log)"
  }
done_step

# --- 4. --version and --help without a display ------------------------------------------------------------
step --version/--help "--version and --help without a display (DISPLAY, WAYLAND_DISPLAY and QT_QPA_PLATFORM unset)"
headless() { env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM "$@"; }
for program in "$release/app/gui/latency-explorer" "$release/app/cli/latency-explorer-cli"; do
  name=$(basename "$program")
  if ! out=$(headless "$program" --version 2>&1); then
    problem "$name --version failed without a display: $out"
  elif ! echo "$out" | grep -qx "$name $version\|Latency Explorer $version"; then
    problem "$name --version said '$out', not version $version (project(VERSION) in CMakeLists.txt)"
  else
    echo "   $name --version: $out"
  fi
  if ! out=$(headless "$program" --help 2>&1); then
    problem "$name --help failed without a display: $out"
  elif ! echo "$out" | grep -q '^Usage: '; then
    problem "$name --help printed no usage: $out"
  else
    echo "   $name --help: $(echo "$out" | head -1)"
  fi
done
done_step

echo
if [ ${#failed[@]} -gt 0 ]; then
  echo "portability: FAILED: ${failed[*]} ($SECONDS s)"
  exit 1
fi
echo "portability: all checks passed in $SECONDS s"
