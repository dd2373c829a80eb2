#!/usr/bin/env bash
# Installs the OAuth authorization server the identity tests run against
# (npm oidc-provider, pinned by package-lock.json) into target/oauth.
# tests/it/identity.rs starts scripts/oauth/provider.mjs with it.
set -euo pipefail
cd "$(dirname "$0")/../.."
dest=target/oauth
mkdir -p "$dest"
cp scripts/oauth/package.json scripts/oauth/package-lock.json scripts/oauth/provider.mjs "$dest/"
(cd "$dest" && npm ci --no-audit --no-fund --loglevel=error)
echo "oauth oracle: oidc-provider $(node -p "require('./$dest/node_modules/oidc-provider/package.json').version") in $dest"
