#!/usr/bin/env bash
# Code mode benchmark (issue 25): on GitHub's REST description, with the
# mock answering from the document's examples, the same multi-step task
# (list a repository's open pull requests, pick one, read its check runs
# and its reviews) in full, discovery and code modes: round trips and
# o200k_base tokens of the tool list, of what the model sends and of what
# it reads back. Prints the table bench/README.md records.
# Usage: bench/code-mode.sh   (from the repository root)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/fetch-test-specs.sh >/dev/null
cargo test --test it code_mode::bench_github_multi_step_task -- --ignored --nocapture 2>/dev/null \
  | grep -E '^(\||ratios)'
