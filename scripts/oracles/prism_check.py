#!/usr/bin/env python3
"""Oracle (a): Stoplight Prism judges every request openapi2mcp sends.

For each document given: start `prism mock --errors` on 127.0.0.1 (a mock
that validates each request against the document and answers 4xx with the
violation when it breaks it), serve the document with `openapi2mcp serve
DOC --base-url http://127.0.0.1:PORT` over stdio with the official MCP
Python SDK, call every tool with valid arguments generated from its
inputSchema (arguments.py), and read Prism's verdict on each request from
its log (`[VALIDATOR] ✔ success The request passed the validation rules`,
or `Request did not pass the validation rules` followed by one line per
violation) and from the status the tool reports.

Credentials: every security scheme of the document gets a value through the
variables docs/guides/wrap-an-api.md documents (`OPENAPI2MCP_<SCHEME>_KEY`, `_TOKEN`,
`_USERNAME` + `_PASSWORD`), so Prism's security checks see a credential of
the right shape wherever the document asks for one.

A call that is not `ok` through no fault of ours is listed in KNOWN
with the evidence (README.md beside this script has the details); any other
rejection, any SDK exception and any call that could not be made fails the
run. Prints one summary line per document and a closing
`N passed, N failed` line; writes the full record (arguments, results,
Prism's lines) to OUT/prism-report.json.

Usage: prism_check.py --bin OPENAPI2MCP --node NODE --prism PRISM_JS --out DIR DOC...
Exit status: 0 when no request of ours was rejected (known Prism bugs
aside), 1 otherwise, 2 on bad usage or when Prism did not start.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from arguments import arguments  # noqa: E402

try:
    import anyio
    from mcp import ClientSession, StdioServerParameters, stdio_client
except ImportError as e:  # pragma: no cover - environment problem
    print(f"prism_check: cannot import the MCP Python SDK ({e}); run setup.sh", file=sys.stderr)
    sys.exit(2)

PRISM_START_LIMIT = 60.0  # seconds for Prism to listen
DOC_LIMIT = 120.0  # seconds for one document's whole session
CALL_LIMIT = 30.0  # seconds for one tools/call
CREDENTIAL = "oracle-secret-7f3a"
MAX_RESTARTS = 10  # Prism crashes tolerated per document (each one recorded)

# Calls whose outcome is not `ok` through no fault of openapi2mcp's request:
# (document, tool) -> (expected outcome, why). README.md beside this script
# has the evidence for each. An entry whose call comes out otherwise fails
# the run, so the list cannot go stale.
PRISM_PATH_CRASH = (
    "crash",
    "Prism bug: an array or object path parameter (simple, label or matrix style) crashes Prism with "
    "`TypeError: value.split is not a function` (or `startsWith`) in validator/deserializers/style/*.js: its "
    "path matcher hands the deserializer an array, not a string. Prism's own example URL for the "
    "operation (printed at start) crashes it the same way. Upstream: stoplightio/prism#2710, #2289 (open), "
    "fix proposed in #2801.",
)
PRISM_DELIMITED_OBJECT_CRASH = (
    "crash",
    "Prism bug: a spaceDelimited / pipeDelimited query parameter or form/multipart body field whose schema is "
    "an object (the style tables of OpenAPI 3.0.3 and 3.1.0 allow array and object) makes Prism throw "
    "`Space/pipe/comma.. delimited style is only applicable to array parameter` (deserializers/style/"
    "delimited.js:21) uncaught, and the process exits.",
)
PRISM_REPEATED_PARTS = (
    "rejected",
    "Prism bug: Prism collapses repeated form fields and multipart parts into the last one "
    "(validator/validators/body.js parseMultipartFormDataParams and splitUriParams: `result[name] = value`), "
    "so an array sent as one part per item, the form an OpenAPI array property takes in multipart/form-data, "
    "is judged `must be array`. Upstream: stoplightio/prism#2654 (open).",
)
PRISM_MULTIPART_RESERVED_30 = (
    "rejected",
    "Prism bug (for this 3.0 document): Prism applies the `allowReserved` check of x-www-form-urlencoded "
    "(`Reserved characters used in request body`) to multipart/form-data parts, and applies encoding `style` "
    "there; OpenAPI 3.0.3's Encoding Object says style, explode and allowReserved SHALL be ignored unless the "
    "body is application/x-www-form-urlencoded. openapi2mcp sends arrays as one part per item and objects as "
    "application/json parts, as 3.0.3 says; Prism's collapse of repeated parts (prism#2654) rejects the "
    "arrays too.",
)
PRISM_MULTIPART_RESERVED_31 = (
    "rejected",
    "Prism bug (for this 3.1 document): Prism checks the raw content of a multipart/form-data part for "
    "reserved characters (`Reserved characters used in request body`, validator/validators/body.js "
    "validateAgainstReservedCharacters), as if it were a percent-encoded x-www-form-urlencoded value. "
    "OpenAPI 3.1.1 §4.8.15: \"When using RFC6570-style serialization for multipart/form-data, URI "
    "percent-encoding MUST NOT be applied, and the value of allowReserved has no effect\", so the `,` "
    "joining a non-exploded form array or object (`array value,array value 2`) is sent as it is. The "
    "exploded and deepObject multipart tools of the same document pass.",
)
UNSATISFIABLE_ALL_OF = (
    "not-sent",
    "document: an `allOf` of `type: string` and `type: integer` admits no value (the document says so: "
    "'these two schemas are incompatible'); openapi2mcp's argument validation refuses every value before "
    "anything is sent, which is the right outcome.",
)
TWO_AUTHORIZATION_SCHEMES = (
    "not-sent",
    "document: the requirement needs `basic` AND `oauth2` together, both carried in the one Authorization "
    "header a request has, so no request can satisfy it (a real API could not accept it either); openapi2mcp "
    "refuses the call before sending anything, naming both schemes and the header, which is the right "
    "outcome (it used to send the API key and the last Authorization, which Prism answered `Invalid "
    "security scheme used`).",
)
EXAMPLE_NOT_ITS_SCHEMA = (
    "not-sent",
    "document: the body's examples (`cat`, `dog`) are strings holding JSON text, while the body's schema "
    "is an array; the checker fills arguments from the tool's examples, so it sends the string, and "
    "openapi2mcp's argument validation refuses it before anything is sent (`is not of type \"array\"`), "
    "which is the right outcome.",
)
KNOWN: dict[tuple[str, str], tuple[str, str]] = {}
for version in ("3.0", "3.1"):
    for tool in (
        "get_paths_standard",
        "get_paths_matrix_non_exploded",
        "get_paths_label_non_exploded",
        "get_paths_simple_non_exploded",
        "update_paths_simple_exploded",
    ):
        KNOWN[(f"{version}/parameters-style.json", tool)] = PRISM_PATH_CRASH
    for tool in ("get_query_space_delimited_non_exploded", "get_query_pipe_delimited_non_exploded"):
        KNOWN[(f"{version}/parameters-style.json", tool)] = PRISM_DELIMITED_OBJECT_CRASH
    KNOWN[(f"{version}/parameters-style.json", "create_form_data_standard")] = PRISM_REPEATED_PARTS
    for tool in (
        "create_quirks_incompatible_nested_all_of",
        "replace_quirks_entirely_incompatible_all_of",
        "update_quirks_partially_usable_incompatible_all_of",
    ):
        KNOWN[(f"{version}/schema-types.json", tool)] = UNSATISFIABLE_ALL_OF
# Multipart bodies whose encoding gives styles. 3.0 ignores the styles
# there; Prism applies them (and its reserved-character check) anyway.
for tool in (
    "create_form_data_non_exploded",
    "replace_form_data_exploded",
    "create_form_data_space_delimited_non_exploded",
    "create_form_data_pipe_delimited_non_exploded",
    "create_form_data_deep_object_exploded",
):
    KNOWN[("3.0/parameters-style.json", tool)] = PRISM_MULTIPART_RESERVED_30
KNOWN[("3.0/schema-encoding-style.json", "replace_encoding_form")] = PRISM_MULTIPART_RESERVED_30
# 3.1 applies them, and openapi2mcp does: form_data_exploded,
# form_data_deep_object_exploded and encoding_form pass; these three meet
# Prism's own bugs.
KNOWN[("3.1/parameters-style.json", "create_form_data_non_exploded")] = PRISM_MULTIPART_RESERVED_31
for tool in ("get_form_data_space_delimited_non_exploded", "create_form_data_pipe_delimited_non_exploded"):
    KNOWN[("3.1/parameters-style.json", tool)] = PRISM_DELIMITED_OBJECT_CRASH
KNOWN[("3.0/file-uploads.json", "replace_anything_multipart_formdata")] = PRISM_REPEATED_PARTS
KNOWN[("3.0/security-multiple.json", "create_anything_and")] = TWO_AUTHORIZATION_SCHEMES
KNOWN[("3.0/request-examples.json", "replace_request_body_primitive_example")] = EXAMPLE_NOT_ITS_SCHEMA

ANSI = re.compile(r"\x1b\[[0-9;]*m")
RECEIVED = re.compile(r"\[HTTP SERVER\] (\w+) (\S+) .*Request received")
STATUS = re.compile(r"\b(?:HTTP |status )?([1-5]\d\d)\b")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def scheme_env(doc: dict[str, Any]) -> dict[str, str]:
    """A credential for every security scheme, under the documented variables."""
    schemes = (doc.get("components") or {}).get("securitySchemes") or doc.get("securityDefinitions") or {}
    env: dict[str, str] = {}
    for name, scheme in schemes.items():
        if not isinstance(scheme, dict):
            continue
        prefix = "OPENAPI2MCP_" + re.sub(r"[^A-Za-z0-9]", "_", name).upper()
        kind = scheme.get("type")
        if kind == "apiKey":
            env[prefix + "_KEY"] = CREDENTIAL
        elif kind == "http" and str(scheme.get("scheme", "")).lower() == "basic" or kind == "basic":
            env[prefix + "_USERNAME"] = "ada"
            env[prefix + "_PASSWORD"] = CREDENTIAL
        elif kind in ("http", "oauth2", "openIdConnect"):
            env[prefix + "_TOKEN"] = CREDENTIAL
    return env


class Prism:
    """One `prism mock --errors` process and its log."""

    def __init__(self, node: str, prism: str, doc: Path, log: Path):
        self.port = free_port()
        self.command = [node, prism, "mock", "--errors", "-h", "127.0.0.1", "-p", str(self.port), str(doc)]
        self.log_path = log
        self.log = open(log, "wb")
        self.restarts = 0
        self.proc = self.spawn()

    def spawn(self) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            self.command,
            stdin=subprocess.DEVNULL,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env={**os.environ, "NO_COLOR": "1", "FORCE_COLOR": "0"},
        )

    def crashed(self) -> bool:
        return self.proc.poll() is not None

    def restart(self) -> None:
        """Starts Prism again on the same port (openapi2mcp was given its URL)."""
        self.restarts += 1
        if self.restarts > MAX_RESTARTS:
            raise RuntimeError(f"Prism crashed more than {MAX_RESTARTS} times")
        mark = len(self.text())
        self.proc = self.spawn()
        deadline = time.monotonic() + PRISM_START_LIMIT
        while time.monotonic() < deadline:
            if "Prism is listening" in self.text()[mark:]:
                return
            if self.proc.poll() is not None:
                raise RuntimeError(f"Prism did not restart: {self.text()[mark:][-2000:]}")
            time.sleep(0.1)
        raise RuntimeError("Prism did not restart in time")

    def wait_listening(self) -> None:
        deadline = time.monotonic() + PRISM_START_LIMIT
        while time.monotonic() < deadline:
            if "Prism is listening" in self.text():
                return
            if self.proc.poll() is not None:
                raise RuntimeError(f"Prism exited with {self.proc.returncode}:\n{self.text()[-2000:]}")
            time.sleep(0.1)
        raise RuntimeError(f"Prism did not listen within {PRISM_START_LIMIT:.0f} s:\n{self.text()[-2000:]}")

    def text(self) -> str:
        self.log.flush()
        return ANSI.sub("", self.log_path.read_text(errors="replace"))

    def stop(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(timeout=5)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                try:
                    os.killpg(self.proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                self.proc.wait(timeout=5)
        self.log.close()


def verdicts(log: str) -> list[dict[str, Any]]:
    """Prism's log cut into one block per request it received, each judged.

    A request is rejected when Prism's validator says it `did not pass the
    validation rules` (the violations follow, one `✖` line each), or when
    Prism ended it with an error before validating it (no route for the
    path, say). `NO_RESPONSE_RESPONSE_DEFINED` after a passed validation is
    Prism having no example to answer with, not a verdict on the request.
    """
    blocks: list[dict[str, Any]] = []
    for line in log.splitlines():
        m = RECEIVED.search(line)
        if m:
            blocks.append({"request": f"{m.group(1).upper()} {m.group(2)}", "lines": []})
        elif blocks:
            blocks[-1]["lines"].append(line.split("› ", 1)[-1].strip())
    for b in blocks:
        text = "\n".join(b["lines"])
        passed = "The request passed the validation rules" in text
        failed = "did not pass the validation rules" in text
        terminated = "Request terminated with error" in text
        b["passed"] = passed and not failed
        b["rejected"] = failed or (terminated and not passed)
        b["violations"] = [ln for ln in b["lines"] if "✖" in ln]
    return blocks


def result_text(result: Any) -> str:
    parts = []
    for c in result.content or []:
        text = getattr(c, "text", None)
        if isinstance(text, str):
            parts.append(text)
    return "\n".join(parts)


async def check_document(ns: argparse.Namespace, doc: Path) -> dict[str, Any]:
    raw = json.loads(doc.read_text())
    # 3.0/parameters-style.json; oracles/form-styles.json for the one written here
    name = f"{doc.parent.parent.name}/{doc.name}" if doc.parent.name == "json" else f"{doc.parent.name}/{doc.name}"
    report: dict[str, Any] = {"document": name, "calls": [], "problems": []}
    prism = Prism(ns.node, ns.prism, doc, ns.out / f"prism-{name.replace('/', '-')}.log")
    try:
        prism.wait_listening()
        env = {**scheme_env(raw), "NO_COLOR": "1", "RUST_LOG": os.environ.get("RUST_LOG", "warn")}
        params = StdioServerParameters(
            command=ns.bin,
            # Prism is a mock: nothing real to destroy, so no confirmation
            # (which this client could not give) before DELETEs.
            args=["serve", str(doc), "--base-url", f"http://127.0.0.1:{prism.port}", "--confirm", "none"],
            env=env,
        )
        with anyio.fail_after(DOC_LIMIT):
            async with stdio_client(params, errlog=ns.stderr_log) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    # The API's operations (get_call_result, listed with
                    # them, reads calls answered with a handle; it sends
                    # no request of its own).
                    tools = [t for t in (await session.list_tools()).tools
                             if (t.meta or {}).get("openapi2mcp/origin")]
                    report["tools"] = len(tools)
                    for tool in tools:
                        report["calls"].append(await call_one(session, tool, prism))
    except Exception as e:  # noqa: BLE001 - every failure is reported, not raised
        report["problems"].append(f"{type(e).__name__}: {describe(e)}")
    finally:
        prism.stop()
    return report


async def call_one(session: ClientSession, tool: Any, prism: Prism) -> dict[str, Any]:
    args = arguments(tool.input_schema or {})
    log_mark = len(prism.text())
    before = len(verdicts(prism.text()))
    record: dict[str, Any] = {"tool": tool.name, "arguments": args}
    try:
        with anyio.fail_after(CALL_LIMIT):
            result = await session.call_tool(tool.name, args)
        record["is_error"] = bool(result.is_error)
        record["text"] = result_text(result)[:2000]
    except Exception as e:  # noqa: BLE001 - an SDK exception is a finding
        record["exception"] = f"{type(e).__name__}: {describe(e)}"
    # Prism writes its verdict before it answers; give the pipe a moment.
    blocks: list[dict[str, Any]] = []
    for _ in range(20):
        blocks = verdicts(prism.text())[before:]
        if blocks and (blocks[-1]["passed"] or blocks[-1]["rejected"]) or prism.crashed():
            break
        await asyncio.sleep(0.05)
    record["prism"] = blocks
    if prism.crashed():
        # A request Prism cannot judge: keep what it printed (the stack).
        record["outcome"] = "crash"
        tail = prism.text()[log_mark:].splitlines()
        record["crash"] = [ln for ln in tail if ln.strip() and "Request received" not in ln][:6]
        prism.restart()
    elif record.get("exception"):
        record["outcome"] = "exception"
    elif not blocks:
        record["outcome"] = "not-sent"
    elif any(b["rejected"] for b in blocks):
        record["outcome"] = "rejected"
    else:
        record["outcome"] = "ok"
    return record


def evidence(call: dict[str, Any]) -> str:
    """What Prism (or the tool) said about a call, on one line."""
    if call["outcome"] == "crash":
        return "Prism crashed: " + " | ".join(call.get("crash", []))
    if call["outcome"] == "rejected":
        return "; ".join(v for b in call["prism"] for v in b["violations"]) or call.get("text", "")[:300]
    if call["outcome"] == "exception":
        return call["exception"]
    return call.get("text", "")[:300].replace("\n", " ")


def describe(e: BaseException) -> str:
    if isinstance(e, BaseExceptionGroup):
        return "; ".join(describe(x) for x in e.exceptions)
    return str(e).splitlines()[0][:500] if str(e) else type(e).__name__


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", required=True)
    parser.add_argument("--node", required=True)
    parser.add_argument("--prism", required=True)
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("docs", nargs="+", type=Path)
    ns = parser.parse_args()
    ns.out.mkdir(parents=True, exist_ok=True)
    ns.stderr_log = open(ns.out / "openapi2mcp-stderr.log", "w")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    passed = failed = 0
    reports = []
    kinds: dict[str, int] = {}
    for doc in ns.docs:
        started = time.monotonic()
        report = asyncio.run(check_document(ns, doc))
        reports.append(report)
        bad = list(report["problems"])
        excused = 0
        for call in report["calls"]:
            known = KNOWN.get((report["document"], call["tool"]))
            if known and call["outcome"] == known[0]:
                excused += 1
                call["excused"] = known[1]
                kinds[known[1].split(" ", 1)[0].split(":")[0]] = kinds.get(known[1].split(" ", 1)[0].split(":")[0], 0) + 1
            elif known:
                bad.append(
                    f"{call['tool']}: listed in KNOWN as `{known[0]}` but came out `{call['outcome']}` "
                    f"(update the list): {evidence(call)}"
                )
            elif call["outcome"] != "ok":
                bad.append(f"{call['tool']} {call['outcome']} {json.dumps(call['arguments'])}: {evidence(call)}")
        good = len(report["calls"]) - len(bad) + len(report["problems"])
        print(
            f"prism: {report['document']}: {len(report['calls'])} tools called, {good} ok "
            f"({excused} of them known exceptions), {len(bad)} problems "
            f"({time.monotonic() - started:.1f} s){'' if not bad else ' FAIL'}"
        )
        for line in bad:
            print(f"    {line}")
        passed += good
        failed += len(bad)
    (ns.out / "prism-report.json").write_text(json.dumps(reports, indent=2, ensure_ascii=False))
    if kinds:
        print("prism: known exceptions (KNOWN here, scripts/oracles/README.md): " + ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())))
    print(f"prism: {passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
