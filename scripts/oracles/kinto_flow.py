#!/usr/bin/env python3
"""Oracle (c): paging through a real REST server's list by its headers,
as a model would (issue #45).

Starts Kinto (the `kinto` package from PyPI, written by Mozilla; memory
backend, HTTP Basic accounts) on 127.0.0.1, fetches the Swagger 2.0
description it serves itself (`/v1/__api__`), and serves that with
`openapi2mcp serve` over stdio and default flags (the Basic credentials
through `OPENAPI2MCP_BASICAUTH_USERNAME`/`_PASSWORD`), driven by the
official MCP Python SDK's `ClientSession` declaring no capability.

Kinto pages its lists with a `Next-Page` response header holding the next
page's whole URL with an opaque `_token` (the document does not declare
the header; it declares `_limit` and `_token`). The flow creates RECORDS
records, then lists them `limit` at a time reading only what a model
reads: each result's text, calling the tool again with the arguments of
its `Next page:` line until there is none. Every record must be seen
exactly once, in the expected number of pages, and the `ETag` the
document declares must be shown.

Usage: kinto_flow.py --bin OPENAPI2MCP --kinto KINTO --out DIR
Exit status: 0 when every step passed, 1 otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

try:
    import anyio
    from mcp import ClientSession, StdioServerParameters, stdio_client
except ImportError as e:  # pragma: no cover - environment problem
    print(f"kinto_flow: cannot import the MCP Python SDK ({e}); run setup.sh", file=sys.stderr)
    sys.exit(2)

START_LIMIT = 60.0  # seconds for Kinto to answer
FLOW_LIMIT = 120.0  # seconds for the whole MCP session
RECORDS = 7
PAGE = 3
NEXT_PREFIX = "Next page: call `{tool}` again with these arguments: "


class StepFailed(Exception):
    """A result was not what Kinto and the bridge should give."""


def expect(cond: bool, message: str) -> None:
    if not cond:
        raise StepFailed(message)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Kinto:
    """A Kinto server on 127.0.0.1 with the memory backend and Basic auth."""

    def __init__(self, kinto: str, work: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/v1"
        ini = work / "kinto.ini"
        ini.unlink(missing_ok=True)  # `kinto init` will not overwrite one
        subprocess.run([kinto, "init", "--ini", str(ini), "--backend", "memory", "--cache-backend", "memory"],
                       check=True, capture_output=True, timeout=60)
        text = ini.read_text()
        # Any Basic user name and password is an account (Kinto's
        # documented basicauth policy); authenticated users may write.
        text = text.replace(
            "multiauth.policies = account",
            "multiauth.policies = basicauth\n"
            "multiauth.policy.basicauth.use = kinto.core.authentication.BasicAuthAuthenticationPolicy")
        ini.write_text(text)
        self.log_path = work / "kinto.log"
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen([kinto, "start", "--ini", str(ini), "--port", str(self.port)],
                                     stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)

    def wait_ready(self) -> str:
        deadline = time.monotonic() + START_LIMIT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise StepFailed(f"Kinto exited with {self.proc.returncode}: {self.log_path.read_text()[-800:]}")
            try:
                with urllib.request.urlopen(f"{self.url}/", timeout=2) as r:
                    return json.load(r).get("project_version", "?")
            except OSError:
                time.sleep(0.2)
        raise StepFailed(f"Kinto did not answer within {START_LIMIT:.0f} s")

    def document(self, dest: Path) -> Path:
        with urllib.request.urlopen(f"{self.url}/__api__", timeout=10) as r:
            dest.write_bytes(r.read())
        return dest

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
        self.log.close()


def text_of(result: Any) -> str:
    return "\n".join(getattr(c, "text", "") or "" for c in result.content or [])


def body_of(result: Any) -> Any:
    """The response body: the structured content, else the last text block
    (notes such as the response headers come before it)."""
    if result.structured_content is not None:
        return result.structured_content
    return json.loads(getattr(result.content[-1], "text", "") or "null")


async def flow(session: ClientSession, steps: list[str]) -> None:
    tools = (await session.list_tools()).tools
    by_op = {}
    for t in tools:
        origin = (t.meta or {}).get("openapi2mcp/origin", {})
        by_op[(origin.get("method"), origin.get("path"))] = t.name
    records_path = "/buckets/{bucket_id}/collections/{collection_id}/records"
    create, listing = by_op.get(("POST", records_path)), by_op.get(("GET", records_path))
    expect(create is not None and listing is not None, f"no record tools among {sorted(by_op.values())}")
    where = {"bucket_id": "default", "collection_id": "oracle-" + secrets.token_hex(4)}
    created = []
    for i in range(RECORDS):
        result = await session.call_tool(create, {**where, "data": {"title": f"record {i}"}})
        expect(not result.is_error, f"{create} came back isError: {text_of(result)[:800]}")
        record = body_of(result)["data"]
        created.append(record["id"])
    steps.append(f"create {RECORDS} records: {create} ok")
    args: dict[str, Any] | None = {**where, "limit": PAGE}
    seen: list[str] = []
    pages = 0
    prefix = NEXT_PREFIX.format(tool=listing)
    while args is not None:
        expect(pages < 10, "more than 10 pages")
        result = await session.call_tool(listing, args)
        text = text_of(result)
        expect(not result.is_error, f"{listing} {json.dumps(args)} came back isError: {text[:800]}")
        body = body_of(result)
        seen.extend(r["id"] for r in body["data"])
        pages += 1
        expect("ETag: " in text or "Etag: " in text, f"page {pages}: no ETag shown:\n{text[-600:]}")
        line = next((l for l in text.splitlines() if l.startswith("Next page:")), None)
        if line is None:
            args = None
        else:
            expect(line.startswith(prefix), f"page {pages}: unexpected next-page line: {line}")
            args = json.loads(line[len(prefix):])
            expect(str(args.get("token", "")) != "", f"page {pages}: the next page has no token: {line}")
    want_pages = -(-RECORDS // PAGE)
    expect(pages == want_pages, f"{pages} pages, expected {want_pages}")
    expect(sorted(seen) == sorted(created) and len(set(seen)) == RECORDS,
           f"paged through {seen}, created {created}")
    steps.append(f"list {RECORDS} records {PAGE} at a time by Next-Page: {listing} ok, {pages} pages, each record once")


async def session(ns: argparse.Namespace, kinto: Kinto, spec: Path, steps: list[str]) -> None:
    env = {
        "OPENAPI2MCP_BASICAUTH_USERNAME": "oracle",
        "OPENAPI2MCP_BASICAUTH_PASSWORD": secrets.token_hex(8),
        "NO_COLOR": "1",
        "RUST_LOG": os.environ.get("RUST_LOG", "warn"),
    }
    params = StdioServerParameters(command=ns.bin, args=["serve", str(spec), "--base-url", kinto.url], env=env)
    with anyio.fail_after(FLOW_LIMIT):
        async with stdio_client(params, errlog=ns.stderr_log) as (read, write):
            async with ClientSession(read, write) as s:
                await s.initialize()
                await flow(s, steps)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", required=True)
    parser.add_argument("--kinto", required=True, help="the kinto command of the venv it is installed in")
    parser.add_argument("--out", required=True, type=Path)
    ns = parser.parse_args()
    ns.out.mkdir(parents=True, exist_ok=True)
    ns.stderr_log = open(ns.out / "kinto-openapi2mcp-stderr.log", "w")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    started = time.monotonic()
    work = ns.out / "kinto"
    work.mkdir(exist_ok=True)
    steps: list[str] = []
    kinto = Kinto(ns.kinto, work)
    try:
        version = kinto.wait_ready()
        spec = kinto.document(work / "kinto-api.json")
        print(f"kinto: Kinto {version} on {kinto.url}, its own document {spec}")
        asyncio.run(session(ns, kinto, spec, steps))
    except Exception as e:  # noqa: BLE001 - an SDK exception is a finding
        for step in steps:
            print(f"    {step}")
        found = [x for x in leaves(e) if isinstance(x, StepFailed)]
        other = "; ".join(f"{type(x).__name__}: {x}" for x in leaves(e))
        print(f"kinto: FAILED: {'; '.join(map(str, found)) if found else other}")
        print("kinto: 0 passed, 1 failed")
        return 1
    finally:
        kinto.stop()
    for step in steps:
        print(f"    {step}")
    print(f"kinto: flow passed in {time.monotonic() - started:.1f} s")
    print(f"kinto: {len(steps)} passed, 0 failed")
    return 0


def leaves(e: BaseException) -> list[BaseException]:
    """The real errors inside (possibly nested) exception groups."""
    if isinstance(e, BaseExceptionGroup):
        return [leaf for x in e.exceptions for leaf in leaves(x)]
    return [e]


if __name__ == "__main__":
    sys.exit(main())
