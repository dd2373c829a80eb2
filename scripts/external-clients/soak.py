#!/usr/bin/env python3
"""The soak: openapi2mcp's release binary over streamable HTTP under many
concurrent sessions of the official MCP Python SDK, for a bounded time,
in front of the misbehaving API of fault_backend.py.

`serve tests/fixtures/faults.yaml --transport http` runs against the fault
backend; --processes client processes (default 2) each open --sessions
streamable HTTP sessions (default 25, so 50 in all) and call get_fault and
list_faults in a loop until --seconds (default 120) are up, mostly with
kind=ok and otherwise with cheap faults (html500, badjson, r429, empty200,
nocontent, redirect_same, redirect_foreign, redirect_allowed, refused: the
backend closes the socket). Checks:

  - every call is answered: a result, never an SDK exception (the SDK
    validates structuredContent against the tool's outputSchema) and never
    a client-side timeout; each result is isError or carries
    structuredContent; a fault that must be an error is one, an ok (or a
    followed redirect, empty body, 204) is not;
  - the server's RSS (VmRSS) at the end of the run is at most 1.2 x its RSS
    after the warm-up (--warmup, default 15 s), and its open fds at most
    +10 over the warm-up count (both sampled under load);
  - the server is still alive, its log has no panic and no API key, and the
    foreign/allowed origins never received X-API-Key, Authorization, Cookie,
    Referer or the header parameter.

Prints the counts (calls, errors by kind, calls/s, latency, RSS and fds
warm/final/idle) and ends with `soak: N passed, M failed`. Exit 0 when all
passed, 1 otherwise, 2 on bad setup. Every process runs under `timeout`.

Usage: soak.py [--seconds 120] [--processes 2] [--sessions 25] [--bin PATH]
Run it with the venv's python (setup.sh), after `cargo build --release`.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import re
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SPEC = ROOT / "tests" / "fixtures" / "faults.yaml"
SECRET = "o2m-SOAK-SECRET-a41c77e2f9"
SECRET_ENV = "OPENAPI2MCP_APIKEY_KEY"
TAG = "o2m-soak-tag-1093"
COOKIE = "o2m-soak-cookie-4471"
FORBIDDEN = ("x-api-key", "authorization", "cookie", "referer", "x-request-tag", "proxy-authorization")
TOOLS = ("get_fault", "list_faults")
# kind -> (weight, must be an error)
MIX: dict[str, tuple[int, bool]] = {
    "ok": (70, False),
    "html500": (4, True),
    "badjson": (4, True),
    "r429": (4, True),
    "empty200": (3, False),
    "nocontent": (3, False),
    "redirect_same": (3, False),
    "redirect_foreign": (3, True),
    "redirect_allowed": (2, False),
    "refused": (4, True),
}
CALL_LIMIT = 30.0
RSS_FACTOR = 1.2
FD_SLACK = 10
WINDOW = 10.0  # seconds of samples the fd medians are taken over

say = lambda *a: print(*a, flush=True)  # noqa: E731
logging.getLogger("mcp.client.streamable_http").setLevel(logging.ERROR)


# --- the client worker (a separate process) -----------------------------------


async def worker(url: str, sessions: int, seconds: float, seed: int, start_at: float) -> dict[str, Any]:
    import anyio
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    rng = random.Random(seed)
    kinds = list(MIX)
    weights = [MIX[k][0] for k in kinds]
    stats: dict[str, Any] = {
        "calls": 0, "sessions_opened": 0, "session_failures": [],
        "by_kind": {k: {"ok": 0, "error": 0} for k in kinds},
        "exceptions": 0, "exception_samples": [],
        "unexpected": 0, "unexpected_samples": [],
        "secret_in_result": 0,
        "latencies": [],
        "late_s": 0.0,
    }
    # All client processes call between start_at and start_at + seconds
    # (wall clock), so that the driver's samples line up with the load.
    ready = anyio.Event()
    deadline = start_at + seconds

    def sample(key: str, text: str) -> None:
        if len(stats[key]) < 5:
            stats[key].append(text[:500])

    async def one_session(i: int) -> None:
        try:
            async with create_mcp_http_client() as hc:
                async with streamable_http_client(url, http_client=hc) as (read, write):
                    async with ClientSession(read, write) as s:
                        with anyio.fail_after(60):
                            await s.initialize()
                            await s.list_tools()
                        stats["sessions_opened"] += 1
                        if stats["sessions_opened"] == sessions:
                            ready.set()
                        await ready.wait()
                        while time.time() < deadline:
                            kind = rng.choices(kinds, weights)[0]
                            tool = rng.choice(TOOLS)
                            args = {"kind": kind, "X-Request-Tag": TAG, "session": COOKIE}
                            t0 = time.monotonic()
                            try:
                                with anyio.fail_after(CALL_LIMIT):
                                    r = await s.call_tool(tool, args, read_timeout_seconds=CALL_LIMIT)
                            except Exception as e:  # noqa: BLE001 - the finding
                                stats["calls"] += 1
                                stats["exceptions"] += 1
                                sample("exception_samples", f"{tool}/{kind}: {type(e).__name__}: {e}")
                                continue
                            stats["latencies"].append((time.monotonic() - t0) * 1000)
                            stats["calls"] += 1
                            stats["by_kind"][kind]["error" if r.is_error else "ok"] += 1
                            text = "\n".join(getattr(c, "text", "") or "" for c in r.content)
                            if SECRET in text or (r.structured_content is not None and SECRET in json.dumps(r.structured_content)):
                                stats["secret_in_result"] += 1
                            must_err = MIX[kind][1]
                            bad = None
                            if r.is_error != must_err:
                                bad = f"expected isError={must_err}"
                            elif not r.is_error and r.structured_content is None:
                                bad = "success without structuredContent"
                            if bad:
                                stats["unexpected"] += 1
                                sample("unexpected_samples", f"{tool}/{kind}: {bad}: {text[:300]!r}")
        except Exception as e:  # noqa: BLE001
            sample("session_failures", f"session {i}: {type(e).__name__}: {e}")

    async def starter() -> None:
        with anyio.move_on_after(max(0.0, start_at - time.time())):
            await ready.wait()  # every session is open: wait for the start
            await anyio.sleep(max(0.0, start_at - time.time()))
        stats["late_s"] = max(0.0, time.time() - start_at)
        ready.set()

    async with anyio.create_task_group() as tg:
        for i in range(sessions):
            tg.start_soon(one_session, i)
        tg.start_soon(starter)
    return stats


def worker_main(ns: argparse.Namespace) -> int:
    import anyio

    stats = anyio.run(worker, ns.url, ns.sessions, ns.seconds, ns.seed, ns.start_at)
    json.dump(stats, sys.stdout)
    sys.stdout.write("\n")
    return 0


# --- the driver ----------------------------------------------------------------


def proc_status(pid: int) -> tuple[int, int]:
    """(VmRSS in KiB, open fds) of a process."""
    rss = 0
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1])
    fds = len(os.listdir(f"/proc/{pid}/fd"))
    return rss, fds


def fd_kinds(pid: int, mcp_port: int, upstream: dict[int, str]) -> dict[str, int]:
    """The process's open fds by what they are: MCP client connections
    (local port = the MCP port), connections to each backend origin, the
    listener, unix sockets, TCP sockets being torn down (in no TCP table any
    more), other sockets, other fds."""
    inodes: dict[str, str] = {}
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            link = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        m = re.fullmatch(r"socket:\[(\d+)\]", link)
        inodes[fd] = m.group(1) if m else ""
    unix: set[str] = set()
    try:
        for line in Path("/proc/net/unix").read_text().splitlines()[1:]:
            f = line.split()
            if len(f) >= 7:
                unix.add(f[6])
    except OSError:
        pass
    conns: dict[str, tuple[int, int, str]] = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            f = line.split()
            lport = int(f[1].rsplit(":", 1)[1], 16)
            rport = int(f[2].rsplit(":", 1)[1], 16)
            conns[f[9]] = (lport, rport, f[3])
    out: dict[str, int] = {}
    for fd, inode in inodes.items():
        if not inode:
            kind = "other fds"
        elif inode in unix:
            kind = "unix sockets"
        elif inode not in conns:
            kind = "closing sockets"  # TCP sockets out of the tables (reset, torn down)
        else:
            lport, rport, st = conns[inode]
            if st == "0A":
                kind = "listening"
            elif lport == mcp_port:
                kind = "MCP client connections"
            elif rport in upstream:
                kind = f"to {upstream[rport]}"
            else:
                kind = "other sockets"
        out[kind] = out.get(kind, 0) + 1
    return out


def machine_cpu() -> tuple[int, int]:
    """(busy, total) jiffies of the whole machine, from /proc/stat."""
    f = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = f[3] + (f[4] if len(f) > 4 else 0)
    return sum(f) - idle, sum(f)


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process, in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def child_of(pid: int) -> int | None:
    """The process `timeout` (pid) runs."""
    try:
        kids = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return None
    return int(kids[0]) if kids else None


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def percentile(xs: list[float], p: float) -> float:
    if not xs:
        return 0.0
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]


def driver(ns: argparse.Namespace) -> int:
    if not os.access(ns.bin, os.X_OK):
        print(f"soak: {ns.bin} not found: run `cargo build --release`", file=sys.stderr)
        return 2
    work = Path(ns.work)
    work.mkdir(parents=True, exist_ok=True)
    limit = int(ns.seconds) + 90  # every process's lifetime
    passed, failed = 0, 0

    def check(name: str, ok: bool, detail: str) -> None:
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
        say(f"{'PASS' if ok else 'FAIL'}  {name}: {detail}")

    procs: list[subprocess.Popen] = []
    backend_log = open(work / "fault_backend.stderr", "w")
    backend = subprocess.Popen(
        ["timeout", str(limit), sys.executable, str(HERE / "fault_backend.py"), "--keep-home", "1000"],
        stdout=subprocess.PIPE, stderr=backend_log, text=True,
    )
    procs.append(backend)
    server_log_path = work / "serve-soak.stderr"
    server_log = open(server_log_path, "w")
    try:
        line = backend.stdout.readline()  # type: ignore[union-attr]
        if not line:
            say("soak: the fault backend did not start")
            return 2
        ports = json.loads(line)
        home = f"http://127.0.0.1:{ports['home']}"
        allowed = f"http://127.0.0.1:{ports['allowed']}"
        server = subprocess.Popen(
            ["timeout", str(limit), ns.bin, "serve", str(SPEC), "--quiet",
             "--base-url", home, "--timeout", "5", "--max-response-bytes", "65536",
             "--output-schema", "full", "--allow-redirect-origin", allowed,
             "--transport", "http", "--listen", "127.0.0.1:0"],
            stdout=subprocess.DEVNULL, stderr=server_log,
            env={**os.environ, SECRET_ENV: SECRET, "NO_COLOR": "1"},
        )
        procs.append(server)
        url = None
        for _ in range(600):
            m = re.search(r"http://127\.0\.0\.1:[0-9]+/mcp", server_log_path.read_text(errors="replace"))
            if m:
                url = m.group(0)
                break
            if server.poll() is not None:
                break
            time.sleep(0.05)
        spid = child_of(server.pid)
        if not url or spid is None:
            say(f"soak: the server did not start: {server_log_path.read_text()[-2000:]}")
            return 2
        rss0, fds0 = proc_status(spid)
        say(f"soak: server {url} (pid {spid}), backend {home}; {ns.processes} processes x {ns.sessions} sessions for {ns.seconds:g} s")
        say(f"soak: server at start: RSS {rss0 / 1024:.1f} MiB, {fds0} fds")

        workers = []
        # The call phase starts at the same wall-clock time in every client
        # process, once they have imported the SDK and opened their sessions.
        start_at = time.time() + ns.setup
        t0 = time.monotonic() + ns.setup
        for i in range(ns.processes):
            out = open(work / f"soak-worker-{i}.json", "w")
            err = open(work / f"soak-worker-{i}.stderr", "w")
            w = subprocess.Popen(
                ["timeout", str(limit), sys.executable, str(Path(__file__).resolve()), "--worker",
                 "--url", url, "--sessions", str(ns.sessions), "--seconds", str(ns.seconds),
                 "--seed", str(1000 + i), "--start-at", f"{start_at:.3f}"],
                stdout=out, stderr=err,
            )
            procs.append(w)
            workers.append((w, out, err))

        warm = final = None
        cpu_start = cpu_end = None
        samples: list[tuple[float, int, int, dict[str, int]]] = []
        mcp_port = int(url.rsplit(":", 1)[1].split("/")[0])
        upstream = {ports[o]: f"backend {o}" for o in ("home", "foreign", "allowed")}
        warm_at = min(ns.warmup, ns.seconds / 4)
        final_at = ns.seconds - 2
        while any(w.poll() is None for w, _, _ in workers):
            now = time.monotonic() - t0
            if server.poll() is None:
                rss, fds = proc_status(spid)
                kinds = fd_kinds(spid, mcp_port, upstream)
                samples.append((now, rss, fds, kinds))
                if cpu_start is None and now >= 0:
                    cpu_start = machine_cpu()
                if cpu_end is None and now >= ns.seconds:
                    cpu_end = machine_cpu()
                if warm is None and now >= warm_at:
                    warm = (rss, fds)
                if final is None and now >= final_at:
                    final = (rss, fds)
            time.sleep(0.5)
        elapsed = time.monotonic() - t0
        server_alive = server.poll() is None
        idle = idle_kinds = None
        server_cpu = cpu_seconds(spid) if server_alive else 0.0
        if server_alive:
            time.sleep(2)  # let the closed sessions go
            idle = proc_status(spid)
            idle_kinds = fd_kinds(spid, mcp_port, upstream)

        stats = []
        for i, (w, out, err) in enumerate(workers):
            out.close()
            err.close()
            text = (work / f"soak-worker-{i}.json").read_text().strip()
            try:
                stats.append(json.loads(text.splitlines()[-1]))
            except (json.JSONDecodeError, IndexError):
                tail = (work / f"soak-worker-{i}.stderr").read_text()[-1500:]
                check(f"client process {i}", False, f"exited {w.returncode} without a report: {tail}")
        if not stats:
            return 1

        calls = sum(s["calls"] for s in stats)
        exceptions = sum(s["exceptions"] for s in stats)
        unexpected = sum(s["unexpected"] for s in stats)
        secret = sum(s["secret_in_result"] for s in stats)
        opened = sum(s["sessions_opened"] for s in stats)
        lat = [x for s in stats for x in s["latencies"]]
        by_kind: dict[str, dict[str, int]] = {}
        for s in stats:
            for k, v in s["by_kind"].items():
                d = by_kind.setdefault(k, {"ok": 0, "error": 0})
                d["ok"] += v["ok"]
                d["error"] += v["error"]
        errors = sum(v["error"] for v in by_kind.values())
        # The call phase is --seconds long; the rest of `elapsed` is session setup/teardown.
        rate = calls / ns.seconds

        say("")
        say(f"soak: {calls} calls in {ns.seconds:g} s ({rate:.0f} calls/s) over {opened} sessions "
            f"({ns.processes} processes x {ns.sessions}); {errors} isError results, {exceptions} SDK exceptions, "
            f"{unexpected} unexpected outcomes")
        say("soak: by kind (ok / isError): " + ", ".join(f"{k} {v['ok']}/{v['error']}" for k, v in by_kind.items()))
        busy = ""
        if cpu_start and cpu_end and cpu_end[1] > cpu_start[1]:
            busy = (f"; the machine ({os.cpu_count()} cores) was {100 * (cpu_end[0] - cpu_start[0]) / (cpu_end[1] - cpu_start[1]):.0f} % busy "
                    "during the calls, mostly the Python clients (and whatever else runs on it)")
        say(f"soak: server CPU {server_cpu:.1f} s in all, {1000 * server_cpu / max(calls, 1):.2f} ms per call{busy}")
        say(f"soak: latency ms p50 {percentile(lat, 50):.1f}, p90 {percentile(lat, 90):.1f}, "
            f"p99 {percentile(lat, 99):.1f}, max {max(lat) if lat else 0:.1f}")
        peak = max((x[1] for x in samples), default=0)
        fmt = lambda x: f"RSS {x[0] / 1024:.1f} MiB, {x[1]} fds" if x else "n/a"  # noqa: E731
        say(f"soak: server start {fmt((rss0, fds0))}; warm (t={warm_at:g} s) {fmt(warm)}; final (t={final_at:g} s) {fmt(final)}; "
            f"idle after the sessions closed {fmt(idle)}; peak RSS {peak / 1024:.1f} MiB")
        if idle_kinds:
            say("soak: idle fds by kind: " + ", ".join(f"{k} {v}" for k, v in sorted(idle_kinds.items())))
        (work / "soak-samples.json").write_text(json.dumps(samples))
        say("")

        late = max(s.get("late_s", 0.0) for s in stats)
        if late > 1:
            say(f"soak: note: a client process started calling {late:.1f} s late (slow SDK import or session setup)")
        for i, s in enumerate(stats):
            if s["session_failures"]:
                check(f"client process {i} sessions", False, "; ".join(s["session_failures"]))
        check("sessions", opened == ns.processes * ns.sessions, f"{opened} of {ns.processes * ns.sessions} sessions opened")
        check("calls answered", exceptions == 0 and calls > 0,
              f"{calls} calls, {exceptions} SDK exceptions" + (f": {stats[0]['exception_samples'] or [x for s in stats for x in s['exception_samples']][:3]}" if exceptions else ""))
        samples_u = [x for s in stats for x in s["unexpected_samples"]]
        check("outcomes as the contract says", unexpected == 0,
              f"{unexpected} unexpected" + (f": {samples_u[:3]}" if samples_u else ""))
        check("no API key in results", secret == 0, f"{secret} results carried it")
        if ns.min_calls:
            check("throughput", calls >= ns.min_calls, f"{calls} calls (at least {ns.min_calls} wanted)")
        check("server alive", server_alive, "still running" if server_alive else f"exited {server.returncode}")
        if warm and final:
            check("RSS", final[0] <= RSS_FACTOR * warm[0],
                  f"final {final[0] / 1024:.1f} MiB <= {RSS_FACTOR} x warm {warm[0] / 1024:.1f} MiB")
            # The MCP clients' own connections come and go with the SDK's
            # connection pool (50-100 for 50 sessions), and sockets being torn
            # down come and go with the moment of the sample, so both are
            # counted apart: the server's other fds (API connections included)
            # are compared as medians over the warm and the final window. A
            # leak of either kind shows after the sessions closed (below).
            own = lambda x: x[2] - x[3].get("MCP client connections", 0) - x[3].get("closing sockets", 0)  # noqa: E731
            warm_win = [own(x) for x in samples if warm_at <= x[0] <= warm_at + WINDOW]
            final_win = [own(x) for x in samples if final_at - WINDOW <= x[0] <= final_at]
            mw, mf = statistics.median(warm_win or [0]), statistics.median(final_win or [0])
            check("fds", mf <= mw + FD_SLACK,
                  f"server fds other than MCP client connections and closing sockets, median final {mf:g} <= warm {mw:g} + {FD_SLACK} "
                  f"(totals at the samples: warm {warm[1]}, final {final[1]})")
            mcp_max = max(x[3].get("MCP client connections", 0) for x in samples)
            bound = 3 * ns.processes * ns.sessions + FD_SLACK
            check("MCP client connections", mcp_max <= bound, f"at most {mcp_max} open at a time (bound {bound})")
        else:
            check("RSS/fds sampled", False, "the run ended before the warm-up or final sample")
        if idle and idle_kinds is not None:
            # Pooled keep-alive connections to the API may stay (reqwest keeps
            # idle ones for 90 s), as many as calls ran at once at most; the
            # MCP sessions' connections must be gone.
            mcp_left = idle_kinds.get("MCP client connections", 0)
            pooled = sum(v for k, v in idle_kinds.items() if k.startswith("to backend"))
            bound = ns.processes * ns.sessions + FD_SLACK
            check("fds after the sessions closed",
                  mcp_left == 0 and idle[1] - pooled <= fds0 + FD_SLACK and pooled <= bound,
                  f"{idle[1]} fds: {mcp_left} MCP client connections, {pooled} pooled API connections "
                  f"(<= {bound}), {idle[1] - pooled} others <= start {fds0} + {FD_SLACK}")

        recs = []
        for origin in ("foreign", "allowed"):
            with urllib.request.urlopen(f"{home}/__records?origin={origin}", timeout=30) as r:
                recs += json.load(r)["records"]
        leaked = [(x["origin"], k) for x in recs for k, v in x["headers"] if k.lower() in FORBIDDEN
                  or SECRET in v or TAG in v or COOKIE in v]
        foreign_hits = sum(1 for x in recs if x["origin"] == "foreign")
        check("other origins", not leaked and foreign_hits == 0,
              f"{len(recs)} requests reached the allowed origin, {foreign_hits} the foreign one; "
              f"forbidden headers: {sorted(set(leaked)) or 'none'}")

        stop(server)
        server_log.close()
        log = server_log_path.read_text(errors="replace")
        panics = [l for l in log.splitlines() if "panicked" in l]
        check("server log", SECRET not in log and not panics,
              f"{len(log.splitlines())} lines, API key {'FOUND' if SECRET in log else 'absent'}, "
              f"{len(panics)} panics" + (f": {panics[0][:300]}" if panics else ""))
        say(f"(wall {elapsed + ns.setup:.1f} s from the start of the client processes; logs in {work})")
    finally:
        for p in reversed(procs):
            stop(p)
    say(f"soak: {passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=120.0, help="length of the call phase (default 120)")
    p.add_argument("--warmup", type=float, default=15.0,
                   help="when the warm RSS/fds are sampled, from the start of the calls (default 15 s)")
    p.add_argument("--setup", type=float, default=10.0,
                   help="seconds the client processes get to import the SDK and open their sessions (default 10)")
    p.add_argument("--processes", type=int, default=2, help="client processes (default 2)")
    p.add_argument("--sessions", type=int, default=25, help="sessions per client process (default 25)")
    p.add_argument("--min-calls", type=int, default=0, help="fail below this many calls (default: no floor)")
    p.add_argument("--bin", default=os.environ.get("OPENAPI2MCP_BIN", str(ROOT / "target" / "release" / "openapi2mcp")))
    p.add_argument("--work", default=str(ROOT / "target" / "external-clients" / "soak"))
    # internal: one client process
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--url", help=argparse.SUPPRESS)
    p.add_argument("--seed", type=int, default=1, help=argparse.SUPPRESS)
    p.add_argument("--start-at", type=float, help=argparse.SUPPRESS)
    ns = p.parse_args(argv)
    if ns.worker:
        return worker_main(ns)
    return driver(ns)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
