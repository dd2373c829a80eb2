#!/usr/bin/env bash
# Issue #29 item 4: builds the npm packages (packaging/npm: `openapi2mcp`,
# whose bin runs the prebuilt binary of the platform package
# `@openapi2mcp/<platform>-<arch>`) and the PyPI wheel
# (packaging/pypi/build_wheel.py) from the release binary, installs each
# the way MCP clients run them (`npm exec`, which is npx; `uvx --from
# WHEEL`), and drives each once with the official MCP Python SDK over
# stdio: tools listed, `get_pet` called on the document's mock.
#
# Needs: the release binary (cargo build --release), Node/npm, and the
# venv of scripts/external-clients/setup.sh (uv is installed into it here).
# No registry is contacted for the packages under test.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
bin="${OPENAPI2MCP_BIN:-$root/target/release/openapi2mcp}"
py="${EXTERNAL_CLIENTS_DIR:-$root/target/external-clients}/venv/bin/python"
out="$root/target/packaging"
say() { echo "packaging: $*" >&2; }
[ -x "$bin" ] || { say "ERROR: $bin missing (cargo build --release)"; exit 2; }
[ -x "$py" ] || { say "ERROR: $py missing (scripts/external-clients/setup.sh)"; exit 2; }
version="$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)"
rm -rf "$out"; mkdir -p "$out/stage"

# --- npm -------------------------------------------------------------------
platform="$(node -p 'process.platform + "-" + process.arch')"
os="${platform%-*}"; cpu="${platform#*-}"
plat="$out/stage/platform"
mkdir -p "$plat/bin"
sed -e "s/@PLATFORM@/$platform/g" -e "s/@VERSION@/$version/g" -e "s/@OS@/$os/g" -e "s/@CPU@/$cpu/g" \
  packaging/npm/platform/package.json.in > "$plat/package.json"
cp "$bin" "$plat/bin/openapi2mcp"
main="$out/stage/openapi2mcp"
cp -r packaging/npm/openapi2mcp "$main"
node -e '
const fs = require("fs");
const [file, version] = process.argv.slice(1);
const pkg = JSON.parse(fs.readFileSync(file, "utf8"));
pkg.version = version;
pkg.optionalDependencies = Object.fromEntries(
  ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "win32-x64"]
    .map((p) => [`@openapi2mcp/${p}`, version]));
fs.writeFileSync(file, JSON.stringify(pkg, null, 2) + "\n");
' "$main/package.json" "$version"
(cd "$out" && npm pack --silent "$plat" "$main" >/dev/null 2>&1)
main_tgz="$out/openapi2mcp-$version.tgz"
plat_tgz="$out/openapi2mcp-$platform-$version.tgz"
[ -f "$main_tgz" ] && [ -f "$plat_tgz" ] || { say "ERROR: npm pack made no tarballs"; ls "$out" >&2; exit 1; }
say "npm: $(basename "$main_tgz") ($(du -h "$main_tgz" | cut -f1)), $(basename "$plat_tgz") ($(du -h "$plat_tgz" | cut -f1))"
# Installed as a client's npx would: the main package and this platform's
# binary package (optional dependencies for other platforms left out, so
# nothing is fetched from the registry).
project="$out/npm-project"
mkdir -p "$project"
(cd "$project" && npm init -y >/dev/null 2>&1 && npm install --silent --no-audit --no-fund --omit=optional "$plat_tgz" "$main_tgz" >/dev/null 2>&1) \
  || { say "ERROR: npm install of the tarballs failed"; exit 1; }

drive() {  # drive LABEL CMD...: tools listed and get_pet called, over stdio
  local label="$1"; shift
  local result
  result="$(timeout 120 "$py" scripts/external-clients/python_client.py --call get_pet --args '{"petId": 1}' \
    stdio -- "$@" serve "$root/specs/petstore.yaml" --mock)" || { say "ERROR: $label: the client failed"; return 1; }
  echo "$result" | "$py" -c '
import json, sys
label = sys.argv[1]
r = json.load(sys.stdin)
assert r["tools"] == 8, (label, r)  # the petstore document has 7 operations, plus get_call_result
call = r["call"]
assert not call.get("isError"), (label, call)
assert call["structuredContent"]["name"] == "Rex", (label, call)
print(f"packaging: {label}: 8 tools listed (7 operations, get_call_result), get_pet answered from the mock")
' "$label"
}
drive "npx (npm exec)" npm exec --prefix "$project" --offline --yes -- openapi2mcp
# The bin wrapper passes the exit code through.
set +e
npm exec --prefix "$project" --offline --yes -- openapi2mcp lint /nonexistent.yaml >/dev/null 2>&1
code=$?
set -e
[ "$code" -ne 0 ] || { say "ERROR: a failing command exited 0 through the npm wrapper"; exit 1; }

# --- PyPI ------------------------------------------------------------------
wheel="$("$py" packaging/pypi/build_wheel.py --binary "$bin" --version "$version" --out "$out")"
say "wheel: $(basename "$wheel") ($(du -h "$wheel" | cut -f1))"
"$py" -m pip install --quiet --disable-pip-version-check uv==0.9.* >/dev/null 2>&1 \
  || "$py" -m pip install --quiet --disable-pip-version-check uv >/dev/null
uvx="$(dirname "$py")/uvx"
# uv keys a cached tool environment by the wheel's path, which is the same
# on every run: a run that reused one (from a cache outside $out) served an
# older binary (7 tools, coloured logs). Each run gets a fresh environment,
# and the binary uvx runs must be the one just built.
export UV_CACHE_DIR="$out/uv-cache" UV_TOOL_DIR="$out/uv-tools" UV_PYTHON_DOWNLOADS=never
uvx_run=("$uvx" --offline --no-cache --isolated --no-config --python "$py" --from "$wheel")
ran="$("${uvx_run[@]}" python -c 'import hashlib, shutil; print(hashlib.sha256(open(shutil.which("openapi2mcp"), "rb").read()).hexdigest())')"
built="$(sha256sum "$bin" | cut -d' ' -f1)"
[ "$ran" = "$built" ] || { say "ERROR: uvx runs a binary other than $bin (sha256 $ran, built $built)"; exit 1; }
drive "uvx --from WHEEL" "${uvx_run[@]}" openapi2mcp
say "ok"
