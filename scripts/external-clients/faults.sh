#!/usr/bin/env bash
# Hardening checks (issue #10) of the release binary with the official MCP
# Python SDK, after `cargo build --release` and setup.sh:
#
#  (a) fault_matrix.py: every --output-schema mode x stdio/http x each fault
#      of fault_backend.py (about 1 minute);
#  (b) soak.py: 50 concurrent streamable HTTP sessions for FAULTS_SOAK_SECONDS
#      (default 120) with RSS and fd bounds.
#
# Every process is bounded by `timeout`. Logs and results go to
# target/external-clients/faults/ and target/external-clients/soak/.
# Exit status: 0 when both passed, 1 otherwise (2: not set up).
set -uo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cache="${EXTERNAL_CLIENTS_DIR:-$root/target/external-clients}"
bin="${OPENAPI2MCP_BIN:-$root/target/release/openapi2mcp}"
python="$cache/venv/bin/python"
soak_seconds="${FAULTS_SOAK_SECONDS:-120}"

[ -x "$bin" ] || { echo "faults.sh: $bin not found: run \`cargo build --release\` first" >&2; exit 2; }
[ -x "$python" ] || { echo "faults.sh: run scripts/external-clients/setup.sh first" >&2; exit 2; }
export OPENAPI2MCP_BIN="$bin" NO_COLOR=1

status=0
echo "== (a) fault matrix"
timeout 330 "$python" "$here/fault_matrix.py" --work "$cache/faults" || status=1
echo "== (b) soak, ${soak_seconds} s"
timeout $((${soak_seconds%.*} + 180)) "$python" "$here/soak.py" --seconds "$soak_seconds" --work "$cache/soak" || status=1
exit "$status"
