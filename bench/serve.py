#!/usr/bin/env python3
"""Serve benchmark (issue 3): the release binary over stdio, driven with raw
JSON-RPC (no SDK overhead in the numbers).

1. spawn -> initialize -> every tools/list page of GitHub's REST description:
   wall time from spawn, and the server's peak RSS (VmHWM).
2. tools/call latency (median, p99) against a fast local backend on 127.0.0.1,
   next to the same GET done directly, and the server's CPU time per call
   (utime+stime from /proc).

Usage: bench/serve.py [--calls N]   (run from the repository root; builds nothing:
       run `cargo build --release` and scripts/fetch-test-specs.sh first, or bench/run-serve.sh)
"""
import argparse, http.client, json, os, socket, statistics, subprocess, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

BIN = "target/release/openapi2mcp"
GITHUB = "tests/external/node_modules/@octokit/openapi/generated/api.github.com.json"
TICK = os.sysconf("SC_CLK_TCK")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # One write per response and no Nagle: otherwise delayed ACKs add ~40 ms.
    wbufsize = 1 << 16
    disable_nagle_algorithm = True
    body = b'{"id":1,"full_name":"octocat/hello-world"}'

    def do_GET(self):
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(self.body)))
        self.end_headers()
        self.wfile.write(self.body)

    def log_message(self, *args):
        pass


class Rpc:
    def __init__(self, args):
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
            if reply.get("id") == msg["id"]:
                if "error" in reply:
                    raise SystemExit(f"{method}: {reply['error']}")
                return reply["result"]

    def cpu_seconds(self):
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK

    def peak_rss_mb(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        return float("nan")

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=500)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--output-schema", default="full", choices=["full", "loose", "off"])
    a = ap.parse_args()

    backend = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    port = backend.server_address[1]
    threading.Thread(target=backend.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{port}"

    list_times, rss = [], []
    for _ in range(a.runs):
        t0 = time.perf_counter()
        rpc = Rpc([BIN, "serve", "-q", GITHUB, "--base-url", base, "--output-schema", a.output_schema])
        rpc.send("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                "clientInfo": {"name": "bench", "version": "1"}})
        rpc.send("notifications/initialized", notify=True)
        cursor, tools, pages = None, 0, 0
        while True:
            res = rpc.send("tools/list", {"cursor": cursor} if cursor else {})
            tools += len(res["tools"]); pages += 1
            cursor = res.get("nextCursor")
            if not cursor:
                break
        list_times.append((time.perf_counter() - t0) * 1000)
        rss.append(rpc.peak_rss_mb())
        last = rpc
        if _ < a.runs - 1:
            rpc.close()
    assert tools == 1223, tools

    args = {"name": "get_repo", "arguments": {"owner": "octocat", "repo": "hello-world"}}
    for _ in range(50):  # warm up the connection pool and validators
        last.send("tools/call", args)
    cpu0, lat = last.cpu_seconds(), []
    for _ in range(a.calls):
        t = time.perf_counter()
        res = last.send("tools/call", args)
        lat.append((time.perf_counter() - t) * 1000)
        assert not res.get("isError"), res
    cpu_per_call_ms = (last.cpu_seconds() - cpu0) / a.calls * 1000
    last.close()

    conn = http.client.HTTPConnection("127.0.0.1", port)
    conn.connect()
    conn.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    direct = []
    for _ in range(a.calls):
        t = time.perf_counter()
        conn.request("GET", "/repos/octocat/hello-world")
        conn.getresponse().read()
        direct.append((time.perf_counter() - t) * 1000)
    backend.shutdown()

    q = lambda xs, p: sorted(xs)[min(len(xs) - 1, int(len(xs) * p))]
    print(f"github ({a.output_schema} output schemas): {tools} tools in {pages} pages")
    print(f"spawn -> all tools/list pages: median {statistics.median(list_times):.0f} ms over {a.runs} runs")
    print(f"server peak RSS: {max(rss):.0f} MB")
    print(f"tools/call via MCP: median {statistics.median(lat):.3f} ms, p99 {q(lat, 0.99):.3f} ms ({a.calls} calls)")
    print(f"same GET directly:  median {statistics.median(direct):.3f} ms, p99 {q(direct, 0.99):.3f} ms")
    print(f"server CPU per call: {cpu_per_call_ms:.3f} ms")


if __name__ == "__main__":
    main()
