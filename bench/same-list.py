#!/usr/bin/env python3
"""Checks that two builds list the same tools, byte for byte (issue 27).

For each document, each binary is run as `serve -q DOC --tools MODE` over
stdio with raw JSON-RPC: initialize, then every tools/list page (following
nextCursor). The answers' lines are compared as bytes; a document that one
build refuses must be refused by the other too. Documents: GitHub's REST
description, Stripe, Microsoft Graph v1.0 (and beta with --beta), and every
document of @readme/oas-examples (JSON and YAML, 2.0 to 3.1).

    bench/same-list.py OLD_BIN NEW_BIN [--modes full,auto] [--beta] [--timeout S]

Prints one line per document and mode, and `N same, N different` at the
end; exits 1 when any differs. Python stdlib only.
"""
import argparse
import glob
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIG = [
    "tests/external/node_modules/@octokit/openapi/generated/api.github.com.json",
    "tests/external/large/stripe.json",
    "tests/external/large/graph.json",
]
BETA = "tests/external/large/graph-beta.json"
CORPUS = "tests/external/node_modules/@readme/oas-examples"


def pages(binary, doc, mode, timeout):
    """The raw answer lines of initialize and every tools/list page, or an
    ('error', text) tuple when the server refuses the document."""
    proc = subprocess.Popen(
        [binary, "serve", "-q", doc, "--tools", mode],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        cwd=ROOT, env={**os.environ, "OPENAPI2MCP_LOG": "error"})

    def ask(message):
        proc.stdin.write((json.dumps(message) + "\n").encode())
        proc.stdin.flush()
        line = proc.stdout.readline()
        if not line:
            raise EOFError
        return line

    out = []
    try:
        out.append(ask({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "same-list", "version": "1"}}}))
        proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        cursor, n = None, 1
        while n < 10_000:
            params = {"cursor": cursor} if cursor else {}
            line = ask({"jsonrpc": "2.0", "id": n, "method": "tools/list", "params": params})
            out.append(line)
            cursor = json.loads(line).get("result", {}).get("nextCursor")
            if not cursor:
                break
            n += 1
    except (EOFError, BrokenPipeError):
        proc.kill()
        proc.wait()
        return ("error", f"exit {proc.returncode}")
    finally:
        try:
            proc.stdin.close()
        except BrokenPipeError:
            pass
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--modes", default="full,auto")
    ap.add_argument("--beta", action="store_true", help="also Microsoft Graph beta (slow)")
    ap.add_argument("--timeout", type=float, default=120)
    a = ap.parse_args()
    docs = [d for d in BIG if os.path.exists(os.path.join(ROOT, d))]
    if a.beta:
        docs.append(BETA)
    corpus = sorted(glob.glob(os.path.join(ROOT, CORPUS, "[23].*", "**", "*.json"), recursive=True)
                    + glob.glob(os.path.join(ROOT, CORPUS, "[23].*", "**", "*.yaml"), recursive=True))
    docs += [os.path.relpath(d, ROOT) for d in corpus]
    if len(docs) < 10:
        sys.exit("the test documents are missing: run scripts/fetch-test-specs.sh and "
                 "scripts/fetch-large-specs.sh")
    same = different = 0
    for doc in docs:
        for mode in a.modes.split(","):
            old = pages(a.old, doc, mode, a.timeout)
            new = pages(a.new, doc, mode, a.timeout)
            if old == new:
                same += 1
                what = "refused by both" if isinstance(old, tuple) else (
                    f"{len(old) - 1} page(s), {sum(len(l) for l in old[1:]):,} B")
                print(f"same       {mode:5} {doc}: {what}", flush=True)
            else:
                different += 1
                print(f"DIFFERENT  {mode:5} {doc}", flush=True)
    print(f"{same} same, {different} different")
    sys.exit(1 if different else 0)


if __name__ == "__main__":
    main()
