// Client profiles (issue #45): the same session, through the official MCP
// TypeScript SDK's client, as each host people use declares itself today.
//
// A profile declares exactly the capabilities (and protocol revision) that
// one host declares, no more: claude.ai (the MCP Apps extension only, over
// streamable HTTP), Claude Code (form elicitation), Cursor (form
// elicitation and MCP Apps), VS Code (form and URL elicitation, MCP Apps),
// Gemini CLI (roots only), Codex (an older revision), opencode (nothing).
// None declares the tasks extension: no mainstream host does.
//
// Each runs, against `openapi2mcp serve specs/client-profiles.yaml` with
// default flags (but `--handle-after 2`, so that a long call is answered
// with a handle in seconds rather than the default 30) and a real HTTP
// backend on 127.0.0.1 (this script's), the session a model would:
//   1. tools/list: the API's five operations and get_call_result;
//   2. a read (get_report);
//   3. a destructive call (delete_report): confirmed through a form
//      elicitation where the host offers one (the request goes out only
//      after the answer); held for the MCP Apps review form where the host
//      renders apps and cannot be asked (sent by the form's app-only tool);
//      else sent on the host's own approval (the tool is annotated
//      destructive), as the default --unconfirmed allow says;
//   4. a 202 + Location export (start_export) that takes longer than
//      --handle-after: answered with a handle, the result read back with
//      get_call_result, the API polled to the end;
//   5. a paginated list (list_reports, 7 reports 3 a page, the next page
//      in the Link header): every page reached by the arguments the
//      result's "Next page" line gives, each report seen once;
//   6. a call needing the person's own login to the API (login_flow.mjs:
//      an HTTP server with --oauth-issuer, two node-oidc-provider
//      authorization servers, a scripted browser as the person): a host
//      declaring URL elicitation is asked to open the login page and the
//      call goes through; every other gets the link in the result, the
//      person opens it, and the model's retry, made meanwhile, waits for
//      the login and goes through. The API sees the person's own token.
// Each step must end in a usable outcome for that host: the SDK raising
// (an output schema not met, a timeout) fails the profile.
//
// Usage: node profiles.mjs --bin OPENAPI2MCP --sdk NODE_MODULES_DIR
// Prints PASS/FAIL lines (one per profile); exit status 1 when any failed.

import { spawn } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";

import { bin, freePort, load, root } from "./common.mjs";
import { followLink, startLoginServer } from "./login_flow.mjs";
import { TOKEN, backend, polls, seen } from "./report_service.mjs";

const sdk = (p) => load(path.join("@modelcontextprotocol/sdk/dist/esm", p));
const { Client } = await sdk("client/index.js");
const { StdioClientTransport } = await sdk("client/stdio.js");
const { StreamableHTTPClientTransport } = await sdk("client/streamableHttp.js");
const { ElicitRequestSchema, ListRootsRequestSchema } = await sdk("types.js");

const spec = path.join(root, "specs/client-profiles.yaml");
const UI = { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } };
/** Bounds: one whole profile, one request. */
const PROFILE_LIMIT_MS = 90_000;
const REQUEST_LIMIT_MS = 30_000;

/** What each host declares (issue #45's list, autumn 2026). */
const PROFILES = [
  { host: "claude.ai", transport: "http", capabilities: { extensions: UI } },
  { host: "Claude Code", capabilities: { elicitation: { form: {} } } },
  { host: "Cursor", capabilities: { elicitation: { form: {} }, extensions: UI } },
  { host: "VS Code", capabilities: { elicitation: { form: {}, url: {} }, extensions: UI } },
  { host: "Gemini CLI", capabilities: { roots: { listChanged: true } } },
  { host: "Codex", revision: "2025-06-18", capabilities: {} },
  { host: "opencode", capabilities: {} },
];

// --- helpers -------------------------------------------------------------

const textOf = (result) => (result.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("\n");

class Failure extends Error {}
const expect = (ok, what) => {
  if (!ok) throw new Failure(what);
};

/** The JSON object written after `marker` in `text` (`… with {"a":1} …`). */
function jsonAfter(text, marker) {
  const at = text.indexOf(marker);
  if (at < 0) return null;
  const start = text.indexOf("{", at + marker.length);
  let depth = 0;
  for (let i = start; i >= 0 && i < text.length; i++) {
    if (text[i] === "{") depth++;
    if (text[i] === "}" && --depth === 0) return JSON.parse(text.slice(start, i + 1));
  }
  return null;
}

async function waitForHttp(url, child) {
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Failure(`the server exited (${child.exitCode}) before listening`);
    try {
      const r = await fetch(url.replace(/\/mcp$/, "/healthz"));
      if (r.ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Failure(`the server did not answer at ${url} within 10 s`);
}

// --- one profile ------------------------------------------------------------

/** A lower-case word for a host's name (a person per host). */
const slug = (host) => host.toLowerCase().replace(/[^a-z0-9]+/g, "-");

/** Step 6 for `profile` against the login server `login`. */
async function loginStep(profile, login, opts) {
  const person = `${slug(profile.host)}-user`;
  const token = await login.tokenFor(person);
  const client = new Client({ name: `profile ${profile.host}`, version: "1.0.0" }, { capabilities: profile.capabilities });
  const opened = [];
  if (profile.capabilities.elicitation) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      if (request.params.mode !== "url") return { action: "decline" };
      opened.push(request.params.url);
      const status = await followLink(request.params.url, person, `${person}@api`);
      return { action: status === 200 ? "accept" : "decline" };
    });
  }
  if (profile.capabilities.roots) {
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [] }));
  }
  const transport = new StreamableHTTPClientTransport(new URL(login.url), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  if (profile.revision) {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      if (message.method === "initialize") message = { ...message, params: { ...message.params, protocolVersion: profile.revision } };
      return send(message, options);
    };
  }
  try {
    await client.connect(transport);
    const before = login.apiCalls.length;
    const call = () => client.callTool({ name: "get_pet", arguments: { petId: 1 } }, undefined, opts);
    let result = await call();
    let how;
    if (profile.capabilities.elicitation?.url) {
      expect(!result.isError && opened.length === 1, `asked to open the login page, then sent: ${textOf(result)}`);
      how = "login through a URL elicitation";
    } else {
      const text = textOf(result);
      expect(result.isError && text.includes("cannot open the login page itself"), `the link in the result: ${text}`);
      expect(login.apiCalls.length === before, "nothing sent before the login");
      const link = text.split(/\s+/).find((w) => w.startsWith(`${login.base}/oauth/connect?`));
      expect(link, `a login link in: ${text}`);
      const retry = call();
      await new Promise((r) => setTimeout(r, 1000));
      const status = await followLink(link, person, `${person}@api`);
      expect(status === 200, `the login page ended with HTTP ${status}`);
      result = await retry;
      expect(!result.isError, `the retry, made while the person logged in: ${textOf(result)}`);
      how = "login through the link in the result; the retry waited for it";
    }
    expect(login.apiCalls.length === before + 1 && login.apiCalls.at(-1).startsWith("Bearer "), `the API called once as the person: ${login.apiCalls.slice(before)}`);
    return how;
  } finally {
    await client.close().catch(() => {});
  }
}

async function run(profile, api, login) {
  const baseUrl = `http://127.0.0.1:${api.address().port}/v2`;
  const serveArgs = ["serve", spec, "--quiet", "--base-url", baseUrl, "--handle-after", "2"];
  const env = { ...process.env, OPENAPI2MCP_BEARERAUTH_TOKEN: TOKEN, RUST_LOG: "warn" };
  const client = new Client({ name: `profile ${profile.host}`, version: "1.0.0" }, { capabilities: profile.capabilities });
  const questions = [];
  if (profile.capabilities.elicitation) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      questions.push({ message: request.params.message, seenBefore: seen.length });
      return { action: "accept", content: { confirm: true } };
    });
  }
  if (profile.capabilities.roots) {
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: pathToFileURL(root).href, name: "workspace" }] }));
  }
  let transport;
  let child;
  if (profile.transport === "http") {
    const port = await freePort();
    child = spawn(bin, [...serveArgs, "--transport", "http", "--listen", `127.0.0.1:${port}`], { env, stdio: ["ignore", "ignore", "pipe"] });
    child.stderr.resume();
    const url = `http://127.0.0.1:${port}/mcp`;
    await waitForHttp(url, child);
    transport = new StreamableHTTPClientTransport(new URL(url));
  } else {
    transport = new StdioClientTransport({ command: bin, args: serveArgs, env, stderr: "ignore" });
  }
  if (profile.revision) {
    // The host's own (older) revision: what it sends in initialize.
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      if (message.method === "initialize") message = { ...message, params: { ...message.params, protocolVersion: profile.revision } };
      return send(message, options);
    };
  }
  const opts = { timeout: REQUEST_LIMIT_MS };
  const call = (name, args) => client.callTool({ name, arguments: args }, undefined, opts);
  const outcome = [];
  try {
    await client.connect(transport);
    if (profile.revision) expect(client.getServerVersion() && transport, "connected");

    // 1. The list.
    const { tools } = await client.listTools(undefined, opts);
    const names = tools.map((t) => t.name);
    for (const n of ["list_reports", "get_report", "delete_report", "start_export", "get_call_result"]) {
      expect(names.includes(n), `tools/list lacks ${n}: ${names}`);
    }
    const del = tools.find((t) => t.name === "delete_report");
    expect(del.annotations?.destructiveHint === true, "delete_report is annotated destructive");
    outcome.push(`${tools.length} tools`);

    // 2. A read.
    const read = await call("get_report", { reportId: "r1" });
    expect(!read.isError && read.structuredContent?.id === "r1", `get_report: ${textOf(read)}`);

    // 3. A destructive call.
    seen.length = 0;
    const deleted = await call("delete_report", { reportId: "r2" });
    expect(!deleted.isError, `delete_report: ${textOf(deleted)}`);
    const deletes = () => seen.filter((s) => s === "DELETE /v2/reports/r2").length;
    const apps = Boolean(profile.capabilities.extensions?.["io.modelcontextprotocol/ui"]);
    if (profile.capabilities.elicitation) {
      expect(deletes() === 1, `DELETE sent ${deletes()} times: ${seen}`);
      expect(questions.length === 1, `asked ${questions.length} times`);
      expect(questions[0].seenBefore === 0, "nothing was sent before the answer");
      expect(/DELETE/.test(questions[0].message) && questions[0].message.includes("/v2/reports/r2"), `the question shows the request: ${questions[0].message}`);
      outcome.push("delete confirmed through a form");
    } else if (apps) {
      // Held for the MCP Apps review form: nothing sent; the form's Send
      // (what apps_host.mjs runs in a real host library) is the app-only
      // tool with the sealed state.
      const review = deleted._meta?.["openapi2mcp/review"];
      expect(deletes() === 0 && review?.state, `held for review, nothing sent: ${textOf(deleted)} ${seen}`);
      expect(review.request.includes("DELETE") && review.request.includes("/v2/reports/r2"), `the form shows the request: ${review.request}`);
      const sendTool = tools.find((t) => t.name === review.sendTool);
      expect(JSON.stringify(sendTool?._meta?.ui?.visibility) === '["app"]', "the send tool is for the app only");
      const sent = await call(review.sendTool, { state: review.state });
      expect(!sent.isError && deletes() === 1, `sent once from the form: ${textOf(sent)} ${seen}`);
      outcome.push("delete reviewed in the MCP Apps form, sent from it");
    } else {
      expect(deletes() === 1, `DELETE sent ${deletes()} times: ${seen}`);
      expect(questions.length === 0, "a host that cannot be asked is not asked");
      outcome.push("delete sent on the host's approval");
    }

    // 4. A long call without tasks: a handle, then the result.
    polls.clear();
    const started = Date.now();
    const first = await call("start_export", { reportName: "sales/export", format: "csv" });
    const answeredMs = Date.now() - started;
    const text = textOf(first);
    expect(answeredMs < 10_000, `start_export answered after ${answeredMs} ms`);
    const handle = jsonAfter(text, "`get_call_result` with")?.handle;
    expect(handle, `start_export answered with a handle: ${text}`);
    let result;
    for (let turn = 0; turn < 10; turn++) {
      result = await call("get_call_result", { handle });
      if (result.structuredContent?.status !== "working") break;
    }
    expect(!result.isError && result.structuredContent?.id === "r9", `the export's report: ${textOf(result)}`);
    expect((polls.get("e1") ?? 0) === 5, `polled ${polls.get("e1")} times`);
    outcome.push(`export: handle after ${(answeredMs / 1000).toFixed(1)} s, report read back`);

    // 5. A paginated list, page by page as the result says.
    const ids = [];
    let page = { per_page: 3 };
    let pages = 0;
    while (page && pages < 10) {
      const got = await call("list_reports", page);
      expect(!got.isError, `list_reports: ${textOf(got)}`);
      pages++;
      const body = got.structuredContent;
      const items = Array.isArray(body) ? body : (body?.result ?? body?.items ?? []);
      ids.push(...items.map((r) => r.id));
      page = jsonAfter(textOf(got), "again with these arguments:");
    }
    expect(pages === 3 && new Set(ids).size === 7 && ids.length === 7, `pages ${pages}, reports ${ids}`);
    outcome.push("7 reports in 3 pages");

    // 6. A call needing the person's own login.
    if (login.error) throw new Failure(`the login server: ${login.error}`);
    outcome.push(await loginStep(profile, login, opts));
    return { ok: true, outcome };
  } catch (e) {
    return { ok: false, outcome, error: e instanceof Failure ? e.message : `${e?.name}: ${e?.message}` };
  } finally {
    await client.close().catch(() => {});
    if (child) child.kill();
  }
}

const api = await backend();
const login = await startLoginServer({ bin, root, node: process.execPath }).catch((e) => ({ error: e.message, close() {} }));
let failed = 0;
for (const profile of PROFILES) {
  const verdict = await Promise.race([
    run(profile, api, login),
    new Promise((r) => setTimeout(() => r({ ok: false, outcome: [], error: `not done within ${PROFILE_LIMIT_MS / 1000} s` }), PROFILE_LIMIT_MS).unref()),
  ]);
  const caps = JSON.stringify(profile.capabilities);
  if (verdict.ok) {
    console.log(`PASS profile ${profile.host} (${profile.revision ?? "latest revision"}, ${profile.transport ?? "stdio"}, declares ${caps}): ${verdict.outcome.join("; ")}`);
  } else {
    failed++;
    console.log(`FAIL profile ${profile.host} (declares ${caps}): ${verdict.error} [after: ${verdict.outcome.join("; ")}]`);
  }
}
api.close();
login.close();
process.exit(failed ? 1 : 0);
