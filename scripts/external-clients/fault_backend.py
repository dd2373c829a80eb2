#!/usr/bin/env python3
"""A misbehaving HTTP/1.1 API for openapi2mcp's hardening checks
(fault_matrix.py, soak.py), on raw asyncio sockets so that every byte on the
wire is under control. Standard library only.

It listens on 127.0.0.1 on three ports, each its own origin:

  home      the API (`serve --base-url http://127.0.0.1:<home>`)
  foreign   another origin that redirects lead to; openapi2mcp must not
            follow them (they are not listed with --allow-redirect-origin)
  allowed   another origin that the checks list with
            --allow-redirect-origin: redirects there are followed, but no
            credential, cookie, header parameter or Referer may go along

and prints one JSON line on stdout once listening:
  {"home": PORT, "foreign": PORT, "allowed": PORT, "pid": PID}

Every request on every port is recorded: origin label, method, path, query,
all headers (names as sent), time. `GET /__records` (any port) answers
{"records": [...], "counts": {"home": N, ...}, "dropped": N}; `?origin=foreign`
keeps one origin's records, `?since=SEQ` only newer ones. `POST /__reset`
(or GET) clears them. Home records are kept in a ring of --keep-home records
(the soak makes tens of thousands); other origins' records are all kept.
Control requests (/__*) are not recorded.

On home, `GET /fault/{kind}` answers one object like
{"kind": "ok", "ok": true, "n": 1} and `GET /faults/{kind}` an array of them,
or misbehave as `kind` says:

  ok                  200 JSON
  refused             reads the request, then closes the socket (no answer)
  slow                sleeps --slow seconds (default 3), then answers ok
  stall               headers and part of the body (Content-Length promises
                      more), then nothing until the client goes (or 60 s)
  html500             500 text/html
  badjson             200 application/json, body not JSON
  empty200            200 application/json, zero-length body
  nocontent           204
  huge                200 JSON of about --huge-bytes (50 MB), streamed: for
                      /faults/ an array of small objects, for /fault/ an
                      object with one long string
  r429                429 with Retry-After: 1
  redirect_same       302 to /fault/ok (/faults/ok) on home
  redirect_foreign    302 to the same path on the foreign origin
  redirect_allowed    302 to the same path on the allowed origin
  redirect_loop       302 to itself
  endless_chunked     200 chunked JSON, one small chunk every 50 ms, never
                      finished (until the client goes, or --endless-limit s)
  bad_content_length  Content-Length larger than the bytes sent, then close
  short_content_length Content-Length smaller than the body (valid JSON
                      within it, junk after), connection left open

Any other kind: 404 JSON. The foreign and allowed origins answer every
request with ok (200 JSON, an array under /faults/).

Usage: fault_backend.py [--huge-bytes N] [--slow S] [--endless-limit S]
                        [--keep-home N]
Stop it with SIGTERM/SIGINT; run it under `timeout` in scripts.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import signal
import sys
import time
from urllib.parse import parse_qs, urlsplit

MAX_HEAD = 64 * 1024


class State:
    def __init__(self, ns: argparse.Namespace) -> None:
        self.ns = ns
        self.ports: dict[str, int] = {}
        self.seq = 0
        self.home: collections.deque = collections.deque(maxlen=ns.keep_home)
        self.others: list[dict] = []
        self.counts: collections.Counter = collections.Counter()
        self.kinds: collections.Counter = collections.Counter()
        self.dropped = 0

    def record(self, origin: str, method: str, target: str, headers: list[tuple[str, str]]) -> None:
        self.seq += 1
        parts = urlsplit(target)
        rec = {
            "seq": self.seq,
            "origin": origin,
            "method": method,
            "path": parts.path,
            "query": parts.query,
            "headers": [[k, v] for k, v in headers],
            "t": time.time(),
        }
        self.counts[origin] += 1
        if origin == "home":
            if len(self.home) == self.home.maxlen:
                self.dropped += 1
            self.home.append(rec)
        else:
            self.others.append(rec)

    def records(self, origin: str | None, since: int) -> dict:
        pool = list(self.home) + self.others
        pool.sort(key=lambda r: r["seq"])
        recs = [r for r in pool if r["seq"] > since and (origin is None or r["origin"] == origin)]
        return {
            "records": recs,
            "counts": dict(self.counts),
            "kinds": dict(self.kinds),
            "dropped": self.dropped,
            "seq": self.seq,
        }

    def reset(self) -> None:
        self.home.clear()
        self.others.clear()
        self.counts.clear()
        self.kinds.clear()
        self.dropped = 0


def head(status: int, reason: str, headers: list[tuple[str, str]]) -> bytes:
    lines = [f"HTTP/1.1 {status} {reason}"] + [f"{k}: {v}" for k, v in headers]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def simple(status: int, reason: str, body: bytes, ctype: str = "application/json", extra=()) -> bytes:
    hs = [("Content-Type", ctype), ("Content-Length", str(len(body)))] + list(extra)
    return head(status, reason, hs) + body


def ok_body(collection: bool, kind: str = "ok") -> bytes:
    if collection:
        return json.dumps([{"kind": kind, "ok": True, "n": i} for i in range(3)]).encode()
    return json.dumps({"kind": kind, "ok": True, "n": 1}).encode()


async def read_request(reader: asyncio.StreamReader):
    """(method, target, headers, body) or None at EOF / garbage."""
    try:
        raw = await reader.readuntil(b"\r\n\r\n")
    except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
        return None
    if len(raw) > MAX_HEAD:
        return None
    lines = raw.decode("latin-1").split("\r\n")
    try:
        method, target, _version = lines[0].split(" ", 2)
    except ValueError:
        return None
    headers: list[tuple[str, str]] = []
    for line in lines[1:]:
        if not line:
            continue
        name, _, value = line.partition(":")
        headers.append((name.strip(), value.strip()))
    length = 0
    for k, v in headers:
        if k.lower() == "content-length":
            try:
                length = int(v)
            except ValueError:
                return None
    body = b""
    if length:
        try:
            body = await reader.readexactly(length)
        except (asyncio.IncompleteReadError, ConnectionError):
            return None
    return method, target, headers, body


async def wait_closed_or(reader: asyncio.StreamReader, seconds: float) -> None:
    """Sleep up to `seconds`, returning early when the peer closes."""
    try:
        await asyncio.wait_for(reader.read(), timeout=seconds)
    except (asyncio.TimeoutError, ConnectionError):
        pass


async def stream_huge(writer: asyncio.StreamWriter, collection: bool, size: int) -> None:
    if collection:
        item = b'{"kind":"huge","ok":true,"n":1,"note":"padding padding padding"}'
        count = max(1, size // (len(item) + 1))
        total = 2 + count * len(item) + (count - 1)
        writer.write(head(200, "OK", [("Content-Type", "application/json"), ("Content-Length", str(total))]))
        writer.write(b"[")
        per = 1000
        block = b",".join([item] * per)
        sent = 0
        while sent < count:
            n = min(per, count - sent)
            chunk = block if n == per else b",".join([item] * n)
            if sent:
                chunk = b"," + chunk
            writer.write(chunk)
            sent += n
            await writer.drain()
        writer.write(b"]")
    else:
        prefix = b'{"kind":"huge","ok":true,"n":1,"note":"'
        suffix = b'"}'
        pad = max(1, size - len(prefix) - len(suffix))
        total = len(prefix) + pad + len(suffix)
        writer.write(head(200, "OK", [("Content-Type", "application/json"), ("Content-Length", str(total))]))
        writer.write(prefix)
        block = b"x" * 65536
        left = pad
        while left > 0:
            n = min(left, len(block))
            writer.write(block[:n])
            left -= n
            await writer.drain()
        writer.write(suffix)
    await writer.drain()


async def fault(state: State, kind: str, collection: bool, method: str, path: str,
                reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bool:
    """Answer one fault request. Returns whether the connection stays open."""
    ns = state.ns
    state.kinds[kind] += 1
    prefix = "/faults/" if collection else "/fault/"
    if kind == "ok":
        writer.write(simple(200, "OK", ok_body(collection)))
        return True
    if kind == "refused":
        return False
    if kind == "slow":
        await wait_closed_or(reader, ns.slow)
        if reader.at_eof():
            return False
        writer.write(simple(200, "OK", ok_body(collection, "slow")))
        return True
    if kind == "stall":
        writer.write(head(200, "OK", [("Content-Type", "application/json"), ("Content-Length", "1000")]))
        writer.write(b'{"kind":"stall","ok":true,"note":"')
        await writer.drain()
        await wait_closed_or(reader, ns.endless_limit)
        return False
    if kind == "html500":
        body = b"<!DOCTYPE html><html><head><title>500</title></head><body><h1>Internal Server Error</h1><p>Something broke.</p></body></html>"
        writer.write(simple(500, "Internal Server Error", body, "text/html; charset=utf-8"))
        return True
    if kind == "badjson":
        writer.write(simple(200, "OK", b'{"kind": "badjson", "ok": tru, n: 1,', "application/json"))
        return True
    if kind == "empty200":
        writer.write(simple(200, "OK", b"", "application/json"))
        return True
    if kind == "nocontent":
        writer.write(head(204, "No Content", []))
        return True
    if kind == "huge":
        try:
            await stream_huge(writer, collection, ns.huge_bytes)
        except (ConnectionError, OSError):
            return False
        return True
    if kind == "r429":
        writer.write(simple(429, "Too Many Requests", b'{"message":"rate limited, retry later"}',
                            extra=[("Retry-After", "1")]))
        return True
    if kind in ("redirect_same", "redirect_foreign", "redirect_allowed", "redirect_loop"):
        if kind == "redirect_same":
            loc = f"{prefix}ok"
        elif kind == "redirect_loop":
            loc = path
        else:
            port = state.ports["foreign" if kind == "redirect_foreign" else "allowed"]
            loc = f"http://127.0.0.1:{port}{prefix}ok"
        writer.write(simple(302, "Found", b"", "text/plain", extra=[("Location", loc)]))
        return True
    if kind == "endless_chunked":
        writer.write(head(200, "OK", [("Content-Type", "application/json"), ("Transfer-Encoding", "chunked")]))
        item = b'{"kind":"endless","ok":true,"n":1},'
        first = b"[" + item
        writer.write(f"{len(first):x}\r\n".encode() + first + b"\r\n")
        deadline = time.monotonic() + ns.endless_limit
        try:
            await writer.drain()
            while time.monotonic() < deadline:
                await wait_closed_or(reader, 0.05)
                if reader.at_eof():
                    return False
                writer.write(f"{len(item):x}\r\n".encode() + item + b"\r\n")
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        return False
    if kind == "bad_content_length":
        body = ok_body(collection, "bad_content_length")
        writer.write(head(200, "OK", [("Content-Type", "application/json"),
                                      ("Content-Length", str(len(body) + 1000))]) + body)
        await writer.drain()
        return False
    if kind == "short_content_length":
        body = ok_body(collection, "short_content_length")
        writer.write(head(200, "OK", [("Content-Type", "application/json"),
                                      ("Content-Length", str(len(body)))]) + body + b'GARBAGE{"junk":')
        return True
    writer.write(simple(404, "Not Found", json.dumps({"message": f"no such fault: {kind}"}).encode()))
    return True


async def handle(state: State, origin: str, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while True:
            req = await read_request(reader)
            if req is None:
                break
            method, target, headers, _body = req
            parts = urlsplit(target)
            path = parts.path
            if path.startswith("/__"):
                if path == "/__records":
                    q = parse_qs(parts.query)
                    body = json.dumps(state.records(q.get("origin", [None])[0], int(q.get("since", ["0"])[0]))).encode()
                    writer.write(simple(200, "OK", body))
                elif path == "/__reset":
                    state.reset()
                    writer.write(simple(200, "OK", b"{}"))
                else:
                    writer.write(simple(404, "Not Found", b"{}"))
                await writer.drain()
                continue
            state.record(origin, method, target, headers)
            collection = path.startswith("/faults/")
            if origin != "home":
                writer.write(simple(200, "OK", ok_body(collection, f"{origin}")))
                await writer.drain()
                continue
            if path.startswith("/fault/") or collection:
                kind = path.split("/", 2)[2]
                keep = await fault(state, kind, collection, method, path, reader, writer)
            else:
                writer.write(simple(404, "Not Found", b'{"message":"not found"}'))
                keep = True
            await writer.drain()
            if not keep:
                break
    except (ConnectionError, OSError, asyncio.CancelledError):
        pass
    finally:
        try:
            writer.close()
        except Exception:  # noqa: BLE001
            pass


async def main(ns: argparse.Namespace) -> None:
    state = State(ns)
    servers = []
    for origin in ("home", "foreign", "allowed"):
        srv = await asyncio.start_server(
            lambda r, w, o=origin: handle(state, o, r, w), "127.0.0.1", 0,
            limit=MAX_HEAD, backlog=1024,
        )
        state.ports[origin] = srv.sockets[0].getsockname()[1]
        servers.append(srv)
    print(json.dumps({**state.ports, "pid": os.getpid()}), flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    for srv in servers:
        srv.close()


def parse(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(description="A misbehaving HTTP/1.1 API (see the module docstring).")
    p.add_argument("--huge-bytes", type=int, default=50 * 1024 * 1024)
    p.add_argument("--slow", type=float, default=3.0, help="seconds `slow` waits before answering")
    p.add_argument("--endless-limit", type=float, default=60.0,
                   help="seconds `endless_chunked` and `stall` go on at most")
    p.add_argument("--keep-home", type=int, default=20000, help="home records kept (a ring)")
    return p.parse_args(argv)


if __name__ == "__main__":
    try:
        asyncio.run(main(parse(sys.argv[1:])))
    except KeyboardInterrupt:
        pass
