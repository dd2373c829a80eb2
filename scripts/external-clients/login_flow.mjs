// The per-person login step of the client profiles (profiles.mjs): an HTTP
// `openapi2mcp serve` whose API calls go out as the person who logged in
// (the document's OAuth2 scheme, at an API authorization server) and whose
// MCP clients sign in at another (`--oauth-issuer`): two node-oidc-provider
// servers on 127.0.0.1 (scripts/oauth/provider.mjs, installed into
// target/oauth by scripts/oauth/setup.sh). A scripted browser with its own
// cookies plays the person: it gets each profile's MCP access token
// (authorization code + PKCE, resource indicator) and follows the login link
// the server hands out, signing in at both authorization servers.

import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";

import { freePort } from "./common.mjs";

const SIGNIN_ID = "o2m-signin";
const SIGNIN_SECRET = "signin-secret-value-123";
const MCP_CLIENT = "assistant";
const MCP_CLIENT_SECRET = "assistant-secret-value";
const MCP_CLIENT_REDIRECT = "http://127.0.0.1:9/assistant/callback";
const API_CLIENT = "o2m";
const API_CLIENT_SECRET = "s3cret-client-secret";

/** Starts node-oidc-provider with `clients` (and `env`); its issuer URL. */
async function provider(dir, node, clients, env, children) {
  const child = spawn(node, [path.join(dir, "provider.mjs")], {
    cwd: dir,
    env: { ...process.env, OIDC_CLIENTS: JSON.stringify(clients), ...env },
    stdio: ["ignore", "pipe", "ignore"],
  });
  children.push(child);
  const line = await Promise.race([
    new Promise((resolve) => readline.createInterface({ input: child.stdout }).once("line", resolve)),
    new Promise((_, reject) => setTimeout(() => reject(new Error("the authorization server did not start in 30 s")), 30_000).unref()),
  ]);
  return line.trim();
}

/** A browser: its own cookies, redirects followed by hand (up to 20)
 * except to `stop`; the last response and its URL. */
function browser(stop = MCP_CLIENT_REDIRECT) {
  const jar = new Map();
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const keep = (res) => {
    for (const c of res.headers.getSetCookie?.() ?? []) {
      const [pair] = c.split(";");
      const at = pair.indexOf("=");
      jar.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  };
  return async function go(url, form) {
    let method = form ? "POST" : "GET";
    let body = form ? new URLSearchParams(form).toString() : undefined;
    for (let hop = 0; hop < 20; hop++) {
      const headers = { cookie: cookieHeader() };
      if (body) headers["content-type"] = "application/x-www-form-urlencoded";
      const res = await fetch(url, { method, body, headers, redirect: "manual", signal: AbortSignal.timeout(30_000) });
      keep(res);
      const location = res.headers.get("location");
      if (res.status >= 300 && res.status < 400 && location) {
        const next = new URL(location, url).href;
        if (next.startsWith(stop)) return { res, url, location: next };
        url = next;
        method = "GET";
        body = undefined;
        await res.arrayBuffer();
        continue;
      }
      return { res, url, location: null };
    }
    throw new Error(`more than 20 redirects from ${url}`);
  };
}

/** On a provider's login page at `url`: logs in as `user` and consents. */
async function logInAndConsent(go, url, user) {
  const consent = await go(url, { prompt: "login", login: user, password: "any" });
  await consent.res.arrayBuffer();
  return go(consent.url, { prompt: "consent" });
}

/** `user`'s access token for the MCP server at `resource`. */
async function mcpToken(issuer, resource, user) {
  const verifier = `${user}-verifier-0123456789abcdefghijklmnopqrstuvwxyz`;
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  const auth = new URL(`${issuer}/auth`);
  for (const [k, v] of Object.entries({
    client_id: MCP_CLIENT,
    response_type: "code",
    scope: "openid mcp",
    redirect_uri: MCP_CLIENT_REDIRECT,
    code_challenge: challenge,
    code_challenge_method: "S256",
    resource,
    state: "s",
  })) auth.searchParams.set(k, v);
  const go = browser();
  const page = await go(auth.href);
  await page.res.arrayBuffer();
  const done = await logInAndConsent(go, page.url, user);
  const code = done.location && new URL(done.location).searchParams.get("code");
  if (!code) throw new Error(`no authorization code for ${user} (${done.res.status})`);
  const res = await fetch(`${issuer}/token`, {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`${MCP_CLIENT}:${MCP_CLIENT_SECRET}`).toString("base64")}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: MCP_CLIENT_REDIRECT, code_verifier: verifier, resource }).toString(),
  });
  const token = await res.json();
  if (!token.access_token) throw new Error(`no access token for ${user}: ${JSON.stringify(token)}`);
  return token.access_token;
}

/** The person opens `link`: signs in at the MCP authorization server as
 * `person`, then logs in and consents at the API's as `apiUser`; the
 * final page's HTTP status. */
export async function followLink(link, person, apiUser) {
  const go = browser();
  const signin = await go(link);
  await signin.res.arrayBuffer();
  if (!signin.url.includes("/interaction/")) throw new Error(`the link leads to ${signin.url}, not a sign-in`);
  const apiLogin = await logInAndConsent(go, signin.url, person);
  if (!apiLogin.url.includes("/interaction/")) return apiLogin.res.status;
  await apiLogin.res.arrayBuffer();
  const done = await logInAndConsent(go, apiLogin.url, apiUser);
  await done.res.arrayBuffer();
  return done.res.status;
}

/** A `serve --transport http` for people's logins, and its API; call
 * `close()` when done. `tokenFor(user)` gives a person's MCP token;
 * `apiCalls` the bearer tokens the API saw, in order. */
export async function startLoginServer({ bin, root, node }) {
  const dir = path.join(root, "target/oauth");
  if (!fs.existsSync(path.join(dir, "node_modules/oidc-provider"))) {
    throw new Error(`node-oidc-provider is not installed in ${dir}: run scripts/oauth/setup.sh`);
  }
  const children = [];
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "openapi2mcp-profiles-"));
  const close = () => {
    for (const c of children) c.kill();
    api.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  };
  const apiCalls = [];
  const api = http.createServer((req, res) => {
    apiCalls.push(req.headers.authorization ?? "");
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ id: 1, name: "Rex" }));
  });
  await new Promise((r) => api.listen(0, "127.0.0.1", r));
  try {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const resource = `${base}/mcp`;
    const mcpIssuer = await provider(dir, node, [
      { client_id: SIGNIN_ID, client_secret: SIGNIN_SECRET, redirect_uris: [`${base}/oauth/signed-in`], grant_types: ["authorization_code"], response_types: ["code"], token_endpoint_auth_method: "client_secret_basic" },
      { client_id: MCP_CLIENT, client_secret: MCP_CLIENT_SECRET, redirect_uris: [MCP_CLIENT_REDIRECT], grant_types: ["authorization_code"], response_types: ["code"], token_endpoint_auth_method: "client_secret_basic" },
    ], { RESOURCE: resource }, children);
    const apiIssuer = await provider(dir, node, [
      { client_id: API_CLIENT, client_secret: API_CLIENT_SECRET, redirect_uris: [`${base}/oauth/callback`], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "client_secret_basic" },
    ], {}, children);
    const doc = path.join(scratch, "pets.json");
    fs.writeFileSync(doc, JSON.stringify({
      openapi: "3.1.0",
      info: { title: "Pets", version: "1" },
      servers: [{ url: `http://127.0.0.1:${api.address().port}` }],
      components: { securitySchemes: { oauth: {
        type: "oauth2",
        oauth2MetadataUrl: `${apiIssuer}/.well-known/openid-configuration`,
        flows: { authorizationCode: {
          authorizationUrl: `${apiIssuer}/auth`,
          tokenUrl: `${apiIssuer}/token`,
          scopes: { openid: "who", offline_access: "refresh", "pets:read": "read pets" },
        } },
      } } },
      paths: { "/pets/{petId}": { get: {
        operationId: "getPet",
        summary: "Get a pet",
        security: [{ oauth: ["pets:read"] }],
        parameters: [{ name: "petId", in: "path", required: true, schema: { type: "integer" } }],
        responses: { 200: { description: "The pet.", content: { "application/json": { schema: { type: "object" } } } } },
      } } },
    }));
    const child = spawn(bin, [
      "serve", doc, "--transport", "http", "--listen", `127.0.0.1:${port}`,
      "--oauth-issuer", mcpIssuer, "--resource-url", resource,
      "--token-store", path.join(scratch, "tokens.enc"),
    ], {
      env: {
        ...process.env,
        OPENAPI2MCP_TOKEN_KEY: "0123456789abcdef0123456789abcdef-test-key",
        OPENAPI2MCP_STATE_KEY: "a-shared-state-key-0123456789abcdef-xyz",
        OPENAPI2MCP_OAUTH_CLIENT_ID: API_CLIENT,
        OPENAPI2MCP_OAUTH_CLIENT_SECRET: API_CLIENT_SECRET,
        OPENAPI2MCP_OAUTH_SCOPES: "openid offline_access pets:read",
        OPENAPI2MCP_SIGNIN_CLIENT_ID: SIGNIN_ID,
        OPENAPI2MCP_SIGNIN_CLIENT_SECRET: SIGNIN_SECRET,
        RUST_LOG: "info",
      },
      stdio: ["ignore", "ignore", "pipe"],
    });
    children.push(child);
    await Promise.race([
      new Promise((resolve) => readline.createInterface({ input: child.stderr }).on("line", (l) => l.includes("MCP endpoint at") && resolve())),
      new Promise((_, reject) => setTimeout(() => reject(new Error("serve did not start in 60 s")), 60_000).unref()),
    ]);
    return { url: resource, base, tokenFor: (user) => mcpToken(mcpIssuer, resource, user), apiCalls, close };
  } catch (e) {
    close();
    throw e;
  }
}
