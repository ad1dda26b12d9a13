#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Cross-checks `latency-explorer-cli report --json` against an independent computation.

Reads a native JSON-lines trace in the timestamps form, computes segments, e2e, TTFT, TPOT, ITL, TTLT and
dominant shares from the definitions in docs/DOMAIN.md with nothing but the Python standard library (sort,
then linear interpolation between closest ranks, numpy's default), runs the CLI on the same file and
prints every figure side by side. Exits 1 if any differs by more than 1 microsecond.

    tests/tools/crosscheck.py build/release/app/cli/latency-explorer-cli trace.jsonl
"""
import json
import math
import subprocess
import sys

STAMPS = ["t_client_send", "t_server_recv", "t_preprocess_done", "t_sched",
          "t_first_token", "t_last_token", "t_server_send", "t_client_recv"]
SEGMENTS = ["network", "preprocess", "queue", "prefill", "decode", "postprocess", "unattributed"]
PERCENTILES = [50, 90, 95, 99, 99.9]


def percentile(sorted_values, q):
    h = (len(sorted_values) - 1) * q / 100.0
    lo = math.floor(h)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (h - lo) * (sorted_values[hi] - sorted_values[lo])


def diff(a, b):
    return None if a is None or b is None else b - a


def decompose(r):
    """One record's segments, e2e and token metrics from the definitions in docs/DOMAIN.md; None = not measured."""
    t = {name: r.get(name + "_ns") for name in STAMPS}
    tokens = r.get("token_times_ns") or []
    if tokens:
        t["t_first_token"] = t["t_first_token"] if t["t_first_token"] is not None else tokens[0]
        t["t_last_token"] = t["t_last_token"] if t["t_last_token"] is not None else tokens[-1]
    seg = {}
    inbound = diff(t["t_client_send"], t["t_server_recv"])
    outbound = diff(t["t_server_send"], t["t_client_recv"])
    seg["network"] = None if inbound is None or outbound is None else inbound + outbound
    seg["preprocess"] = diff(t["t_server_recv"], t["t_preprocess_done"])
    start = t["t_preprocess_done"] if t["t_preprocess_done"] is not None else t["t_server_recv"]
    seg["queue"] = diff(start, t["t_sched"])
    seg["prefill"] = diff(t["t_sched"], t["t_first_token"])
    seg["decode"] = diff(t["t_first_token"], t["t_last_token"])
    seg["postprocess"] = diff(t["t_last_token"], t["t_server_send"])
    e2e = (diff(t["t_client_send"], t["t_client_recv"]) if t["t_client_send"] is not None and t["t_client_recv"] is not None
           else diff(t["t_server_recv"], t["t_server_send"]) if t["t_server_recv"] is not None and t["t_server_send"] is not None
           else diff(t["t_server_recv"], t["t_last_token"]))
    if e2e is not None:
        seg["unattributed"] = e2e - sum(v for k, v in seg.items() if v is not None)
    else:
        seg["unattributed"] = None
    out_tokens = r.get("output_tokens") or len(tokens)
    return {
        "ok": r.get("status", "ok") == "ok",
        "model": r.get("model"),
        "segments": seg,
        "skew": (inbound is not None and inbound < 0) or (outbound is not None and outbound < 0),
        "e2e": e2e,
        "tpot": round(seg["decode"] / (out_tokens - 1)) if seg["decode"] is not None and out_tokens >= 2 else None,
        "ttft": diff(t["t_server_recv"], t["t_first_token"]),
        "ttlt": diff(t["t_server_recv"], t["t_last_token"]),
        "gaps": [b - a for a, b in zip(tokens, tokens[1:])],
    }


def records(path):
    """The decomposed records of a native JSON-lines trace in the timestamps form."""
    with open(path, encoding="utf-8") as trace:
        for line in trace:
            if line.strip():
                yield decompose(json.loads(line))


def independent(path):
    values = {name: [] for name in SEGMENTS + ["e2e", "ttft", "tpot", "ttlt", "itl"]}
    dominant = {name: 0 for name in SEGMENTS}
    for d in records(path):
        if not d["ok"]:
            continue
        seg = d["segments"]
        if d["e2e"] is not None:
            values["e2e"].append(d["e2e"])
            best = max((v, -i) for i, (k, v) in enumerate(seg.items()) if v is not None)
            dominant[SEGMENTS[-best[1]]] += 1
        for name in SEGMENTS:
            v = seg.get(name)
            if v is None or (name == "network" and d["skew"]):
                continue
            values[name].append(v)
        for name in ("tpot", "ttft", "ttlt"):
            if d[name] is not None:
                values[name].append(d[name])
        values["itl"].extend(d["gaps"])
    return values, dominant


def main():
    cli, trace = sys.argv[1], sys.argv[2]
    report = json.loads(subprocess.run([cli, "report", "--json", trace], capture_output=True, check=True, text=True).stdout)
    values, dominant = independent(trace)
    ours = dict(report["segments"], e2e=report["e2e"], **report["tokens"])
    worst = 0.0
    print(f"{'metric':<13}{'count':>9} {'stat':>6} {'independent ms':>16} {'report ms':>16} {'|diff| us':>10}")
    for name, samples in values.items():
        samples.sort()
        stat = ours[name]
        expected = {"count": len(samples)}
        if samples:
            expected["mean"] = sum(samples) / len(samples) / 1e6
            expected["max"] = samples[-1] / 1e6
            for q in PERCENTILES:
                expected["p" + ("%g" % q)] = percentile(samples, q) / 1e6
        for key, value in expected.items():
            got = stat[key]
            if key == "count":
                if got != value:
                    print(f"{name:<13} count {value} vs {got}")
                    worst = math.inf
                continue
            error_us = abs(got - value) * 1000
            worst = max(worst, error_us)
            print(f"{name:<13}{len(samples):>9} {key:>6} {value:>16.6f} {got:>16.6f} {error_us:>10.4f}")
    total = sum(dominant.values())
    for name in SEGMENTS:
        share = dominant[name] / total if total else 0
        if abs(share - report["dominant"][name]) > 1e-6:
            print(f"dominant {name}: {share} vs {report['dominant'][name]}")
            worst = math.inf
    print(f"\nlargest difference: {worst:.4f} us over {report['requests']['ok']} ok requests")
    return 0 if worst <= 1.0 else 1


if __name__ == "__main__":
    sys.exit(main())
