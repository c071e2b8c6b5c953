#!/usr/bin/env bash
# Exports the PyTorch layers of examples/pytorch/layers.py at their small
# widths with deplodock-import, as the committed fixtures beside this script
# (or into DIR): NAME.mlir, NAME.args and NAME.data/ (weights, inputs and
# PyTorch's outputs). Needs the venv of `scripts/setup.sh --torch`.
#
#   test/Frontend/Inputs/export.sh [DIR]
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)
out=${1:-$here}
mkdir -p "$out"
cd "$out"
import=("$root/tools/deplodock-import/deplodock-import" "$root/examples/pytorch/layers.py")
for layer in llama qwen2 gpt2 lm_head; do
  "${import[@]}" "$layer" --input 1x8x32xf32 --reference -o "$layer.mlir"
done
"${import[@]}" embedding --input 1x8xi64:0:96 --reference -o embedding.mlir
"${import[@]}" top_one --input 1x8x96xf32 --reference -o top_one.mlir
# The same head with its weights kept as dense_resource constants.
"${import[@]}" lm_head --keep-params --input 1x8x32xf32 --reference \
  -o lm_head_kept.mlir --func lm_head_kept
