#!/usr/bin/env bash
# Discovery mode on GitHub and Microsoft Graph: start-up beside full mode,
# and search accuracy and latency over tests/fixtures/search-queries.yaml
# (issue 12). Figures go to bench/README.md by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/fetch-test-specs.sh
scripts/fetch-large-specs.sh
cargo build --release --quiet
python3 bench/search.py
