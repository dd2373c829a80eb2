#!/usr/bin/env bash
# Benchmark: GitHub's REST description (13 MB, 1,223 operations) loaded to a
# full tool list by the release binary, per output-schema mode: median wall
# time over N runs and peak RSS (GNU time). Figures go in bench/README.md.
#
#   bench/load.sh [RUNS]      (default 15)
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-15}"
doc="tests/external/node_modules/@octokit/openapi/generated/api.github.com.json"
scripts/fetch-test-specs.sh
cargo build --release --quiet
bin=target/release/openapi2mcp
[ -x /usr/bin/time ] || { echo "GNU time (/usr/bin/time) is needed: apt-get install time" >&2; exit 1; }

printf '%-28s %12s %12s\n' "case" "median ms" "peak RSS MB"
for mode in full loose off; do
  times=(); peak=0
  for _ in $(seq "$runs"); do
    out=$( { /usr/bin/time -f '%e %M' "$bin" list -q --output-schema "$mode" "$doc" >/dev/null; } 2>&1 | tail -1)
    read -r secs kb <<<"$out"
    times+=("$secs")
    (( kb > peak )) && peak=$kb
  done
  median=$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]*1000}')
  printf '%-28s %12s %12s\n' "github list ($mode)" "$median" "$((peak / 1024))"
done
