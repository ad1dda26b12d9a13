#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Reproduces the validation tables of docs/WHATIF.md with the command-line program:
#   1. simulated ramps: fit on the first half of the arrivals, replay every arrival through that model and
#      compare the second half's p50 and p99 per segment (and the whole trace's knee) with what the
#      generator did;
#   2. real benchmark sweeps (vLLM bench result files at several request rates), when present: fit on one
#      rate, predict another's TTFT p50.
# Usage: tests/whatif/validate.sh [CLI] [REALDATA_DIR]   (needs bash and python3; prints Markdown tables)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cli=${1:-$here/../../build/release/app/cli/latency-explorer-cli}
realdata=${2:-$here/../../../shared/realdata}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The type-7 percentiles of the requests starting from a time on, per segment, from `report --json`.
compare_py='
import json, sys
obs = json.load(open(sys.argv[1])); pred = json.load(open(sys.argv[2])); label = sys.argv[3]
rows = []
def pick(rep, name):
    if name == "e2e":
        return rep["e2e"]
    if name == "ttft":
        return rep["tokens"]["ttft"]
    return rep["segments"][name]
worst = 0.0
for name in ("e2e", "ttft", "queue", "prefill", "decode", "network", "preprocess", "postprocess"):
    o, p = pick(obs, name), pick(pred, name)
    cells = []
    for q in ("p50", "p99"):
        ov, pv = o.get(q), p.get(q)
        if ov in (None, 0) or pv is None:
            cells.append("-")
            continue
        err = (pv - ov) / ov * 100
        if name in ("e2e", "ttft", "queue", "prefill", "decode"):
            worst = max(worst, abs(err))
        cells.append("%.4g / %.4g ms (%+.1f%%)" % (ov, pv, err))
    rows.append("| %s | %s | %s | %s |" % (label, name, cells[0], cells[1]))
print("\n".join(rows))
print("| %s | worst of e2e, ttft, queue, prefill, decode | %.1f%% | |" % (label, worst))
'
knee_py='
import json, sys
o = json.load(open(sys.argv[1]))["load"]["knee"]; p = json.load(open(sys.argv[2]))["load"]["knee"]
if not o or not p:
    print("| %s | %s | %s | - |" % (sys.argv[3], o and o["rate_rps"], p and p["rate_rps"]))
else:
    print("| %s | %.3g req/s | %.3g req/s | %+.1f%% |" % (sys.argv[3], o["rate_rps"], p["rate_rps"], (p["rate_rps"] - o["rate_rps"]) / o["rate_rps"] * 100))
'

echo "## Simulated ramps: fit on the first half of the arrivals, predict the second half"
echo
echo "| trace | metric | p50 observed / predicted (error) | p99 observed / predicted (error) |"
echo "|---|---|---|---|"
knees=()
# seed, slots, requests, end rate (req/s; the ramp starts at 1). 64 slots to 18 req/s never saturates: the
# first half never fills the slots, so its limit is only a lower bound (the row shows what that costs).
for spec in "42 32 20000 18" "7 16 20000 18" "11 64 30000 30" "11 64 30000 18"; do
    read -r seed slots n end <<<"$spec"
    label="seed $seed, $slots slots, $n requests, 1 to $end req/s"
    "$cli" generate --seed "$seed" --slots "$slots" --requests "$n" --end-rate "$end" -o "$work/whole.jsonl" >/dev/null 2>&1
    half=$((n / 2))
    head -n "$half" "$work/whole.jsonl" >"$work/first.jsonl"
    split=$(sed -n "$((half + 1))p" "$work/whole.jsonl" | python3 -c 'import json,sys; print(json.loads(sys.stdin.read())["t_client_send_ns"])')
    rm -f "$work/pred.lxdb" "$work/whole.lxdb"
    "$cli" import --db "$work/whole.lxdb" "$work/whole.jsonl" >/dev/null 2>&1
    "$cli" whatif --json --arrivals "$work/whole.jsonl" --out "$work/pred.lxdb" "$work/first.jsonl" >"$work/whatif.json" 2>/dev/null
    "$cli" report --json --filter "start >= $split" "$work/whole.lxdb" >"$work/obs_rest.json"
    "$cli" report --json --filter "start >= $split" "$work/pred.lxdb" >"$work/pred_rest.json"
    python3 -c "$compare_py" "$work/obs_rest.json" "$work/pred_rest.json" "$label"
    "$cli" report --json "$work/whole.lxdb" >"$work/obs_all.json"
    "$cli" report --json "$work/pred.lxdb" >"$work/pred_all.json"
    knees+=("$(python3 -c "$knee_py" "$work/obs_all.json" "$work/pred_all.json" "$label")")
done
echo
echo "## The knee of the whole ramp: observed, and predicted from the first half's model"
echo
echo "| trace | observed knee | predicted knee | error |"
echo "|---|---|---|---|"
printf '%s\n' "${knees[@]}"

echo
echo "## Simulated sweeps: fit at one constant rate, predict another's TTFT p50"
echo
echo "32 slots (capacity about 9.1 req/s), 3000 requests per rate, seed 5; \`--arrivals x(B/A)\` on the trace at"
echo "rate A, compared with the trace generated at rate B. 'server' traces carry the server stamps; 'client'"
echo "traces (AIPerf-like: send time, TTFT, end-to-end time) get them inferred."
echo
echo "| form | fit at | predict | TTFT p50 observed | predicted | error |"
echo "|---|---|---|---|---|---|"
for form in timestamps client; do
    for rate in 3 6 8 8.5; do
        "$cli" generate --form "$form" --requests 3000 --seed 5 --start-rate "$rate" --end-rate "$rate" -o "$work/$form-$rate.jsonl" >/dev/null 2>&1
    done
    for pair in "3 6" "3 8" "6 8" "6 8.5" "8 8.5" "8.5 3"; do
        read -r a b <<<"$pair"
        factor=$(python3 -c "import sys; print(float(sys.argv[2]) / float(sys.argv[1]))" "$a" "$b")
        observed=$("$cli" report --json "$work/$form-$b.jsonl" 2>/dev/null | python3 -c 'import json, sys; print(json.load(sys.stdin)["tokens"]["ttft"]["p50"])')
        predicted=$("$cli" whatif --json --arrivals "x$factor" "$work/$form-$a.jsonl" 2>/dev/null | python3 -c 'import json, sys; print(json.load(sys.stdin)["predicted"]["tokens"]["ttft"]["p50"])')
        label=$([ "$form" = timestamps ] && echo server || echo client)
        python3 -c "import sys; o, p = float(sys.argv[4]), float(sys.argv[5]); print('| %s | %s req/s | %s req/s | %.1f ms | %.1f ms | %+.1f%% |' % (sys.argv[1], sys.argv[2], sys.argv[3], o, p, (p - o) / o * 100))" \
            "$label" "$a" "$b" "$observed" "$predicted"
    done
done

echo
echo "## Real benchmark sweeps (vLLM bench result files)"
echo
bench="$realdata/llm-k8s-vllm-bench"
if [ ! -d "$bench" ]; then
    echo "No vLLM bench files at $bench: skipped."
    exit 0
fi
echo "| file | request rate | fit |"
echo "|---|---|---|"
find "$bench" -name 'serving_*.json' | sort | while read -r f; do
    rate=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("request_rate"))' "$f")
    if "$cli" whatif "$f" >"$work/out.txt" 2>"$work/err.txt"; then
        fit="fitted"
    else
        fit=$(sed -n 's/^whatif: //p' "$work/err.txt" | head -n 1)
    fi
    echo "| $(basename "$f") | $rate | $fit |"
done
