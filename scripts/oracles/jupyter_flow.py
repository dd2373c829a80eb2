#!/usr/bin/env python3
"""Oracle (b): a real REST server, installed from PyPI and written by others,
driven end to end through openapi2mcp with the official MCP Python SDK.

Starts Jupyter Server (the `jupyter-server` package, with ipykernel) on
127.0.0.1 with a random token and a temporary root directory, serves the
Swagger 2.0 description that ships inside the package
(jupyter_server/services/api/api.yaml) with `openapi2mcp serve` over stdio
and default flags, plus the overlay beside this script (the document has no
security scheme; the overlay adds Jupyter's documented `Authorization: token
<TOKEN>` header as an apiKey scheme, so the token travels as a credential
through `OPENAPI2MCP_JUPYTER_TOKEN_KEY` and never as an argument).

Then a realistic session, every step asserted on the MCP result (`isError`
false; `structuredContent` present where the tool lists an outputSchema, and
conforming to it: the SDK itself validates it and raises when it does not)
and on the disk:

  create a folder (PUT type=directory), create an untitled file in it (POST),
  save a text file (PUT), read it back (GET), rename it (PATCH), list the
  folder (GET type=directory), start a python3 kernel (POST /api/kernels),
  get it, interrupt it (a POST without a body), restart it, list kernels,
  delete the kernel, delete the files and the folder (DELETE).

The session runs twice, as the two kinds of host people use: first a
client that declared elicitation (every DELETE must be confirmed through
one question naming the resolved request), then one that declared nothing,
as claude.ai, Gemini CLI and opencode do (with default flags every step
must still complete, no question asked: the host's own approval of tool
calls is relied on, issue #45).

Tools are found by their operation (`_meta["openapi2mcp/origin"]`: method
and path), not by name, so a naming change cannot break the flow; the names
found are printed.

Usage: jupyter_flow.py --bin OPENAPI2MCP --jupyter-python PY --out DIR [--serve-flag F]...
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
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

try:
    import anyio
    import jsonschema
    from mcp import ClientSession, StdioServerParameters, stdio_client
    import mcp.types as mcp_types
except ImportError as e:  # pragma: no cover - environment problem
    print(f"jupyter_flow: cannot import the MCP Python SDK ({e}); run setup.sh", file=sys.stderr)
    sys.exit(2)

HERE = Path(__file__).resolve().parent
OVERLAY = HERE / "jupyter-overlay.yaml"
START_LIMIT = 60.0  # seconds for Jupyter Server to answer
FLOW_LIMIT = 180.0  # seconds for the whole MCP session
CALL_LIMIT = 60.0  # seconds for one tools/call (a kernel start or restart)


class StepFailed(Exception):
    """A step's result or the disk was not what Jupyter should give."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Jupyter:
    """One Jupyter Server process with private config, data and root dirs."""

    def __init__(self, python: str, work: Path):
        self.port = free_port()
        self.token = secrets.token_hex(24)
        self.root = work / "root"
        self.root.mkdir()
        home = work / "home"
        env = {
            **os.environ,
            "HOME": str(home),
            "JUPYTER_CONFIG_DIR": str(home / "config"),
            "JUPYTER_DATA_DIR": str(home / "data"),
            "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
            "IPYTHONDIR": str(home / "ipython"),
            "JUPYTER_PLATFORM_DIRS": "1",
        }
        self.log_path = work / "jupyter.log"
        self.log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(
            [
                python, "-m", "jupyter_server",
                "--ServerApp.ip=127.0.0.1",
                f"--ServerApp.port={self.port}",
                "--ServerApp.port_retries=0",
                "--ServerApp.open_browser=False",
                # CI runs as root; the server is on loopback with a token.
                "--ServerApp.allow_root=True",
                f"--ServerApp.root_dir={self.root}",
                f"--IdentityProvider.token={self.token}",
                "--FileContentsManager.delete_to_trash=False",
            ],
            stdin=subprocess.DEVNULL,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def wait_ready(self) -> str:
        """Waits for `GET /api/status` with the token; returns the server's version."""
        deadline = time.monotonic() + START_LIMIT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise StepFailed(f"Jupyter Server exited with {self.proc.returncode}: {self.tail()}")
            try:
                req = urllib.request.Request(self.url + "/api/", headers={"Authorization": f"token {self.token}"})
                with urllib.request.urlopen(req, timeout=2) as r:
                    return json.load(r)["version"]
            except (urllib.error.URLError, OSError, ValueError, KeyError):
                time.sleep(0.2)
        raise StepFailed(f"Jupyter Server did not answer within {START_LIMIT:.0f} s: {self.tail()}")

    def tail(self) -> str:
        self.log.flush()
        return self.log_path.read_text(errors="replace")[-3000:]

    def stop(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(timeout=10)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                try:
                    os.killpg(self.proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                self.proc.wait(timeout=5)
        self.log.close()


# Every confirmation question the server asked, in order (issue #23).
CONFIRMATIONS: list[str] = []


async def accept_confirmations(context: Any, params: Any) -> Any:
    """The person at the client: accepts every confirmation, remembering the question."""
    CONFIRMATIONS.append(getattr(params, "message", "") or "")
    return mcp_types.ElicitResult(action="accept", content={"confirm": True})


class Flow:
    """The MCP session: tools found by operation, each call checked."""

    def __init__(self, session: ClientSession, tools: list[Any], elicits: bool):
        self.session = session
        self.elicits = elicits
        self.by_op: dict[tuple[str, str], Any] = {}
        for tool in tools:
            origin = (tool.meta or {}).get("openapi2mcp/origin") or {}
            self.by_op[(str(origin.get("method", "")).upper(), origin.get("path", ""))] = tool
        self.steps: list[str] = []

    def name(self, method: str, path: str) -> str:
        tool = self.by_op.get((method, path))
        if tool is None:
            raise StepFailed(f"no tool for {method} {path}; tools: {sorted(t.name for t in self.by_op.values())}")
        return tool.name

    async def call(self, step: str, method: str, path: str, args: dict[str, Any]) -> dict[str, Any]:
        """Calls the tool of `method path`; returns its structured content ({} when none).
        A DELETE must have been confirmed through elicitation first (the
        server's default --confirm destructive): exactly one question, naming
        the resolved request, before the call returns."""
        tool = self.by_op.get((method, path)) or self.name(method, path)
        asked_before = len(CONFIRMATIONS)
        with anyio.fail_after(CALL_LIMIT):
            result = await self.session.call_tool(tool.name, args)
        asked = CONFIRMATIONS[asked_before:]
        if method == "DELETE" and self.elicits:
            expect(len(asked) == 1 and asked[0].startswith(f"`{tool.name}` wants to send") and "DELETE http" in asked[0],
                   f"{step}: expected one confirmation naming the DELETE request, got {asked}")
        elif method == "DELETE":
            expect(not asked, f"{step}: the client declared no elicitation but was asked {asked}")
        else:
            expect(not asked, f"{step}: {method} is not destructive but the server asked {asked}")
        text = "\n".join(getattr(c, "text", "") or "" for c in result.content or [])
        if result.is_error:
            raise StepFailed(f"{step}: {tool.name} {json.dumps(args)} came back isError:\n{text[:1500]}")
        structured = result.structured_content
        if tool.output_schema is not None:
            if structured is None:
                raise StepFailed(f"{step}: {tool.name} lists an outputSchema but returned no structuredContent")
            # The SDK checked this already (it raises on a mismatch); check
            # again so the flow does not depend on that SDK behaviour.
            try:
                jsonschema.validate(structured, tool.output_schema)
            except jsonschema.ValidationError as e:
                raise StepFailed(f"{step}: structuredContent does not conform: {e.message}") from e
        self.steps.append(f"{step}: {tool.name} ok")
        self.last_texts = [getattr(c, "text", "") or "" for c in result.content or []]
        return structured or {}

    def received(self, step: str) -> Any:
        """The response of the last call as the API sent it: the last text
        block, which follows the repair note when structuredContent had to
        differ from the response (a value the document types otherwise)."""
        texts = getattr(self, "last_texts", [])
        if not texts:
            raise StepFailed(f"{step}: no text content")
        try:
            return json.loads(texts[-1])
        except json.JSONDecodeError as e:
            raise StepFailed(f"{step}: the response text is not JSON: {texts[-1][:300]}") from e


def expect(cond: bool, message: str) -> None:
    if not cond:
        raise StepFailed(message)


async def run_flow(flow: Flow, jupyter: Jupyter) -> None:
    root = jupyter.root
    item = "/api/contents/{path}"

    # A folder, and an untitled file the server names.
    made = await flow.call("create folder", "PUT", item, {"path": "oracle-dir", "type": "directory"})
    expect(made.get("type") == "directory" and made.get("path") == "oracle-dir", f"create folder: {made}")
    expect((root / "oracle-dir").is_dir(), "create folder: oracle-dir is not on disk")
    untitled = await flow.call("create untitled file", "POST", item, {"path": "oracle-dir", "type": "file", "ext": ".txt"})
    untitled_path = untitled.get("path", "")
    expect(untitled_path.startswith("oracle-dir/untitled"), f"create untitled file: {untitled}")
    expect((root / untitled_path).is_file(), f"create untitled file: {untitled_path} is not on disk")

    # Save, read back, rename.
    text = "Hello from openapi2mcp\nsecond line: é ✓\n"
    saved = await flow.call(
        "save file", "PUT", item,
        {"path": "oracle-dir/notes.txt", "type": "file", "format": "text", "content": text},
    )
    expect(saved.get("name") == "notes.txt", f"save file: {saved}")
    expect((root / "oracle-dir/notes.txt").read_text(encoding="utf-8") == text, "save file: wrong content on disk")
    read = await flow.call(
        "read file", "GET", item,
        {"path": "oracle-dir/notes.txt", "type": "file", "format": "text", "content": 1},
    )
    expect(read.get("content") == text, f"read file: content {read.get('content')!r}")
    rename_args = {"path": "oracle-dir/notes.txt"}
    rename_tool = flow.by_op.get(("PATCH", item))
    body_arg = "body_path" if rename_tool and "body_path" in (rename_tool.input_schema.get("properties") or {}) else "path"
    expect(body_arg == "body_path", "rename: the body's `path` should be told apart from the path parameter")
    rename_args[body_arg] = "oracle-dir/renamed.txt"
    renamed = await flow.call("rename file", "PATCH", item, rename_args)
    expect(renamed.get("path") == "oracle-dir/renamed.txt", f"rename file: {renamed}")
    expect(not (root / "oracle-dir/notes.txt").exists(), "rename file: notes.txt still on disk")
    expect((root / "oracle-dir/renamed.txt").read_text(encoding="utf-8") == text, "rename file: renamed.txt wrong")

    # The folder lists both files.
    # Jupyter's document types `content` as a string; for a directory it is
    # an array, so structuredContent shows null there with a note, and the
    # listing is read from the response text, as a model reads it.
    listing = await flow.call("list folder", "GET", item, {"path": "oracle-dir", "type": "directory"})
    expect(listing.get("content") is None, f"list folder: structured content kept an array typed string: {listing}")
    expect(flow.last_texts[0].startswith("Note: the call succeeded"), f"list folder: no repair note: {flow.last_texts[0][:300]}")
    received = flow.received("list folder")
    names = sorted(entry.get("name") for entry in received.get("content") or [])
    expect(names == sorted(["renamed.txt", Path(untitled_path).name]), f"list folder: {names}")

    # A kernel: start, get, interrupt, restart, list, delete.
    kernel = await flow.call("start kernel", "POST", "/api/kernels", {"name": "python3", "path": "oracle-dir"})
    kid = kernel.get("id")
    expect(isinstance(kid, str) and kernel.get("name") == "python3", f"start kernel: {kernel}")
    got = await flow.call("get kernel", "GET", "/api/kernels/{kernel_id}", {"kernel_id": kid})
    expect(got.get("id") == kid, f"get kernel: {got}")
    await flow.call("interrupt kernel", "POST", "/api/kernels/{kernel_id}/interrupt", {"kernel_id": kid})
    restarted = await flow.call("restart kernel", "POST", "/api/kernels/{kernel_id}/restart", {"kernel_id": kid})
    expect(restarted.get("id") == kid, f"restart kernel: {restarted}")
    running = await flow.call("list kernels", "GET", "/api/kernels", {})
    ids = [k.get("id") for k in running.get("result") or []]
    expect(kid in ids, f"list kernels: {kid} not in {ids}")
    await flow.call("delete kernel", "DELETE", "/api/kernels/{kernel_id}", {"kernel_id": kid})
    running = await flow.call("list kernels again", "GET", "/api/kernels", {})
    expect(kid not in [k.get("id") for k in running.get("result") or []], "delete kernel: still running")

    # Delete the files, then the folder.
    for path in ("oracle-dir/renamed.txt", untitled_path):
        await flow.call(f"delete {path}", "DELETE", item, {"path": path})
        expect(not (root / path).exists(), f"delete {path}: still on disk")
    await flow.call("delete folder", "DELETE", item, {"path": "oracle-dir"})
    expect(not (root / "oracle-dir").exists(), "delete folder: still on disk")

    # Read-only endpoints a model would start with.
    status = await flow.call("server status", "GET", "/api/status", {})
    expect("started" in status, f"server status: {status}")
    me = await flow.call("identity", "GET", "/api/me", {})
    expect(isinstance(me.get("identity"), dict), f"identity: {me}")


async def session(ns: argparse.Namespace, jupyter: Jupyter, spec: Path, elicits: bool) -> Flow:
    env = {
        "OPENAPI2MCP_JUPYTER_TOKEN_KEY": f"token {jupyter.token}",
        "NO_COLOR": "1",
        "RUST_LOG": os.environ.get("RUST_LOG", "warn"),
    }
    args = ["serve", str(spec), "--overlay", str(OVERLAY), "--base-url", jupyter.url, *ns.serve_flag]
    params = StdioServerParameters(command=ns.bin, args=args, env=env)
    with anyio.fail_after(FLOW_LIMIT):
        async with stdio_client(params, errlog=ns.stderr_log) as (read, write):
            callbacks = {"elicitation_callback": accept_confirmations} if elicits else {}
            async with ClientSession(read, write, **callbacks) as s:
                await s.initialize()
                tools = (await s.list_tools()).tools
                flow = Flow(s, tools, elicits)
                print("jupyter: tool names: " + ", ".join(
                    f"{m} {p} -> {t.name}" for (m, p), t in sorted(flow.by_op.items(), key=lambda kv: kv[0][1])
                ))
                try:
                    await run_flow(flow, jupyter)
                finally:
                    for step in flow.steps:
                        print(f"    {step}")
                return flow


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", required=True)
    parser.add_argument("--jupyter-python", required=True)
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("--serve-flag", action="append", default=[], help="extra flag for openapi2mcp serve")
    ns = parser.parse_args()
    ns.out.mkdir(parents=True, exist_ok=True)
    ns.stderr_log = open(ns.out / "jupyter-openapi2mcp-stderr.log", "w")
    spec = subprocess.run(
        [ns.jupyter_python, "-c",
         "import jupyter_server, pathlib; print(pathlib.Path(jupyter_server.__file__).parent / 'services/api/api.yaml')"],
        check=True, capture_output=True, text=True, timeout=60,
    ).stdout.strip()
    spec_path = Path(spec)
    if not spec_path.is_file():
        print(f"jupyter: the package ships no {spec}", file=sys.stderr)
        return 1
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="oracle-jupyter-") as tmp:
        jupyter = Jupyter(ns.jupyter_python, Path(tmp))
        try:
            version = jupyter.wait_ready()
            print(f"jupyter: Jupyter Server {version} on {jupyter.url}, document {spec_path}")
            steps = 0
            for elicits in (True, False):
                print(f"jupyter: a client {'with' if elicits else 'without'} elicitation")
                flow = asyncio.run(session(ns, jupyter, spec_path, elicits))
                steps += len(flow.steps)
        except StepFailed as e:
            print(f"jupyter: FAILED: {e}")
            print("jupyter: 0 passed, 1 failed")
            return 1
        except Exception as e:  # noqa: BLE001 - an SDK exception is a finding
            steps = [x for x in leaves(e) if isinstance(x, StepFailed)]
            reason = "; ".join(str(x) for x in steps) if steps else f"{type(e).__name__}: {describe(e)}"
            print(f"jupyter: FAILED: {reason}")
            print("jupyter: 0 passed, 1 failed")
            return 1
        finally:
            jupyter.stop()
            (ns.out / "jupyter.log").write_text(jupyter.log_path.read_text(errors="replace"))
    print(f"jupyter: flow passed in {time.monotonic() - started:.1f} s")
    print(f"jupyter: {steps} passed, 0 failed")
    return 0


def leaves(e: BaseException) -> list[BaseException]:
    """The real errors inside (possibly nested) exception groups."""
    if isinstance(e, BaseExceptionGroup):
        return [leaf for x in e.exceptions for leaf in leaves(x)]
    return [e]


def describe(e: BaseException) -> str:
    if isinstance(e, BaseExceptionGroup):
        return "; ".join(describe(x) for x in e.exceptions)
    return "\n".join(str(e).splitlines()[:8]) or type(e).__name__


if __name__ == "__main__":
    sys.exit(main())
