#!/usr/bin/env bash
# Checks generated crates (issue 4):
#   1. every crate in generated/ passes `cargo clippy --all-targets -- -D warnings`,
#      `cargo build` and `cargo test` (the crate's own tests; the runtime's unit
#      tests stay in openapi2mcp and are not vendored);
#   2. GitHub's REST description (1,223 operations) generates a crate, in
#      target/generated-src/github, that passes `cargo check`.
# All of them share one target directory, target/generated, so their common
# dependencies are built once. Uses $OPENAPI2MCP_BIN when set (.ci/run's
# build), else the release binary (built if stale).
#
#   scripts/check-generated.sh
#   GENERATED_TARGET_DIR=/tmp/x scripts/check-generated.sh   (another shared
#       target directory, e.g. to time a cold run as CI sees it)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
shared="${GENERATED_TARGET_DIR:-$root/target/generated}"
github_doc=tests/external/node_modules/@octokit/openapi/generated/api.github.com.json
github_out=target/generated-src/github
bin="${OPENAPI2MCP_BIN:-target/release/openapi2mcp}"

fail() {
  echo "check-generated: FAILED: $*" >&2
  exit 1
}
step() { echo "== $*"; }
took() { echo "   ($((SECONDS - $1)) s)"; }
# Cargo on a generated crate, never in the repository's own target/.
gcargo() { CARGO_TARGET_DIR="$shared" cargo "$@"; }

# Each crate resolves its dependencies from openapi2mcp's own Cargo.lock: the
# versions openapi2mcp is built and tested with, which its generated
# Cargo.toml pins. Lock files created here are removed on exit, so generated/
# stays as committed.
created=()
cleanup() { for f in ${created[@]+"${created[@]}"}; do rm -f "$f"; done; }
trap cleanup EXIT
seed_lock() {
  if [ ! -e "$1/Cargo.lock" ]; then
    cp Cargo.lock "$1/Cargo.lock"
    created+=("$1/Cargo.lock")
  fi
}

crates=()
for dir in generated/*/; do
  dir=${dir%/}
  [ -f "$dir/Cargo.toml" ] && crates+=("$dir")
done
[ ${#crates[@]} -gt 0 ] || fail "no crates in generated/ (scripts/regenerate.sh makes them)"

for dir in "${crates[@]}"; do
  manifest="$dir/Cargo.toml"
  seed_lock "$dir"
  hint="the code comes from templates/ and crates/codegen/; after fixing them, refresh generated/ with scripts/regenerate.sh"

  step "$dir: cargo clippy --all-targets -- -D warnings"
  t=$SECONDS
  gcargo clippy --quiet --manifest-path "$manifest" --all-targets -- -D warnings \
    || fail "$dir does not pass clippy -D warnings ($hint)"
  took "$t"

  step "$dir: cargo build"
  t=$SECONDS
  gcargo build --quiet --manifest-path "$manifest" || fail "$dir does not build ($hint)"
  took "$t"

  step "$dir: cargo test"
  t=$SECONDS
  gcargo test --quiet --manifest-path "$manifest" \
    || fail "$dir: tests fail (they run openapi2mcp-runtime and openapi2mcp-server from crates/)"
  took "$t"
done

step "GitHub's REST description: openapi2mcp generate ($bin) into $github_out"
scripts/fetch-test-specs.sh
t=$SECONDS
if [ -z "${OPENAPI2MCP_BIN:-}" ]; then
  env -u CARGO_TARGET_DIR cargo build --release --quiet || fail "cargo build --release of openapi2mcp"
fi
[ -x "$bin" ] || fail "$bin not found"
"$bin" generate "$github_doc" --out "$github_out" --name github-mcp --quiet \
  || fail "openapi2mcp generate $github_doc failed"
took "$t"

step "$github_out: cargo check"
seed_lock "$github_out"
t=$SECONDS
gcargo check --quiet --manifest-path "$github_out/Cargo.toml" \
  || fail "the crate generated from GitHub's REST description does not pass cargo check (in $github_out; it comes from templates/ and crates/codegen/)"
took "$t"

echo "check-generated: ok (${#crates[@]} crates in generated/, and GitHub's)"
