#!/usr/bin/env bash
# Runs the README's first command exactly as written (the first line that
# starts with `cargo run` in README.md), connects the official MCP Python
# client to it, lists the tools, calls one, and stops the server with SIGTERM.
# Needs scripts/external-clients/setup.sh to have run (for the client).
set -euo pipefail
cd "$(dirname "$0")/.."
cmd=$(grep -m1 '^cargo run' README.md)
url="http://127.0.0.1:8080/mcp"
py=target/external-clients/venv/bin/python
[ -x "$py" ] || { echo "run scripts/external-clients/setup.sh first" >&2; exit 2; }
log=$(mktemp)
echo "README main command: $cmd"
bash -c "exec $cmd" >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 600); do
  grep -q "MCP endpoint at" "$log" && break
  kill -0 "$pid" 2>/dev/null || { cat "$log"; echo "the server exited" >&2; exit 1; }
  sleep 0.5
done
grep -q "MCP endpoint at" "$log" || { cat "$log"; echo "the server did not come up" >&2; exit 1; }
out=$(timeout 60 "$py" scripts/external-clients/python_client.py http "$url" --call get_pet --args '{"petId": 1}')
echo "$out" | "$py" -c '
import json, sys
r = json.load(sys.stdin)
assert r["tools"] == 8, r  # the 7 operations of the petstore and get_call_result
call = r["call"]
assert not call.get("isError"), call
assert call["structuredContent"] == {"id": 1, "name": "Rex", "status": "available", "tags": ["dog"]}, call
print("README main command: 8 tools listed (7 operations, get_call_result), get_pet returned the documented example")
'
kill -TERM "$pid"
for _ in $(seq 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
if kill -0 "$pid" 2>/dev/null; then echo "the server did not stop on SIGTERM" >&2; exit 1; fi
wait "$pid" || { echo "the server exited with an error after SIGTERM" >&2; cat "$log"; exit 1; }
echo "README main command: stopped cleanly"

# The README's `mock` example: the REST API answering from the document.
mock_cmd=$(grep -m1 '^cargo run --release -- mock' README.md)
echo "README mock command: $mock_cmd"
bash -c "exec $mock_cmd" >"$log" 2>&1 &
pid=$!
"$py" - <<'PY'
import json, time, urllib.request
for _ in range(600):
    try:
        with urllib.request.urlopen("http://127.0.0.1:4010/v1/pets/1", timeout=2) as r:
            body = json.load(r)
        break
    except OSError:
        time.sleep(0.5)
else:
    raise SystemExit("the mock did not answer")
assert body == {"id": 1, "name": "Rex", "status": "available", "tags": ["dog"]}, body
print("README mock command: GET /v1/pets/1 returned the documented example")
PY
kill -TERM "$pid"
wait "$pid" 2>/dev/null || true
