#!/usr/bin/env bash
# Regenerates the crates in generated/ from the documents in specs/.
# tests/it/generate.rs fails when they are stale and names this script.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet
for entry in petstore:specs/petstore.yaml features:specs/features.yaml oas32:specs/oas32.yaml; do
  name=${entry%%:*}
  spec=${entry#*:}
  target/debug/openapi2mcp generate "$spec" --out "generated/$name" --name "$name-mcp" --runtime-path ../../crates --quiet
done
