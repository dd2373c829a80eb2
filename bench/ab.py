#!/usr/bin/env python3
"""A/B of start-up to a whole tool list, builds alternating (issue 27).

Each round runs every binary once, in turn, as `serve -q DOC --tools MODE`
over stdio with raw JSON-RPC: initialize, notifications/initialized, then
every tools/list page (following nextCursor), nothing decoded. Per run: the
wall time from spawn to the last page, the server's CPU time (utime +
stime, read before stdin is closed) and its peak RSS (VmHWM). Prints the
medians per binary. Rounds alternate the binaries, so that this machine's
drift (the same build moved by 10-15 % within an hour in sessions 19-20)
hits each alike: the tool every change of bench/README's rounds 5 and 6
was measured with.

    bench/ab.py DOC MODE ROUNDS BIN [BIN...]

DOC is a document path, MODE a --tools mode (full, auto, ...). Linux only
(/proc). Python stdlib only.
"""
import json
import os
import re
import statistics
import subprocess
import sys
import time

CURSOR = re.compile(rb'"nextCursor":"([^"]*)"')
MAX_PAGES = 10_000


def once(binary, doc, mode):
    """One run: (wall ms, peak RSS MB, bytes listed, CPU ms)."""
    started = time.perf_counter()
    p = subprocess.Popen(
        [binary, "serve", "-q", doc, "--tools", mode],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "OPENAPI2MCP_LOG": "error"},
    )

    def ask(message):
        p.stdin.write((json.dumps(message) + "\n").encode())
        p.stdin.flush()
        return p.stdout.readline()

    ask({"jsonrpc": "2.0", "id": 0, "method": "initialize",
         "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                    "clientInfo": {"name": "ab", "version": "1"}}})
    p.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    cursor, n, listed = None, 1, 0
    while n < MAX_PAGES:
        line = ask({"jsonrpc": "2.0", "id": n, "method": "tools/list",
                    "params": {"cursor": cursor} if cursor else {}})
        if not line:
            sys.exit(f"{binary}: the server closed its output (page {n})")
        listed += len(line)
        found = CURSOR.search(line[:200])
        if not found:
            break
        cursor, n = found.group(1).decode(), n + 1
    wall = (time.perf_counter() - started) * 1000
    hwm = 0.0
    with open(f"/proc/{p.pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM"):
                hwm = int(line.split()[1]) / 1024
    with open(f"/proc/{p.pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) * 1000 / ticks
    p.stdin.close()
    p.wait()
    return wall, hwm, listed, cpu


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    doc, mode, rounds, binaries = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    runs = {b: [] for b in binaries}
    for _ in range(rounds):
        for b in binaries:
            runs[b].append(once(b, doc, mode))
    for b in binaries:
        wall = [r[0] for r in runs[b]]
        print(f"{os.path.basename(b):14s} {statistics.median(wall):6.0f} ms (min {min(wall):4.0f})"
              f"  CPU {statistics.median(r[3] for r in runs[b]):5.0f} ms"
              f"  HWM {statistics.median(r[1] for r in runs[b]):6.1f} MB"
              f"  bytes {runs[b][0][2]}")


if __name__ == "__main__":
    main()
