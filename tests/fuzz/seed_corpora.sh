#!/usr/bin/env bash
# Seeds for a fuzzing campaign: tests/fuzz/seed_corpora.sh OUT_DIR writes OUT_DIR/<target>/ for every fuzz
# target from the bundled sample traces, the golden inputs and, when present beside the repository, the
# real public traces of ../shared/realdata. Inputs are kept small (the first lines of a line format, a
# document up to 256 KiB) so that a campaign mutates many of them each second.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
out="${1:?usage: seed_corpora.sh OUT_DIR}"
real="${LX_REALDATA:-$repo/../shared/realdata}" # LX_REALDATA=none: only what the repository holds

seed() { # seed TARGET FILE...: the first 40 lines of each (a line format)
    local target="$1"; shift
    mkdir -p "$out/$target"
    for f in "$@"; do
        [ -f "$f" ] || continue
        head -n 40 "$f" > "$out/$target/$(basename "$f")"
    done
}
seed_whole() { # seed_whole TARGET FILE...: each file whole, when under 256 KiB (a document format)
    local target="$1"; shift
    mkdir -p "$out/$target"
    for f in "$@"; do
        [ -f "$f" ] && [ "$(stat -c %s "$f")" -le 262144 ] && cp "$f" "$out/$target/"
    done
    return 0
}

seed native_jsonl "$repo"/sample_traces/rising_load.jsonl "$repo"/sample_traces/rising_load_durations.jsonl \
    "$repo"/tests/golden/native_*/requests.jsonl "$repo"/tests/golden/bad_records/*.jsonl
seed native_csv "$repo"/sample_traces/rising_load.csv "$repo"/tests/golden/*/requests.csv
seed otlp_json "$repo"/tests/golden/otlp_json/spans.otlp.jsonl "$repo"/tests/golden/join/server.otlp.jsonl "$real"/otlp2parquet/traces.jsonl
seed_whole otlp_json "$real"/otlp2parquet/trace.json "$real"/otlp2parquet/invalid/*.json "$real"/otel-proto/trace.json \
    "$real"/jaeger-ui/otlp2jaeger-in.json
seed_whole jaeger_json "$repo"/tests/golden/jaeger_json/*.json "$repo"/tests/fuzz/corpus/jaeger_json/* "$real"/jaeger-ui/genaiTestTrace.json
seed_whole zipkin_json "$repo"/tests/golden/zipkin_json/*.json "$repo"/tests/fuzz/corpus/zipkin_json/* "$real"/zipkin-lens/*.json
seed_whole otlp_proto "$repo"/tests/golden/otlp_protobuf/spans.otlp.pb "$real"/otlp2parquet/*.pb "$real"/otel-proto/trace.protobuf-bin
seed_whole benchmark_docs "$repo"/tests/golden/vllm_bench/serving_result.json "$repo"/tests/golden/llmperf/*individual_responses.json \
    "$real"/llmperf-pr42/*/*.json "$real"/llm-k8s-vllm-bench/*/*.json "$real"/aiperf-pr325/profile_export_aiperf.json
seed benchmark_lines "$repo"/tests/golden/aiperf/profile_export.jsonl "$real"/aiperf-pr325/profile_export.jsonl "$real"/aibrix/output.jsonl
seed workload "$repo"/tests/golden/azure_csv/*.csv "$repo"/tests/golden/mooncake/*.jsonl "$real"/azure-llm-2023/*.csv \
    "$real"/mooncake-fast25/conversation_trace.jsonl
seed_whole span_mapping "$repo"/resources/mappings/*.json
mkdir -p "$out/filter"
# The filter examples of the docs, one per file: every line of docs/FILTER.md that is a code span.
grep -o '`[^`]*`' "$repo/docs/FILTER.md" | tr -d '`' | sort -u | head -n 200 | nl -ba -w3 -s' ' |
    while read -r n text; do printf '%s' "$text" > "$out/filter/doc-$n"; done
# Any input of another target is an input of the whole import.
mkdir -p "$out/import_report"
for t in native_jsonl native_csv otlp_json otlp_proto jaeger_json zipkin_json benchmark_docs benchmark_lines workload; do
    cp "$out/$t"/* "$out/import_report/" 2>/dev/null || true
done
cp "$repo"/sample_traces/rising_load.jsonl.zst "$out/import_report/" 2>/dev/null || true
# Stores: one small investigation made by the CLI, when it is built beside (BUILD env var, default build/release).
mkdir -p "$out/store_open"
cli="${BUILD:-$repo/build/release}/app/cli/latency-explorer-cli"
if [ -x "$cli" ]; then
    rm -f "$out/store_open/small.lxdb"
    "$cli" import --db "$out/store_open/small.lxdb" "$repo"/tests/golden/native_timestamps/requests.jsonl > /dev/null
fi
echo "seeds in $out: $(find "$out" -type f | wc -l) files"
