#!/usr/bin/env python3
"""Memory per idle streamable-HTTP session (issue #48 item 2), side by side
in one run: openapi2mcp (sessions sleeping after --session-sleep-after, and
with `--session-sleep-after off`) and the peers bench/http-load.sh installs
into target/bench-peers (mcp-openapi-server, FastMCP's from_openapi), each
serving the same document.

Per server and document: start it, open 20 sessions (warm-up), read the
server's RSS (VmRSS, summed over its process tree), open N sessions the
way an MCP client does (POST initialize, POST notifications/initialized,
then leave the session alone), read RSS again a second later ("open"),
wait --wait seconds reading it every 5 s, and read it a last time
("idle"). KB per session = RSS growth / N. openapi2mcp's sessions are then
woken (50 of them answer tools/list again) to show they still work, with
the latency of a waking request beside an awake one.

    bench/idle-sessions.py [--sessions 1000] [--wait 45] [--docs petstore,github]
                           [--only ours,ours-awake,mcp-openapi-server,fastmcp]
                           [--bin target/release/openapi2mcp]

Python stdlib only; Linux (/proc). Builds and installs nothing: run
`cargo build --release` and bench/http-load.sh (for the peers) first; a
peer that is not installed is skipped, saying so.
"""
import argparse
import http.client
import json
import os
import socket
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PEERS = os.path.join(ROOT, "target", "bench-peers")
DOCS = {
    "petstore": os.path.join(ROOT, "specs", "petstore.yaml"),
    "github": os.path.join(
        ROOT, "tests", "external", "node_modules", "@octokit", "openapi", "generated", "api.github.com.json"
    ),
}
HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "idle-bench", "version": "1"}},
}


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def tree_rss_kb(pid):
    """VmRSS of `pid` and its descendants, in kB."""
    total = 0
    todo = [pid]
    seen = set()
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
            with open(f"/proc/{p}/task/{p}/children") as f:
                todo.extend(int(c) for c in f.read().split())
        except OSError:
            pass
    return total


def servers(args, doc):
    """(key, label, argv(port), env) of every server to measure on `doc`."""
    out = []
    if "ours" in args.only:
        out.append(("ours", "openapi2mcp (sessions sleep after 30 s, the default)",
                    lambda port: [args.bin, "serve", doc, "--tools", "full", "--transport", "http", "--listen",
                     f"127.0.0.1:{port}", "--base-url", "http://127.0.0.1:9/", "-q"], {}))
    if "ours-awake" in args.only:
        out.append(("ours-awake", "openapi2mcp --session-sleep-after off",
                    lambda port: [args.bin, "serve", doc, "--tools", "full", "--transport", "http", "--listen",
                     f"127.0.0.1:{port}", "--base-url", "http://127.0.0.1:9/", "--session-sleep-after", "off", "-q"], {}))
    mos = os.path.join(PEERS, "npm", "node_modules", "@ivotoby", "openapi-mcp-server", "bin", "mcp-server.js")
    if "mcp-openapi-server" in args.only:
        if os.path.exists(mos):
            out.append(("mcp-openapi-server", "mcp-openapi-server",
                        lambda port: ["node", mos, "--transport", "http", "--host", "127.0.0.1", "--port", str(port),
                         "--api-base-url", "http://127.0.0.1:9", "--openapi-spec", doc, "--verbose", "false"], {}))
        else:
            print(f"mcp-openapi-server: not installed ({mos}); run bench/http-load.sh first", file=sys.stderr)
    py = os.path.join(PEERS, "py", "bin", "python")
    if "fastmcp" in args.only:
        if os.path.exists(py):
            out.append(("fastmcp", "FastMCP from_openapi",
                        lambda port: [py, os.path.join(ROOT, "bench", "http-load-fastmcp.py"), doc, "http://127.0.0.1:9", str(port)], {}))
        else:
            print(f"fastmcp: not installed ({py}); run bench/http-load.sh first", file=sys.stderr)
    return out


def open_session(conn, port):
    conn.request("POST", "/mcp", json.dumps(INIT), HEADERS)
    r = conn.getresponse()
    r.read()
    sid = r.getheader("mcp-session-id")
    if r.status != 200 or not sid:
        raise RuntimeError(f"initialize answered {r.status} without a session id")
    h = {**HEADERS, "mcp-session-id": sid, "mcp-protocol-version": "2025-06-18"}
    conn.request("POST", "/mcp", json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}), h)
    r = conn.getresponse()
    r.read()
    return sid


def tools_list(conn, sid):
    h = {**HEADERS, "mcp-session-id": sid, "mcp-protocol-version": "2025-06-18"}
    t = time.perf_counter()
    conn.request("POST", "/mcp", json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}), h)
    r = conn.getresponse()
    body = r.read()
    ms = (time.perf_counter() - t) * 1000
    if r.status != 200 or b'"tools"' not in body:
        raise RuntimeError(f"tools/list in a session answered {r.status}: {body[:200]!r}")
    return ms


def measure(args, key, label, argv, env, port):
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, **env})
    try:
        deadline = time.time() + 180
        conn = None
        while time.time() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"exited with {proc.returncode} before answering")
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                open_session(conn, port)
                break
            except (OSError, RuntimeError, http.client.HTTPException):
                conn = None
                time.sleep(0.2)
        if conn is None:
            raise RuntimeError("did not answer initialize within 180 s")
        for _ in range(20):
            open_session(conn, port)
        time.sleep(1.0)
        base = tree_rss_kb(proc.pid)
        ids = [open_session(conn, port) for _ in range(args.sessions)]
        time.sleep(1.0)
        opened = tree_rss_kb(proc.pid)
        samples = []
        t0 = time.time()
        while time.time() - t0 < args.wait:
            time.sleep(min(5.0, args.wait - (time.time() - t0)) if args.wait > 0 else 0)
            samples.append((round(time.time() - t0), tree_rss_kb(proc.pid)))
        idle = tree_rss_kb(proc.pid)
        woke = awake = None
        if key.startswith("ours"):
            first = [tools_list(conn, sid) for sid in ids[:50]]
            again = [tools_list(conn, sid) for sid in ids[:50]]
            woke = sorted(first)
            awake = sorted(again)
        return {
            "key": key,
            "label": label,
            "base_kb": base,
            "open_kb": opened,
            "idle_kb": idle,
            "open_kb_per_session": (opened - base) * 1.024 / args.sessions,
            "idle_kb_per_session": (idle - base) * 1.024 / args.sessions,
            "samples": samples,
            "wake_ms": woke,
            "awake_ms": awake,
        }
    finally:
        proc.kill()
        proc.wait()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", type=int, default=1000)
    ap.add_argument("--wait", type=float, default=45.0)
    ap.add_argument("--docs", default="petstore,github")
    ap.add_argument("--only", default="ours,ours-awake,mcp-openapi-server,fastmcp")
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "openapi2mcp"))
    args = ap.parse_args()
    args.only = set(args.only.split(","))
    with open("/proc/loadavg") as f:
        load = f.read().strip()
    print(f"idle sessions: {args.sessions} per server, {args.wait:.0f} s idle; load average at start {load}; {os.cpu_count()} cores")
    rows = []
    for name in args.docs.split(","):
        doc = DOCS[name]
        if not os.path.exists(doc):
            sys.exit(f"{doc} missing: run scripts/fetch-test-specs.sh")
        for key, label, argv, env in servers(args, doc):
            port = free_port()
            try:
                r = measure(args, key, label, argv(port), env, port)
            except Exception as e:  # a peer that fails is reported, not fatal
                print(f"{name}: {label}: failed: {e}", file=sys.stderr)
                continue
            r["doc"] = name
            rows.append(r)
            print(f"{name}: {label}: RSS {r['base_kb']/1024:.1f} MiB -> open {r['open_kb']/1024:.1f} MiB "
                  f"({r['open_kb_per_session']:.1f} KB/session) -> after {args.wait:.0f} s idle {r['idle_kb']/1024:.1f} MiB "
                  f"({r['idle_kb_per_session']:.1f} KB/session)", flush=True)
    print()
    print(f"| document | server | KB per session, just opened | KB per session after {args.wait:.0f} s idle | waking tools/list p50 / max ms | awake tools/list p50 ms |")
    print("|---|---|---:|---:|---:|---:|")
    for r in rows:
        wake = f"{r['wake_ms'][len(r['wake_ms'])//2]:.2f} / {r['wake_ms'][-1]:.1f}" if r["wake_ms"] else "—"
        awake = f"{r['awake_ms'][len(r['awake_ms'])//2]:.2f}" if r["awake_ms"] else "—"
        print(f"| {r['doc']} | {r['label']} | {r['open_kb_per_session']:.1f} | {r['idle_kb_per_session']:.1f} | {wake} | {awake} |")
    print()
    for name in args.docs.split(","):
        peers = [r for r in rows if r["doc"] == name and not r["key"].startswith("ours")]
        ours = next((r for r in rows if r["doc"] == name and r["key"] == "ours"), None)
        if ours:
            ok = ours["idle_kb_per_session"] <= 35
            print(f"- {'✓' if ok else '✗'} {name}: {ours['idle_kb_per_session']:.1f} KB per idle session (target ≤ 35 KB)")
            for p in peers:
                if p["idle_kb_per_session"] <= 0:
                    print(f"  - {p['label']}: its RSS fell below the start while idle (its garbage collector ran); "
                          f"{p['open_kb_per_session']:.1f} KB per session just opened")
                else:
                    print(f"  - {p['label']}: {p['idle_kb_per_session']:.1f} KB "
                          f"(ours {ours['idle_kb_per_session'] / p['idle_kb_per_session']:.2f}× theirs)")


if __name__ == "__main__":
    main()
