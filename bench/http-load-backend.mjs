// The local API behind every server bench/http-load.mjs measures: a Node
// `http` server on 127.0.0.1 answering GET /repos/{owner}/{repo} with one
// fixed JSON body of about 5 KB, the documented example repository of
// GitHub's GET /repos/{owner}/{repo} without its `parent`, `source`,
// `template_repository` and `organization` objects (what the real API sends
// for a repository that is not a fork), its description carrying a marker the
// load client checks for. Any other path is a 404, so a server composing the
// wrong URL shows as errors, not as speed.
//
//   node bench/http-load-backend.mjs DOC [PORT]
//
// Prints `{"port":N,"bytes":B}` on stdout once listening. GET /__stats answers
// {"requests":R,"connections":C} (requests to /repos/ only, and TCP
// connections accepted), so a server that does not keep its API connections
// alive shows.
import http from "node:http";
import fs from "node:fs";

export const MARKER = "bench-marker-48";

const [doc, port = "0"] = process.argv.slice(2);
const spec = JSON.parse(fs.readFileSync(doc, "utf8"));
const media = spec.paths["/repos/{owner}/{repo}"].get.responses["200"].content["application/json"];
const ref = media.examples["default-response"].$ref.split("/").pop();
const repo = structuredClone(spec.components.examples[ref].value);
for (const k of ["parent", "source", "template_repository", "organization"]) delete repo[k];
repo.description = `This your first repo! (${MARKER})`;
const body = Buffer.from(JSON.stringify(repo));

let requests = 0;
let connections = 0;
const server = http.createServer({ keepAliveTimeout: 120_000 }, (req, res) => {
  if (req.method === "GET" && /^\/repos\/[^/]+\/[^/?]+(\?.*)?$/.test(req.url)) {
    requests++;
    res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": body.length });
    res.end(body);
  } else if (req.url === "/__stats") {
    const s = JSON.stringify({ requests, connections });
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(s) });
    res.end(s);
  } else {
    res.writeHead(404, { "content-type": "application/json", "content-length": 2 });
    res.end("{}");
  }
});
server.on("connection", (sock) => {
  connections++;
  sock.setNoDelay(true);
});
server.headersTimeout = 130_000;
server.listen(Number(port), "127.0.0.1", () => {
  process.stdout.write(JSON.stringify({ port: server.address().port, bytes: body.length }) + "\n");
});
process.on("SIGTERM", () => process.exit(0));
process.on("SIGINT", () => process.exit(0));
// Bounded: a backend whose parent died (its stdin closes) stops by itself,
// and none outlives an hour.
process.stdin.on("end", () => process.exit(0));
process.stdin.on("error", () => process.exit(0));
process.stdin.resume();
setTimeout(() => process.exit(0), 3600_000).unref();
