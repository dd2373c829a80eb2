#!/usr/bin/env bash
# HTTP load benchmark (issue #48 item 4): calls/s, p50/p99 and server CPU per
# call of GitHub's GET /repos/{owner}/{repo} through openapi2mcp over stdio,
# stateful streamable HTTP and --stateless, beside a direct-call floor and
# the peers (mcp-openapi-server, FastMCP's from_openapi, openapi-mcp-generator),
# at 1, 8 and 64 calls in flight, every server proxying to one local backend
# on 127.0.0.1. See bench/http-load.mjs for what is measured and how, and
# bench/README.md ("HTTP load") for the figures.
#
#   bench/http-load.sh [--bin PATH] [--rounds 3] [--duration 5] [--only direct,http,...]
#
# Builds nothing: --bin defaults to /tmp/o2m-bench-bin (a copy of a release
# build; `cargo build --release && cp target/release/openapi2mcp /tmp/o2m-bench-bin`).
# Installs what it needs when absent: GitHub's description
# (scripts/fetch-test-specs.sh) and the peers, pinned, into target/bench-peers/
# (npm and a Python venv; a peer that does not install is skipped, with the
# reason printed). BENCH_NO_INSTALL=1 skips the installs. Writes the table to
# stdout and to target/bench-peers/http-load-last.md, every round's figures to
# target/bench-peers/http-load-last.json. About 9 minutes on 2 cores, plus up
# to 2 minutes of waiting for a quiet machine (--wait-quiet 20 before each
# server; pass --wait-quiet 0 not to wait).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
peers=$root/target/bench-peers
doc=$root/tests/external/node_modules/@octokit/openapi/generated/api.github.com.json
MOS_VERSION=1.16.1     # @ivotoby/openapi-mcp-server
GEN_VERSION=4.0.1      # openapi-mcp-generator
FASTMCP_VERSION=4.2.3  # fastmcp (PyPI)
GEN_PORT=38417         # written into the generated server's code

command -v node >/dev/null || { echo "node (>= 18) is needed" >&2; exit 1; }
scripts/fetch-test-specs.sh
mkdir -p "$peers"

pkg_version() { node -e 'try{console.log(require(process.argv[1]).version)}catch{console.log("")}' "$1"; }

if [ "${BENCH_NO_INSTALL:-}" != 1 ]; then
  # npm peers
  mos=$peers/npm/node_modules/@ivotoby/openapi-mcp-server/package.json
  gen=$peers/npm/node_modules/openapi-mcp-generator/package.json
  if [ "$(pkg_version "$mos")" != "$MOS_VERSION" ] || [ "$(pkg_version "$gen")" != "$GEN_VERSION" ]; then
    echo "installing @ivotoby/openapi-mcp-server@$MOS_VERSION and openapi-mcp-generator@$GEN_VERSION into $peers/npm" >&2
    mkdir -p "$peers/npm"
    [ -f "$peers/npm/package.json" ] || echo '{"private":true}' >"$peers/npm/package.json"
    (cd "$peers/npm" && timeout 600 npm install --no-audit --no-fund --loglevel=error \
      "@ivotoby/openapi-mcp-server@$MOS_VERSION" "openapi-mcp-generator@$GEN_VERSION") \
      || echo "npm peers: install failed; the benchmark skips them" >&2
  fi
  # openapi-mcp-generator: generate the server once (its port is written into
  # the code), install its dependencies and compile it
  if [ -f "$gen" ] && { [ ! -f "$peers/gen/build/index.js" ] || [ "$(cat "$peers/gen/.bench-version" 2>/dev/null)" != "$GEN_VERSION" ]; }; then
    echo "generating and building the openapi-mcp-generator server into $peers/gen" >&2
    rm -rf "$peers/gen"
    if timeout 300 "$peers/npm/node_modules/.bin/openapi-mcp-generator" -i "$doc" -o "$peers/gen" \
        -t streamable-http -p "$GEN_PORT" -b http://127.0.0.1:1 >/dev/null \
      && (cd "$peers/gen" && timeout 600 npm install --no-audit --no-fund --loglevel=error); then
      # tsc reports TS2590 ("union type too complex") on GitHub's document but
      # still writes build/; the benchmark's start-up check decides
      (cd "$peers/gen" && timeout 600 npx tsc >"$peers/gen/tsc.log" 2>&1) \
        || echo "openapi-mcp-generator: tsc: $(head -c 300 "$peers/gen/tsc.log")" >&2
      echo "$GEN_PORT" >"$peers/gen/.bench-port"
      echo "$GEN_VERSION" >"$peers/gen/.bench-version"
    else
      echo "openapi-mcp-generator: generation or npm install failed; the benchmark skips it" >&2
    fi
  fi
  # FastMCP in a venv
  if [ "$("$peers/py/bin/python" -c 'import fastmcp; print(fastmcp.__version__)' 2>/dev/null)" != "$FASTMCP_VERSION" ]; then
    echo "installing fastmcp==$FASTMCP_VERSION into $peers/py" >&2
    { [ -x "$peers/py/bin/python" ] || python3 -m venv "$peers/py"; } \
      && timeout 600 "$peers/py/bin/pip" install -q "fastmcp==$FASTMCP_VERSION" \
      || echo "fastmcp: install failed; the benchmark skips it" >&2
  fi
fi

args=(--md "$peers/http-load-last.md" --json "$peers/http-load-last.json" --wait-quiet 20)
node bench/http-load.mjs "${args[@]}" "$@" &
pid=$!
trap 'kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true' INT TERM
trap 'kill -TERM "$pid" 2>/dev/null || true' EXIT
wait "$pid"
