#!/usr/bin/env bash
# Makes the PyTorch importer's environment: ./.venv with the pinned
# requirements-torch.txt (torch, torch-mlir) from the Python package index.
# Idempotent: quiet when the venv already holds them. Called by
# `scripts/setup.sh --torch`; fails (non-zero) when PyPI is unreachable.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
venv=${DEPLODOCK_VENV:-$root/.venv}
requirements=$root/requirements-torch.txt
stamp=$venv/.requirements-torch.txt

if [ -f "$stamp" ] && cmp -s "$stamp" "$requirements"; then
  exit 0
fi
# Debian's python3 (3.11 on Debian 12: torch-mlir ships cp311 wheels) when
# there, whatever python3 comes first on PATH.
python=/usr/bin/python3
[ -x "$python" ] || python=python3
echo "setup: making $venv (torch and torch-mlir from PyPI, several GB)"
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check \
  -r "$requirements"
cp "$requirements" "$stamp"
