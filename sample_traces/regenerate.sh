#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Re-creates the sample traces in this folder with the seeded simulation (see README.md).
# Usage: sample_traces/regenerate.sh [path/to/latency-explorer-cli]
# The output is the same byte for byte on every platform, so a diff after running this means the
# simulation changed.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
cli=${1:-"$here/../build/app/cli/latency-explorer-cli"}
if [ ! -x "$cli" ]; then
    echo "regenerate.sh: no latency-explorer-cli at '$cli' (build it, or pass its path)" >&2
    exit 1
fi

"$cli" generate --requests 1200 --seed 42 --token-times-every 10 -o "$here/rising_load.jsonl"
"$cli" generate --requests 500 --seed 42 --form durations -o "$here/rising_load_durations.jsonl"
"$cli" generate --requests 1500 --seed 7 --form csv -o "$here/rising_load.csv"
"$cli" generate --requests 3000 --seed 2024 --zstd -o "$here/rising_load.jsonl.zst"
