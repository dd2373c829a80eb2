#!/usr/bin/env python3
"""Bounded load test of the HTTP listener and the in-memory state (issue #43).

Starts the release binary (`openapi2mcp serve specs/petstore.yaml
--transport http`, every bound at its default) against a small API on
127.0.0.1, then for --seconds at once:

  slow clients   attackers on 127.0.0.2..127.0.0.11 (--slow connections
                 in all, past both the per-IP and the total connection
                 cap): a third drip their headers a line every 2 s, a third
                 send a POST head then drip its body a byte a second, a
                 third connect and send nothing; each one cut reconnects.
  sessions       --sessions sessions initialized and abandoned (past
                 --max-sessions, so the oldest are evicted);
  tasks          --tasks calls of getPet that become tasks (--task-after 0)
                 with a --result-kib result each (past --task-results-bytes).
  a client       one MCP session on a kept-alive connection (opened before
                 the attack) listing tools twice a second: it must keep
                 being answered.
  probes         GET /healthz on a fresh connection from 127.0.0.1 every
                 250 ms: each must answer 200 within a second.

The server's RSS is sampled from /proc every 250 ms and must stay under
--rss-bound-mib. Prints the numbers; exits 1 when a check fails.
Python 3 standard library only; every loop is bounded by the deadline.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import resource
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_backend(result_kib: int) -> ThreadingHTTPServer:
    pet = json.dumps({"id": 1, "name": "Rex", "notes": "x" * (result_kib * 1024)}).encode()

    class H(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:  # noqa: N802
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(pet)))
            self.end_headers()
            self.wfile.write(pet)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), H)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def listen_drops() -> int | None:
    """Connections the kernel dropped at a full listen queue, machine-wide
    (TcpExt ListenDrops in /proc/net/netstat); None where it is not there."""
    try:
        with open("/proc/net/netstat") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    for names, values in zip(lines[::2], lines[1::2]):
        if names.startswith("TcpExt:"):
            table = dict(zip(names.split()[1:], values.split()[1:]))
            return int(table["ListenDrops"]) if "ListenDrops" in table else None
    return None


class Mcp:
    """One MCP session over a kept-alive connection (its own, or `conn`)."""

    def __init__(self, port: int, tasks: bool = False,
                 conn: http.client.HTTPConnection | None = None) -> None:
        self.session = None
        self.conn = conn or http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        caps = {"extensions": {"io.modelcontextprotocol/tasks": {}}} if tasks else {}
        status, headers, _ = self.post(
            {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-06-18", "capabilities": caps,
                "clientInfo": {"name": "load", "version": "1"}}})
        if status != 200:
            raise RuntimeError(f"initialize: HTTP {status}")
        self.session = headers.get("mcp-session-id")
        self.post({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def post(self, message: dict) -> tuple[int, dict, bytes]:
        headers = {
            "content-type": "application/json",
            "accept": "application/json, text/event-stream",
            "mcp-protocol-version": "2025-06-18",
        }
        if self.session:
            headers["mcp-session-id"] = self.session
        self.conn.request("POST", "/mcp", json.dumps(message), headers)
        res = self.conn.getresponse()
        body = res.read()
        return res.status, {k.lower(): v for k, v in res.getheaders()}, body

    def close(self) -> None:
        self.conn.close()


def reply(body: bytes) -> dict:
    """The JSON-RPC response in a JSON or SSE body."""
    try:
        return json.loads(body)
    except ValueError:
        pass
    for line in reversed(body.decode(errors="replace").splitlines()):
        if line.startswith("data:"):
            try:
                m = json.loads(line[5:])
            except ValueError:
                continue
            if "id" in m:
                return m
    return {}


async def slow_client(kind: str, source: str, port: int, deadline: float, stats: dict) -> None:
    """One attacker connection, reconnecting each time it is cut."""
    while time.monotonic() < deadline:
        try:
            sock = socket.socket()
            sock.setblocking(False)
            sock.bind((source, 0))
            await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
            reader, writer = await asyncio.open_connection(sock=sock)
        except OSError:
            stats["connect_errors"] += 1
            await asyncio.sleep(0.5)
            continue
        stats["opened"] += 1
        opened = time.monotonic()
        try:
            if kind == "header":
                writer.write(b"GET /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\n")
            elif kind == "body":
                writer.write(b"POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n"
                             b"accept: application/json, text/event-stream\r\ncontent-length: 100000\r\n\r\n{")
            await writer.drain()
            while time.monotonic() < deadline:
                if kind == "header":
                    writer.write(b"x-drip: 1\r\n")
                elif kind == "body":
                    writer.write(b" ")
                await writer.drain()
                try:
                    data = await asyncio.wait_for(reader.read(4096), 2.0 if kind == "header" else 1.0)
                except asyncio.TimeoutError:
                    continue
                if not data:
                    break
                stats["answered"] += 1
        except (OSError, ConnectionError):
            pass
        finally:
            writer.close()
        if time.monotonic() < deadline:
            stats["cut"] += 1
            stats["held_s"].append(time.monotonic() - opened)
            await asyncio.sleep(0.2)


async def attack(port: int, slow: int, deadline: float, stats: dict) -> None:
    kinds = ["header", "body", "idle"]
    sources = [f"127.0.0.{i}" for i in range(2, 12)]
    tasks = []
    for i in range(slow):
        tasks.append(asyncio.create_task(
            slow_client(kinds[i % 3], sources[i % len(sources)], port, deadline, stats)))
        if i % 50 == 49:
            await asyncio.sleep(0.05)
    await asyncio.gather(*tasks)


def probe(port: int) -> float:
    """Seconds /healthz took on a fresh connection; raises on failure."""
    start = time.monotonic()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1.0)
    try:
        conn.request("GET", "/healthz")
        res = conn.getresponse()
        res.read()
        if res.status != 200:
            raise RuntimeError(f"/healthz answered {res.status}")
    finally:
        conn.close()
    return time.monotonic() - start


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--binary", default=os.path.join(ROOT, "target/release/openapi2mcp"))
    p.add_argument("--seconds", type=float, default=60)
    p.add_argument("--slow", type=int, default=1500, help="slow connections at once")
    p.add_argument("--sessions", type=int, default=3000)
    p.add_argument("--tasks", type=int, default=600)
    p.add_argument("--result-kib", type=int, default=200)
    p.add_argument("--rss-bound-mib", type=float, default=400)
    args = p.parse_args()

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    backend = start_backend(args.result_kib)
    port = free_port()
    server = subprocess.Popen(
        [args.binary, "serve", os.path.join(ROOT, "specs/petstore.yaml"), "-q",
         "--transport", "http", "--listen", f"127.0.0.1:{port}",
         "--base-url", f"http://127.0.0.1:{backend.server_address[1]}/v1", "--task-after", "0"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    warnings: list[str] = []

    def drain_stderr() -> None:
        assert server.stderr is not None
        for line in server.stderr:
            if "WARN" in line or "ERROR" in line:
                warnings.append(line.rstrip())

    threading.Thread(target=drain_stderr, daemon=True).start()
    failures: list[str] = []
    try:
        for _ in range(100):
            try:
                probe(port)
                break
            except Exception:
                time.sleep(0.1)
        else:
            print("bounded: the server did not start")
            return 1
        rss_start = rss_mib(server.pid)
        drops_start = listen_drops()
        client = Mcp(port)
        deadline = time.monotonic() + args.seconds
        stats = {"opened": 0, "cut": 0, "answered": 0, "connect_errors": 0, "held_s": []}
        done = {"sessions": 0, "session_errors": 0, "tasks": 0, "task_errors": 0,
                "client_calls": 0, "client_errors": 0}
        probes: list[float] = []
        rss: list[float] = []

        def sessions(n: int, conn: http.client.HTTPConnection) -> None:
            # Over one kept-alive connection (opened before the attack, as a
            # busy client's is): new connections get 503 while the attackers
            # hold the connection cap.
            for _ in range(n):
                if time.monotonic() >= deadline:
                    return
                try:
                    Mcp(port, conn=conn)  # initialized, then abandoned
                    done["sessions"] += 1
                except Exception:
                    done["session_errors"] += 1
                    conn.close()
            conn.close()

        def tasks(n: int, mcp: Mcp) -> None:
            for i in range(n):
                if time.monotonic() >= deadline:
                    return
                try:
                    status, _, body = mcp.post({"jsonrpc": "2.0", "id": 10 + i, "method": "tools/call",
                                                "params": {"name": "get_pet", "arguments": {"petId": i}}})
                    result = reply(body).get("result", {})
                    if status == 200 and (result.get("resultType") == "task" or "task" in result):
                        done["tasks"] += 1
                    else:
                        done["task_errors"] += 1
                except Exception:
                    done["task_errors"] += 1

        def client_loop() -> None:
            while time.monotonic() < deadline:
                try:
                    status, _, body = client.post({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
                    if status == 200 and "tools" in reply(body).get("result", {}):
                        done["client_calls"] += 1
                    else:
                        done["client_errors"] += 1
                except Exception:
                    done["client_errors"] += 1
                time.sleep(0.5)

        def probes_loop() -> None:
            while time.monotonic() < deadline:
                try:
                    probes.append(probe(port))
                except Exception as e:  # noqa: BLE001
                    failures.append(f"/healthz at {args.seconds - (deadline - time.monotonic()):.1f} s: {e}")
                time.sleep(0.25)

        def rss_loop() -> None:
            while time.monotonic() < deadline + 1:
                rss.append(rss_mib(server.pid))
                time.sleep(0.25)

        def conn() -> http.client.HTTPConnection:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            c.connect()
            return c

        quarter = args.sessions // 4
        threads = [threading.Thread(target=f, args=a, daemon=True) for f, a in [
            (sessions, (quarter, conn())), (sessions, (quarter, conn())),
            (sessions, (quarter, conn())), (sessions, (args.sessions - 3 * quarter, conn())),
            (tasks, (args.tasks, Mcp(port, tasks=True))), (client_loop, ()), (probes_loop, ()),
            (rss_loop, ())]]
        for t in threads:
            t.start()
        asyncio.run(attack(port, args.slow, deadline, stats))
        for t in threads:
            t.join(timeout=args.seconds + 30)
        client.close()

        peak = max(rss) if rss else 0.0
        held = stats["held_s"]
        print(f"bounded: {args.seconds:.0f} s, {args.slow} slow connections at once from 10 addresses "
              f"({stats['opened']} opened, {stats['cut']} cut by the server, "
              f"held {statistics.median(held) if held else 0:.1f} s median / {max(held) if held else 0:.1f} s max)")
        print(f"bounded: {done['sessions']} sessions abandoned ({done['session_errors']} refused), "
              f"{done['tasks']} tasks of {args.result_kib} KiB ({done['task_errors']} not tasks), "
              f"client: {done['client_calls']} tools/list answered, {done['client_errors']} failed")
        if probes:
            print(f"bounded: /healthz {len(probes)} probes, {len(failures)} failed, "
                  f"median {statistics.median(probes) * 1000:.1f} ms, max {max(probes) * 1000:.1f} ms")
        drops_end = listen_drops()
        if drops_start is not None and drops_end is not None:
            # A probe whose SYN is dropped waits a second for its retry: the
            # listener's queue must outlast the reconnecting attackers.
            print(f"bounded: {drops_end - drops_start} connections dropped at a full listen queue "
                  "(machine-wide TcpExt ListenDrops; 350 a minute with a 128-long queue)")
        print(f"bounded: RSS {rss_start:.0f} MiB at start, peak {peak:.0f} MiB, "
              f"end {rss[-1] if rss else 0:.0f} MiB (bound {args.rss_bound_mib:.0f} MiB)")
        for w in warnings[:8]:
            print(f"bounded: server log: {w}")
        if peak > args.rss_bound_mib:
            failures.append(f"RSS peaked at {peak:.0f} MiB, over the {args.rss_bound_mib:.0f} MiB bound")
        if not probes:
            failures.append("no /healthz probe ran")
        if done["client_errors"]:
            failures.append(f"the kept-alive MCP client saw {done['client_errors']} failures")
        if done["sessions"] < args.sessions // 2:
            failures.append(f"only {done['sessions']} of {args.sessions} sessions were created")
        if stats["cut"] == 0:
            failures.append("no slow connection was cut")
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            failures.append("the server did not exit within 20 s of SIGTERM")
        backend.shutdown()
    for f in failures[:20]:
        print(f"bounded: FAILED: {f}")
    print(f"bounded: {'ok' if not failures else f'{len(failures)} failures'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
