#!/usr/bin/env python3
"""Issue 11: runs bench/parse (one process per representation, document,
mode and run; round-robin so that load from elsewhere hits every variant
alike) and prints the markdown tables for bench/README.md.

    bench/parse/run.py [--runs N] [--closure-runs N] [--docs github,graph,graph-beta]
                       [--variants a,b,...] [--json OUT]

Figures per cell: median of the in-process time (read + parse [+ walk]),
the process's peak RSS (VmHWM, median), and the wall time spawn -> exit
(median). Ratios are against Node's bare JSON.parse(readFileSync(doc)).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.join(ROOT, "target/bench-parse/release/parse-bench")
NODE_JS = os.path.join(ROOT, "bench/parse/node.js")
DOCS = {
    "github": "tests/external/node_modules/@octokit/openapi/generated/api.github.com.json",
    "graph": "tests/external/large/graph.json",
    "graph-beta": "tests/external/large/graph-beta.json",
}
VARIANTS = [
    "node",
    "serde-value-bytes",
    "serde-value-str",
    "sonic-value",
    "simd-owned",
    "simd-borrowed",
    "simd-tape",
    "ijson",
    "jiter",
    "serde-borrow",
    "lazy-raw",
    "lazy-sonic",
    "lazy-hybrid",
    "sonic-get",
]
# (mode, every): parse only; walk = every operation, $ref targets once per
# document; sel = every 10th operation (a filtered listing); closure = each
# operation its own $ref closure (a tool with its own $defs).
CASES = [("parse", 1), ("walk", 1), ("walk", 10), ("closure", 1)]
LAZY = {"lazy-raw", "lazy-sonic", "sonic-get"}


def run_one(variant, doc, mode, every, timeout):
    if variant == "node":
        cmd = ["node", NODE_JS, doc, mode, str(every)]
    else:
        cmd = [BIN, variant, doc, mode, str(every)]
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return {"error": f"timeout {timeout}s"}
    wall = (time.perf_counter() - t0) * 1e3
    if p.returncode != 0:
        return {"error": (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[-1][:120]}
    r = json.loads(p.stdout.strip().splitlines()[-1])
    r["wall_ms"] = wall
    return r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--closure-runs", type=int, default=2)
    ap.add_argument("--docs", default="github,graph,graph-beta")
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--json", default=os.path.join(ROOT, "target/bench-parse/results.json"))
    ap.add_argument("--timeout", type=float, default=300)
    args = ap.parse_args()
    variants = args.variants.split(",")
    results = {}  # (doc, variant, mode, every) -> list of runs
    for doc in args.docs.split(","):
        path = DOCS[doc]
        for mode, every in CASES:
            runs = args.closure_runs if mode == "closure" else args.runs
            for i in range(runs):
                for variant in variants:
                    # get-by-pointer rescans the text per $ref target: GitHub
                    # only, one run (it is two orders of magnitude off).
                    if variant == "sonic-get" and (doc != "github" or mode == "closure" or i > 0):
                        continue
                    key = (doc, variant, mode, every)
                    prev = results.get(key, [])
                    if prev and "error" in prev[-1]:
                        continue
                    r = run_one(variant, path, mode, every, args.timeout)
                    results.setdefault(key, []).append(r)
                    print(f"{doc} {mode}/{every} run {i + 1}/{runs} {variant}: "
                          + (r.get("error") or f"{r['total_ms']:.0f} ms {r['hwm_kb'] // 1024} MB"),
                          file=sys.stderr, flush=True)
    with open(args.json, "w") as f:
        json.dump([{"doc": k[0], "variant": k[1], "mode": k[2], "every": k[3], "runs": v}
                   for k, v in results.items()], f, indent=1)
    print_tables(results, args.docs.split(","), variants)


def med(runs, field):
    vals = [r[field] for r in runs if field in r]
    return statistics.median(vals) if vals else None


def print_tables(results, docs, variants):
    for doc in docs:
        node = results.get((doc, "node", "parse", 1), [])
        node_ms, node_kb = med(node, "total_ms"), med(node, "hwm_kb")
        node_wall = med(node, "wall_ms")
        print(f"\n#### {doc}: `{DOCS[doc]}`\n")
        print(f"Node `JSON.parse(readFileSync(doc))`: {node_ms:.0f} ms in process, "
              f"{node_wall:.0f} ms spawn → exit, {node_kb / 1024:.0f} MB peak RSS.\n")
        print("| representation | parse ms | parse MB | + walk ms | + walk MB "
              "| × Node time (parse / walk) | × Node RSS (parse / walk) "
              "| walk 10 % ms | walk 10 % MB | closure ms | closure MB | spawn → exit (walk) ms | key order |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        node_walk = results.get((doc, "node", "walk", 1), [])
        ref_order = None
        for r in results.get((doc, "serde-value-str", "walk", 1), []):
            ref_order = r.get("order")
        for v in variants:
            cells = []
            p = results.get((doc, v, "parse", 1), [])
            w = results.get((doc, v, "walk", 1), [])
            s = results.get((doc, v, "walk", 10), [])
            c = results.get((doc, v, "closure", 1), [])
            if not (p or w):
                continue

            def t(runs):
                if not runs:
                    return "—"
                if "error" in runs[-1]:
                    return runs[-1]["error"]
                return f"{med(runs, 'total_ms'):.0f}"

            def m(runs):
                if not runs or "error" in runs[-1]:
                    return "—"
                return f"{med(runs, 'hwm_kb') / 1024:.0f}"

            cells += [t(p), m(p), t(w), m(w)]
            def ratio(runs, field, ref):
                if not runs or "error" in runs[-1] or not ref:
                    return "—"
                return f"{med(runs, field) / ref:.2f}"

            cells += [f"{ratio(p, 'total_ms', node_ms)} / {ratio(w, 'total_ms', node_ms)}",
                      f"{ratio(p, 'hwm_kb', node_kb)} / {ratio(w, 'hwm_kb', node_kb)}"]
            cells += [t(s), m(s), t(c), m(c)]
            cells.append(f"{med(w, 'wall_ms'):.0f}" if w and "error" not in w[-1] else "—")
            order = "—"
            if v == "node":
                order = "no (integer-like keys first)"
            elif w and "error" not in w[-1] and ref_order:
                order = "yes" if w[-1].get("order") == ref_order else "no"
            cells.append(order)
            # the walks must agree with Node's on what they saw
            counts = {(r.get("nodes"), r.get("refs")) for r in w + node_walk if "error" not in r}
            name = f"`{v}`" + ("" if len(counts) <= 1 else " (counts differ from Node's!)")
            print(f"| {name} | " + " | ".join(cells) + " |")
        w0 = results.get((doc, "node", "walk", 1), [])
        c0 = results.get((doc, "node", "closure", 1), [])
        if w0 and c0:
            print(f"\nThe walk visits {w0[-1]['ops']} operations, {w0[-1]['nodes']:,} nodes, "
                  f"{w0[-1]['refs']:,} `$ref`s; per-operation closures: {c0[-1]['nodes']:,} nodes, "
                  f"{c0[-1]['refs']:,} `$ref`s.")


if __name__ == "__main__":
    main()
