#!/usr/bin/env python3
"""Load driver for scripts/scale-out/run.sh (issue #14).

`drive.py backend --port P`: the API behind the instances, a threaded
http.server answering petstore's GET /v1/pets/{id} with a small JSON pet
after a few milliseconds (as real APIs take).

`drive.py drive --one URL --three URL --kill-pid PID`: the official MCP
Python SDK in --processes processes x --clients concurrent clients (bounded),
each holding a streamable HTTP connection and calling get_pet in a loop.
Three phases of --seconds each:

  one    nginx -> 1 instance: every call answered (no error);
  three  nginx -> 3 instances (round-robin): every call answered;
  kill   nginx -> 3 instances, one SIGKILLed a third of the way in: the
         failed calls are at most the calls in flight when it died (bounded
         by the number of clients), all within 2 s of the kill, and calls
         keep succeeding afterwards.

Prints calls/s per phase and `scale-out: N passed, M failed`; exit 1 on a
failure.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import signal
import sys
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def backend(port: int) -> None:
    class H(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:  # noqa: N802
            time.sleep(0.005)
            body = json.dumps({"id": 1, "name": "Rex", "tags": ["dog"]}).encode()
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    ThreadingHTTPServer.daemon_threads = True
    ThreadingHTTPServer(("127.0.0.1", port), H).serve_forever()


async def client_loop(url: str, deadline: float, out: list) -> None:
    """One client: a session, calls until the deadline; reconnects after an error."""
    import anyio
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    while time.time() < deadline:
        try:
            async with streamable_http_client(url) as (read, write):
                async with ClientSession(read, write) as s:
                    with anyio.fail_after(20):
                        await s.initialize()
                    while time.time() < deadline:
                        start = time.time()
                        try:
                            with anyio.fail_after(20):
                                r = await s.call_tool("get_pet", {"petId": 1})
                            ok = (not r.is_error) and (r.structured_content or {}).get("name") == "Rex"
                            out.append((start, time.time(), ok, "" if ok else "isError"))
                        except Exception as e:  # noqa: BLE001
                            out.append((start, time.time(), False, type(e).__name__))
                            break
        except BaseException as e:  # noqa: BLE001
            if isinstance(e, KeyboardInterrupt):
                raise
            out.append((time.time(), time.time(), False, "session:" + type(e).__name__))
            await asyncio.sleep(0.05)


def worker(url: str, clients: int, seconds: float, q: "multiprocessing.Queue") -> None:
    out: list = []

    async def main() -> None:
        deadline = time.time() + seconds
        await asyncio.gather(*(client_loop(url, deadline, out) for _ in range(clients)))

    try:
        asyncio.run(main())
    except BaseException as e:  # noqa: BLE001
        out.append((time.time(), time.time(), False, "worker:" + type(e).__name__))
    q.put(out)


def phase(url: str, ns: argparse.Namespace, kill_pid: int | None = None) -> tuple[list, float | None]:
    q: multiprocessing.Queue = multiprocessing.Queue()
    procs = [
        multiprocessing.Process(target=worker, args=(url, ns.clients, ns.seconds, q))
        for _ in range(ns.processes)
    ]
    for p in procs:
        p.start()
    killed_at = None
    if kill_pid:
        time.sleep(ns.seconds / 3)
        killed_at = time.time()
        os.kill(kill_pid, signal.SIGKILL)
    results: list = []
    for _ in procs:
        results.extend(q.get(timeout=ns.seconds + 120))
    for p in procs:
        p.join(timeout=30)
    return results, killed_at


def main() -> int:
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("backend")
    b.add_argument("--port", type=int, required=True)
    d = sub.add_parser("drive")
    d.add_argument("--one", required=True)
    d.add_argument("--three", required=True)
    d.add_argument("--kill-pid", type=int, required=True)
    d.add_argument("--processes", type=int, default=4)
    d.add_argument("--clients", type=int, default=16)
    d.add_argument("--seconds", type=float, default=20.0)
    ns = ap.parse_args()
    if ns.cmd == "backend":
        backend(ns.port)
        return 0

    passed = failed = 0

    def check(name: str, ok: bool, detail: str) -> None:
        nonlocal passed, failed
        print(f"{'PASS' if ok else 'FAIL'} {name}: {detail}", flush=True)
        passed += ok
        failed += not ok

    # Toolsets chosen per request, through nginx to every instance (the
    # instances serve --tools toolsets --stateless): the path the load
    # below uses, the X-MCP-Toolsets header, and nothing chosen.
    base = ns.three.split("/mcp/")[0]
    seen = {"path": set(), "header": set(), "none": set()}
    for i in range(9):
        for kind, path, headers in (
            ("path", "/mcp/x/pets", {}),
            ("header", "/mcp", {"X-MCP-Toolsets": "pets"}),
            ("none", "/mcp", {}),
        ):
            body = json.dumps({"jsonrpc": "2.0", "id": i, "method": "tools/list", "params": {"_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {}}}}).encode()
            req = urllib.request.Request(base + path, data=body, method="POST", headers={
                "content-type": "application/json", "accept": "application/json, text/event-stream",
                "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list", **headers})
            with urllib.request.urlopen(req, timeout=10) as r:
                tools = json.loads(r.read())["result"]["tools"]
            seen[kind].add(tuple(sorted(t["name"] for t in tools)))
    pets = seen["path"] == seen["header"] and len(seen["path"]) == 1 and "get_pet" in next(iter(seen["path"]))
    check(
        "toolsets-by-request",
        # Nothing chosen: list_toolsets, and get_call_result (every mode lists it).
        pets and seen["none"] == {("get_call_result", "list_toolsets")},
        f"27 tools/list through nginx: by path and by header {sorted(seen['path'])}, none chosen {sorted(seen['none'])}",
    )

    concurrency = ns.processes * ns.clients
    rates = {}
    for name, url in (("one", ns.one), ("three", ns.three)):
        res, _ = phase(url, ns)
        ok = sum(1 for r in res if r[2])
        errs = [r[3] for r in res if not r[2]]
        rates[name] = ok / ns.seconds
        lat = sorted(r[1] - r[0] for r in res if r[2])
        p50 = lat[len(lat) // 2] * 1000 if lat else 0
        p99 = lat[int(len(lat) * 0.99)] * 1000 if lat else 0
        check(
            f"{name}-instance(s)",
            ok > 0 and not errs,
            f"{ok} calls ok, {len(errs)} errors {sorted(set(errs))}, {rates[name]:.0f} calls/s, "
            f"p50 {p50:.1f} ms, p99 {p99:.1f} ms, {concurrency} clients",
        )
    res, killed_at = phase(ns.three, ns, kill_pid=ns.kill_pid)
    assert killed_at is not None
    bad = [r for r in res if not r[2]]
    late = [r for r in bad if r[1] > killed_at + 2.0 or r[1] < killed_at]
    after = sum(1 for r in res if r[2] and r[0] > killed_at + 2.0)
    check(
        "kill-one-instance",
        len(bad) <= concurrency and not late and after > 0,
        f"{len(bad)} calls failed (bound: {concurrency} in flight), "
        f"{len(late)} of them outside the 2 s after the kill, {after} calls ok afterwards, "
        f"kinds {sorted(set(r[3] for r in bad))}",
    )
    print(
        f"scale-out figures: 1 instance {rates['one']:.0f} calls/s, 3 instances {rates['three']:.0f} calls/s "
        f"(x{rates['three'] / max(rates['one'], 1e-9):.2f}), {os.cpu_count()} cores",
        flush=True,
    )
    print(f"scale-out: {passed} passed, {failed} failed", flush=True)
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
