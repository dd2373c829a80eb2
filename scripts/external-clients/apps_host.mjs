// The MCP Apps review form in a real host library (issue #45): the
// official TypeScript SDK's client, declaring what claude.ai declares (the
// io.modelcontextprotocol/ui extension, no elicitation), calls a
// destructive tool of `openapi2mcp serve specs/client-profiles.yaml`; the
// host side of the official MCP Apps library (@modelcontextprotocol/
// ext-apps' AppBridge) runs the review form the tool names (its ui://
// resource, in jsdom as the host's iframe), hands it the call's input and
// result, and proxies the form's tools/call to the server, refusing any
// tool whose visibility does not include "app", as the extension tells
// hosts to. The person presses Send in the form: the request reaches the
// API (a real HTTP backend on 127.0.0.1) once, after the click and not
// before, and the form shows the outcome. A second use of the same review
// is refused, and the form cannot call the destructive tool itself.
//
// Usage: node apps_host.mjs --bin OPENAPI2MCP --sdk NODE_MODULES_DIR
// Prints one PASS or FAIL line; exit status 1 on failure.

import path from "node:path";

import { bin, load, root } from "./common.mjs";
import { TOKEN, backend, seen } from "./report_service.mjs";

const { Client } = await load("@modelcontextprotocol/sdk/dist/esm/client/index.js");
const { StdioClientTransport } = await load("@modelcontextprotocol/sdk/dist/esm/client/stdio.js");
const { AppBridge, getToolUiResourceUri, isToolVisibilityAppOnly, RESOURCE_MIME_TYPE } = await load(
  "@modelcontextprotocol/ext-apps/dist/src/app-bridge.js",
);
const { JSDOM } = await load("jsdom/lib/api.js");

const LIMIT_MS = 60_000;
class Failure extends Error {}
const expect = (ok, what) => {
  if (!ok) throw new Failure(what);
};
const textOf = (result) => (result?.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
const clone = (m) => JSON.parse(JSON.stringify(m));

/** Waits (bounded) until `ready()` holds. */
async function until(ready, what, ms = 10_000) {
  const end = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > end) throw new Failure(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function main() {
  const api = await backend();
  const client = new Client(
    { name: "apps-host", version: "1.0.0" },
    { capabilities: { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: [RESOURCE_MIME_TYPE] } } } },
  );
  const transport = new StdioClientTransport({
    command: bin,
    args: ["serve", path.join(root, "specs/client-profiles.yaml"), "--quiet", "--base-url", `http://127.0.0.1:${api.address().port}/v2`],
    env: { ...process.env, OPENAPI2MCP_BEARERAUTH_TOKEN: TOKEN, RUST_LOG: "warn" },
    stderr: "ignore",
  });
  let window;
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    const del = tools.find((t) => t.name === "delete_report");
    const uri = getToolUiResourceUri(del);
    expect(uri === "ui://openapi2mcp/review", `delete_report names its form: ${uri}`);
    const send = tools.find((t) => t.name === "send_reviewed_call");
    expect(send && isToolVisibilityAppOnly(send), "send_reviewed_call is listed for the app only");

    // The model's call: held, nothing sent.
    const input = { reportId: "r3" };
    const held = await client.callTool({ name: "delete_report", arguments: input });
    expect(seen.length === 0, `nothing sent before the review: ${seen}`);
    expect(/Not sent yet/.test(textOf(held)), `held for review: ${textOf(held)}`);

    // The host loads the form and runs it as its iframe.
    const resource = await client.readResource({ uri });
    const contents = resource.contents[0];
    expect(contents.mimeType === RESOURCE_MIME_TYPE, `the form's MIME type: ${contents.mimeType}`);

    const bridge = new AppBridge(null, { name: "apps-host", version: "1.0.0" }, { serverTools: {}, openLinks: {} });
    const appCalls = [];
    bridge.oncalltool = async (params) => {
      appCalls.push(params.name);
      const tool = tools.find((t) => t.name === params.name);
      const visibility = tool?._meta?.ui?.visibility ?? ["model", "app"];
      if (!tool || !visibility.includes("app")) throw new Error(`${params.name} is not callable by apps`);
      return client.callTool(params);
    };
    let initialized = false;
    bridge.oninitialized = async () => {
      initialized = true;
      await bridge.sendToolInput({ arguments: input });
      await bridge.sendToolResult(held);
    };
    // postMessage between the host and the view, as a browser would carry
    // it (jsdom's own postMessage sets no event.source).
    const parent = { postMessage: (message) => queueMicrotask(() => hostSide.onmessage?.(clone(message))) };
    const hostSide = {
      async start() {},
      async send(message) {
        window.dispatchEvent(new window.MessageEvent("message", { data: clone(message), source: parent }));
      },
      async close() {
        this.onclose?.();
      },
    };
    await bridge.connect(hostSide);
    const dom = new JSDOM(contents.text, {
      runScripts: "dangerously",
      beforeParse(win) {
        window = win;
        win.parent = parent;
      },
    });
    window = dom.window;
    const doc = window.document;
    await until(() => initialized && !doc.getElementById("actions").hidden, "the form to show the request");
    const shown = doc.getElementById("request").textContent;
    expect(shown.includes("DELETE") && shown.includes("/v2/reports/r3"), `the form shows the request: ${shown}`);
    expect(doc.getElementById("title").textContent.includes("delete_report"), "the form names the tool");
    expect(seen.length === 0, "still nothing sent while the person reads");

    // The person presses Send.
    doc.getElementById("send").click();
    await until(() => doc.getElementById("title").textContent === "Sent" || doc.getElementById("outcome").className === "error", "the outcome");
    expect(doc.getElementById("title").textContent === "Sent", `sent: ${doc.getElementById("outcome").textContent}`);
    const deletes = seen.filter((s) => s === "DELETE /v2/reports/r3").length;
    expect(deletes === 1 && seen.length === 1, `the API saw one DELETE: ${seen}`);
    expect(JSON.stringify(appCalls) === '["send_reviewed_call"]', `the form called ${appCalls}`);

    // The same review again, and the form reaching for the destructive tool.
    const state = held._meta["openapi2mcp/review"].state;
    const replay = await client.callTool({ name: "send_reviewed_call", arguments: { state } });
    expect(replay.isError && /used already/.test(textOf(replay)), `a review sends once: ${textOf(replay)}`);
    let refused = false;
    await bridge.oncalltool({ name: "delete_report", arguments: input }).catch(() => (refused = true));
    expect(refused, "the host refuses the app a tool not visible to apps");
    expect(seen.length === 1, `still one request: ${seen}`);
    return "the form showed DELETE /v2/reports/r3, nothing was sent until Send, then exactly once; a replay and a model-only tool were refused";
  } finally {
    window?.close();
    await client.close().catch(() => {});
    api.close();
  }
}

const verdict = await Promise.race([
  main().then(
    (ok) => ({ ok }),
    (e) => ({ error: e instanceof Failure ? e.message : `${e?.name}: ${e?.message}` }),
  ),
  new Promise((r) => setTimeout(() => r({ error: `not done within ${LIMIT_MS / 1000} s` }), LIMIT_MS).unref()),
]);
if (verdict.ok) {
  console.log(`PASS MCP Apps review form in @modelcontextprotocol/ext-apps' AppBridge and jsdom: ${verdict.ok}`);
  process.exit(0);
}
console.log(`FAIL MCP Apps review form: ${verdict.error}`);
process.exit(1);
