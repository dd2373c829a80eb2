// The Report Service of specs/client-profiles.yaml, as a real HTTP backend on
// 127.0.0.1 for the client checks (profiles.mjs, apps_host.mjs): 7 reports
// listed 3 a page through the Link header, read, deleted, and exported in
// the background (202 + Location, Running for four polls a second apart,
// then Succeeded with the report's URL). Every request is recorded.

import http from "node:http";

/** The bearer token the API wants (the server gets it as OPENAPI2MCP_BEARERAUTH_TOKEN). */
export const TOKEN = "profiles-S3cret";

/** Requests the backend saw, in order: "METHOD /path?query". */
export const seen = [];
const REPORTS = Array.from({ length: 7 }, (_, i) => ({ id: `r${i + 1}`, reportName: `sales/q${i + 1}`, rows: 100 * (i + 1) }));
/** Export polls so far, per export. */
export const polls = new Map();

export function backend() {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, "http://127.0.0.1");
    seen.push(`${req.method} ${url.pathname}${url.search}`);
    const json = (status, body, headers = {}) => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(body === undefined ? "" : JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return json(401, { code: "unauthorized", message: "no token" });
    const p = url.pathname;
    let m;
    if (req.method === "GET" && p === "/v2/reports") {
      const per = Number(url.searchParams.get("per_page") ?? 30);
      const page = Number(url.searchParams.get("page") ?? 1);
      const items = REPORTS.slice((page - 1) * per, page * per);
      const headers = {};
      if (page * per < REPORTS.length) {
        headers.link = `<http://${req.headers.host}/v2/reports?per_page=${per}&page=${page + 1}>; rel="next"`;
      }
      return json(200, items, headers);
    }
    if ((m = p.match(/^\/v2\/reports\/([^/]+)$/))) {
      const report = REPORTS.find((r) => r.id === m[1]) ?? (m[1] === "r9" ? { id: "r9", reportName: "sales/export", rows: 1204 } : null);
      if (!report) return json(404, { code: "not_found", message: `no report ${m[1]}` });
      if (req.method === "GET") return json(200, report);
      if (req.method === "DELETE") {
        res.writeHead(204);
        return res.end();
      }
    }
    if (req.method === "POST" && p === "/v2/exports") {
      req.resume();
      return req.on("end", () =>
        json(202, { id: "e1", status: "NotStarted" }, { location: "/v2/exports/e1", "retry-after": "1" }),
      );
    }
    if (req.method === "GET" && p === "/v2/exports/e1") {
      const n = (polls.get("e1") ?? 0) + 1;
      polls.set("e1", n);
      // Four seconds of Running: longer than --handle-after 2.
      if (n <= 4) return json(200, { id: "e1", status: "Running", percentComplete: 20 * n }, { "retry-after": "1" });
      return json(200, { id: "e1", status: "Succeeded", resourceLocation: "/v2/reports/r9" });
    }
    json(404, { code: "not_found", message: `${req.method} ${p}` });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

