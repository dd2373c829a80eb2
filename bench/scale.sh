#!/usr/bin/env bash
# Scale benchmark (issue 11): for GitHub's REST description and Microsoft
# Graph v1.0 and beta, side by side in one run: `serve` over stdio (spawn ->
# every tools/list page: time, peak RSS, tool sizes), `list --json -q`, and
# Node's bare JSON.parse(readFileSync(doc)) as the reference, with the ratios
# to Node and the targets of issue 11. Builds nothing: it uses the release
# binary as it is (or OPENAPI2MCP_BIN / --bin). See bench/scale.py.
#
#   bench/scale.sh [--runs N] [--docs github,graph,graph-beta] [--budget BYTES]
#                  [--timeout S] [--vmem-kb KB] [--bin PATH] [-- SERVE/LIST ARGS]
#   e.g. bench/scale.sh --runs 3 --docs github,graph -- --output-schema off
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /usr/bin/time ] || { echo "GNU time (/usr/bin/time) is needed: apt-get install time" >&2; exit 1; }
command -v node >/dev/null || { echo "node is needed (the reference)" >&2; exit 1; }
scripts/fetch-test-specs.sh
scripts/fetch-large-specs.sh
exec python3 bench/scale.py "$@"
