#!/usr/bin/env bash
# Benchmark (issue 4): `openapi2mcp generate` on GitHub's REST description
# (13 MB, 1,223 operations) by the release binary: wall time over N runs
# (median, min, max) and peak RSS (GNU time), into an empty directory and
# again over an up-to-date crate; `list -q` alongside as the cost of loading
# the document alone; the generated crate's file count and size; and one
# `cargo check` of that crate with its dependencies already built (shared
# target directory target/generated, as scripts/check-generated.sh uses).
# Figures go in bench/README.md.
#
#   bench/generate.sh [RUNS]      (default 7)
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-7}"
doc="tests/external/node_modules/@octokit/openapi/generated/api.github.com.json"
scripts/fetch-test-specs.sh
env -u CARGO_TARGET_DIR cargo build --release --quiet
bin=target/release/openapi2mcp
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

gnu_time=
if [ -x /usr/bin/time ] && /usr/bin/time -v true >/dev/null 2>&1; then
  gnu_time=/usr/bin/time
else
  echo "note: GNU time (/usr/bin/time) not found: peak RSS not measured (apt-get install time)" >&2
fi

# run LABEL PREPARE CMD...: times CMD $runs times (PREPARE, a shell snippet,
# runs untimed before each), prints median/min/max ms and peak RSS MB.
run() {
  local label=$1 prepare=$2
  shift 2
  local times=() peak=0 start end kb
  for _ in $(seq "$runs"); do
    eval "$prepare"
    start=$(date +%s%N)
    if [ -n "$gnu_time" ]; then
      "$gnu_time" -v -o "$tmp/time" "$@" >/dev/null 2>"$tmp/stderr" || { cat "$tmp/stderr" >&2; exit 1; }
    else
      "$@" >/dev/null 2>"$tmp/stderr" || { cat "$tmp/stderr" >&2; exit 1; }
    fi
    end=$(date +%s%N)
    times+=($(((end - start) / 1000000)))
    if [ -n "$gnu_time" ]; then
      kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$tmp/time")
      ((kb > peak)) && peak=$kb
    fi
  done
  local sorted
  sorted=$(printf '%s\n' "${times[@]}" | sort -n)
  local median min max rss=n/a
  median=$(awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}' <<<"$sorted")
  min=$(head -1 <<<"$sorted")
  max=$(tail -1 <<<"$sorted")
  [ -n "$gnu_time" ] && rss=$((peak / 1024))
  printf '%-34s %8s %8s %8s %12s\n' "$label" "$median" "$min" "$max" "$rss"
}

out="$tmp/github"
echo "GitHub's REST description, $runs runs, release build"
printf '%-34s %8s %8s %8s %12s\n' "case" "median" "min" "max" "peak RSS MB"
run "list -q (load only)" ":" "$bin" list -q "$doc"
run "generate, empty directory" "rm -rf '$out'" "$bin" generate "$doc" --out "$out" --name github-mcp
run "generate, crate up to date" ":" "$bin" generate "$doc" --out "$out" --name github-mcp
run "generate --check, up to date" ":" "$bin" generate "$doc" --out "$out" --name github-mcp --check

files=$(find "$out" -type f | wc -l)
bytes=$(find "$out" -type f -printf '%s\n' | awk '{s += $1} END {print s}')
rs_files=$(find "$out" -type f -name '*.rs' | wc -l)
rs_lines=$(find "$out" -type f -name '*.rs' -exec cat {} + | wc -l)
largest=$(find "$out" -type f -printf '%s %P\n' | sort -n | tail -1)
echo
echo "generated crate: $files files, $((bytes / 1024)) KiB ($rs_files .rs files, $rs_lines lines of Rust); largest: ${largest#* } ($((${largest%% *} / 1024)) KiB)"

# cargo check: the same crate directory and shared target as
# scripts/check-generated.sh. A first check builds (or confirms) the
# dependencies; the timed one rebuilds only the generated crate itself.
crate=target/generated-src/github
export CARGO_TARGET_DIR="$PWD/target/generated"
"$bin" generate "$doc" --out "$crate" --name github-mcp --quiet
lock_created=
if [ ! -e "$crate/Cargo.lock" ]; then
  cp Cargo.lock "$crate/Cargo.lock"
  lock_created=1
fi
cargo check --quiet --manifest-path "$crate/Cargo.toml"
cargo clean --quiet --manifest-path "$crate/Cargo.toml" -p github-mcp
start=$(date +%s%N)
cargo check --quiet --manifest-path "$crate/Cargo.toml"
end=$(date +%s%N)
[ -n "$lock_created" ] && rm -f "$crate/Cargo.lock"
echo "cargo check of the generated crate, dependencies warm: $(((end - start) / 1000000)) ms"
