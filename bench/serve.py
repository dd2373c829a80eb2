#!/usr/bin/env python3
"""Serve benchmark (issues 3 and 11): release binaries over stdio, driven with
raw JSON-RPC (no SDK overhead in the numbers), side by side in one run.

1. spawn -> initialize -> every tools/list page of GitHub's REST description
   (`--tools full`): wall time from spawn, and the server's peak RSS (VmHWM).
2. tools/call `get_repo` (GitHub's GET /repos/{owner}/{repo}) against a fast
   local backend on 127.0.0.1, each binary in turn, in several rounds (so a
   busy machine slows every binary alike):
   - sequential calls: latency (median, p99), calls/s, and the server's CPU
     per call, both as utime+stime from /proc/PID/stat (whole process, clock
     ticks) and as the sum of every thread's run time from
     /proc/PID/task/*/schedstat (nanoseconds);
   - pipelined calls, `--concurrency` requests in flight on the one stdio
     session: calls/s and CPU per call;
   - `ping`s, sequential: the CPU of a JSON-RPC round trip through rmcp and
     stdio alone, the floor under any tool call; and calls of an unknown
     tool (a JSON-RPC error): a tools/call through rmcp without any HTTP.
   The backend counts its TCP connections, so a pool that does not keep
   connections alive shows.
3. the same GET done directly with http.client, for comparison.

Usage (from the repository root; builds nothing: run `cargo build --release`
and scripts/fetch-test-specs.sh first):
  bench/serve.py [--bin PATH[=LABEL]]... [--calls N] [--rounds R] [--runs R]
                 [--concurrency K] [--body small|example] [--output-schema full|loose|off]
The first --bin is the reference the others' ratios are taken to; without
--bin, target/release/openapi2mcp is measured alone.
"""
import argparse, glob, http.client, json, os, socket, statistics, subprocess, threading, time

BIN = "target/release/openapi2mcp"
GITHUB = "tests/external/node_modules/@octokit/openapi/generated/api.github.com.json"
TICK = os.sysconf("SC_CLK_TCK")
SMALL_BODY = b'{"id":1,"full_name":"octocat/hello-world"}'


def example_body():
    """The documented example of GET /repos/{owner}/{repo}'s 200 answer (~6 KB)."""
    with open(GITHUB) as f:
        doc = json.load(f)
    media = doc["paths"]["/repos/{owner}/{repo}"]["get"]["responses"]["200"]["content"]["application/json"]
    ref = media["examples"]["default-response"]["$ref"].rsplit("/", 1)[1]
    return json.dumps(doc["components"]["examples"][ref]["value"]).encode()


class Backend:
    """A minimal keep-alive HTTP/1.1 server answering every GET with one JSON
    body: cheap enough that the client and the server under test dominate."""

    def __init__(self, body):
        self.reply = (b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"
                      b"content-length: %d\r\n\r\n" % len(body)) + body
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            conn, _ = self.sock.accept()
            self.connections += 1
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            threading.Thread(target=self.serve, args=(conn,), daemon=True).start()

    def serve(self, conn):
        buf = b""
        with conn:
            while True:
                data = conn.recv(65536)
                if not data:
                    return
                buf += data
                while b"\r\n\r\n" in buf:  # GETs only: no request bodies
                    _, buf = buf.split(b"\r\n\r\n", 1)
                    conn.sendall(self.reply)


class Server:
    def __init__(self, binary, args):
        self.proc = subprocess.Popen([binary, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env={**os.environ, "OPENAPI2MCP_LOG": "error"})
        self.next_id = 0

    def write(self, method, params=None):
        """Sends a request; returns its id."""
        self.next_id += 1
        msg = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            msg["params"] = params
        self.proc.stdin.write((json.dumps(msg) + "\n").encode())
        self.proc.stdin.flush()
        return self.next_id

    def read(self):
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit("server exited")
        return json.loads(line)

    def send(self, method, params=None):
        want = self.write(method, params)
        while True:
            reply = self.read()
            if reply.get("id") == want:
                if "error" in reply:
                    raise SystemExit(f"{method}: {reply['error']}")
                return reply["result"]

    def notify(self, method):
        self.proc.stdin.write((json.dumps({"jsonrpc": "2.0", "method": method}) + "\n").encode())
        self.proc.stdin.flush()

    def initialize(self):
        self.send("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                 "clientInfo": {"name": "bench", "version": "1"}})
        self.notify("notifications/initialized")

    def stat_cpu(self):
        """utime + stime of every thread, living or gone, in seconds (tick resolution)."""
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK

    def sched_cpu(self):
        """Run time of the living threads, in seconds (nanosecond resolution)."""
        total = 0
        for path in glob.glob(f"/proc/{self.proc.pid}/task/*/schedstat"):
            try:
                with open(path) as f:
                    total += int(f.read().split()[0])
            except OSError:
                pass  # a thread that ended meanwhile
        return total / 1e9

    def peak_rss_mb(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        return float("nan")

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


def call_line(server, params):
    server.next_id += 1
    return (json.dumps({"jsonrpc": "2.0", "id": server.next_id, "method": "tools/call",
                        "params": params}) + "\n").encode()


def check(reply):
    if "error" in reply:
        raise SystemExit(f"tools/call: {reply['error']}")
    if reply["result"].get("isError"):
        raise SystemExit(f"tools/call failed: {reply['result']['content']}")


def sequential(server, n, params):
    """n calls one after another: (latencies in ms, wall seconds, stat CPU s, sched CPU s)."""
    lat = []
    stdin, stdout = server.proc.stdin, server.proc.stdout
    cpu0, sched0, t0 = server.stat_cpu(), server.sched_cpu(), time.perf_counter()
    for _ in range(n):
        line = call_line(server, params)
        t = time.perf_counter()
        stdin.write(line)
        stdin.flush()
        reply = json.loads(stdout.readline())
        lat.append((time.perf_counter() - t) * 1000)
        check(reply)
    wall = time.perf_counter() - t0
    return lat, wall, server.stat_cpu() - cpu0, server.sched_cpu() - sched0


def pipelined(server, n, k, params):
    """n calls with k in flight: (wall seconds, stat CPU s, sched CPU s)."""
    stdin, stdout = server.proc.stdin, server.proc.stdout
    cpu0, sched0, t0 = server.stat_cpu(), server.sched_cpu(), time.perf_counter()
    sent = done = 0
    while done < n:
        burst = b""
        while sent < n and sent - done < k:
            burst += call_line(server, params)
            sent += 1
        if burst:
            stdin.write(burst)
            stdin.flush()
        check(json.loads(stdout.readline()))
        done += 1
    wall = time.perf_counter() - t0
    return wall, server.stat_cpu() - cpu0, server.sched_cpu() - sched0


def floor(server, n, method, params=None):
    """n sequential requests answered without any HTTP (a ping, a call of an
    unknown tool): (stat CPU s, sched CPU s)."""
    stdin, stdout = server.proc.stdin, server.proc.stdout
    cpu0, sched0 = server.stat_cpu(), server.sched_cpu()
    for _ in range(n):
        server.next_id += 1
        msg = {"jsonrpc": "2.0", "id": server.next_id, "method": method}
        if params is not None:
            msg["params"] = params
        stdin.write((json.dumps(msg) + "\n").encode())
        stdin.flush()
        stdout.readline()
    return server.stat_cpu() - cpu0, server.sched_cpu() - sched0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", action="append", default=[], metavar="PATH[=LABEL]")
    ap.add_argument("--calls", type=int, default=2000, help="sequential calls per round")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--runs", type=int, default=3, help="spawn -> tools/list runs per binary (0: skip)")
    ap.add_argument("--concurrency", type=int, default=8, help="calls in flight when pipelined")
    ap.add_argument("--body", default="small", choices=["small", "example"])
    ap.add_argument("--output-schema", default="full", choices=["full", "loose", "off"])
    a = ap.parse_args()
    bins = [(b.split("=", 1) + [b])[:2] if "=" in b else [b, b] for b in (a.bin or [BIN])]
    labels = [label for _, label in bins]

    body = SMALL_BODY if a.body == "small" else example_body()
    backend = Backend(body)
    base = f"http://127.0.0.1:{backend.port}"
    serve_args = ["serve", "-q", GITHUB, "--tools", "full", "--base-url", base,
                  "--output-schema", a.output_schema]

    listing = {label: ([], []) for label in labels}
    tools = pages = 0
    for _ in range(a.runs):
        for path, label in bins:
            t0 = time.perf_counter()
            s = Server(path, serve_args)
            s.initialize()
            cursor, tools, pages = None, 0, 0
            while True:
                res = s.send("tools/list", {"cursor": cursor} if cursor else {})
                tools += len(res["tools"]); pages += 1
                cursor = res.get("nextCursor")
                if not cursor:
                    break
            listing[label][0].append((time.perf_counter() - t0) * 1000)
            listing[label][1].append(s.peak_rss_mb())
            s.close()
            assert tools == 1223, tools

    params = {"name": "get_repo", "arguments": {"owner": "octocat", "repo": "hello-world"}}
    unknown = {"name": "no_such_tool", "arguments": {"owner": "octocat", "repo": "hello-world"}}
    servers = {}
    for path, label in bins:
        s = Server(path, serve_args)
        s.initialize()
        conns = backend.connections
        sequential(s, 200, params)  # the connection pool, validators, allocator warm
        pipelined(s, 200, a.concurrency, params)
        servers[label] = (s, backend.connections - conns)

    warm_connections = backend.connections
    per = {label: {"lat": [], "seq_rate": [], "seq_stat": [], "seq_sched": [], "pipe_rate": [],
                   "pipe_stat": [], "pipe_sched": [], "ping_stat": [], "ping_sched": [],
                   "unknown_stat": [], "unknown_sched": []}
           for label in labels}
    for r in range(a.rounds):
        order = labels[r % len(labels):] + labels[:r % len(labels)]
        for label in order:
            s, m = servers[label][0], per[label]
            lat, wall, cpu, sched = sequential(s, a.calls, params)
            m["lat"] += lat
            m["seq_rate"].append(a.calls / wall)
            m["seq_stat"].append(cpu / a.calls * 1000)
            m["seq_sched"].append(sched / a.calls * 1000)
            wall, cpu, sched = pipelined(s, a.calls, a.concurrency, params)
            m["pipe_rate"].append(a.calls / wall)
            m["pipe_stat"].append(cpu / a.calls * 1000)
            m["pipe_sched"].append(sched / a.calls * 1000)
            cpu, sched = floor(s, a.calls, "ping")
            m["ping_stat"].append(cpu / a.calls * 1000)
            m["ping_sched"].append(sched / a.calls * 1000)
            cpu, sched = floor(s, a.calls, "tools/call", unknown)
            m["unknown_stat"].append(cpu / a.calls * 1000)
            m["unknown_sched"].append(sched / a.calls * 1000)
    later_connections = backend.connections - warm_connections
    for label in labels:
        s, _ = servers[label]
        s.close()

    conn = http.client.HTTPConnection("127.0.0.1", backend.port)
    conn.connect()
    conn.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    direct = []
    for _ in range(a.calls):
        t = time.perf_counter()
        conn.request("GET", "/repos/octocat/hello-world")
        conn.getresponse().read()
        direct.append((time.perf_counter() - t) * 1000)

    q = lambda xs, p: sorted(xs)[min(len(xs) - 1, int(len(xs) * p))]
    med = statistics.median
    rng = lambda xs, f: f"{f(med(xs))} ({f(min(xs))}–{f(max(xs))})"
    ms3 = lambda x: f"{x:.3f}"
    rate = lambda x: f"{x:,.0f}"
    print(f"github, --tools full, {a.output_schema} output schemas, {a.body} body ({len(body)} bytes): "
          f"{tools} tools in {pages} pages; {a.rounds} rounds x {a.calls} calls per binary, "
          f"{a.concurrency} in flight when pipelined; figures are medians over rounds (min–max)")
    for path, label in bins:
        m = per[label]
        print(f"\n== {label}  ({path})")
        if a.runs:
            times, rss = listing[label]
            print(f"spawn -> all tools/list pages: median {med(times):.0f} ms over {a.runs} runs; peak RSS {max(rss):.0f} MB")
        print(f"tools/call latency, sequential: median {med(m['lat']):.3f} ms, p99 {q(m['lat'], 0.99):.3f} ms")
        print(f"calls/s sequential: {rng(m['seq_rate'], rate)}; pipelined: {rng(m['pipe_rate'], rate)}")
        print(f"server CPU per call, sequential: {rng(m['seq_sched'], ms3)} ms (schedstat), "
              f"{rng(m['seq_stat'], ms3)} ms (utime+stime)")
        print(f"server CPU per call, pipelined:  {rng(m['pipe_sched'], ms3)} ms (schedstat), "
              f"{rng(m['pipe_stat'], ms3)} ms (utime+stime)")
        print(f"server CPU per ping (rmcp + stdio floor): {rng(m['ping_sched'], ms3)} ms (schedstat), "
              f"{rng(m['ping_stat'], ms3)} ms (utime+stime)")
        print(f"server CPU per tools/call of an unknown tool (no HTTP): {rng(m['unknown_sched'], ms3)} ms "
              f"(schedstat), {rng(m['unknown_stat'], ms3)} ms (utime+stime)")
        print(f"backend connections opened during warm-up: {servers[label][1]}")
    print(f"\nbackend connections opened after warm-up, all binaries: {later_connections}")
    print(f"same GET directly (http.client): median {med(direct):.3f} ms, p99 {q(direct, 0.99):.3f} ms")
    if len(bins) > 1:
        ref = per[labels[0]]
        print(f"\nratios to {labels[0]} (medians):")
        for label in labels[1:]:
            m = per[label]
            print(f"  {label}: CPU/call sequential {med(m['seq_sched']) / med(ref['seq_sched']):.2f}x, "
                  f"pipelined {med(m['pipe_sched']) / med(ref['pipe_sched']):.2f}x; "
                  f"calls/s sequential {med(m['seq_rate']) / med(ref['seq_rate']):.2f}x, "
                  f"pipelined {med(m['pipe_rate']) / med(ref['pipe_rate']):.2f}x")


if __name__ == "__main__":
    main()
