// What the Node client checks (profiles.mjs, apps_host.mjs, login_flow.mjs)
// share: the repository's root, their command line (`--bin OPENAPI2MCP`,
// `--sdk NODE_MODULES_DIR`), loading a package from that node_modules, and
// a free port on 127.0.0.1.

import net from "node:net";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The repository's root. */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

const args = process.argv.slice(2);
/** The value after `name` on the command line, else `fallback`. */
const arg = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};

/** The openapi2mcp binary under test (`--bin`; default the release build). */
export const bin = arg("--bin", path.join(root, "target/release/openapi2mcp"));

/** Where the clients' packages are installed (`--sdk`; setup.sh's place). */
export const modules = arg("--sdk", path.join(root, "target/external-clients/node/node_modules"));

/** Imports `file` (a path under the node_modules above). */
export const load = (file) => import(pathToFileURL(path.join(modules, file)).href);

/** A port free on 127.0.0.1 now. */
export const freePort = () =>
  new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
