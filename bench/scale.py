#!/usr/bin/env python3
"""Scale benchmark (issue 11): for each large document, side by side in one
run (round-robin, so that load from elsewhere hits all three alike):

  serve  the release binary over stdio, raw JSON-RPC: spawn -> initialize ->
         notifications/initialized -> every tools/list page (nextCursor).
         Wall time spawn -> last page received, the server's peak RSS
         (VmHWM, read before stdin is closed), tools, pages, sizes.
  list   `openapi2mcp list --json -q DOC` under /usr/bin/time: wall time,
         peak RSS, output bytes.
  node   `node -e 'JSON.parse(require("fs").readFileSync(process.argv[1]))' DOC`
         under /usr/bin/time: the reference the targets are stated against.

serve and list run under an address-space cap (ulimit -v, default 12000000
kB) and a timeout (default 180 s) and report failure instead of hanging or
taking the machine down. Medians over --runs. Prints one markdown table per
document with the ratios to Node and the issue's targets.

    bench/scale.py [--runs N] [--docs github,graph,graph-beta] [--budget BYTES]
                   [--timeout S] [--vmem-kb KB] [--bin PATH] [--modes auto,full]
                   [--no-list] [--vs PATH=LABEL]... [-- EXTRA ARGS]

--modes runs `serve` once per listing mode per round (`--tools MODE`; `auto`
is the default mode), each a row of its own named by its mode (issue 27:
`full` lists every tool). --no-list skips `list --json` (5 s and 600 MB on
Graph). --vs serves another binary in the same rounds (main's build, say),
its rows labelled, so a busy machine slows both alike.

EXTRA ARGS go to both `serve` and `list` (e.g. `--output-schema off`,
`--schema-budget 2048`). Sizes are compact JSON, UTF-8 bytes:
json.dumps(x, separators=(",", ":"), ensure_ascii=False).
"""
import argparse
import json
import os
import resource
import select
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = {
    "github": "tests/external/node_modules/@octokit/openapi/generated/api.github.com.json",
    "graph": "tests/external/large/graph.json",
    "graph-beta": "tests/external/large/graph-beta.json",
}
# (serve time / node, serve RSS / node, tool list bytes, every tool within budget)
TARGETS = {
    "github": (0.75, 0.75, 3_000_000, True),
    "graph": (1.5, 1.5, None, True),
    "graph-beta": (1.5, 1.5, None, True),
}
# Issue 27's targets for `--tools full` and for the default mode (`auto`),
# where they differ from the above: (time / node, RSS / node).
MODE_TARGETS = {
    ("github", "full"): (0.75, 0.75),
    ("graph", "full"): (1.5, 1.5),
    ("graph", "auto"): (1.0, 1.0),
}
NODE_PARSE = 'JSON.parse(require("fs").readFileSync(process.argv[1]))'


def compact(x):
    return len(json.dumps(x, separators=(",", ":"), ensure_ascii=False).encode())


def limiter(vmem_kb):
    def pre():
        os.setsid()
        if vmem_kb:
            b = vmem_kb * 1024
            resource.setrlimit(resource.RLIMIT_AS, (b, b))
    return pre


def kill(proc):
    try:
        os.killpg(proc.pid, 9)
    except ProcessLookupError:
        pass
    proc.wait()


def last_line(path):
    try:
        with open(path, errors="replace") as f:
            lines = [l.strip() for l in f if l.strip()]
        return lines[-1][:100] if lines else ""
    except OSError:
        return ""


def timed(cmd, timeout, vmem_kb, out_path):
    """Runs cmd under /usr/bin/time; returns dict(ms, kb, bytes) or dict(error)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf, \
            tempfile.NamedTemporaryFile("r", suffix=".err") as ef:
        full = ["/usr/bin/time", "-f", "%e %M", "-o", tf.name] + cmd
        with open(out_path, "wb") as out:
            t0 = time.perf_counter()
            proc = subprocess.Popen(full, stdin=subprocess.DEVNULL, stdout=out, stderr=open(ef.name, "wb"),
                                    cwd=ROOT, preexec_fn=limiter(vmem_kb),
                                    env={**os.environ, "OPENAPI2MCP_LOG": "error"})
            # A blocking wait, ended by a timer at the deadline: a wait
            # with a timeout polls, sleeping up to 50 ms between looks,
            # which added 40 ms to Node's 125 ms on GitHub (issue 27).
            late = threading.Event()
            timer = threading.Timer(timeout, lambda: (late.set(), kill(proc)))
            timer.start()
            try:
                rc = proc.wait()
            finally:
                timer.cancel()
            ms = (time.perf_counter() - t0) * 1e3
            if late.is_set():
                return {"error": f"timeout {timeout:.0f} s"}
        fields = tf.read().split()
        if rc != 0:
            msg = last_line(ef.name) or f"exit {rc}"
            return {"error": f"exit {rc}: {msg}"}
        return {"ms": ms, "kb": int(fields[-1]), "bytes": os.path.getsize(out_path)}


class Server:
    """The server over stdio with newline-delimited JSON-RPC and a deadline.

    Replies are read on this thread with large non-blocking reads (select
    for the deadline): a reader thread handing lines over a queue, as this
    client did before session 18, cost 0.5-0.7 ms of Python per page
    (thread hand-off, 8 kB reads of each 256 kB page under the GIL) that
    was counted as the server's time."""

    def __init__(self, cmd, deadline, vmem_kb, err):
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err,
                                     cwd=ROOT, preexec_fn=limiter(vmem_kb), bufsize=0,
                                     env={**os.environ, "OPENAPI2MCP_LOG": "error"})
        self.deadline = deadline
        self.buf = bytearray()
        self.eof = False
        self.next_id = 0
        self.decode_s = 0.0  # the client's own JSON decoding
        self.fd = self.proc.stdout.fileno()
        os.set_blocking(self.fd, False)

    def _line(self):
        """The next line of output, waiting until the deadline; None at EOF."""
        start = 0
        while True:
            at = self.buf.find(b"\n", start)
            if at >= 0:
                line = bytes(self.buf[:at + 1])
                del self.buf[:at + 1]
                return line
            if self.eof:
                return None
            start = len(self.buf)
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            ready, _, _ = select.select([self.fd], [], [], left)
            if not ready:
                raise TimeoutError
            try:
                chunk = os.read(self.fd, 1 << 20)
            except BlockingIOError:
                continue
            if chunk:
                self.buf += chunk
            else:
                self.eof = True

    def send(self, method, params=None, notify=False):
        msg = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        if not notify:
            self.next_id += 1
            msg["id"] = self.next_id
        self.proc.stdin.write((json.dumps(msg) + "\n").encode())
        self.proc.stdin.flush()
        if notify:
            return None
        while True:
            line = self._line()
            if line is None:
                raise EOFError(method)
            t = time.perf_counter()
            reply = json.loads(line)
            self.decode_s += time.perf_counter() - t
            if reply.get("id") == msg["id"]:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {json.dumps(reply['error'])[:100]}")
                return reply["result"]

    def hwm_kb(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
        return 0


def serve_once(bin_, doc, extra, timeout, vmem_kb):
    """Returns dict(ms, kb, tools=[...], pages, decode_ms) or dict(error)."""
    with tempfile.NamedTemporaryFile("r", suffix=".err") as ef:
        t0 = time.perf_counter()
        srv = Server([bin_, "serve", "-q", doc, *extra], time.monotonic() + timeout, vmem_kb,
                     open(ef.name, "wb"))
        try:
            srv.send("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "bench-scale", "version": "1"}})
            srv.send("notifications/initialized", notify=True)
            tools, pages, cursor = [], 0, None
            while True:
                res = srv.send("tools/list", {"cursor": cursor} if cursor else {})
                tools += res["tools"]
                pages += 1
                cursor = res.get("nextCursor")
                if not cursor:
                    break
            ms = (time.perf_counter() - t0) * 1e3
            kb = srv.hwm_kb()
        except TimeoutError:
            stage = f"tools/list page {pages + 1}" if "pages" in locals() else "initialize"
            try:
                at = f" in {stage}, {srv.hwm_kb() // 1024:,} MB peak so far"
            except OSError:
                at = f" in {stage}"
            kill(srv.proc)
            return {"error": f"timeout {timeout:.0f} s{at}"}
        except (EOFError, RuntimeError, BrokenPipeError) as e:
            kill(srv.proc)
            rc = srv.proc.returncode
            return {"error": f"{type(e).__name__} {e} (exit {rc}: {last_line(ef.name)})"}
        srv.proc.stdin.close()
        try:
            srv.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            kill(srv.proc)
        return {"ms": ms, "kb": kb, "tools": tools, "pages": pages, "decode_ms": srv.decode_s * 1e3}


def sizes(tools, budget):
    per = [(t.get("name", "?"), compact(t),
            compact(t["inputSchema"]) if "inputSchema" in t else None,
            compact(t["outputSchema"]) if "outputSchema" in t else None) for t in tools]

    def biggest(i):
        return max(((p[i], p[0]) for p in per if p[i] is not None), default=(0, "—"))
    over = lambda n: n is not None and n > budget
    return {
        "tools": len(per),
        "bytes": sum(p[1] for p in per),
        "in": biggest(2),
        "out": biggest(3),
        "over_in": sum(1 for p in per if over(p[2])),
        "over_out": sum(1 for p in per if over(p[3])),
        "over_any": sum(1 for p in per if over(p[2]) or over(p[3])),
    }


def med(runs, field):
    ok = [r[field] for r in runs if "error" not in r]
    return statistics.median(ok) if ok else None


def summary(runs):
    """(ms, kb, note) from the successful runs; the error if none."""
    ok = [r for r in runs if "error" not in r]
    if not ok:
        return None, None, runs[-1]["error"] if runs else "not run"
    note = "" if len(ok) == len(runs) else f"{len(runs) - len(ok)} of {len(runs)} failed: {runs[-1].get('error', '')}"
    return med(ok, "ms"), med(ok, "kb"), note


def mb(n):
    return f"{n / 1e6:.1f} MB" if n >= 100_000 else f"{n / 1e3:.1f} kB"


def evict(binary):
    """Drops `binary`'s pages from the page cache, so that every binary is
    read back the same way. A binary just linked or copied sits in the page
    cache in large folios, which are mapped whole into the process: its
    peak RSS then counts up to 3 MB more of its own code (RssFile) than the
    same binary read back from disk, with nothing else different."""
    try:
        fd = os.open(binary, os.O_RDONLY)
    except OSError:
        return
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


def main():
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--docs", default="github,graph,graph-beta")
    ap.add_argument("--budget", type=int, default=2048, help="per-schema budget B in compact bytes")
    ap.add_argument("--timeout", type=float, default=180)
    ap.add_argument("--vmem-kb", type=int, default=12_000_000, help="ulimit -v for serve and list (0: none)")
    ap.add_argument("--bin", default=os.environ.get("OPENAPI2MCP_BIN", "target/release/openapi2mcp"))
    ap.add_argument("--vs", action="append", default=[], metavar="PATH=LABEL",
                    help="another binary served in the same rounds (e.g. main's build), its rows labelled")
    ap.add_argument("--modes", default="", help="listing modes to serve in, comma-separated (--tools MODE)")
    ap.add_argument("--no-list", action="store_true", help="skip `list --json`")
    ap.add_argument("--json", help="write the raw runs here")
    ap.add_argument("--from-json", help="only print the tables of a file written by --json")
    a = ap.parse_args(argv)
    if a.from_json:
        with open(a.from_json) as f:
            saved = json.load(f)
        for doc, r in saved.items():
            a.runs, a.budget, a.bin = r.get("n_runs", a.runs), r.get("budget", a.budget), r.get("bin", a.bin)
            report(doc, DOCS[doc], r["runs"], r["sizes"], r.get("src", "serve"), a, r.get("extra", extra))
        return
    docs = a.docs.split(",")
    for d in docs:
        if d not in DOCS:
            ap.error(f"unknown document {d}: one of {', '.join(DOCS)}")
    bin_ = a.bin if os.path.isabs(a.bin) else os.path.join(ROOT, a.bin)
    others = []
    for vs in a.vs:
        path, _, label = vs.partition("=")
        others.append((path if os.path.isabs(path) else os.path.join(ROOT, path), label or path))
    out_dir = tempfile.mkdtemp(prefix="bench-scale-")
    log = lambda *m: print(*m, file=sys.stderr, flush=True)
    for b in [bin_] + [b for b, _ in others]:
        evict(b)
    raw = {}
    for doc in docs:
        path = DOCS[doc]
        modes = [m for m in a.modes.split(",") if m] or [None]
        # (binary, mode, key): this binary first, then each --vs binary.
        cases = [(bin_, m, "serve" if m is None else f"serve:{m}") for m in modes]
        cases += [(b, m, ("serve" if m is None else f"serve:{m}") + f"@{label}")
                  for b, label in others for m in modes]
        res = {"node": [], "list": [], **{k: [] for _, _, k in cases}}
        tools = None
        list_out = os.path.join(out_dir, f"{doc}.list.json")
        for i in range(a.runs):
            r = timed(["node", "-e", NODE_PARSE, path], a.timeout, 0, os.devnull)
            res["node"].append(r)
            log(f"{doc} run {i + 1}/{a.runs} node: "
                + (r.get("error") or f"{r['ms']:.0f} ms {r['kb'] // 1024} MB"))
            for binary, mode, key in cases:
                # a case that failed once (timeout, memory cap) is not run again
                if res[key] and "error" in res[key][-1]:
                    continue
                args = extra if mode is None else ["--tools", mode, *extra]
                r = serve_once(binary, path, args, a.timeout, a.vmem_kb)
                listed = r.pop("tools", None)
                if binary != bin_:
                    listed = None
                # The sizes are those of the fullest list served.
                if listed is not None and (tools is None or len(listed) > len(tools)):
                    tools = listed
                res[key].append(r)
                log(f"{doc} run {i + 1}/{a.runs} {key}: " + (r.get("error") or
                    f"{r['ms']:.0f} ms {r['kb'] // 1024} MB, {r['pages']} pages, "
                    f"client decode {r['decode_ms']:.0f} ms"))
            if not a.no_list and not (res["list"] and "error" in res["list"][-1]):
                r = timed([bin_, "list", "--json", "-q", path, *extra], a.timeout, a.vmem_kb, list_out)
                res["list"].append(r)
                log(f"{doc} run {i + 1}/{a.runs} list: "
                    + (r.get("error") or f"{r['ms']:.0f} ms {r['kb'] // 1024} MB, {r['bytes']:,} B"))
        src = "serve"
        if tools is None and res["list"] and "error" not in res["list"][-1]:
            with open(list_out, "rb") as f:
                tools = json.load(f)
            src = "list --json"
        try:
            os.remove(list_out)
        except OSError:
            pass
        size = sizes(tools, a.budget) if tools is not None else None
        raw[doc] = {"runs": res, "sizes": size, "src": src, "n_runs": a.runs, "budget": a.budget,
                    "bin": a.bin, "extra": extra}
        report(doc, path, res, size, src, a, extra)
    os.rmdir(out_dir)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(raw, f, indent=1)


def report(doc, path, res, size, src, a, extra):
    t_time, t_rss, t_bytes, t_budget = TARGETS[doc]
    n_ms, n_kb, n_note = summary(res["node"])
    print(f"\n#### {doc}: `{path}`\n")
    modes = ", ".join(k.split(":")[1] for k in res if k.startswith("serve:") and "@" not in k) or "(default)"
    print(f"Binary `{a.bin}`, extra arguments: "
          f"`{' '.join(extra) or '(none)'}`, listing modes: {modes}; {a.runs} run(s), medians; "
          f"budget B = {a.budget} B.\n")
    print("| case | time | × node time | peak RSS | × node RSS | output | target |")
    print("|---|---|---|---|---|---|---|")
    rows = [("node `JSON.parse(readFileSync)`", "node", "", None)]
    for key in [k for k in res if k.startswith("serve")]:
        plain, _, label = key.partition("@")
        mode = plain.split(":")[1] if ":" in plain else None
        tt, tr = MODE_TARGETS.get((doc, mode), (t_time, t_rss))
        target = f"≤ {tt}× time, ≤ {tr}× RSS"
        named = "`serve`" if mode is None else f"`serve --tools {mode}`"
        if label:
            named = f"{label}: {named}"
        rows.append((f"{named} (stdio, spawn → last tools/list page)", key, target, (tt, tr)))
        rows.append((f"{named}, less the client's own JSON decoding", key + "-server", target, (tt, tr)))
        for r in res[key]:
            if "error" not in r:
                r.setdefault("server_ms", r["ms"] - r["decode_ms"])
    if res.get("list"):
        rows.append(("`list --json -q`", "list", "", None))
    for label, key, target, limits in rows:
        base = key[:-len("-server")] if key.endswith("-server") else key
        ms, kb, note = summary(res[base])
        if key.endswith("-server"):
            ms = med(res[base], "server_ms")
        if ms is None:
            print(f"| {label} | {note} | — | — | — | — | {target} |")
            continue
        rt = f"{ms / n_ms:.2f}" if n_ms else "—"
        rr = f"{kb / n_kb:.2f}" if n_kb else "—"
        if limits and n_ms:
            rt += " ✓" if ms / n_ms <= limits[0] else " ✗"
            rr += " ✓" if kb / n_kb <= limits[1] else " ✗"
        out = ""
        if key.startswith("serve") and not key.endswith("-server"):
            ok = [r for r in res[base] if "error" not in r]
            out = f"{ok[-1]['pages']} pages"
        elif key.endswith("-server"):
            out, note = "same process", ""
        elif key == "list":
            out = f"{mb(med(res['list'], 'bytes'))}"
        if note:
            out += f" ({note})"
        print(f"| {label} | {ms:,.0f} ms | {rt} | {kb / 1024:,.0f} MB | {rr} | {out} | {target} |")
    if size is None:
        print("\nNo tool list (serve and list both failed).")
        return
    ok = lambda c: " ✓" if c else " ✗"
    big = lambda b: f"{mb(b[0])} (`{b[1]}`)" if b[0] else "none"
    tb = f" (target ≤ {mb(t_bytes)}{ok(size['bytes'] <= t_bytes)})" if t_bytes else ""
    print(f"\nTool list (from {src}): {size['tools']:,} tools, {mb(size['bytes'])} as compact JSON{tb}; "
          f"largest inputSchema {big(size['in'])}, largest outputSchema {big(size['out'])}; "
          f"over B = {a.budget} B: {size['over_in']:,} inputSchemas, {size['over_out']:,} outputSchemas, "
          f"{size['over_any']:,} tools (target 0{ok(size['over_any'] == 0)}).")
    decs = [med(res[k], "decode_ms") for k in res if k.startswith("serve")]
    dec = max((d for d in decs if d is not None), default=None)
    if dec is not None:
        print(f"The serve wall time includes up to {dec:,.0f} ms (median) of the client's own JSON decoding "
              "of the pages (Python's json), during which the server waits for the next request.")


if __name__ == "__main__":
    main()
