#!/usr/bin/env bash
# Builds examples/build-rs (an MCP server whose tools its build script
# generates with openapi2mcp's build.rs API) and checks the binary serves
# the Petstore's tools over stdio (initialize + tools/list, raw JSON-RPC).
#
#   scripts/check-build-rs.sh
set -euo pipefail
cd "$(dirname "$0")/.."
fail() {
  echo "check-build-rs: FAILED: $*" >&2
  exit 1
}
# Dependencies at opt-level 0 here (the dev profile has 1): the example is
# built with features the test build does not use (the runtime and server
# without defaults), so it shares few units with it. Its build dependency is
# openapi2mcp-codegen (reader, tool builder, generator: 102 packages, no
# run time or server) compiled for the host. What is checked is the build
# and the behaviour, not speed (issue #27, #44, bench/README.md).
cargo build --quiet -p petstore-build-rs --config 'profile.dev.package."*".opt-level=0' \
  || fail "examples/build-rs does not build"
# The library crates without default features pass clippy (resolved
# alone, so the reader has no reqwest and the tool builder no clap). The
# example itself is not linted: clippy compiles the workspace crates it
# builds with (openapi2mcp-codegen, as its build dependency) again through
# clippy-driver, a third build of the library crates (~2.5 min of .ci/run)
# for a main.rs of a few lines; the code its build script generates is the
# generated crates' (scripts/check-generated.sh lints those).
cargo clippy --quiet -p openapi2mcp-model -p openapi2mcp-document -p openapi2mcp-tools -p openapi2mcp-codegen -p openapi2mcp-mock -p openapi2mcp-runtime -p openapi2mcp-server --no-default-features --all-targets -- -D warnings \
  || fail "the workspace crates without default features (each alone: no reqwest in the reader, no clap in the tool builder) do not pass clippy -D warnings"
bin=target/debug/petstore-build-rs
[ -x "$bin" ] || fail "$bin not found after cargo build"
# stdin stays open a moment so that the answers are written before EOF.
answer=$({ printf '%s\n' \
  '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"check","version":"1"}}}' \
  '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
  '{"jsonrpc":"2.0","id":2,"method":"tools/list"}'
  sleep 2
} | timeout 30 "$bin" --base-url http://127.0.0.1:9/v1) || fail "the server did not answer"
# Built without default features (no code, search, jq, authorization,
# metrics): each mode or flag that needs one is refused at start-up,
# naming the feature.
refused() {
  local feature=$1
  shift
  local out
  if out=$(timeout 30 "$bin" "$@" </dev/null 2>&1); then
    fail "$* started although the crate was built without the \`$feature\` feature"
  fi
  case "$out" in
    *"built without the \`$feature\` feature"*) ;;
    *) fail "$* refused without naming the \`$feature\` feature: $out" ;;
  esac
}
refused code --tools code
refused search --tools discovery
refused jq --response-filter
refused authorization --transport http --listen 127.0.0.1:0 \
  --oauth-issuer http://127.0.0.1:9 --resource-url http://127.0.0.1:9/mcp
# Without the `metrics` feature /metrics says why it has nothing.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$bin" --transport http --listen "127.0.0.1:$port" --base-url http://127.0.0.1:9/v1 2>/dev/null &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
metrics=""
for _ in $(seq 1 50); do
  if metrics=$(curl -s -w ' %{http_code}' "http://127.0.0.1:$port/metrics" 2>/dev/null) && [ -n "$metrics" ]; then
    break
  fi
  sleep 0.2
done
case "$metrics" in
  *"without the \`metrics\` feature"*" 404") ;;
  *) fail "/metrics without the metrics feature answered: $metrics" ;;
esac
kill $server 2>/dev/null || true
python3 - "$answer" <<'PY' || fail "unexpected answer"
import json, sys
lines = [json.loads(l) for l in sys.argv[1].splitlines() if l.strip()]
by_id = {m.get("id"): m for m in lines}
info = by_id[1]["result"]["serverInfo"]
assert info["name"] == "petstore-build-rs", info
names = sorted(t["name"] for t in by_id[2]["result"]["tools"])
# Petstore's seven operations and get_call_result (reads calls answered with a handle).
assert "list_pets" in names and "delete_pet" in names and "get_call_result" in names and len(names) == 8, names
print(f"check-build-rs: ok ({len(names)} tools served by {info['name']})")
PY
