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
cargo build --quiet -p petstore-build-rs || fail "examples/build-rs does not build"
cargo clippy --quiet -p petstore-build-rs -- -D warnings || fail "examples/build-rs does not pass clippy -D warnings"
bin=target/debug/petstore-build-rs
[ -x "$bin" ] || fail "$bin not found after cargo build"
# stdin stays open a moment so that the answers are written before EOF.
answer=$({ printf '%s\n' \
  '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"check","version":"1"}}}' \
  '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
  '{"jsonrpc":"2.0","id":2,"method":"tools/list"}'
  sleep 2
} | timeout 30 "$bin" --base-url http://127.0.0.1:9/v1) || fail "the server did not answer"
# Built without the `code` feature: code mode is refused, by name.
if refused=$(timeout 30 "$bin" --tools code </dev/null 2>&1); then
  fail "--tools code started although the crate has no script engine"
fi
case "$refused" in
  *"built without code mode's script engine"*) ;;
  *) fail "--tools code refused without saying why: $refused" ;;
esac
python3 - "$answer" <<'PY' || fail "unexpected answer"
import json, sys
lines = [json.loads(l) for l in sys.argv[1].splitlines() if l.strip()]
by_id = {m.get("id"): m for m in lines}
info = by_id[1]["result"]["serverInfo"]
assert info["name"] == "petstore-build-rs", info
names = sorted(t["name"] for t in by_id[2]["result"]["tools"])
assert "list_pets" in names and "delete_pet" in names and len(names) == 7, names
print(f"check-build-rs: ok ({len(names)} tools served by {info['name']})")
PY
