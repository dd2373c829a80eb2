#!/usr/bin/env bash
# The tool search alone (issue 25): index build time, search latency and
# peak RSS of `ToolIndex` over each document of the query sets, release
# build, no server. The ignored test `discovery::dump_search_scores`
# writes each document's tools and requests to a dump; the runtime's
# example `search_bench` indexes and searches them. Figures go to
# bench/README.md (Search) by hand.
# Usage: bench/search-latency.sh [ROUNDS]   (from anywhere)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-3}"
dump="$(mktemp -d)"
trap 'rm -rf "$dump"' EXIT
SEARCH_DUMP="$dump" cargo test --quiet --test it discovery::dump_search_scores -- --ignored >/dev/null
cargo build --quiet --release -p openapi2mcp-server --example search_bench
for doc in github graph stripe jira; do
    target/release/examples/search_bench "$dump/$doc.json" "$rounds"
done
