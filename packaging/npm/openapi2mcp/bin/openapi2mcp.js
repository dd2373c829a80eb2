#!/usr/bin/env node
// Runs the prebuilt openapi2mcp binary of this platform, installed as the
// optional dependency @openapi2mcp/<platform>-<arch> (the way esbuild and
// Biome ship native binaries): stdin, stdout and stderr are the binary's
// own (stdio MCP servers speak on them), signals are passed on, and its
// exit code is this process's.
'use strict';
const { spawn } = require('node:child_process');
const path = require('node:path');
const fs = require('node:fs');

function binaryPath() {
  const override = process.env.OPENAPI2MCP_BINARY_PATH;
  if (override) return override;
  const pkg = `@openapi2mcp/${process.platform}-${process.arch}`;
  const exe = process.platform === 'win32' ? 'openapi2mcp.exe' : 'openapi2mcp';
  try {
    return path.join(path.dirname(require.resolve(`${pkg}/package.json`)), 'bin', exe);
  } catch {
    process.stderr.write(
      `openapi2mcp: no prebuilt binary for ${process.platform}-${process.arch} (the package ${pkg} is not installed).\n` +
        'Install it, build from source (cargo install --git ...), or set OPENAPI2MCP_BINARY_PATH to a binary.\n',
    );
    process.exit(1);
  }
}

const binary = binaryPath();
if (!fs.existsSync(binary)) {
  process.stderr.write(`openapi2mcp: the binary ${binary} is missing; reinstall the package.\n`);
  process.exit(1);
}
const child = spawn(binary, process.argv.slice(2), { stdio: 'inherit', windowsHide: true });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (child.exitCode === null) child.kill(signal);
  });
}
child.on('error', (e) => {
  process.stderr.write(`openapi2mcp: cannot run ${binary}: ${e.message}\n`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  if (signal) {
    process.kill(process.pid, signal);
  } else {
    process.exit(code ?? 1);
  }
});
