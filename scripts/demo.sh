#!/usr/bin/env bash
# The main job on a bundled example: builds Deplodock, lowers the example
# through every level down to CUDA C++ and prints each, and checks on the
# reference interpreter that the fused loops and the GPU kernels (simulated
# thread by thread) compute what the input does.
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
translate="$build_dir/bin/deplodock-translate"

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
  echo "---- Tile IR (--lower-to-tile: option 0 at every fork)"
  "$opt" "$f" --lower-to-tile
  echo
  echo "---- Kernel IR (--lower-to-kernel)"
  "$opt" "$f" --lower-to-kernel
  echo
  echo "---- CUDA C++ (deplodock-translate --emit-cuda)"
  "$opt" "$f" --deplodock-pipeline | "$translate" --emit-cuda
  echo
  echo "---- check: Loop IR and Kernel IR against Tensor IR on seeded inputs"
  "$run" --interp "$f" --pipeline=lower-to-tensor --compare=lower-to-loop \
    --print=summary
  "$run" --interp "$f" --pipeline=lower-to-tensor \
    --compare=lower-to-kernel --print=none
done
