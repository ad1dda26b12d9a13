#!/usr/bin/env bash
# Builds the .deb in BUILD_DIR (a configured and built tree, e.g. build/release) and checks what it installs:
# the files are there, the desktop file and the AppStream metainfo validate, lintian finds no error, and a
# MIME database made from the package maps a .lxdb (an SQLite file) to application/x-latency-explorer.
# Needs: dpkg-dev, desktop-file-utils, appstream, lintian, shared-mime-info, libglib2.0-bin (gio).
# Usage: .ci/check-package.sh BUILD_DIR
set -euo pipefail

if [ $# -ne 1 ] || [ ! -f "$1/CPackConfig.cmake" ]; then
    echo "usage: $0 BUILD_DIR (a configured build folder, with CPackConfig.cmake)" >&2
    exit 2
fi
build_dir=$(cd "$1" && pwd)
app_id=io.github.latencyexplorer.LatencyExplorer
mime_type=application/x-latency-explorer

for tool in cpack dpkg-deb desktop-file-validate appstreamcli lintian update-mime-database gio; do
    command -v "$tool" >/dev/null || { echo "check-package: $tool is missing" >&2; exit 2; }
done

failures=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== cpack -G DEB in $build_dir"
(cd "$build_dir" && cpack -G DEB -B "$work/out" >"$work/cpack.log" 2>&1) || { cat "$work/cpack.log" >&2; exit 1; }
deb=$(find "$work/out" -maxdepth 1 -name '*.deb' | head -n 1)
[ -n "$deb" ] || { echo "check-package: cpack wrote no .deb" >&2; cat "$work/cpack.log" >&2; exit 1; }
echo "   $(basename "$deb"), $(stat -c %s "$deb") bytes"
dpkg-deb --field "$deb" Package Version Section Maintainer Depends | sed 's/^/   /'

root="$work/root"
dpkg-deb -x "$deb" "$root"
version=$(dpkg-deb --field "$deb" Version)

echo "== the files"
expected=(
    usr/bin/latency-explorer
    usr/bin/latency-explorer-cli
    "usr/share/applications/$app_id.desktop"
    "usr/share/metainfo/$app_id.metainfo.xml"
    "usr/share/mime/packages/$app_id.xml"
    "usr/share/icons/hicolor/scalable/apps/$app_id.svg"
    usr/share/doc/latency-explorer/copyright
    usr/share/doc/latency-explorer/changelog.gz
    usr/share/man/man1/latency-explorer.1.gz
    usr/share/man/man1/latency-explorer-cli.1.gz
)
for size in 16 24 32 48 64 128 256 512; do
    expected+=("usr/share/icons/hicolor/${size}x${size}/apps/$app_id.png")
done
for file in "${expected[@]}"; do
    [ -f "$root/$file" ] || fail "the package has no /$file"
done
echo "   ${#expected[@]} files checked"

echo "== desktop-file-validate"
desktop-file-validate "$root/usr/share/applications/$app_id.desktop" || fail "desktop-file-validate"
grep -qx "Icon=$app_id" "$root/usr/share/applications/$app_id.desktop" || fail "the desktop file's Icon is not $app_id"
grep -q "^MimeType=.*$mime_type;" "$root/usr/share/applications/$app_id.desktop" || fail "the desktop file does not open $mime_type"

echo "== appstreamcli validate --no-net"
metainfo="$root/usr/share/metainfo/$app_id.metainfo.xml"
appstreamcli validate --no-net "$metainfo" || fail "appstreamcli validate"
grep -q "<launchable type=\"desktop-id\">$app_id.desktop</launchable>" "$metainfo" || fail "the metainfo's launchable is not $app_id.desktop"
# The newest release (the first listed) is the version being packaged.
newest=$(grep -o '<release version="[^"]*"' "$metainfo" | head -n 1 | cut -d'"' -f2)
[ "$newest" = "$version" ] || fail "the metainfo's newest release is '$newest', the package's version $version"

echo "== lintian"
# Errors fail the check; warnings and the rest are listed.
lintian --fail-on error --tag-display-limit 0 "$deb" | tee "$work/lintian.txt" || fail "lintian reports errors"
echo "   $(grep -c '^E:' "$work/lintian.txt" || true) errors, $(grep -c '^W:' "$work/lintian.txt" || true) warnings"

echo "== the MIME type of a .lxdb"
# A database of the system's types and the package's alone, so that what maps .lxdb is this package.
data="$work/xdg"
mkdir -p "$data/mime/packages" "$work/home"
cp /usr/share/mime/packages/freedesktop.org.xml "$root/usr/share/mime/packages/$app_id.xml" "$data/mime/packages/"
update-mime-database "$data/mime" >/dev/null 2>&1 || fail "update-mime-database"
grep -q "^[0-9]*:$mime_type:\*\.lxdb$" "$data/mime/globs2" || fail "globs2 has no *.lxdb for $mime_type"
# A real store starts with SQLite's header: the glob must win over the SQLite magic (our type is a subclass).
printf 'SQLite format 3\000' >"$work/x.lxdb"
found=$(XDG_DATA_DIRS="$data" XDG_DATA_HOME="$work/home" gio info --attributes=standard::content-type "$work/x.lxdb" \
        | sed -n 's/^ *standard::content-type: //p')
echo "   x.lxdb: $found"
[ "$found" = "$mime_type" ] || fail "x.lxdb is '$found', not $mime_type"

if [ "$failures" -ne 0 ]; then
    echo "check-package: $failures check(s) failed" >&2
    exit 1
fi
echo "check-package: $(basename "$deb") is fine"
