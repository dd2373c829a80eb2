#!/usr/bin/env bash
# Checks the crates' layering from the resolved dependency trees (no build):
# what each crate may not depend on, directly or through anything else
# (issue #44). Resolved per crate, as a user depending on it alone gets it.
#
#   scripts/check-layering.sh
set -euo pipefail
cd "$(dirname "$0")/.."
fail() {
  echo "check-layering: FAILED: $*" >&2
  exit 1
}
# The package names in crate's normal and build dependency tree (with the
# given cargo flags), one per line.
tree() {
  local crate=$1
  shift
  cargo tree --quiet -p "$crate" -e normal,build --prefix none --no-dedupe "$@" |
    sed 's/ (\*)//; s/ (proc-macro)//' | awk '{print $1}' | sort -u
}
# forbid CRATE "FLAGS" PACKAGE...: none of PACKAGE is in CRATE's tree.
forbid() {
  local crate=$1 flags=$2
  shift 2
  local names
  # shellcheck disable=SC2086
  names=$(tree "$crate" $flags)
  for package in "$@"; do
    if grep -qx "$package" <<<"$names"; then
      fail "$crate${flags:+ ($flags)} depends on $package: $(cargo tree --quiet -p "$crate" $flags -e normal,build -i "$package" | head -12 | tr '\n' ' ')"
    fi
  done
  echo "check-layering: $crate${flags:+ ($flags)}: $(wc -l <<<"$names") packages, none of: $*"
}
server_side=(openapi2mcp-runtime openapi2mcp-server rmcp axum)
forbid openapi2mcp-model "" openapi2mcp-document openapi2mcp-tools openapi2mcp-codegen "${server_side[@]}" tokio reqwest serde_norway
forbid openapi2mcp-document "" openapi2mcp-tools openapi2mcp-codegen "${server_side[@]}" tokio reqwest hyper
forbid openapi2mcp-tools "" openapi2mcp-codegen "${server_side[@]}" tokio reqwest hyper clap
forbid openapi2mcp-codegen "" "${server_side[@]}" tokio reqwest hyper clap rquickjs tiktoken-rs
# With URLs read (the `fetch` feature) the generator still has no server.
forbid openapi2mcp-codegen "--features fetch" "${server_side[@]}" rquickjs tiktoken-rs
# The mock serves HTTP itself (axum), but calls nothing and speaks no MCP.
forbid openapi2mcp-mock "" openapi2mcp-codegen openapi2mcp-runtime openapi2mcp-server rmcp reqwest clap rquickjs
forbid openapi2mcp-runtime "" openapi2mcp-document openapi2mcp-tools openapi2mcp-codegen openapi2mcp-server rmcp
forbid openapi2mcp-server "" openapi2mcp-document openapi2mcp-tools openapi2mcp-codegen
echo "check-layering: ok"
