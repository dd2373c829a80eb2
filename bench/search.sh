#!/usr/bin/env bash
# Discovery mode on GitHub and Microsoft Graph: start-up beside full mode,
# and search accuracy and latency (also on Stripe and Jira Cloud)
# over every query set of tests/fixtures/search-queries*.yaml (issues 12,
# 25). Figures go to bench/README.md by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/fetch-test-specs.sh
scripts/fetch-large-specs.sh
cargo build --release --quiet
python3 bench/search.py
