#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Renders the application icon (the SVG beside this script) to the files checked in next to it: the PNGs of
# the hicolor theme and the window (png/<n>.png), the Windows .ico and the macOS .icns. They are checked in
# so that a build needs no SVG renderer; run this after changing the SVG and commit what it writes.
# Needs rsvg-convert (librsvg2-bin), icotool (icoutils) and png2icns (icnsutils).
set -eu
cd "$(dirname "$0")"
svg=io.github.latencyexplorer.LatencyExplorer.svg
for tool in rsvg-convert icotool png2icns; do
    command -v "$tool" >/dev/null || { echo "generate.sh: $tool is missing" >&2; exit 1; }
done
mkdir -p png
for size in 16 24 32 48 64 128 256 512; do
    rsvg-convert --width "$size" --height "$size" --format png --output "png/$size.png" "$svg"
done
# Windows: the sizes Explorer and the task bar ask for; 256 is stored as PNG (-r), as Windows expects.
icotool --create --output latency-explorer.ico png/16.png png/24.png png/32.png png/48.png png/64.png png/128.png \
    --raw=png/256.png
# macOS: the sizes an .icns holds that png2icns can write.
png2icns latency-explorer.icns png/16.png png/32.png png/48.png png/128.png png/256.png png/512.png >/dev/null
echo "generate.sh: wrote png/{16..512}.png, latency-explorer.ico, latency-explorer.icns"
