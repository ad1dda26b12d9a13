#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Reproduces the validation tables of docs/WHATIF.md with the command-line program:
#   1. simulated ramps: fit on the first half of the arrivals, replay every arrival through that model and
#      compare the second half's p50 and p99 per segment (and the whole trace's knee) with what the
#      generator did;
#   2. simulated sweeps at constant rates: fit at one rate, predict another's TTFT p50, with server stamps,
#      with client times only, and as vLLM bench result files;
#   3. real benchmark sweeps: each folder given (vLLM bench result files of one server at several request
#      rates) fitted at each rate and every other rate predicted from it.
# Usage: tests/whatif/validate.sh [CLI] [REALDATA_DIR] [SWEEP_DIR...]   (needs bash and python3; prints
# Markdown tables)
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
echo "traces (AIPerf-like: send time, TTFT, end-to-end time) get them inferred; 'vllm-bench' are the client"
echo "traces rewritten as vLLM bench result files (to_vllm_bench.py), read by the vLLM reader; 'sends rebuilt'"
echo "are the same files without start_times, as vLLM wrote them before 2025 (sends rebuilt from request_rate)."
echo
echo "| form | fit at | predict | TTFT p50 observed | predicted | error |"
echo "|---|---|---|---|---|---|"
for form in timestamps client vllm vllmold; do
    ext=$(case $form in vllm*) echo json ;; *) echo jsonl ;; esac)
    for rate in 3 6 8 8.5; do
        if [ "$form" = vllm ] || [ "$form" = vllmold ]; then
            # vLLM saves every request's chunk gaps: the client trace with the token times of every request.
            "$cli" generate --form client --token-times-every 1 --requests 3000 --seed 5 --start-rate "$rate" --end-rate "$rate" -o "$work/$form-$rate.jsonl" >/dev/null 2>&1
            python3 "$here/to_vllm_bench.py" $([ "$form" = vllmold ] && echo --no-start-times) "$work/$form-$rate.jsonl" "$rate" "$work/$form-$rate.json"
        else
            "$cli" generate --form "$form" --requests 3000 --seed 5 --start-rate "$rate" --end-rate "$rate" -o "$work/$form-$rate.jsonl" >/dev/null 2>&1
        fi
    done
    for pair in "3 6" "3 8" "6 8" "6 8.5" "8 8.5" "8.5 3"; do
        read -r a b <<<"$pair"
        factor=$(python3 -c "import sys; print(float(sys.argv[2]) / float(sys.argv[1]))" "$a" "$b")
        observed=$("$cli" report --json "$work/$form-$b.$ext" 2>/dev/null | python3 -c 'import json, sys; print(json.load(sys.stdin)["tokens"]["ttft"]["p50"])')
        predicted=$("$cli" whatif --json --arrivals "x$factor" "$work/$form-$a.$ext" 2>/dev/null | python3 -c 'import json, sys; print(json.load(sys.stdin)["predicted"]["tokens"]["ttft"]["p50"])')
        case $form in timestamps) label=server ;; client) label=client ;; vllm) label=vllm-bench ;; *) label="vllm-bench, sends rebuilt" ;; esac
        python3 -c "import sys; o, p = float(sys.argv[4]), float(sys.argv[5]); print('| %s | %s req/s | %s req/s | %.1f ms | %.1f ms | %+.1f%% |' % (sys.argv[1], sys.argv[2], sys.argv[3], o, p, (p - o) / o * 100))" \
            "$label" "$a" "$b" "$observed" "$predicted"
    done
done

echo
echo "## Real benchmark sweeps (vLLM bench result files)"
echo
# A sweep is a folder of vLLM bench result files of one server at several request rates: each file is fitted
# and every other one predicted from it, with that file's own arrivals and token counts (--arrivals FILE).
# Files without start_times (vLLM before 2025) cannot be fitted and say so.
sweeps=("${@:3}")
[ ${#sweeps[@]} -eq 0 ] && [ -d "$realdata/llm-k8s-vllm-bench" ] && sweeps=("$realdata/llm-k8s-vllm-bench")
if [ ${#sweeps[@]} -eq 0 ]; then
    echo "No sweep given and none at $realdata: skipped."
    exit 0
fi
echo "| sweep | fit at | predict | TTFT p50 observed | predicted | error |"
echo "|---|---|---|---|---|---|"
rate_of='import json, sys; print(json.load(open(sys.argv[1])).get("request_rate"))'
for sweep in "${sweeps[@]}"; do
    mapfile -t files < <(find "$sweep" -name '*.json' | sort)
    for a in "${files[@]}"; do
        python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if isinstance(d, dict) and "ttfts" in d else 1)' "$a" 2>/dev/null || continue
        if ! "$cli" whatif --json "$a" >"$work/out.json" 2>"$work/err.txt"; then
            echo "| $(basename "$sweep") | $(basename "$a") ($(python3 -c "$rate_of" "$a") req/s) | – | – | – | $(sed -n 's/^whatif: //p' "$work/err.txt" | head -n 1) |"
            continue
        fi
        # The file replayed as it was: the model's own error on it.
        python3 -c "import json, sys; d = json.load(open(sys.argv[1])); o, p = d['observed']['tokens']['ttft']['p50'], d['predicted']['tokens']['ttft']['p50']; print('| %s | %s | itself, replayed | %.1f ms | %.1f ms | %+.1f%% |' % (sys.argv[2], sys.argv[3], o, p, (p - o) / o * 100))" \
            "$work/out.json" "$(basename "$sweep")" "$(python3 -c "$rate_of" "$a") req/s"
        for b in "${files[@]}"; do
            [ "$a" = "$b" ] && continue
            python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if isinstance(d, dict) and "ttfts" in d else 1)' "$b" 2>/dev/null || continue
            observed=$("$cli" report --json "$b" 2>/dev/null | python3 -c 'import json, sys; print(json.load(sys.stdin)["tokens"]["ttft"]["p50"])') || continue
            predicted=$("$cli" whatif --json --arrivals "$b" "$a" 2>/dev/null | python3 -c 'import json, sys; print(json.load(sys.stdin)["predicted"]["tokens"]["ttft"]["p50"])') || continue
            python3 -c "import sys; o, p = float(sys.argv[4]), float(sys.argv[5]); print('| %s | %s | %s | %.1f ms | %.1f ms | %+.1f%% |' % (sys.argv[1], sys.argv[2], sys.argv[3], o, p, (p - o) / o * 100))" \
                "$(basename "$sweep")" "$(python3 -c "$rate_of" "$a") req/s" "$(python3 -c "$rate_of" "$b") req/s" "$observed" "$predicted"
        done
    done
done
