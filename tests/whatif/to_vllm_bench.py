#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Rewrites a client trace of `latency-explorer-cli generate --form client` (AIPerf's profile_export.jsonl
shape) as the result file of `vllm bench serve --save-result --save-detailed`: column arrays with one
request per index, times in seconds, `start_times` on a perf_counter-like clock (no date), a failed request
with TTFT and latency 0 and its error text, as vLLM writes them. Used by validate.sh to run the what-if's
sweep validation through the vLLM reader.

Usage: to_vllm_bench.py [--no-start-times] CLIENT.jsonl REQUEST_RATE OUT.json
(CLIENT.jsonl made with --token-times-every 1: vLLM saves every request's chunk gaps, and an empty list
would read as a one-chunk answer)
"""
import json
import sys


def value(metrics, name):
    m = metrics.get(name)
    return None if m is None else m["value"]


def main():
    args = sys.argv[1:]
    with_starts = "--no-start-times" not in args  # as vLLM wrote its results before 2025
    args = [a for a in args if a != "--no-start-times"]
    source, rate, out = args[0], float(args[1]), args[2]
    records = [json.loads(line) for line in open(source) if line.strip()]
    origin = min(r["metadata"]["timestamp_ns"] for r in records)
    columns = {k: [] for k in ("start_times", "ttfts", "itls", "latencies", "input_lens", "output_lens", "errors")}
    for r in records:
        metrics, failed = r["metrics"], r.get("error") is not None
        if not failed and (value(metrics, "output_sequence_length") or 0) > 1 and value(metrics, "inter_chunk_latency") is None:
            sys.exit("%s: a request without its chunk gaps: generate with --token-times-every 1" % source)
        columns["start_times"].append(8123.25 + (r["metadata"]["timestamp_ns"] - origin) / 1e9)
        columns["input_lens"].append(value(metrics, "input_sequence_length") or 0)
        columns["output_lens"].append(0 if failed else value(metrics, "output_sequence_length") or 0)
        columns["ttfts"].append(0.0 if failed else (value(metrics, "ttft") or 0) / 1e9)
        columns["itls"].append([] if failed else [g / 1e9 for g in value(metrics, "inter_chunk_latency") or []])
        columns["latencies"].append(0.0 if failed else (value(metrics, "request_latency") or 0) / 1e9)
        columns["errors"].append(r["error"]["message"] if failed else "")
    result = {"backend": "vllm", "model_id": "simulated", "num_prompts": len(records), "request_rate": rate,
              "burstiness": 1.0, "max_concurrency": None, "completed": sum(1 for e in columns["errors"] if not e)}
    if not with_starts:
        del columns["start_times"]
    result.update(columns)
    with open(out, "w") as f:
        json.dump(result, f)


if __name__ == "__main__":
    main()
