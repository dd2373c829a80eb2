#!/usr/bin/env python3
"""An external MCP client for openapi2mcp's end-to-end checks, built on the
official MCP Python SDK (the `mcp` package pinned in requirements.txt).

It connects over stdio (spawning a command) or streamable HTTP (a URL),
lists every tool page by page (`nextCursor` loop), checks that each tool has
a name, a description and an object `inputSchema`, optionally calls one
tool, and prints one JSON object on stdout:

    {"tools": N, "pages": P, "names_sha256": "...", "call": {...} | null}

`names_sha256` is the SHA-256 of the tool names in the order served, joined
with "\\n". `call` is the SDK's CallToolResult as `model_dump(mode="json",
by_alias=True)`, so its keys are the wire names (`structuredContent`,
`isError`). A tool result with `isError: true` is still printed and exits 0:
the caller decides.

Any exception raised by the SDK (oversized SSE event, a tool the SDK's models
reject, a structured result that does not match the tool's outputSchema, a
transport error, a timeout...) or a failed check exits 1 with a message on
stderr. That is the point: this is what an ordinary client would hit.

Usage:
    python_client.py [OPTIONS] stdio -- CMD [ARGS...]
    python_client.py [OPTIONS] http URL [--header 'Authorization: Bearer x']...
OPTIONS (before or after the mode):
    --call NAME --args JSON   call one tool after listing
    --timeout SECONDS         bound on the whole session (default 180)
Environment: PYTHON_CLIENT_TRACEBACK=1 prints the full traceback on failure.
Exit status: 0 success, 1 an SDK exception or a failed check, 2 bad usage.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import sys
import traceback
from typing import Any

try:
    import anyio
    from mcp import ClientSession, StdioServerParameters, stdio_client
    from mcp import types
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client
except ImportError as e:  # pragma: no cover - environment problem
    print(
        f"python_client: cannot import the MCP Python SDK ({e}); "
        "run scripts/external-clients/setup.sh and use its venv's python",
        file=sys.stderr,
    )
    sys.exit(2)

MAX_PAGES = 10_000
# Environment variables handed to a stdio server on top of the SDK's defaults.
PASS_ENV = ("NO_COLOR", "RUST_LOG", "OPENAPI2MCP_LOG")


class CheckFailed(Exception):
    """A check of ours (not the SDK's) failed."""


def parse_args(argv: list[str]) -> argparse.Namespace:
    # Everything after the first `--` is the stdio server command, verbatim.
    command: list[str] = []
    if "--" in argv:
        i = argv.index("--")
        argv, command = argv[:i], argv[i + 1 :]

    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--call", metavar="NAME", help="tool to call after listing")
    common.add_argument(
        "--args", metavar="JSON", default=None, help="JSON object of arguments for --call (default {})"
    )
    common.add_argument(
        "--timeout", type=float, default=None, help="seconds the whole session may take (default 180)"
    )
    common.add_argument(
        "--enable-toolset",
        metavar="NAME",
        default=None,
        help="after listing, call enable_toolset NAME, wait for notifications/tools/list_changed and list again",
    )

    parser = argparse.ArgumentParser(
        prog="python_client.py",
        description="List (and optionally call) the tools of an MCP server with the official Python SDK.",
        parents=[common],
    )
    sub = parser.add_subparsers(dest="mode", required=True)
    sub.add_parser(
        "stdio", parents=[common], help="spawn a server: python_client.py stdio -- CMD ARGS..."
    )
    http = sub.add_parser("http", parents=[common], help="streamable HTTP: python_client.py http URL")
    http.add_argument("url")
    http.add_argument(
        "--header",
        action="append",
        default=[],
        metavar="'NAME: VALUE'",
        help="extra HTTP header (repeatable)",
    )

    # Sub-parser defaults would overwrite options given before the mode, so
    # parse twice and merge: an option given anywhere wins over None.
    ns = parser.parse_args(argv)
    for key in ("call", "args", "timeout", "enable_toolset"):
        if getattr(ns, key, None) is None:
            pre, _ = common.parse_known_args(argv)
            setattr(ns, key, getattr(pre, key))
    if ns.timeout is None:
        ns.timeout = 180.0
    ns.command = command

    if ns.mode == "stdio" and not command:
        parser.error("stdio needs the server command after `--`")
    if ns.mode == "http" and command:
        parser.error("http takes no `--` command")
    if ns.args is not None and not ns.call:
        parser.error("--args needs --call")
    if ns.call:
        try:
            ns.arguments = json.loads(ns.args) if ns.args is not None else {}
        except json.JSONDecodeError as e:
            parser.error(f"--args is not JSON: {e}")
        if not isinstance(ns.arguments, dict):
            parser.error("--args must be a JSON object")
    else:
        ns.arguments = None
    headers: dict[str, str] = {}
    for h in getattr(ns, "header", []) or []:
        name, sep, value = h.partition(":")
        if not sep or not name.strip():
            parser.error(f"--header must look like 'Name: value', got {h!r}")
        headers[name.strip()] = value.strip()
    ns.headers = headers
    return ns


def check_tool(tool: types.Tool, index: int) -> None:
    where = f"tool #{index} ({tool.name!r})"
    if not isinstance(tool.name, str) or not tool.name:
        raise CheckFailed(f"tool #{index} has no name")
    if not isinstance(tool.description, str) or not tool.description.strip():
        raise CheckFailed(f"{where} has no description")
    schema = tool.input_schema
    if not isinstance(schema, dict):
        raise CheckFailed(f"{where}: inputSchema is not an object: {schema!r}")
    if schema.get("type") != "object":
        raise CheckFailed(f"{where}: inputSchema.type is {schema.get('type')!r}, expected 'object'")


async def list_all_tools(session: ClientSession) -> tuple[list[types.Tool], int]:
    tools: list[types.Tool] = []
    pages = 0
    cursor: str | None = None
    seen_cursors: set[str] = set()
    while True:
        # The SDK's pagination API: `list_tools(params=PaginatedRequestParams(cursor=...))`
        # (v2 of the SDK dropped the older `list_tools(cursor=...)` spelling).
        params = types.PaginatedRequestParams(cursor=cursor) if cursor is not None else None
        result = await session.list_tools(params=params)
        pages += 1
        tools.extend(result.tools)
        cursor = result.next_cursor
        if cursor is None:
            return tools, pages
        if cursor in seen_cursors:
            raise CheckFailed(f"tools/list page {pages} repeats an earlier nextCursor {cursor!r}")
        seen_cursors.add(cursor)
        if pages >= MAX_PAGES:
            raise CheckFailed(f"tools/list still has a nextCursor after {MAX_PAGES} pages")


async def exercise(session: ClientSession, ns: argparse.Namespace, changed: anyio.Event) -> dict[str, Any]:
    await session.initialize()
    tools, pages = await list_all_tools(session)
    names: list[str] = []
    seen: set[str] = set()
    for i, tool in enumerate(tools):
        check_tool(tool, i)
        if tool.name in seen:
            raise CheckFailed(f"tool name {tool.name!r} is listed twice")
        seen.add(tool.name)
        names.append(tool.name)
    out: dict[str, Any] = {
        "tools": len(tools),
        "pages": pages,
        "names_sha256": hashlib.sha256("\n".join(names).encode()).hexdigest(),
        "call": None,
    }
    if ns.enable_toolset:
        result = await session.call_tool("enable_toolset", {"names": [ns.enable_toolset]})
        if result.is_error:
            raise CheckFailed(f"enable_toolset {ns.enable_toolset!r} failed: {result.model_dump(mode='json')}")
        with anyio.fail_after(10):
            await changed.wait()
        tools, _ = await list_all_tools(session)
        seen = {t.name for t in tools}
        out["tools_after_enable"] = len(tools)
        out["list_changed"] = True
    if ns.call:
        if ns.call not in seen:
            raise CheckFailed(f"--call {ns.call!r}: no such tool among the {len(tools)} listed")
        result = await session.call_tool(ns.call, ns.arguments)
        out["call"] = result.model_dump(mode="json", by_alias=True)
    return out


async def run(ns: argparse.Namespace) -> dict[str, Any]:
    changed = anyio.Event()

    async def on_message(message: Any) -> None:
        if isinstance(message, types.ToolListChangedNotification):
            changed.set()

    with anyio.fail_after(ns.timeout):
        if ns.mode == "stdio":
            # The SDK gives the server a minimal environment; pass the log settings through.
            env = {k: os.environ[k] for k in PASS_ENV if k in os.environ}
            params = StdioServerParameters(command=ns.command[0], args=ns.command[1:], env=env or None)
            async with stdio_client(params, errlog=sys.stderr) as (read, write):
                async with ClientSession(read, write, message_handler=on_message) as session:
                    return await exercise(session, ns, changed)
        else:
            async with create_mcp_http_client(headers=ns.headers or None) as http_client:
                async with streamable_http_client(ns.url, http_client=http_client) as (read, write):
                    async with ClientSession(read, write, message_handler=on_message) as session:
                        return await exercise(session, ns, changed)


def leaves(exc: BaseException) -> list[BaseException]:
    """The real errors inside (possibly nested) exception groups."""
    if isinstance(exc, BaseExceptionGroup):
        found: list[BaseException] = []
        for e in exc.exceptions:
            found.extend(leaves(e))
        return found
    return [exc]


def brief(exc: BaseException, max_lines: int = 6) -> str:
    """An exception's message, cut to a few lines (jsonschema errors print whole schemas)."""
    lines = str(exc).splitlines() or [""]
    if len(lines) > max_lines:
        lines = lines[:max_lines] + [f"[... {len(lines) - max_lines} more lines; PYTHON_CLIENT_TRACEBACK=1 shows all]"]
    return "\n".join(lines)


def describe(exc: BaseException) -> str:
    name = type(exc).__qualname__
    if type(exc).__module__ != "builtins":
        name = f"{type(exc).__module__}.{name}"
    code = getattr(getattr(exc, "error", None), "code", None)
    if isinstance(code, int):  # an MCPError: a JSON-RPC error from the server or the transport
        data = getattr(exc.error, "data", None)  # type: ignore[attr-defined]
        suffix = f" (data: {json.dumps(data, default=str)[:500]})" if data is not None else ""
        name = f"{name} (JSON-RPC code {code})"
        parts = [f"{name}: {brief(Exception(exc.error.message + suffix))}"]  # type: ignore[attr-defined]
    else:
        parts = [f"{name}: {brief(exc)}"]
    cause = exc.__cause__ or exc.__context__
    depth = 0
    while cause is not None and depth < 5:
        first = (str(cause).splitlines() or [""])[0]
        if first not in parts[0]:  # skip causes the message already quotes
            parts.append(f"caused by {type(cause).__qualname__}: {brief(cause, 3)}")
        cause = cause.__cause__ or cause.__context__
        depth += 1
    return "\n".join(parts)


def main(argv: list[str]) -> int:
    ns = parse_args(argv)
    try:
        out = anyio.run(run, ns)
    except KeyboardInterrupt:
        print("python_client: interrupted", file=sys.stderr)
        return 130
    except BaseException as e:  # noqa: BLE001 - every failure is the result
        errors = [x for x in leaves(e) if not isinstance(x, asyncio.CancelledError)] or leaves(e)
        target = ns.url if ns.mode == "http" else " ".join(ns.command)
        print(f"python_client: FAILED against {ns.mode} {target}", file=sys.stderr)
        for err in errors:
            if isinstance(err, TimeoutError):
                print(f"  timed out after {ns.timeout:g}s", file=sys.stderr)
            elif isinstance(err, CheckFailed):
                print(f"  check failed: {err}", file=sys.stderr)
            else:
                print("  " + describe(err).replace("\n", "\n  "), file=sys.stderr)
        if os.environ.get("PYTHON_CLIENT_TRACEBACK"):
            traceback.print_exception(e)
        return 1
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
