#!/usr/bin/env bash
# Benchmark (issue 11): which representation should hold a parsed OpenAPI
# document? Builds the standalone crate bench/parse (not part of the main
# package; into target/bench-parse) and runs every representation on
# GitHub's REST description and Microsoft Graph v1.0 and beta, one process
# per run (peak RSS is VmHWM), next to Node's bare
# JSON.parse(readFileSync(doc)). Prints the markdown tables of
# bench/README.md ("Document representation (issue 11)"); the raw runs go to
# target/bench-parse/results.json. The binary end to end (serve, list) next
# to Node is bench/scale.sh.
#
#   bench/parse.sh [RUNS] [DOCS]     defaults: 3, github,graph,graph-beta
#   bench/parse.sh probe             what each representation does with odd JSON
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="$PWD/target/bench-parse"
cargo build --release --quiet --manifest-path bench/parse/Cargo.toml
if [ "${1:-}" = probe ]; then
  exec target/bench-parse/release/parse-bench probe
fi
runs="${1:-3}"
docs="${2:-github,graph,graph-beta}"
command -v node >/dev/null || { echo "node is needed (the reference)" >&2; exit 1; }
scripts/fetch-test-specs.sh
scripts/fetch-large-specs.sh
python3 bench/parse/run.py --runs "$runs" --closure-runs "$(( (runs + 1) / 2 ))" --docs "$docs"
