#!/usr/bin/env bash
# Regenerates the dialect and pass references and copies them into docs/.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${BUILD_DIR:-$root/build}
ninja -C "$build_dir" mlir-doc >/dev/null
mkdir -p "$root/docs/Dialects" "$root/docs/Passes"
cp "$build_dir"/docs/Dialects/*.md "$root/docs/Dialects/"
cp "$build_dir"/docs/*Passes.md "$root/docs/Passes/"
echo "docs: updated $(ls "$build_dir"/docs/Dialects/*.md "$build_dir"/docs/*Passes.md | wc -l) files"
