#!/usr/bin/env node
// HTTP load benchmark (issue #48 item 4): one tool call, GitHub's
// GET /repos/{owner}/{repo} (`repos/get`), through each server under test to
// one local backend (bench/http-load-backend.mjs, ~5 KB JSON), at 1, 8 and 64
// calls in flight, side by side in one run:
//
//   direct     the load client GETs the backend itself: the floor
//   stdio      openapi2mcp over stdio, raw JSON-RPC; N in flight = N requests
//              outstanding on the one session (pipelined, matched by id)
//   http       openapi2mcp, stateful streamable HTTP: N sessions, one call
//              outstanding in each (what N agents do); also one session with
//              N calls outstanding (over N connections), at 8 and 64
//   stateless  openapi2mcp --stateless: N clients, no session
//   mcp-openapi-server (--verbose false, and again with its default logging),
//   fastmcp (FastMCP.from_openapi), openapi-mcp-generator: the peers
//              bench/http-load.sh installed into target/bench-peers, each in
//              its default HTTP mode, N sessions as for `http`
//
// The server keys for --only: direct, stdio, http (runs http and http-1s),
// stateless, mcp-openapi-server, mcp-openapi-server-verbose, fastmcp,
// openapi-mcp-generator. Each tool is found in the server's own tools/list.
//
// Every server is started fresh in every round; rounds go round-robin over the
// servers (the order rotated each round) so drift of a shared machine hits
// all alike, and the table gives the median of the rounds. Each point: a
// warm-up (--warmup calls, at most 3 s), then --duration seconds of calls:
// calls/s (successful calls / wall time), latency p50/p99, errors, the server's
// CPU per call (utime+stime of its process tree from /proc, so a server that
// forks is counted whole), the backend's and this client's own CPU per call,
// and the machine's other work while measuring (/proc/stat less those three).
// Each result is checked: a JSON-RPC result, not isError, carrying the
// backend's marker (and every 32nd one parsed in full), so a server answering
// errors counts errors, not speed.
//
// Runs nothing but these processes on 127.0.0.1. Run through
// bench/http-load.sh (which installs the document and the peers); directly:
//   node bench/http-load.mjs [--bin PATH] [--rounds 3] [--duration 5]
//     [--warmup 200] [--inflight 1,8,64] [--only direct,stdio,http,...]
//     [--peers-dir target/bench-peers] [--json FILE] [--md FILE]
//     [--report FILE]       print the tables of a saved --json, measuring nothing
//     [--wait-quiet SECS]   before each server, wait up to SECS (2 minutes in
//                           all) for 2 s in which the machine is busy < 0.25
//                           core (a machine shared with builds)
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, "..");
const MARKER = "bench-marker-48";
const PROTOCOL = "2025-06-18";
const TICK_MS = 10; // USER_HZ is 100 on Linux
const MAX_LIFE_S = 1800; // `timeout` bound on every child: nothing outlives a run

// ---------------------------------------------------------------- options
const opts = {
  bin: "/tmp/o2m-bench-bin",
  doc: path.join(ROOT, "tests/external/node_modules/@octokit/openapi/generated/api.github.com.json"),
  rounds: 3,
  duration: 5,
  warmup: 200,
  inflight: [1, 8, 64],
  only: null,
  peersDir: path.join(ROOT, "target/bench-peers"),
  json: null,
  md: null,
  startTimeout: 120,
  waitQuiet: 0,
  callTimeout: 30,
};
{
  const a = process.argv.slice(2);
  for (let i = 0; i < a.length; i++) {
    const k = a[i];
    const v = () => {
      if (i + 1 >= a.length) throw new Error(`${k} needs a value`);
      return a[++i];
    };
    if (k === "--bin") opts.bin = path.resolve(v());
    else if (k === "--doc") opts.doc = path.resolve(v());
    else if (k === "--rounds") opts.rounds = Number(v());
    else if (k === "--duration") opts.duration = Number(v());
    else if (k === "--warmup") opts.warmup = Number(v());
    else if (k === "--inflight") opts.inflight = v().split(",").map(Number);
    else if (k === "--only") opts.only = new Set(v().split(","));
    else if (k === "--peers-dir") opts.peersDir = path.resolve(v());
    else if (k === "--json") opts.json = path.resolve(v());
    else if (k === "--md") opts.md = path.resolve(v());
    else if (k === "--start-timeout") opts.startTimeout = Number(v());
    else if (k === "--wait-quiet") opts.waitQuiet = Number(v());
    else if (k === "--report") opts.report = path.resolve(v());
    else if (k === "--call-timeout") opts.callTimeout = Number(v());
    else if (k === "-h" || k === "--help") {
      console.log(fs.readFileSync(fileURLToPath(import.meta.url), "utf8").split("\nimport ")[0]);
      process.exit(0);
    } else throw new Error(`unknown argument ${k}`);
  }
}
const log = (...m) => console.error(...m);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

// ---------------------------------------------------------------- children
const children = new Set();
function killAll(sig = "SIGTERM") {
  for (const c of children) {
    try {
      c.kill(sig);
    } catch {}
  }
}
process.on("exit", () => killAll("SIGKILL"));
for (const s of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(s, () => {
    log(`\n${s}: stopping children`);
    killAll("SIGTERM");
    setTimeout(() => process.exit(130), 300);
  });
}

const logDir = path.join(opts.peersDir, "logs");
fs.mkdirSync(logDir, { recursive: true });

/** Spawns argv under `timeout` (so nothing outlives MAX_LIFE_S), stderr (and
 * stdout unless piped) to a log file. */
function start(name, argv, { env, pipeStdio = false, cwd, devNull = false } = {}) {
  const logFile = devNull ? "/dev/null" : path.join(logDir, `${name}.log`);
  const fd = fs.openSync(logFile, "w");
  const child = spawn("timeout", ["-k", "5", String(MAX_LIFE_S), ...argv], {
    cwd: cwd ?? ROOT,
    env: { ...process.env, ...env },
    stdio: pipeStdio ? ["pipe", "pipe", fd] : ["ignore", fd, fd],
  });
  fs.closeSync(fd);
  children.add(child);
  child.exited = new Promise((r) => child.on("exit", (code, sig) => r({ code, sig })));
  child.exited.then(() => children.delete(child));
  child.logFile = logFile;
  return child;
}

async function stop(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  const t = setTimeout(() => child.kill("SIGKILL"), 5000);
  await child.exited;
  clearTimeout(t);
}

function tail(file, n = 1200) {
  try {
    const s = fs.readFileSync(file, "utf8");
    return s.slice(-n).trim();
  } catch {
    return "";
  }
}

async function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
    s.on("error", reject);
  });
}

// ---------------------------------------------------------------- /proc CPU
function readStat(pid) {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const r = s.slice(s.lastIndexOf(")") + 2).split(" ");
    // fields 4 ppid, 14 utime, 15 stime, 16 cutime, 17 cstime (1-based)
    return { ppid: Number(r[1]), ticks: Number(r[11]) + Number(r[12]) + Number(r[13]) + Number(r[14]) };
  } catch {
    return null;
  }
}
/** Busy CPU ticks of the whole machine (/proc/stat: all but idle and iowait). */
function machineTicks() {
  const f = fs.readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
  return f[0] + f[1] + f[2] + f[5] + f[6] + f[7];
}
/** CPU ticks of pid and every descendant, keyed by pid. */
function treeTicks(root) {
  const byParent = new Map();
  const stats = new Map();
  for (const e of fs.readdirSync("/proc")) {
    if (e.charCodeAt(0) < 48 || e.charCodeAt(0) > 57) continue;
    const st = readStat(e);
    if (!st) continue;
    stats.set(Number(e), st);
    if (!byParent.has(st.ppid)) byParent.set(st.ppid, []);
    byParent.get(st.ppid).push(Number(e));
  }
  const out = new Map();
  const walk = (p) => {
    const st = stats.get(p);
    if (!st) return;
    out.set(p, st.ticks);
    for (const c of byParent.get(p) ?? []) walk(c);
  };
  walk(root);
  return out;
}
/** ms of CPU between two treeTicks snapshots (processes that started in
 * between count whole; ones that ended in between are lost). */
function cpuDeltaMs(a, b) {
  let t = 0;
  for (const [pid, ticks] of b) t += ticks - (a.get(pid) ?? 0);
  return t * TICK_MS;
}

// ---------------------------------------------------------------- results
let globalId = 1000; // unique across sessions (mcp-openapi-server keys pending requests by id alone)
const PRE = '{"jsonrpc":"2.0","id":';
/** The JSON-RPC id of a response text, cheaply: at its start (rmcp, FastMCP)
 * or as its last member (the TypeScript SDK); else by parsing it. */
function fastId(t) {
  if (t.startsWith(PRE)) {
    let i = PRE.length;
    let n = 0;
    let c;
    while ((c = t.charCodeAt(i)) >= 48 && c <= 57) {
      n = n * 10 + c - 48;
      i++;
    }
    if (i > PRE.length) return n;
  }
  let j = t.length - 1;
  while (j > 0 && t.charCodeAt(j) <= 32) j--;
  if (t.charCodeAt(j) === 125) {
    let k = j - 1;
    let n = 0;
    let m = 1;
    let c;
    while ((c = t.charCodeAt(k)) >= 48 && c <= 57) {
      n += (c - 48) * m;
      m *= 10;
      k--;
    }
    if (k < j - 1 && t.startsWith('"id":', k - 4)) return n;
  }
  try {
    return JSON.parse(t).id;
  } catch {
    return undefined;
  }
}

let checkCount = 0;
/** Throws unless the response text is a successful tools/call result carrying
 * the backend's repository. Cheap test on every call; every 32nd parsed. */
function checkToolResult(t) {
  if (!t.includes(MARKER) || t.includes('"isError":true')) throw new Error(`bad result: ${t.slice(0, 300)}`);
  if (++checkCount % 32 === 0) {
    const o = JSON.parse(t);
    const r = o.result;
    if (!r || o.error || r.isError) throw new Error(`bad result: ${t.slice(0, 300)}`);
    let ok = typeof r.structuredContent?.description === "string" && r.structuredContent.description.includes(MARKER);
    for (const c of r.content ?? []) {
      if (c.type === "text" && c.text.includes(MARKER)) {
        const repo = JSON.parse(c.text);
        if (repo.full_name === "octocat/Hello-World") ok = true;
      }
    }
    if (!ok) throw new Error(`result without the repository: ${t.slice(0, 300)}`);
  }
}

// ---------------------------------------------------------------- SSE
class SseParser {
  constructor(onData) {
    this.buf = "";
    this.scan = 0; // where the search for the next blank line resumes
    this.cr = false; // the last chunk ended with a CR
    this.onData = onData;
  }
  feed(chunk) {
    if (this.cr) chunk = "\r" + chunk;
    this.cr = chunk.endsWith("\r");
    if (this.cr) chunk = chunk.slice(0, -1);
    if (chunk.includes("\r")) chunk = chunk.replace(/\r\n/g, "\n");
    this.buf += chunk;
    let i;
    while ((i = this.buf.indexOf("\n\n", this.scan)) >= 0) {
      const ev = this.buf.slice(0, i);
      this.buf = this.buf.slice(i + 2);
      this.scan = 0;
      let data = null;
      for (const line of ev.split("\n")) {
        if (line.startsWith("data:")) {
          const d = line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5);
          data = data === null ? d : data + "\n" + d;
        }
      }
      if (data) this.onData(data);
    }
    this.scan = Math.max(0, this.buf.length - 1);
  }
}

/** One keep-alive HTTP/1.1 connection to 127.0.0.1:port, one request at a
 * time (no pipelining), with a minimal response parser (content-length,
 * chunked, or until close): about half the CPU per call of node:http's
 * client, which matters when client, server and backend share 2 cores.
 * Text is handled as latin1 (bytes = characters, so lengths hold); callers
 * that need the UTF-8 text convert it (utf8()). */
class Conn {
  constructor(port) {
    this.port = port;
    this.sock = null;
    this.cur = null;
    this.buf = "";
  }
  connect() {
    const s = net.connect(this.port, "127.0.0.1");
    s.setNoDelay(true);
    s.setEncoding("latin1");
    s.on("data", (c) => {
      if (!this.cur || this.sock !== s) return;
      this.buf += c;
      this.parse();
    });
    s.on("error", (e) => {
      if (this.sock === s) this.fail(e);
    });
    s.on("close", () => {
      if (this.sock !== s) return; // an old socket, already given up
      this.sock = null;
      const r = this.cur;
      if (r && r.state === 3) this.finish();
      else if (r) this.fail(new Error("connection closed"));
    });
    this.sock = s;
  }
  /** Sends a whole request (head and body); cb: {head(status, headers), body(text), end(), error(e)}. */
  send(text, cb) {
    if (!this.sock || this.sock.destroyed) this.connect();
    this.cur = { cb, state: 0, left: 0, t0: Date.now(), headers: null };
    this.buf = "";
    this.sock.write(text, "latin1");
  }
  parse() {
    const r = this.cur;
    while (this.cur === r) {
      if (r.state === 0) {
        const i = this.buf.indexOf("\r\n\r\n");
        if (i < 0) return;
        const head = this.buf.slice(0, i);
        this.buf = this.buf.slice(i + 4);
        r.status = Number(head.slice(9, 12));
        const h = {};
        for (const line of head.split("\r\n").slice(1)) {
          const c = line.indexOf(":");
          if (c > 0) h[line.slice(0, c).toLowerCase()] = line.slice(c + 1).trim();
        }
        r.headers = h;
        if (r.status >= 100 && r.status < 200) continue; // an interim answer: the real head follows
        r.cb.head?.(r.status, h);
        if ((h["transfer-encoding"] ?? "").toLowerCase().includes("chunked")) r.state = 2;
        else if (h["content-length"] !== undefined) {
          r.left = Number(h["content-length"]);
          r.state = 1;
          if (r.left === 0) return this.finish();
        } else if (r.status === 204 || r.status === 304) return this.finish();
        else r.state = 3; // until the connection closes
      } else if (r.state === 1 || r.state === 4) {
        if (!this.buf.length) return;
        const take = Math.min(r.left, this.buf.length);
        r.cb.body(take === this.buf.length ? this.buf : this.buf.slice(0, take));
        this.buf = take === this.buf.length ? "" : this.buf.slice(take);
        r.left -= take;
        if (r.left > 0) return;
        if (r.state === 1) return this.finish();
        r.state = 6; // the CRLF after a chunk
      } else if (r.state === 6) {
        if (this.buf.length < 2) return;
        this.buf = this.buf.slice(2);
        r.state = 2;
      } else if (r.state === 2) {
        const i = this.buf.indexOf("\r\n");
        if (i < 0) return;
        const size = parseInt(this.buf.slice(0, i), 16);
        this.buf = this.buf.slice(i + 2);
        if (Number.isNaN(size)) return this.fail(new Error("bad chunk size"));
        if (size === 0) r.state = 5;
        else {
          r.left = size;
          r.state = 4;
        }
      } else if (r.state === 5) {
        const i = this.buf.indexOf("\r\n");
        if (i < 0) return;
        const line = this.buf.slice(0, i);
        this.buf = this.buf.slice(i + 2);
        if (line === "") return this.finish();
      } else if (r.state === 3) {
        if (this.buf.length) r.cb.body(this.buf);
        this.buf = "";
        return;
      }
    }
  }
  finish() {
    const r = this.cur;
    this.cur = null;
    if ((r.headers?.connection ?? "").toLowerCase() === "close" || r.state === 3) {
      this.sock?.destroy();
      this.sock = null;
    }
    r.cb.end();
  }
  fail(e) {
    const r = this.cur;
    this.cur = null;
    this.sock?.destroy();
    this.sock = null;
    r?.cb.error(e);
  }
  /** Fails a request older than the call timeout. */
  sweep(now) {
    if (this.cur && now - this.cur.t0 > opts.callTimeout * 1000 && !this.cur.stream) this.fail(new Error("timeout"));
  }
  close() {
    this.cur = null;
    this.sock?.destroy();
    this.sock = null;
  }
}
const utf8 = (latin1) => Buffer.from(latin1, "latin1").toString("utf8");

// ---------------------------------------------------------------- HTTP MCP client
const callArgs = { owner: "octocat", repo: "Hello-World" };

class HttpMcp {
  /** One MCP client over streamable HTTP: a session (unless stateless), its
   * own keep-alive connections (at most `sockets`), and for servers that send
   * results on the session's GET stream (getStream), that stream. */
  constructor(port, { stateless = false, sockets = 1, getStream = false } = {}) {
    this.port = port;
    this.stateless = stateless;
    this.getStream = getStream;
    this.sockets = sockets;
    this.conns = [];
    this.idle = [];
    this.waiters = [];
    this.sid = null;
    this.streamPending = new Map(); // id -> {resolve, reject, t0}
    this.tool = null;
    this.prefix = null;
  }
  acquire(f) {
    const c = this.idle.pop();
    if (c) return f(c);
    if (this.conns.length < this.sockets) {
      const n = new Conn(this.port);
      this.conns.push(n);
      return f(n);
    }
    this.waiters.push(f);
  }
  release(c) {
    const w = this.waiters.shift();
    if (w) w(c);
    else this.idle.push(c);
  }
  head(len) {
    if (!this.prefix || this.prefixSid !== this.sid || this.prefixInit !== this.initialized) {
      this.prefix =
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${this.port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
        (this.sid ? `Mcp-Session-Id: ${this.sid}\r\n` : "") +
        (this.initialized || this.stateless ? `Mcp-Protocol-Version: ${PROTOCOL}\r\n` : "");
      this.prefixSid = this.sid;
      this.prefixInit = this.initialized;
    }
    return `${this.prefix}Content-Length: ${len}\r\n\r\n`;
  }
  /** POSTs one JSON-RPC message; resolves with the response text (latin1),
   * or "" for a notification's 202. */
  post(body, id) {
    return new Promise((resolve, reject) => {
      let done = false;
      const ok = (v) => {
        if (!done) {
          done = true;
          if (id != null) this.streamPending.delete(id);
          resolve(v);
        }
      };
      const fail = (e) => {
        if (!done) {
          done = true;
          if (id != null) this.streamPending.delete(id);
          reject(e);
        }
      };
      if (this.stream && id != null) this.streamPending.set(id, { resolve: ok, reject: fail, t0: Date.now() });
      const text = this.head(Buffer.byteLength(body)) + body;
      this.acquire((conn) => {
        let status = 0;
        let sse = null;
        let t = "";
        conn.send(text, {
          head: (st, h) => {
            status = st;
            if (h["mcp-session-id"] && !this.sid) this.sid = h["mcp-session-id"];
            if (st === 200 && (h["content-type"] ?? "").startsWith("text/event-stream"))
              sse = new SseParser((d) => {
                if (fastId(d) === id) ok(d);
              });
          },
          body: (c) => (sse ? sse.feed(c) : (t += c)),
          end: () => {
            this.release(conn);
            if (status === 202) {
              if (id == null) ok("");
              else if (!this.stream) fail(new Error("202 to a request, and no GET stream"));
              // else: the answer comes on the GET stream
            } else if (status !== 200) fail(new Error(`HTTP ${status}: ${t.slice(0, 200)}`));
            else if (sse) fail(new Error("event stream ended without the response"));
            else ok(t);
          },
          error: (e) => {
            this.release(conn);
            fail(e);
          },
        });
      });
    });
  }
  request(method, params) {
    const id = globalId++;
    return this.post(JSON.stringify({ jsonrpc: "2.0", id, method, params }), id);
  }
  async init() {
    if (this.stateless) return;
    const t = await this.request("initialize", { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: "http-load", version: "1" } });
    if (!t.includes('"result"')) throw new Error(`initialize: ${t.slice(0, 200)}`);
    if (!this.sid) throw new Error("initialize: no Mcp-Session-Id");
    this.initialized = true;
    if (this.getStream) this.openStream();
    await this.post(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), null);
  }
  openStream() {
    const conn = new Conn(this.port);
    this.streamConn = conn;
    const p = new SseParser((d) => {
      const e = this.streamPending.get(fastId(d));
      if (e) e.resolve(d);
    });
    const gone = (e) => {
      for (const x of this.streamPending.values()) x.reject(e);
    };
    conn.send(
      `GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:${this.port}\r\nAccept: text/event-stream\r\nMcp-Session-Id: ${this.sid}\r\nMcp-Protocol-Version: ${PROTOCOL}\r\n\r\n`,
      {
        head: (st) => {
          if (st !== 200) gone(new Error(`GET stream: HTTP ${st}`));
        },
        body: (c) => p.feed(c),
        end: () => gone(new Error("GET stream ended")),
        error: gone,
      },
    );
    conn.cur.stream = true;
    this.stream = conn;
  }
  /** Fails calls older than the call timeout. */
  sweep(now) {
    for (const c of this.conns) c.sweep(now);
    for (const e of this.streamPending.values()) if (now - e.t0 > opts.callTimeout * 1000) e.reject(new Error("timeout"));
  }
  async call() {
    checkToolResult(await this.request("tools/call", { name: this.tool, arguments: callArgs }));
  }
  close() {
    for (const c of this.conns) c.close();
    this.streamConn?.close();
  }
}

// ---------------------------------------------------------------- stdio MCP client
class StdioMcp {
  constructor(child) {
    this.child = child;
    this.pending = new Map();
    this.buf = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (c) => {
      this.buf += c;
      let i;
      while ((i = this.buf.indexOf("\n")) >= 0) {
        const line = this.buf.slice(0, i);
        this.buf = this.buf.slice(i + 1);
        if (!line) continue;
        const e = this.pending.get(fastId(line));
        if (e) {
          this.pending.delete(e.id);
          e.resolve(line);
        }
      }
    });
    child.exited.then(() => {
      for (const e of this.pending.values()) e.reject(new Error("server exited"));
      this.pending.clear();
    });
    child.stdin.on("error", () => {});
  }
  request(method, params) {
    const id = globalId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { id, resolve, reject, t0: Date.now() });
      this.child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
    });
  }
  notify(method) {
    this.child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method }) + "\n");
  }
  sweep(now) {
    for (const e of this.pending.values())
      if (now - e.t0 > opts.callTimeout * 1000) {
        this.pending.delete(e.id);
        e.reject(new Error("timeout"));
      }
  }
  async call() {
    checkToolResult(await this.request("tools/call", { name: this.tool, arguments: callArgs }));
  }
}

// ---------------------------------------------------------------- direct floor
class Direct {
  constructor(port) {
    this.conn = new Conn(port);
    this.req = `GET /repos/octocat/Hello-World HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: application/json\r\n\r\n`;
  }
  call() {
    return new Promise((resolve, reject) => {
      let status = 0;
      let t = "";
      this.conn.send(this.req, {
        head: (st) => (status = st),
        body: (c) => (t += c),
        end: () => (status === 200 && t.includes(MARKER) ? resolve() : reject(new Error(`HTTP ${status}: ${t.slice(0, 200)}`))),
        error: reject,
      });
    });
  }
  sweep(now) {
    this.conn.sweep(now);
  }
  close() {
    this.conn.close();
  }
}

// ---------------------------------------------------------------- tool lookup
const docText = fs.readFileSync(opts.doc, "utf8");
const REPOS_GET_SENTENCE = (() => {
  const d = JSON.parse(docText).paths["/repos/{owner}/{repo}"].get.description;
  return d.split(". ")[0];
})();
/** Finds the tool for operationId repos/get in a server's tools/list: the one
 * whose description carries that operation's first sentence (no other
 * operation of the document has it) and whose input has owner and repo. */
async function findTool(client) {
  const tools = [];
  let cursor;
  for (let page = 0; page < 200; page++) {
    const t = await client.request("tools/list", cursor ? { cursor } : {});
    const r = JSON.parse(client instanceof HttpMcp ? utf8(t) : t).result;
    if (!r) throw new Error(`tools/list: ${t.slice(0, 200)}`);
    tools.push(...r.tools);
    cursor = r.nextCursor;
    if (!cursor) break;
  }
  const hits = tools.filter((x) => (x.description ?? "").includes(REPOS_GET_SENTENCE) && x.inputSchema?.properties?.owner && x.inputSchema?.properties?.repo);
  if (hits.length !== 1) throw new Error(`tools/list (${tools.length} tools): ${hits.length} tools for repos/get (${hits.map((h) => h.name).join(", ")})`);
  return { name: hits[0].name, count: tools.length };
}

// ---------------------------------------------------------------- servers
async function waitHttpInit(port, child, stateless, getStream) {
  const t0 = Date.now();
  let last = "";
  while (Date.now() - t0 < opts.startTimeout * 1000) {
    if (child.exitCode !== null || child.signalCode !== null) {
      const t = tail(child.logFile, 4000);
      const first = t.split("\n").find((l) => /Error\b|error:/.test(l)) ?? t.slice(-400);
      throw new Error(`exited (${child.exitCode ?? child.signalCode}) after ${last ? `"${last}"` : "starting"}: ${first.trim()}`);
    }
    const c = new HttpMcp(port, { stateless, getStream });
    try {
      if (stateless) {
        const t = await c.request("tools/list", {});
        if (!t.includes('"result"')) throw new Error(t.slice(0, 200));
      } else await c.init();
      return c;
    } catch (e) {
      last = e.message;
      c.close();
      await sleep(200);
    }
  }
  throw new Error(`not ready after ${opts.startTimeout} s (${last})`);
}

const peers = opts.peersDir;
const TARGETS = [
  {
    key: "direct",
    label: "direct floor (client → backend)",
    transport: "HTTP/1.1 GET, keep-alive",
    async start() {
      return { child: null, makeClients: (n) => Array.from({ length: n }, () => new Direct(backendPort)) };
    },
    modes: [{ key: "direct", label: "", clients: (s, n) => s.makeClients(n) }],
  },
  {
    key: "stdio",
    label: "openapi2mcp",
    transport: "stdio",
    async start() {
      const child = start("openapi2mcp-stdio", [opts.bin, "serve", opts.doc, "--tools", "full", "--base-url", backendUrl, "-q"], { pipeStdio: true });
      const c = new StdioMcp(child);
      const to = setTimeout(() => c.sweep(Date.now() + opts.startTimeout * 1000), opts.startTimeout * 1000);
      try {
        await c.request("initialize", { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: "http-load", version: "1" } });
      } catch (e) {
        throw new Error(`${e.message}: ${tail(child.logFile, 600)}`);
      } finally {
        clearTimeout(to);
      }
      c.notify("notifications/initialized");
      return { child, setup: c };
    },
    // N in flight on the one session: N workers sharing it
    modes: [{ key: "stdio", label: "1 session, N pipelined", clients: (s, n) => Array.from({ length: n }, () => s.setup) }],
  },
  {
    key: "http",
    label: "openapi2mcp",
    transport: "streamable HTTP, stateful",
    async start() {
      const port = await freePort();
      const child = start("openapi2mcp-http", [opts.bin, "serve", opts.doc, "--tools", "full", "--transport", "http", "--listen", `127.0.0.1:${port}`, "--base-url", backendUrl, "-q"]);
      return { child, port, setup: await waitHttpInit(port, child, false) };
    },
    modes: [
      { key: "http", label: "N sessions × 1", clients: (s, n) => sessions(s.port, n, {}) },
      { key: "http-1s", label: "1 session × N", minN: 2, clients: (s, n) => oneSession(s.port, n, {}) },
    ],
  },
  {
    key: "stateless",
    label: "openapi2mcp --stateless",
    transport: "streamable HTTP, stateless",
    async start() {
      const port = await freePort();
      const child = start("openapi2mcp-stateless", [opts.bin, "serve", opts.doc, "--tools", "full", "--transport", "http", "--stateless", "--listen", `127.0.0.1:${port}`, "--base-url", backendUrl, "-q"]);
      return { child, port, setup: await waitHttpInit(port, child, true) };
    },
    modes: [{ key: "stateless", label: "N clients", clients: (s, n) => sessions(s.port, n, { stateless: true }) }],
  },
  {
    key: "mcp-openapi-server",
    label: "mcp-openapi-server",
    transport: "its streamable HTTP, stateful (results on the GET stream)",
    peer: true,
    async start() {
      const main = path.join(peers, "npm/node_modules/@ivotoby/openapi-mcp-server/bin/mcp-server.js");
      if (!fs.existsSync(main)) throw new Error("not installed");
      const port = await freePort();
      const child = start("mcp-openapi-server", ["node", main, "--transport", "http", "--host", "127.0.0.1", "--port", String(port), "--api-base-url", backendUrl, "--openapi-spec", opts.doc, "--verbose", "false"]);
      return { child, port, setup: await waitHttpInit(port, child, false, true) };
    },
    modes: [{ key: "mcp-openapi-server", label: "N sessions × 1", clients: (s, n) => sessions(s.port, n, { getStream: true }) }],
  },
  {
    key: "mcp-openapi-server-verbose",
    label: "mcp-openapi-server, default logging",
    transport: "the same; its default --verbose true (every message logged to stderr, here /dev/null)",
    peer: true,
    async start() {
      const main = path.join(peers, "npm/node_modules/@ivotoby/openapi-mcp-server/bin/mcp-server.js");
      if (!fs.existsSync(main)) throw new Error("not installed");
      const port = await freePort();
      const child = start("mcp-openapi-server-verbose", ["node", main, "--transport", "http", "--host", "127.0.0.1", "--port", String(port), "--api-base-url", backendUrl, "--openapi-spec", opts.doc], { devNull: true });
      return { child, port, setup: await waitHttpInit(port, child, false, true) };
    },
    modes: [{ key: "mcp-openapi-server-verbose", label: "N sessions × 1", clients: (s, n) => sessions(s.port, n, { getStream: true }) }],
  },
  {
    key: "fastmcp",
    label: "FastMCP from_openapi",
    transport: "streamable HTTP, stateful (SSE)",
    peer: true,
    async start() {
      const py = path.join(peers, "py/bin/python");
      if (!fs.existsSync(py)) throw new Error("not installed");
      const port = await freePort();
      const child = start("fastmcp", [py, path.join(HERE, "http-load-fastmcp.py"), opts.doc, backendUrl, String(port)]);
      return { child, port, setup: await waitHttpInit(port, child, false) };
    },
    modes: [{ key: "fastmcp", label: "N sessions × 1", clients: (s, n) => sessions(s.port, n, {}) }],
  },
  {
    key: "openapi-mcp-generator",
    label: "openapi-mcp-generator",
    transport: "streamable HTTP, stateful (generated server)",
    peer: true,
    async start() {
      const dir = path.join(peers, "gen");
      const main = path.join(dir, "build/index.js");
      if (!fs.existsSync(main)) throw new Error("not installed (the generated server did not build)");
      // the port is written into the generated code: bench/http-load.sh generates with this one
      const port = Number(fs.readFileSync(path.join(dir, ".bench-port"), "utf8"));
      const child = start("openapi-mcp-generator", ["node", main, "--transport=streamable-http"], { env: { API_BASE_URL: backendUrl }, cwd: dir });
      const setup = await waitHttpInit(port, child, false);
      // its tools/list is the first request after initialize on the session
      return { child, port, setup };
    },
    modes: [{ key: "openapi-mcp-generator", label: "N sessions × 1", clients: (s, n) => sessions(s.port, n, {}) }],
  },
];

async function sessions(port, n, o) {
  const cs = [];
  for (let i = 0; i < n; i++) {
    const c = new HttpMcp(port, { ...o, sockets: 1 });
    cs.push(c);
  }
  await Promise.all(cs.map((c) => c.init()));
  return cs;
}
async function oneSession(port, n, o) {
  const c = new HttpMcp(port, { ...o, sockets: n });
  await c.init();
  return Array.from({ length: n }, () => c);
}

// ---------------------------------------------------------------- load loop
function pct(sorted, p) {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** n workers, each one call outstanding at a time on its client, until
 * maxCalls calls have started or maxMs has passed; then waits for the calls
 * in flight (each bounded by the call timeout). */
async function runLoop(clients, { maxCalls = Infinity, maxMs, record }) {
  const lat = record ? [] : null;
  let started = 0;
  let ok = 0;
  let errors = 0;
  let firstError = null;
  const t0 = nowMs();
  const deadline = t0 + maxMs;
  const sweeper = setInterval(() => {
    const now = Date.now();
    for (const c of new Set(clients)) c.sweep?.(now);
  }, 1000);
  const worker = async (c) => {
    while (started < maxCalls) {
      const s = nowMs();
      if (s >= deadline) break;
      started++;
      try {
        await c.call();
        ok++;
        if (lat) lat.push(nowMs() - s);
      } catch (e) {
        errors++;
        firstError ??= e.message;
        if (errors > 1000 && ok === 0) break; // a broken server: stop hammering it
      }
    }
  };
  await Promise.all(clients.map(worker));
  clearInterval(sweeper);
  return { ok, errors, firstError, elapsedMs: nowMs() - t0, lat };
}

async function backendStats() {
  return new Promise((resolve) => {
    http
      .get({ host: "127.0.0.1", port: backendPort, path: "/__stats", agent: false }, (res) => {
        let t = "";
        res.on("data", (c) => (t += c));
        res.on("end", () => resolve(JSON.parse(t)));
      })
      .on("error", () => resolve({ requests: NaN, connections: NaN }));
  });
}

async function measure(serverChild, clients) {
  // at least two calls per client, so every connection exists before measuring
  await runLoop(clients, { maxCalls: Math.max(opts.warmup, 2 * clients.length), maxMs: 3000, record: false });
  const b0 = await backendStats();
  const serverPid = serverChild?.pid;
  const s0 = serverPid ? treeTicks(serverPid) : null;
  const k0 = treeTicks(backend.pid);
  const y0 = machineTicks();
  const c0 = process.cpuUsage();
  const r = await runLoop(clients, { maxMs: opts.duration * 1000, record: true });
  const c1 = process.cpuUsage(c0);
  const y1 = machineTicks();
  const k1 = treeTicks(backend.pid);
  const s1 = serverPid ? treeTicks(serverPid) : null;
  const serverMs = serverPid ? cpuDeltaMs(s0, s1) : 0;
  const backendMs = cpuDeltaMs(k0, k1);
  const clientMs = (c1.user + c1.system) / 1000;
  const b1 = await backendStats();
  const lat = Float64Array.from(r.lat).sort();
  const calls = Math.max(r.ok, 1);
  return {
    ok: r.ok,
    errors: r.errors,
    firstError: r.firstError,
    seconds: r.elapsedMs / 1000,
    callsPerS: r.ok / (r.elapsedMs / 1000),
    p50: pct(lat, 50),
    p90: pct(lat, 90),
    p99: pct(lat, 99),
    max: lat.length ? lat[lat.length - 1] : NaN,
    over10ms: lat.filter((x) => x >= 10).length,
    serverCpuMs: serverPid ? serverMs / calls : NaN,
    backendCpuMs: backendMs / calls,
    clientCpuMs: clientMs / calls,
    clientSysMs: c1.system / 1000 / calls,
    clientCores: clientMs / r.elapsedMs,
    serverCores: serverMs / r.elapsedMs,
    // the machine's busy CPU while measuring, less client, server and backend:
    // other work on the machine (and kernel work not charged to a process)
    otherCores: Math.max(0, ((y1 - y0) * TICK_MS - serverMs - backendMs - clientMs) / r.elapsedMs),
    apiRequests: b1.requests - b0.requests,
    apiConnections: b1.connections - b0.connections - 1, // less the /__stats probe's own
  };
}

// ---------------------------------------------------------------- main
let backend;
let backendPort;
let backendUrl;

async function startBackend() {
  backend = start("backend", ["node", path.join(HERE, "http-load-backend.mjs"), opts.doc], { pipeStdio: true });
  const line = await new Promise((resolve, reject) => {
    let b = "";
    const t = setTimeout(() => reject(new Error("backend did not start")), 30000);
    backend.stdout.on("data", (c) => {
      b += c;
      if (b.includes("\n")) {
        clearTimeout(t);
        resolve(b.split("\n")[0]);
      }
    });
  });
  const info = JSON.parse(line);
  backendPort = info.port;
  backendUrl = `http://127.0.0.1:${backendPort}`;
  return info;
}

function fmt(x, d = 0) {
  if (x === undefined || x === null || Number.isNaN(x)) return "—";
  return x.toLocaleString("en-US", { minimumFractionDigits: d, maximumFractionDigits: d });
}
function fmtMs(x) {
  if (x === undefined || Number.isNaN(x)) return "—";
  return x < 1 ? fmt(x, 3) : x < 10 ? fmt(x, 2) : x < 100 ? fmt(x, 1) : fmt(x, 0);
}
function median(xs) {
  const v = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  if (!v.length) return NaN;
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

let quietBudgetMs = 120_000;
/** Waits (bounded) until the machine is nearly idle for 2 s; returns the seconds waited. */
async function waitQuiet() {
  if (!opts.waitQuiet || quietBudgetMs <= 0) return 0;
  const t0 = Date.now();
  const until = t0 + Math.min(opts.waitQuiet * 1000, quietBudgetMs);
  while (Date.now() < until) {
    const a = machineTicks();
    await sleep(2000);
    if (((machineTicks() - a) * TICK_MS) / 2000 < 0.25) break;
  }
  quietBudgetMs -= Date.now() - t0;
  return (Date.now() - t0) / 1000;
}

async function main() {
  if (!fs.existsSync(opts.bin)) throw new Error(`no binary at ${opts.bin} (--bin PATH)`);
  const loadStart = fs.readFileSync("/proc/loadavg", "utf8").trim();
  const startedAt = new Date();
  const binInfo = fs.statSync(opts.bin);
  const info = await startBackend();
  log(`backend on ${backendUrl}: ${info.bytes} B body; load average at start: ${loadStart}; ${os.cpus().length} cores`);
  log(`rounds ${opts.rounds}, in flight ${opts.inflight.join("/")}, ${opts.duration} s per point after a warm-up of ${opts.warmup} calls (≤ 3 s)`);

  const targets = TARGETS.filter((t) => !opts.only || opts.only.has(t.key));
  const skipped = new Map(); // key -> reason
  const tools = new Map(); // key -> {name, count}
  const startup = new Map(); // key -> [s]
  const results = []; // {round, target, mode, n, ...}
  const loads = [];

  for (let round = 1; round <= opts.rounds; round++) {
    const order = targets.map((_, i) => targets[(i + round - 1) % targets.length]);
    log(`\n— round ${round}/${opts.rounds} (load ${fs.readFileSync("/proc/loadavg", "utf8").trim()})`);
    loads.push(fs.readFileSync("/proc/loadavg", "utf8").trim());
    for (const t of order) {
      if (skipped.has(t.key)) continue;
      const waited = await waitQuiet();
      if (waited > 2.5) log(`  (waited ${fmt(waited, 0)} s for a quiet machine)`);
      let s;
      const t0 = nowMs();
      try {
        s = await t.start();
        if (s.setup) {
          if (!tools.has(t.key)) {
            tools.set(t.key, await findTool(s.setup));
            log(`  ${t.key}: tool for repos/get is ${tools.get(t.key).name} (${tools.get(t.key).count} tools listed)`);
          }
        }
      } catch (e) {
        const reason = e.message.replace(/\s+/g, " ").slice(0, 400);
        log(`  ${t.key}: SKIPPED: ${reason}`);
        if (s?.child) await stop(s.child);
        skipped.set(t.key, reason);
        continue;
      }
      if (!startup.has(t.key)) startup.set(t.key, []);
      if (s.child) startup.get(t.key).push((nowMs() - t0) / 1000);
      s.setup?.close?.();
      for (const m of t.modes) {
        for (const n of opts.inflight) {
          if (m.minN && n < m.minN) continue;
          let clients;
          try {
            clients = await m.clients(s, n);
          } catch (e) {
            log(`  ${m.key} @${n}: session setup failed: ${e.message}`);
            results.push({ round, target: t.key, mode: m.key, n, ok: 0, errors: n, firstError: `setup: ${e.message}`, callsPerS: 0 });
            continue;
          }
          const tool = tools.get(t.key)?.name;
          for (const c of new Set(clients)) c.tool = tool;
          const r = await measure(s.child, clients);
          for (const c of new Set(clients)) c.close?.();
          results.push({ round, target: t.key, mode: m.key, n, ...r });
          // every successful call must have reached the backend once (no cache, no retry storm)
          if (Math.abs(r.apiRequests - r.ok - r.errors) > Math.max(n, 0.01 * r.ok))
            log(`  ${m.key} @${n}: the backend saw ${r.apiRequests} requests for ${r.ok} calls (${r.errors} errors)`);
          log(
            `  ${m.key.padEnd(22)} @${String(n).padStart(2)}: ${fmt(r.callsPerS).padStart(6)} calls/s, p50 ${fmtMs(r.p50)} ms, p99 ${fmtMs(r.p99)} ms, ` +
              `server ${fmtMs(r.serverCpuMs)} ms/call, client ${fmtMs(r.clientCpuMs)} ms/call (${fmt(r.clientCores, 2)} core), other ${fmt(r.otherCores, 2)} core, errors ${r.errors}` +
              (r.over10ms ? `, ${r.over10ms} calls ≥ 10 ms` : "") +
              (r.firstError ? ` [${r.firstError.slice(0, 160)}]` : ""),
          );
        }
      }
      if (s.child) {
        if (s.child.exitCode !== null) log(`  ${t.key}: server had exited (${s.child.exitCode}): ${tail(s.child.logFile, 400)}`);
        await stop(s.child);
      }
    }
  }
  await stop(backend);
  const data = {
    opts,
    startedAt,
    loadStart,
    loads,
    endLoad: fs.readFileSync("/proc/loadavg", "utf8").trim(),
    cores: os.cpus().length,
    bin: { path: opts.bin, size: binInfo.size, mtime: binInfo.mtime },
    backend: info,
    tools: Object.fromEntries(tools),
    skipped: Object.fromEntries(skipped),
    startup: Object.fromEntries(startup),
    results,
  };
  if (opts.json) fs.writeFileSync(opts.json, JSON.stringify(data, null, 1));
  report(data);
}

// ---------------------------------------------------------------- report
/** The tables and the target checks, from a run's data (also --report FILE:
 * the same from a saved --json, without measuring). */
function report(data) {
  const { results, loads, loadStart } = data;
  const ro = data.opts;
  const info = data.backend;
  const startedAt = new Date(data.startedAt);
  const tools = new Map(Object.entries(data.tools));
  const skipped = new Map(Object.entries(data.skipped));
  const startup = new Map(Object.entries(data.startup));
  const targets = TARGETS.filter((t) => results.some((r) => r.target === t.key) || skipped.has(t.key));
  const bin = data.bin ?? { path: ro.bin, size: NaN, mtime: null };
  const rows = [];
  for (const t of targets) {
    for (const m of t.modes) {
      const per = {};
      for (const n of ro.inflight) {
        const rs = results.filter((r) => r.target === t.key && r.mode === m.key && r.n === n);
        if (!rs.length) continue;
        const k = (f) => median(rs.map((r) => r[f]));
        per[n] = {
          rounds: rs.length,
          callsPerS: k("callsPerS"),
          p50: k("p50"),
          p99: k("p99"),
          serverCpuMs: k("serverCpuMs"),
          backendCpuMs: k("backendCpuMs"),
          clientCpuMs: k("clientCpuMs"),
          clientCores: k("clientCores"),
          clientSysMs: k("clientSysMs"),
          otherCores: k("otherCores"),
          errors: rs.reduce((a, r) => a + r.errors, 0),
          calls: rs.reduce((a, r) => a + r.ok, 0),
          over10ms: rs.reduce((a, r) => a + (r.over10ms ?? 0), 0),
          apiConnections: k("apiConnections"),
          firstError: rs.find((r) => r.firstError)?.firstError,
        };
      }
      rows.push({ target: t, mode: m, per });
    }
  }
  const get = (mode, n) => rows.find((r) => r.mode.key === mode)?.per[n];
  const N = ro.inflight;
  let md = "";
  md += `| server | transport | ${N.map((n) => `${n} in flight: calls/s | p50 ms | p99 ms | server CPU ms/call`).join(" | ")} | errors |\n`;
  md += `|---|---|${N.map(() => "---:|---:|---:|---:").join("|")}|---:|\n`;
  for (const r of rows) {
    if (!Object.keys(r.per).length) continue;
    const tr = r.mode.label ? `${r.target.transport}; ${r.mode.label}` : r.target.transport;
    const cells = N.map((n) => {
      const p = r.per[n];
      if (!p) return "| | | ";
      const cpu = r.target.key === "direct" ? "—" : fmtMs(p.serverCpuMs);
      return `${fmt(p.callsPerS)} | ${fmtMs(p.p50)} | ${fmtMs(p.p99)} | ${cpu}`;
    });
    const errs = N.reduce((a, n) => a + (r.per[n]?.errors ?? 0), 0);
    md += `| ${r.target.label} | ${tr} | ${cells.join(" | ")} | ${fmt(errs)} |\n`;
  }
  md += `\nClient and backend CPU per call (ms; client = this Node load client, cores = its share of one core while measuring), other work on the machine while measuring (cores: its busy CPU less client, server and backend), calls ≥ 10 ms (all rounds), API connections opened while measuring (median of rounds):\n\n`;
  md += `| server | mode | ${N.map((n) => `${n}: client ms/call (cores) | backend ms/call | other cores | ≥ 10 ms | API conns`).join(" | ")} |\n`;
  md += `|---|---|${N.map(() => "---:|---:|---:|---:|---:").join("|")}|\n`;
  for (const r of rows) {
    if (!Object.keys(r.per).length) continue;
    const cells = N.map((n) => {
      const p = r.per[n];
      if (!p) return "| | | | ";
      return `${fmtMs(p.clientCpuMs)} (${fmt(p.clientCores, 2)}) | ${fmtMs(p.backendCpuMs)} | ${fmt(p.otherCores, 2)} | ${fmt(p.over10ms)} of ${fmt(p.calls)} | ${fmt(p.apiConnections)}`;
    });
    md += `| ${r.target.label} | ${r.mode.key} | ${cells.join(" | ")} |\n`;
  }

  // targets of issue #48, on the medians of all rounds, then on the quiet
  // points alone (other work on the machine under QUIET core while measuring)
  const QUIET = 0.25;
  const quietGet = (mode, n) => {
    const rs = results.filter((r) => r.mode === mode && r.n === n && r.seconds && r.otherCores < QUIET);
    if (!rs.length) return undefined;
    const k = (f) => median(rs.map((r) => r[f]));
    return { rounds: rs.length, callsPerS: k("callsPerS"), p50: k("p50"), p99: k("p99"), calls: rs.reduce((a, r) => a + r.ok, 0) };
  };
  const peerKeys = targets.filter((t) => t.peer && !skipped.has(t.key)).map((t) => t.key);
  const mark = (b) => (b === undefined ? "?" : b ? "✓" : "✗");
  function targetChecks(get, quiet) {
    const checks = [];
    const q = (p) => (quiet && p ? ` [${p.rounds} quiet]` : "");
    const ours1 = get("http", 1);
    const mos1 = get("mcp-openapi-server", 1);
    const direct1 = get("direct", 1);
    if (ours1 && mos1) {
      const ratio = ours1.callsPerS / mos1.callsPerS;
      checks.push(`${mark(ratio >= 3)} stateful HTTP @1: ${fmt(ours1.callsPerS)}${q(ours1)} calls/s = ${fmt(ratio, 2)}× mcp-openapi-server's ${fmt(mos1.callsPerS)}${q(mos1)} (target ≥ 3×)`);
    } else checks.push(`? stateful HTTP @1 vs mcp-openapi-server: ${quiet ? "no quiet point of both" : `not measured (${skipped.get("mcp-openapi-server") ?? "missing"})`}`);
    const mosv1 = get("mcp-openapi-server-verbose", 1);
    if (ours1 && mosv1)
      checks.push(`${mark(ours1.callsPerS / mosv1.callsPerS >= 3)} (the same against mcp-openapi-server with its default logging: ${fmt(mosv1.callsPerS)}${q(mosv1)} calls/s, ${fmt(ours1.callsPerS / mosv1.callsPerS, 2)}×)`);
    if (ours1 && direct1) {
      const bound = direct1.p50 * 2 + 0.5;
      checks.push(`${mark(ours1.p50 <= bound)} stateful HTTP @1 p50 ${fmtMs(ours1.p50)} ms vs direct floor p50 ${fmtMs(direct1.p50)}${q(direct1)} ms × 2 + 0.5 = ${fmtMs(bound)} ms (target: within)`);
    } else if (quiet) checks.push(`? stateful HTTP @1 p50 vs the direct floor: no quiet point of both`);
    for (const n of N.filter((n) => n > 1)) {
      const o = get("http", n);
      const best = peerKeys.map((k) => ({ k, p: get(k, n) })).filter((x) => x.p && x.p.calls > 0).sort((a, b) => b.p.callsPerS - a.p.callsPerS)[0];
      if (o && best) checks.push(`${mark(o.callsPerS > best.p.callsPerS)} stateful HTTP @${n}: ${fmt(o.callsPerS)}${q(o)} calls/s vs best peer ${best.k} ${fmt(best.p.callsPerS)}${q(best.p)} (${fmt(o.callsPerS / best.p.callsPerS, 2)}×; target: ahead)`);
      else checks.push(`? stateful HTTP @${n}: ${o ? fmt(o.callsPerS) + " calls/s; " : ""}no ${quiet ? "quiet " : ""}peer point`);
    }
    const sl = N.map((n) => get("stateless", n));
    if (sl.some(Boolean)) {
      const at8 = get("stateless", 8);
      checks.push(
        `${at8 ? mark(at8.callsPerS >= 1274) : "?"} --stateless: ${N.map((n, i) => `${fmt(sl[i]?.callsPerS)}${q(sl[i])} @${n}`).join(", ")} calls/s (issue #48's review measured 1,274 calls/s; compared at 8 in flight)`,
      );
    }
    return checks;
  }
  const checks = targetChecks(get, false);
  for (const n of N) {
    const e = rows.filter((r) => r.target.key !== "direct" && !r.target.peer).reduce((a, r) => a + (r.per[n]?.errors ?? 0), 0);
    if (e) checks.push(`✗ openapi2mcp errors at ${n} in flight: ${e}`);
  }
  const quietChecks = targetChecks(quietGet, true);
  let quietMd = `Quiet points only (other work < ${QUIET} core while measuring; median of those rounds, [k] = how many):\n\n`;
  quietMd += `| server | mode | ${N.map((n) => `${n}: calls/s | p50 ms`).join(" | ")} |\n|---|---|${N.map(() => "---:|---:").join("|")}|\n`;
  for (const r of rows) {
    if (!Object.keys(r.per).length) continue;
    quietMd += `| ${r.target.label} | ${r.mode.key} | ${N.map((n) => {
      const p = quietGet(r.mode.key, n);
      return p ? `${fmt(p.callsPerS)} [${p.rounds}] | ${fmtMs(p.p50)}` : r.per[n] ? "— [0] | —" : " | ";
    }).join(" | ")} |\n`;
  }
  let skippedMd = "";
  for (const [k, why] of skipped) skippedMd += `- ${k}: skipped: ${why}\n`;
  let toolsMd = [...tools].map(([k, v]) => `${k} \`${v.name}\``).join(", ");
  let startMd = [...startup].filter(([, v]) => v.length).map(([k, v]) => `${k} ${fmt(median(v), 1)} s`).join(", ");

  const measured = results.filter((r) => r.seconds);
  const others = measured.map((r) => r.otherCores).sort((a, b) => a - b);
  const sysShare = measured.reduce((a, r) => a + r.clientSysMs * r.ok, 0) / measured.reduce((a, r) => a + r.clientCpuMs * r.ok, 0);
  const header =
    `Run ${startedAt.toISOString()}; binary ${bin.path} (${fmt(bin.size / 1048576, 1)} MiB, modified ${bin.mtime ? new Date(bin.mtime).toISOString() : "?"}); ` +
    `${data.cores ?? "?"} cores; load average at start ${loadStart}, at each round's start ${loads.map((l) => l.split(" ")[0]).join(", ")}, at the end ${data.endLoad ?? "?"}; ` +
    `${ro.rounds} rounds, medians; ${ro.duration} s per point after ${ro.warmup} warm-up calls; backend body ${info.bytes} B. ` +
    `Other work on the machine while measuring: median ${fmt(median(others), 2)} core, max ${fmt(others[others.length - 1], 2)} (${others.filter((x) => x > 0.25).length} of ${others.length} points above 0.25). ` +
    `The load client's CPU is ${fmt(100 * sysShare)}% kernel (loopback TCP: sending a segment runs the receiver's side of the stack in the sender's time).\n\n` +
    `Tools for repos/get found in each tools/list: ${toolsMd}. Start-up to the first initialize (median): ${startMd}.\n`;
  const out =
    `${header}\n${md}\nTargets of issue #48, all rounds:\n\n${checks.map((c) => `- ${c}`).join("\n")}\n\n` +
    `${quietMd}\nThe same targets on the quiet points only:\n\n${quietChecks.map((c) => `- ${c}`).join("\n")}\n${skippedMd ? "\n" + skippedMd : ""}`;
  console.log(out);
  const errs = rows.flatMap((r) => Object.entries(r.per).filter(([, p]) => p.firstError).map(([n, p]) => `${r.mode.key} @${n}: ${p.errors} errors, first: ${p.firstError}`));
  if (errs.length) log(`\nerrors:\n${errs.join("\n")}`);
  if (opts.md) fs.writeFileSync(opts.md, out);
}

(opts.report ? Promise.resolve().then(() => report(JSON.parse(fs.readFileSync(opts.report, "utf8")))) : main()).then(
  () => {
    killAll();
    process.exit(0);
  },
  (e) => {
    log(e.stack ?? e);
    killAll();
    process.exit(1);
  },
);
