#!/usr/bin/env python3
"""The fault matrix: openapi2mcp's release binary in front of a misbehaving
API (fault_backend.py), driven by the official MCP Python SDK.

For each `--output-schema` mode (full, loose, off), each transport (stdio:
the SDK spawns `openapi2mcp serve`; http: `serve --transport http` and the
SDK's streamable HTTP client) and each fault cell (tools get_fault and
list_faults of tests/fixtures/faults.yaml, `kind` = the fault), one call:

  - the SDK raises nothing (it raises when a tool with an outputSchema
    answers without structuredContent, or with structuredContent that does
    not validate), and the result is isError or, when the tool has an
    outputSchema, carries structuredContent;
  - cells that must be errors are errors, cells that must succeed succeed
    (see EXPECT below), with the content the contract promises;
  - the next call (kind=ok) on the same session succeeds;
  - the foreign and allowed origins never receive X-API-Key, Authorization,
    Cookie, Referer or the X-Request-Tag header parameter;
  - the API key (env OPENAPI2MCP_APIKEY_KEY, a recognizable secret) never
    appears in a result, nor in the server's log.

`refused_port` runs a second server whose --base-url is a port nothing
listens on. Every process runs under `timeout`, every call has a
client-side limit, the whole run a global one.

Prints one line per cell and ends with `fault matrix: N passed, M failed`.
Exit status 0 when all passed, 1 otherwise, 2 on bad setup.

Usage: fault_matrix.py [--bin PATH] [--modes full,loose,off]
                       [--transports stdio,http] [--cells a,b] [--work DIR]
Run it with the venv's python (setup.sh), after `cargo build --release`.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import re
import socket
import subprocess
import sys
import time
import traceback
import urllib.request
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

try:
    import anyio
    from mcp import ClientSession, StdioServerParameters, stdio_client
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client
except ImportError as e:  # pragma: no cover
    print(f"fault_matrix: cannot import the MCP Python SDK ({e}); run setup.sh and use its venv", file=sys.stderr)
    sys.exit(2)

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SPEC = ROOT / "tests" / "fixtures" / "faults.yaml"
SECRET = "o2m-FAULT-SECRET-3b7e91d04c"
SECRET_ENV = "OPENAPI2MCP_APIKEY_KEY"
TAG = "o2m-tag-5521"  # the X-Request-Tag header parameter's value
COOKIE = "o2m-cookie-8830"  # the `session` cookie parameter's value
FORBIDDEN = ("x-api-key", "authorization", "cookie", "referer", "x-request-tag", "proxy-authorization")
TOOLS = ("get_fault", "list_faults")
PROC_LIMIT = 280  # seconds any process may live
CALL_LIMIT = 20.0  # seconds one call may take (client side)
SERVER_TIMEOUT = 1  # serve --timeout
MAX_BYTES = 65536  # serve --max-response-bytes
BOUNDED_MS = 10_000  # every cell, even the slow ones, must answer within this

# kind -> expectation: "error", "ok", or "any" (either, as long as it is a valid result).
# A callable gets (tool, mode).
EXPECT: dict[str, Any] = {
    "ok": "ok",
    "refused": "error",
    "refused_port": "error",
    "slow": "error",
    "stall": "error",
    "html500": "error",
    "badjson": lambda tool, mode: "any" if mode == "off" else "error",
    "empty200": "ok",
    "nocontent": "ok",
    "huge": lambda tool, mode: "ok" if tool == "list_faults" else "any",
    "r429": "error",
    "redirect_same": "ok",
    "redirect_foreign": "error",
    "redirect_allowed": "ok",
    "redirect_loop": "error",
    "endless_chunked": "error",
    "bad_content_length": "error",
    "short_content_length": "any",
}
CELLS = list(EXPECT)

say = lambda *a: print(*a, flush=True)  # noqa: E731

# The SDK warns "Session termination failed: 202" when closing a streamable
# HTTP session: rmcp answers the DELETE with 202 where the SDK expects 200/204.
# Harmless, and not what this matrix is about.
logging.getLogger("mcp.client.streamable_http").setLevel(logging.ERROR)


def free_dead_port() -> int:
    """A loopback port nothing listens on (bound, then closed)."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def http_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.load(r)


class Backend:
    def __init__(self, work: Path) -> None:
        self.log = open(work / "fault_backend.stderr", "w")
        self.proc = subprocess.Popen(
            ["timeout", str(PROC_LIMIT + 20), sys.executable, str(HERE / "fault_backend.py")],
            stdout=subprocess.PIPE, stderr=self.log, text=True,
        )
        line = self.proc.stdout.readline()  # type: ignore[union-attr]
        if not line:
            raise SystemExit("fault_matrix: the fault backend did not start (see fault_backend.stderr)")
        self.ports = json.loads(line)
        self.home = f"http://127.0.0.1:{self.ports['home']}"
        self.foreign = f"http://127.0.0.1:{self.ports['foreign']}"
        self.allowed = f"http://127.0.0.1:{self.ports['allowed']}"

    def records(self, since: int = 0, origin: str | None = None) -> dict:
        q = f"?since={since}" + (f"&origin={origin}" if origin else "")
        return http_json(f"{self.home}/__records{q}")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def serve_args(bin_: str, base: str, mode: str, allowed: str) -> list[str]:
    return [
        bin_, "serve", str(SPEC), "--quiet",
        "--base-url", base,
        "--timeout", str(SERVER_TIMEOUT),
        "--max-response-bytes", str(MAX_BYTES),
        "--output-schema", mode,
        "--allow-redirect-origin", allowed,
    ]


def server_env() -> dict[str, str]:
    return {SECRET_ENV: SECRET, "NO_COLOR": "1"}


@asynccontextmanager
async def session_for(transport: str, args: list[str], log_path: Path):
    """An initialized ClientSession on `args` (an `openapi2mcp serve` command)."""
    log = open(log_path, "w")
    try:
        if transport == "stdio":
            params = StdioServerParameters(
                command="timeout", args=[str(PROC_LIMIT), *args], env=server_env(),
            )
            async with stdio_client(params, errlog=log) as (read, write):
                async with ClientSession(read, write) as s:
                    await s.initialize()
                    await s.list_tools()
                    yield s, None
        else:
            env = {**os.environ, **server_env()}
            proc = subprocess.Popen(
                ["timeout", str(PROC_LIMIT), *args, "--transport", "http", "--listen", "127.0.0.1:0"],
                stdout=subprocess.DEVNULL, stderr=log, env=env,
            )
            try:
                url = None
                for _ in range(300):
                    m = re.search(r"http://127\.0\.0\.1:[0-9]+/mcp", log_path.read_text(errors="replace"))
                    if m:
                        url = m.group(0)
                        break
                    if proc.poll() is not None:
                        break
                    await anyio.sleep(0.05)
                if not url:
                    raise RuntimeError(f"serve --transport http did not start: {log_path.read_text()[-2000:]}")
                async with create_mcp_http_client() as hc:
                    async with streamable_http_client(url, http_client=hc) as (read, write):
                        async with ClientSession(read, write) as s:
                            await s.initialize()
                            await s.list_tools()
                            yield s, proc
            finally:
                proc.terminate()
                try:
                    proc.wait(5)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
    finally:
        log.close()


def text_of(result: Any) -> str:
    return "\n".join(getattr(c, "text", "") or "" for c in result.content)


def short(s: str, n: int = 600) -> str:
    s = s.replace("\n", "\\n")
    return s if len(s) <= n else s[:n] + f"...[{len(s) - n} more]"


def brief_exc(e: BaseException) -> str:
    if isinstance(e, BaseExceptionGroup):
        return "; ".join(brief_exc(x) for x in e.exceptions)
    msg = (str(e).splitlines() or [""])[0]
    return f"{type(e).__name__}: {msg[:400]}"


class Matrix:
    def __init__(self, ns: argparse.Namespace, backend: Backend) -> None:
        self.ns = ns
        self.b = backend
        self.passed = 0
        self.failed = 0
        self.failures: list[str] = []
        self.dead = f"http://127.0.0.1:{free_dead_port()}"
        # Every cell's result and the requests the backend saw, one JSON line each.
        self.results = open(ns.work / "results.jsonl", "w")

    def report(self, mode: str, transport: str, cell: str, problems: list[str], outcome: str, ms: float) -> None:
        status = "PASS" if not problems else "FAIL"
        say(f"{status}  {mode:<5} {transport:<5} {cell:<35} {outcome:<22} {ms:7.0f} ms")
        if problems:
            self.failed += 1
            line = f"{mode} {transport} {cell}: " + " | ".join(problems)
            self.failures.append(line)
            for p in problems:
                say(f"        {p}")
        else:
            self.passed += 1

    async def call(self, s: ClientSession, tool: str, kind: str) -> tuple[Any, BaseException | None, float]:
        args = {"kind": kind, "X-Request-Tag": TAG, "session": COOKIE}
        t0 = time.monotonic()
        try:
            with anyio.fail_after(CALL_LIMIT + 5):
                r = await s.call_tool(tool, args, read_timeout_seconds=CALL_LIMIT)
            return r, None, (time.monotonic() - t0) * 1000
        except Exception as e:  # noqa: BLE001 - the SDK raising is the finding
            return None, e, (time.monotonic() - t0) * 1000

    def judge(self, tool: str, kind: str, mode: str, r: Any, exc: BaseException | None, ms: float,
              foreign: list[dict], allowed: list[dict], home: list[dict]) -> tuple[list[str], str]:
        has_schema = mode != "off"
        problems: list[str] = []
        if exc is not None:
            return [f"the SDK raised {brief_exc(exc)}"], "EXCEPTION"
        text = text_of(r)
        sc = r.structured_content
        dump = json.dumps(r.model_dump(mode="json", by_alias=True))
        outcome = ("error" if r.is_error else "ok") + (" +structured" if sc is not None else "")
        observed = f"observed: isError={r.is_error} structuredContent={short(json.dumps(sc), 300)} text={short(text, 500)!r}"
        if SECRET in dump:
            problems.append("the API key appears in the result")
        if not r.is_error and has_schema and sc is None:
            problems.append("success without structuredContent on a tool with an outputSchema")
        want = EXPECT[kind]
        if callable(want):
            want = want(tool, mode)
        if want == "error" and not r.is_error:
            problems.append("expected isError=true")
        if want == "ok" and r.is_error:
            problems.append("expected a successful result")
        if ms > BOUNDED_MS:
            problems.append(f"took {ms:.0f} ms (bound {BOUNDED_MS} ms)")
        coll = tool == "list_faults"
        # What a successful result must carry.
        if not r.is_error and has_schema and sc is not None:
            expect_kind = {"ok": "ok", "redirect_same": "ok", "redirect_allowed": "allowed"}.get(kind)
            if kind in ("empty200", "nocontent") and sc != {}:
                problems.append(f"expected structuredContent {{}} for {kind}")
            if expect_kind:
                items = sc.get("result") if coll else [sc]
                if not isinstance(items, list) or not items or any(
                    not isinstance(i, dict) or i.get("kind") != expect_kind for i in items
                ):
                    problems.append(f"expected item(s) with kind={expect_kind!r}")
            if kind == "huge" and coll:
                items = sc.get("result")
                if not isinstance(items, list) or not items:
                    problems.append("expected a non-empty cut array in structuredContent.result")
        if not r.is_error and kind == "huge" and "truncated" not in text.lower():
            problems.append("expected a note that the body was cut")
        if not r.is_error and not has_schema and kind in ("ok", "redirect_same") and '"ok"' not in text:
            problems.append("expected the ok body in the text")
        if r.is_error and kind == "redirect_foreign" and self.b.foreign.replace("http://", "") not in text:
            problems.append("the error does not name the Location (the foreign origin)")
        if r.is_error and kind == "redirect_loop" and ("redirect_loop" not in text or "loop" not in text.lower().replace("redirect_loop", "")):
            problems.append("the error does not name the loop and its chain")
        if r.is_error and kind == "r429" and "429" not in text:
            problems.append("the error does not mention 429")
        # What other origins received during this cell.
        for rec in foreign + allowed:
            bad = [f"{k}: {v}" for k, v in rec["headers"] if k.lower() in FORBIDDEN]
            if bad:
                problems.append(f"the {rec['origin']} origin received {bad} on {rec['method']} {rec['path']}")
            if any(SECRET in v or TAG in v or COOKIE in v for _, v in rec["headers"]) or SECRET in rec["query"]:
                problems.append(f"the {rec['origin']} origin received a secret/parameter value")
        if kind == "redirect_foreign" and foreign:
            problems.append(f"the foreign origin was reached ({len(foreign)} request(s)): the redirect was followed")
        if kind == "redirect_allowed" and not r.is_error and len(allowed) != 1:
            problems.append(f"the allowed origin got {len(allowed)} requests, expected 1")
        if kind == "ok":
            keys = [v for rec in home for k, v in rec["headers"] if k.lower() == "x-api-key"]
            if keys != [SECRET]:
                problems.append(f"the home origin did not get the API key once (got {len(keys)})")
        if problems:
            problems.append(observed)
        return problems, outcome

    async def cell(self, s: ClientSession, mode: str, transport: str, tool: str, kind: str,
                   next_on: ClientSession | None = None) -> None:
        since = self.b.records()["seq"]
        r, exc, ms = await self.call(s, tool, kind)
        await anyio.sleep(0.05)  # let a follow-up request (if any) land in the records
        recs = self.b.records(since)["records"]
        by = lambda o: [x for x in recs if x["origin"] == o]  # noqa: E731
        problems, outcome = self.judge(tool, kind, mode, r, exc, ms, by("foreign"), by("allowed"), by("home"))
        self.results.write(json.dumps({
            "mode": mode, "transport": transport, "cell": f"{tool}/{kind}", "ms": round(ms),
            "result": r.model_dump(mode="json", by_alias=True) if r is not None else None,
            "exception": brief_exc(exc) if exc is not None else None,
            "requests": [{k: x[k] for k in ("origin", "method", "path", "query", "headers")} for x in recs],
            "problems": problems,
        }) + "\n")
        self.results.flush()
        # The next call (kind=ok) must succeed.
        if kind != "ok":
            r2, exc2, ms2 = await self.call(next_on or s, tool, "ok")
            if exc2 is not None:
                problems.append(f"next call (kind=ok) raised {brief_exc(exc2)}")
            elif r2.is_error:
                problems.append(f"next call (kind=ok) returned isError: {short(text_of(r2), 300)!r}")
            elif mode != "off" and r2.structured_content is None:
                problems.append("next call (kind=ok) has no structuredContent")
        self.report(mode, transport, f"{tool}/{kind}", problems, outcome, ms)

    def scan_log(self, mode: str, transport: str, path: Path) -> None:
        text = path.read_text(errors="replace") if path.exists() else ""
        problems = ["the API key appears in the server's log"] if SECRET in text else []
        panics = [l for l in text.splitlines() if "panicked" in l]
        if panics:
            problems.append(f"the server panicked: {short(panics[0], 300)}")
        self.report(mode, transport, f"server log ({path.name})", problems, "clean" if not problems else "leak/panic", 0)

    async def combo(self, mode: str, transport: str) -> None:
        work = self.ns.work
        cells = [c for c in CELLS if c in self.ns.cells]
        main_log = work / f"serve-{mode}-{transport}.stderr"
        dead_log = work / f"serve-{mode}-{transport}-refused_port.stderr"
        try:
            async with session_for(transport, serve_args(self.ns.bin, self.b.home, mode, self.b.allowed), main_log) as (s, proc):
                for kind in cells:
                    if kind == "refused_port":
                        continue
                    for tool in TOOLS:
                        await self.cell(s, mode, transport, tool, kind)
                if "refused_port" in cells:
                    try:
                        async with session_for(transport, serve_args(self.ns.bin, self.dead, mode, self.b.allowed), dead_log) as (d, _):
                            for tool in TOOLS:
                                await self.cell(d, mode, transport, tool, "refused_port", next_on=s)
                    except Exception as e:  # noqa: BLE001
                        self.report(mode, transport, "refused_port session", [f"could not run: {brief_exc(e)}"], "EXCEPTION", 0)
                if proc is not None and proc.poll() is not None:
                    self.report(mode, transport, "server alive", [f"the http server exited with {proc.returncode}"], "dead", 0)
        except Exception as e:  # noqa: BLE001
            self.report(mode, transport, "session", [f"the session failed: {brief_exc(e)}"], "EXCEPTION", 0)
            if os.environ.get("FAULT_MATRIX_TRACEBACK"):
                traceback.print_exception(e)
        self.scan_log(mode, transport, main_log)
        if dead_log.exists():
            self.scan_log(mode, transport, dead_log)


async def run(ns: argparse.Namespace, backend: Backend) -> Matrix:
    m = Matrix(ns, backend)
    with anyio.fail_after(ns.limit):
        for mode in ns.modes:
            for transport in ns.transports:
                await m.combo(mode, transport)
    return m


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bin", default=os.environ.get("OPENAPI2MCP_BIN", str(ROOT / "target" / "release" / "openapi2mcp")))
    p.add_argument("--modes", default="full,loose,off")
    p.add_argument("--transports", default="stdio,http")
    p.add_argument("--cells", default=",".join(CELLS), help=f"comma-separated subset of {','.join(CELLS)}")
    p.add_argument("--work", default=str(ROOT / "target" / "external-clients" / "faults"),
                   help="where server logs and results.jsonl (every cell's result) go")
    p.add_argument("--limit", type=float, default=270.0, help="seconds the whole matrix may take")
    ns = p.parse_args(argv)
    ns.modes = [x for x in ns.modes.split(",") if x]
    ns.transports = [x for x in ns.transports.split(",") if x]
    ns.cells = [x for x in ns.cells.split(",") if x]
    unknown = [c for c in ns.cells if c not in EXPECT]
    if unknown:
        p.error(f"unknown cells {unknown}")
    if not os.access(ns.bin, os.X_OK):
        print(f"fault_matrix: {ns.bin} not found: run `cargo build --release`", file=sys.stderr)
        return 2
    ns.work = Path(ns.work)
    ns.work.mkdir(parents=True, exist_ok=True)
    say(f"fault matrix: {ns.bin}, modes {ns.modes}, transports {ns.transports}, {len(ns.cells)} cells x {len(TOOLS)} tools")
    backend = Backend(ns.work)
    say(f"fault backend: home {backend.home}, foreign {backend.foreign}, allowed {backend.allowed}")
    t0 = time.monotonic()
    failed_run = None
    try:
        m = anyio.run(run, ns, backend)
    except BaseException as e:  # noqa: BLE001
        failed_run = e
        m = None
    finally:
        backend.stop()
    if m is None:
        say(f"fault matrix: the run failed: {brief_exc(failed_run)}")  # type: ignore[arg-type]
        say("fault matrix: 0 passed, 1 failed")
        return 1
    say("")
    if m.failures:
        say("failed cells:")
        for f in m.failures:
            say(f"  {short(f, 900)}")
    say(f"({time.monotonic() - t0:.1f} s; server logs and results.jsonl in {ns.work})")
    say(f"fault matrix: {m.passed} passed, {m.failed} failed")
    return 0 if m.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
