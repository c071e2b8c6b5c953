#!/usr/bin/env bash
# The main job on a bundled example: builds Deplodock, then lowers the
# example as far as the pipeline reaches and prints every level, and checks
# on the reference interpreter that the lowered layer computes what the
# input does.
#
#   scripts/demo.sh                               # examples/rmsnorm.mlir
#   scripts/demo.sh examples/decoder_block.mlir   # any file(s)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${BUILD_DIR:-$root/build}
export BUILD_DIR=$build_dir

"$root/scripts/setup.sh"
echo "demo: building (first time: a few minutes)"
ninja -C "$build_dir" -j "${JOBS:-$(nproc)}" deplodock-opt deplodock-run \
  deplodock-translate >/dev/null
opt="$build_dir/bin/deplodock-opt"
run="$build_dir/bin/deplodock-run"

files=("$@")
[ ${#files[@]} -gt 0 ] || files=("$root/examples/rmsnorm.mlir")
for f in "${files[@]}"; do
  echo
  echo "==================== $(basename "$f")"
  echo "---- input (linalg/tensor/tosa on tensors)"
  grep -v '^//' "$f"
  echo
  echo "---- Tensor IR (--lower-to-tensor)"
  "$opt" "$f" --lower-to-tensor
  echo
  echo "---- Loop IR (--lower-to-loop: lifted and fused)"
  "$opt" "$f" --lower-to-loop
  echo
  echo "---- check: Loop IR against Tensor IR on seeded inputs"
  "$run" --interp "$f" --pipeline=lower-to-tensor --compare=lower-to-loop \
    --print=summary
done
