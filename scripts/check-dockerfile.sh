#!/usr/bin/env bash
# Issue #47: the Dockerfile `generate` writes builds as written. Generates
# the Petstore's crate with `--vendor` (the runtime and server crates
# copied in: a container build context holds nothing else) into a clean
# directory without a Cargo.lock, and runs the build stage's RUN command
# from that Dockerfile there, verbatim, with /bin/sh as `docker build`
# would (no docker needed): a cold release build of the crate and every
# dependency, in the crate's own target/ (the command strips
# target/release/<package>).
#
#   scripts/check-dockerfile.sh        (needs target/release/openapi2mcp)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${OPENAPI2MCP_BIN:-$root/target/release/openapi2mcp}"
say() { echo "check-dockerfile: $*" >&2; }
[ -x "$bin" ] || { say "ERROR: $bin missing (cargo build --release)"; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
crate="$work/petstore-mcp"
"$bin" generate "$root/specs/petstore.yaml" --vendor --out "$crate" -q
[ ! -e "$crate/Cargo.lock" ] || { say "ERROR: generate wrote a Cargo.lock"; exit 1; }
# The build stage's RUN command: from `RUN` to the first line not ending
# in a backslash, joined into one line as docker does.
run="$(awk '/^FROM .* AS build/ { build = 1 } build && /^RUN / { on = 1; sub(/^RUN /, "") }
  on { line = $0; cont = sub(/\\$/, "", line); printf "%s ", line; if (!cont) exit }' "$crate/Dockerfile")"
[ -n "$run" ] || { say "ERROR: no RUN command in the build stage of $crate/Dockerfile"; exit 1; }
say "RUN $run"
# CHECK_DOCKERFILE_TARGET=DIR keeps the build's target/ there (a second
# run then rebuilds only what changed); by default it is cold, as in a
# container.
if [ -n "${CHECK_DOCKERFILE_TARGET:-}" ]; then
  mkdir -p "$CHECK_DOCKERFILE_TARGET"
  ln -s "$CHECK_DOCKERFILE_TARGET" "$crate/target"
fi
started=$SECONDS
(cd "$crate" && env -u CARGO_TARGET_DIR /bin/sh -ec "$run") \
  || { say "ERROR: the Dockerfile's build command failed in a clean directory (no Cargo.lock)"; exit 1; }
[ -x "$crate/target/release/petstore-mcp" ] || { say "ERROR: no binary after the build"; exit 1; }
say "ok: built in $((SECONDS - started)) s, $(du -h "$crate/target/release/petstore-mcp" | cut -f1) stripped"
