#!/usr/bin/env python3
"""Code mode (`serve --tools code`) driven by the official MCP Python SDK.

Starts a recording backend on 127.0.0.1, spawns the server over stdio in
code mode and in full mode, and checks, printing PASS/FAIL per check:

- petstore-code-list: three tools (search_api, execute_read_only, execute);
- petstore-code-chain: a three-operation script (list, get, update) sends,
  request for request and byte for byte (method, target, headers, body),
  what the same three `tools/call`s send in full mode; the credential
  reaches the backend and not the result;
- petstore-code-errors: a wall-time, memory, call-count and output
  overrun, a thrown error, forbidden globals (fetch, require, process,
  Date) and a read of the credential each give `isError` with a message
  naming it, and a following script still works;
- github-code-chain (when GitHub's document is given): list pull
  requests, pick one, read its check runs and reviews in one script, the
  same requests as direct calls.

Usage: code_mode.py BINARY PETSTORE [GITHUB]
Exit status: 0 when every check passed, 1 otherwise.
"""

from __future__ import annotations

import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client

SECRET = "s3cr3t-python-code-mode"
TIMEOUT = 120


class Recorder(BaseHTTPRequestHandler):
    """Records each request (method, target, headers, body) and answers
    like the API would for the operations the checks use."""

    log: list[tuple[str, str, list[tuple[str, str]], bytes]] = []

    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        Recorder.log.append((self.command, self.path, list(self.headers.items()), body))
        path = self.path.split("?")[0]
        status, payload = 200, {}
        if path == "/pets":
            payload = [{"id": 1, "name": "Rex", "status": "available", "tags": ["dog"]},
                       {"id": 2, "name": "Tom", "status": "sold", "tags": ["cat"]}]
        elif path.startswith("/pets/"):
            payload = {"id": 1, "name": "Rex II" if self.command == "PATCH" else "Rex",
                       "status": "available", "tags": ["dog"]}
        elif path.endswith("/pulls"):
            payload = [{"number": 7, "title": "Fix", "head": {"sha": "abc123"}},
                       {"number": 8, "title": "Add", "head": {"sha": "def456"}}]
        elif path.endswith("/check-runs"):
            payload = {"total_count": 1, "check_runs": [{"id": 5, "name": "ci", "conclusion": "failure"}]}
        elif path.endswith("/reviews"):
            payload = [{"id": 1, "state": "APPROVED"}]
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = _answer

    def log_message(self, *args: Any) -> None:  # quiet
        pass


def take() -> list[tuple[str, str, list[tuple[str, str]], bytes]]:
    out = list(Recorder.log)
    Recorder.log.clear()
    return out


results: list[tuple[bool, str]] = []


def check(ok: bool, name: str, detail: str) -> None:
    results.append((ok, name))
    print(f"{'PASS' if ok else 'FAIL'} {name}: {detail}")


def text(result: Any) -> str:
    return "\n".join(getattr(c, "text", "") for c in result.content)


async def session_run(binary: str, spec: str, base: str, extra: list[str], body) -> Any:
    params = StdioServerParameters(
        command=binary,
        args=["serve", "--quiet", spec, "--base-url", base, "--confirm", "none", *extra],
        env={"OPENAPI2MCP_BEARER_TOKEN": SECRET, "NO_COLOR": "1"},
    )
    async with stdio_client(params, errlog=sys.stderr) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            return await body(session)


async def main(binary: str, petstore: str, github: str | None, base: str) -> None:
    chain = ("const pets = await api.list_pets({limit: 2, status: 'available'});\n"
             "const pet = await api.get_pet({petId: pets[0].id});\n"
             "const renamed = await api.update_pet({petId: pet.id, name: pet.name + ' II'});\n"
             "return {listed: pets.length, before: pet.name, after: renamed.name};")

    async def code_side(session: ClientSession) -> Any:
        tools = [t.name for t in (await session.list_tools()).tools]
        check(tools == ["search_api", "execute_read_only", "execute"], "petstore-code-list", str(tools))
        result = await session.call_tool("execute", {"script": chain})
        return result

    take()
    result = await session_run(binary, petstore, base, ["--tools", "code"], code_side)
    scripted = take()
    structured = result.structured_content or {}
    want = {"listed": 2, "before": "Rex", "after": "Rex II"}

    async def full_side(session: ClientSession) -> None:
        for name, args in [("list_pets", {"limit": 2, "status": "available"}),
                           ("get_pet", {"petId": 1}),
                           ("update_pet", {"petId": 1, "name": "Rex II"})]:
            r = await session.call_tool(name, args)
            if r.is_error:
                raise RuntimeError(f"{name}: {text(r)}")

    await session_run(binary, petstore, base, ["--tools", "full"], full_side)
    direct = take()
    auth = [v for k, v in scripted[0][2] if k.lower() == "authorization"] if scripted else []
    check(not result.is_error and structured.get("result") == want and len(scripted) == 3
          and scripted == direct and auth == [f"Bearer {SECRET}"] and SECRET not in text(result),
          "petstore-code-chain",
          f"3 requests identical to direct calls: {[f'{m} {t}' for m, t, _, _ in scripted]}")

    cases = [
        ("while (true) {}", "wall-time budget of 500 ms"),
        ("const a = []; while (true) a.push('x'.repeat(4096) + a.length);", "memory budget of 16 MiB"),
        ("for (let i = 0; i < 10; i++) { try { await api.get_pet({petId: i}); } catch (e) {} }", "budget of 3 API calls"),
        ("return 'x'.repeat(5000);", "output budget of 2000 bytes"),
        ("const p = await api.list_pets({});\nthrow new Error('bad ' + p.length);", "line 2"),
        ("return await fetch('http://127.0.0.1:1/');", "ReferenceError"),
        ("return require('fs');", "ReferenceError"),
        ("return process.env.OPENAPI2MCP_BEARER_TOKEN;", "ReferenceError"),
        ("return Date.now();", "ReferenceError"),
    ]

    async def errors_side(session: ClientSession) -> list[str]:
        problems = []
        for script, expected in cases:
            r = await session.call_tool("execute", {"script": script})
            if not r.is_error or expected not in text(r) or SECRET in text(r):
                problems.append(f"{script[:40]!r}: {text(r)[:200]}")
            after = await session.call_tool("execute", {"script": "return 40 + 2;"})
            if after.is_error or (after.structured_content or {}).get("result") != 42:
                problems.append(f"after {script[:40]!r} the server did not serve: {text(after)[:200]}")
        return problems

    problems = await session_run(
        binary, petstore, base,
        ["--tools", "code", "--code-timeout", "0.5", "--code-memory", "16", "--code-calls", "3",
         "--code-output", "2000"],
        errors_side)
    take()
    check(not problems, "petstore-code-errors",
          f"{len(cases)} failing scripts each an isError naming its cause, the server serving after each"
          if not problems else "; ".join(problems))

    if github:
        script = ("const pulls = await api.list_pull_requests({owner: 'octo', repo: 'hello', state: 'open'});\n"
                  "const pick = pulls[pulls.length - 1];\n"
                  "const checks = await api.list_checks_for_ref({owner: 'octo', repo: 'hello', ref: pick.head.sha});\n"
                  "const reviews = await api.list_reviews({owner: 'octo', repo: 'hello', pull_number: pick.number});\n"
                  "return {number: pick.number, failing: checks.check_runs.filter(c => c.conclusion === 'failure').length, reviews: reviews.length};")

        async def gh_code(session: ClientSession) -> Any:
            return await session.call_tool("execute_read_only", {"script": script})

        async def gh_full(session: ClientSession) -> None:
            for name, args in [("list_pull_requests", {"owner": "octo", "repo": "hello", "state": "open"}),
                               ("list_checks_for_ref", {"owner": "octo", "repo": "hello", "ref": "def456"}),
                               ("list_reviews", {"owner": "octo", "repo": "hello", "pull_number": 8})]:
                r = await session.call_tool(name, args)
                if r.is_error:
                    raise RuntimeError(f"{name}: {text(r)}")

        r = await session_run(binary, github, base, ["--tools", "code"], gh_code)
        scripted = take()
        await session_run(binary, github, base, ["--tools", "full"], gh_full)
        direct = take()
        got = (r.structured_content or {}).get("result")
        check(not r.is_error and got == {"number": 8, "failing": 1, "reviews": 1}
              and len(scripted) == 3 and scripted == direct,
              "github-code-chain", f"result {got}; 3 requests identical to direct calls" if not r.is_error else text(r)[:300])


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"

    async def bounded() -> None:
        with anyio.fail_after(TIMEOUT):
            await main(sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) == 4 else None, base)

    anyio.run(bounded)
    server.shutdown()
    failed = [n for ok, n in results if not ok]
    print(f"code-mode: {len(results) - len(failed)} passed, {len(failed)} failed")
    sys.exit(1 if failed or not results else 0)
