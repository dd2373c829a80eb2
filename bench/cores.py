#!/usr/bin/env python3
"""Start-up to a whole tool list against Node's parse, on every core and on one (issue 27).

Node's `JSON.parse` runs on one thread; the server plans and builds its
tools on every core it may use. So the ratios of bench/scale.py depend on
the machine's cores: this script measures them both ways in one run. Each
round runs, in turn, Node's parse of DOC and BIN's `serve -q DOC --tools
MODE` (bench/ab.py's raw JSON-RPC driver: spawn to the last tools/list
page), each once on every core and once pinned to the first core with
`taskset -c 0` (Rust's `available_parallelism` follows the pinning, so the
server builds on one thread). Prints the medians: wall time, CPU time and
peak RSS per case, and the server's time as a multiple of Node's on each.

    bench/cores.py DOC MODE ROUNDS BIN

Linux only (taskset from util-linux, /proc). Python stdlib only.
"""
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ab  # noqa: E402  (bench/ab.py: one raw run of the server)

NODE_PARSE = 'JSON.parse(require("fs").readFileSync(process.argv[1]))'
PIN = ["taskset", "-c", "0"]


def node(doc, pinned):
    """One run of Node's parse: (wall ms, peak RSS MB, CPU ms)."""
    started = time.perf_counter()
    p = subprocess.Popen((PIN if pinned else []) + ["node", "-e", NODE_PARSE, doc],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    wall = (time.perf_counter() - started) * 1000
    if status != 0:
        sys.exit(f"node could not parse {doc} (status {status})")
    return wall, usage.ru_maxrss / 1024, (usage.ru_utime + usage.ru_stime) * 1000


def server(binary, doc, mode, pinned):
    """One run of the server: (wall ms, peak RSS MB, CPU ms)."""
    if pinned:
        # A wrapper that execs: /proc still shows the server's own figures.
        wrapper = f"/tmp/cores-pinned-{os.getpid()}"
        with open(wrapper, "w") as f:
            f.write(f'#!/bin/sh\nexec taskset -c 0 {binary} "$@"\n')
        os.chmod(wrapper, 0o755)
        binary = wrapper
    try:
        wall, hwm, _, cpu = ab.once(binary, doc, mode)
    finally:
        if pinned:
            os.unlink(binary)
    return wall, hwm, cpu


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    doc, mode, rounds, binary = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    cases = [("node, every core", lambda: node(doc, False)),
             ("node, one core", lambda: node(doc, True)),
             ("server, every core", lambda: server(binary, doc, mode, False)),
             ("server, one core", lambda: server(binary, doc, mode, True))]
    runs = {name: [] for name, _ in cases}
    for _ in range(rounds):
        for name, run in cases:
            runs[name].append(run())
    med = {name: [statistics.median(r[i] for r in v) for i in range(3)] for name, v in runs.items()}
    print(f"{os.path.basename(doc)}, --tools {mode}, {rounds} rounds, {os.cpu_count()} cores here")
    for name, (wall, hwm, cpu) in med.items():
        print(f"{name:19s} {wall:6.0f} ms  CPU {cpu:5.0f} ms  peak RSS {hwm:6.1f} MB")
    for where in ("every core", "one core"):
        ratio = med[f"server, {where}"][0] / med[f"node, {where}"][0]
        print(f"server / node time, {where}: {ratio:.2f}")


if __name__ == "__main__":
    main()
