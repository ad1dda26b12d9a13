#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Cross-checks the SLOs of `report --json --slo ...` and the shift-share split of `compare --json` against an
independent computation with nothing but the Python standard library (crosscheck.py's decomposition of
each record from docs/DOMAIN.md, sort, type-7 interpolation).

SLOs: the value at the percentile, pass or fail, the margin, and for a failing one the budget (the requests
whose metric lies between p(q-1) and p(q+1), each segment's share of their summed e2e). Shift-share: the
mean part of each segment (a segment not measured counts 0) and the mean e2e on both sides, and the same
over the requests around p95 (e2e between p94 and p96). Prints the largest differences; exits 1 if a time
differs by more than 1 us or a share by more than 1e-6.

    tests/tools/crosscheck_slo_compare.py build/app/cli/latency-explorer-cli baseline.jsonl incident.jsonl
"""
import json
import subprocess
import sys

from crosscheck import SEGMENTS, percentile, records

SLOS = ["e2e.p95<=2s", "e2e.p50<=60s", "ttft.p99<500ms", "queue.p90<=1s", "decode.p99<=20s",
        "tpot.p50<=12ms where model = \"llama-3.1-8b-instruct\"", "e2e.p99<=1s where model = \"qwen2.5-14b-instruct\""]


def metric_of(d, metric):
    if metric in ("e2e", "ttft", "tpot", "ttlt"):
        return d[metric]
    if metric == "network" and d["skew"]:
        return None
    return d["segments"][metric]


def part(d, segment):
    v = d["segments"][segment]
    return 0 if v is None else v


def expected_slo(rows, text):
    target, _, model = text.partition(" where model = ")
    model = model.strip('"') if model else None
    metric, rest = target.split(".p", 1)
    op = "<=" if "<=" in rest else "<"
    q, threshold = rest.split(op)
    q = float(q)
    scale = {"ms": 1e6, "s": 1e9}
    unit = "ms" if threshold.endswith("ms") else "s"
    threshold_ns = float(threshold[: -len(unit)]) * scale[unit]
    chosen = [d for d in rows if d["ok"] and (model is None or d["model"] == model) and metric_of(d, metric) is not None]
    values = sorted(metric_of(d, metric) for d in chosen)
    value = percentile(values, q)
    passed = value <= threshold_ns if op == "<=" else value < threshold_ns
    out = {"value_ms": value / 1e6, "margin_ms": (threshold_ns - value) / 1e6, "pass": passed, "count": len(values)}
    if not passed:
        lo, hi = percentile(values, max(0, q - 1)), percentile(values, min(100, q + 1))
        band = [d for d in chosen if lo <= metric_of(d, metric) <= hi and d["e2e"] is not None]
        total = sum(d["e2e"] for d in band)
        out["shares"] = {s: sum(part(d, s) for d in band) / total for s in SEGMENTS}
        out["band_count"] = len(band)
    return out


def composition(rows, lo=None, hi=None):
    chosen = [d for d in rows if d["ok"] and d["e2e"] is not None and (lo is None or lo <= d["e2e"] <= hi)]
    n = len(chosen)
    return {"e2e": sum(d["e2e"] for d in chosen) / n, "count": n,
            "parts": {s: sum(part(d, s) for d in chosen) / n for s in SEGMENTS}}


def around_p95(rows):
    e2e = sorted(d["e2e"] for d in rows if d["ok"] and d["e2e"] is not None)
    return composition(rows, percentile(e2e, 94), percentile(e2e, 96))


def main():
    cli, baseline, incident = sys.argv[1], sys.argv[2], sys.argv[3]
    worst_ms, worst_share, failures = 0.0, 0.0, []

    def check(what, expected, got, is_share=False):
        nonlocal worst_ms, worst_share
        error = abs(expected - got)
        if is_share:
            worst_share = max(worst_share, error)
        else:
            worst_ms = max(worst_ms, error)
        if error > (1e-6 if is_share else 1e-3):
            failures.append(f"{what}: independent {expected} vs ours {got}")

    rows = list(records(incident))
    args = [cli, "report", "--json", incident]
    for slo in SLOS:
        args += ["--slo", slo]
    report = json.loads(subprocess.run(args, capture_output=True, check=True, text=True).stdout)
    print(f"{'SLO':<58}{'count':>7}{'independent ms':>16}{'ours ms':>14}  pass  budget")
    for slo, got in zip(SLOS, report["slos"]):
        want = expected_slo(rows, slo)
        check(slo + " value", want["value_ms"], got["value_ms"])
        check(slo + " margin", want["margin_ms"], got["margin_ms"])
        if want["pass"] != got["pass"] or want["count"] != got["count"]:
            failures.append(f"{slo}: pass/count {want['pass']}/{want['count']} vs {got['pass']}/{got['count']}")
        budget = ""
        if "shares" in want:
            if got["budget"] is None or got["budget"]["count"] != want["band_count"]:
                failures.append(f"{slo}: budget missing or band count differs")
            else:
                for s in SEGMENTS:
                    check(f"{slo} budget {s}", want["shares"][s], got["budget"]["shares"][s], True)
                budget = got["budget"]["sentence"]
        print(f"{slo:<58}{want['count']:>7}{want['value_ms']:>16.6f}{got['value_ms']:>14.6f}  {str(got['pass']):<5} {budget}")

    compare = json.loads(subprocess.run([cli, "compare", "--json", baseline, incident], capture_output=True, check=True,
                                        text=True).stdout)
    base_rows = list(records(baseline))
    for key, b, i in (("mean", composition(base_rows), composition(rows)),
                      ("p95_band", around_p95(base_rows), around_p95(rows))):
        got = compare["shift_share"][key]
        check(f"{key} baseline e2e", b["e2e"] / 1e6, got["baseline_ms"])
        check(f"{key} incident e2e", i["e2e"] / 1e6, got["incident_ms"])
        if got["count"] != [b["count"], i["count"]]:
            failures.append(f"{key}: counts {[b['count'], i['count']]} vs {got['count']}")
        total = i["e2e"] - b["e2e"]
        print(f"\nshift-share {key}: {b['e2e'] / 1e6:.3f} -> {i['e2e'] / 1e6:.3f} ms over {b['count']} and {i['count']} requests")
        for s in SEGMENTS:
            delta = i["parts"][s] - b["parts"][s]
            check(f"{key} {s} delta", delta / 1e6, got["segments"][s]["delta_ms"])
            if total:
                check(f"{key} {s} share", delta / total, got["segments"][s]["share_of_delta"] or 0.0, True)
            print(f"  {s:<13} delta {delta / 1e6:>14.6f} ms (ours {got['segments'][s]['delta_ms']:>14.6f})")
    print(f"\nlargest differences: {worst_ms * 1000:.4f} us in times, {worst_share:.2e} in shares")
    for f in failures:
        print("MISMATCH", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
