#!/usr/bin/env bash
# The main job on a bundled example: builds Deplodock, lowers the example
# through every level down to CUDA C++ and prints each, checks on the
# reference interpreter that the fused loops and the GPU kernels (simulated
# thread by thread) compute what the input does, then tunes every kernel
# (model backend without a GPU; DEPLODOCK_TUNE_BACKEND=cuda on one) into a
# scratch database and compiles and checks the layer again with the winners.
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
  deplodock-translate deplodock-tune >/dev/null
opt="$build_dir/bin/deplodock-opt"
run="$build_dir/bin/deplodock-run"
translate="$build_dir/bin/deplodock-translate"
tune="$build_dir/bin/deplodock-tune"
backend=${DEPLODOCK_TUNE_BACKEND:-model}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

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
  # The Tensor IR's results, computed once, are the reference of every check
  # (--expect); the checks of the heuristic lowering run beside the tuning.
  ref="$scratch/ref"
  mkdir -p "$ref"
  "$run" --interp "$f" --pipeline=lower-to-tensor --print=summary \
    --output-dir="$ref" | tee "$scratch/summary"
  expect=()
  for ((i = 0; ; ++i)); do
    [ -e "$ref/result$i.npy" ] || break
    expect+=(--expect="$ref/result$i.npy")
  done
  # The lowerings may sum in another order than the Tensor IR (attention's
  # online softmax, split-K, warp and tree reductions), and reordered f32
  # sums differ by rounding that scales with the size of the terms, not of
  # each result (a result near 0 may be a difference of large sums; the
  # example's random weights make results of ~1e4). So the checks allow,
  # besides f32's relative 1e-4, 1e-4 of the largest result absolutely.
  atol=$(awk '/^result #/ {
      for (i = 1; i < NF; ++i)
        if ($i == "min" || $i == "max") { v = $(i + 1) + 0; v = v < 0 ? -v : v; if (v > m) m = v }
    } END { printf "%.3g", (m * 1e-4 > 1e-5 ? m * 1e-4 : 1e-5) }' "$scratch/summary")
  checks=()
  for level in loop kernel; do
    "$run" --interp "$f" --pipeline="lower-to-$level" "${expect[@]}" \
      --print=none --atol="$atol" >"$scratch/check-$level" 2>&1 &
    checks+=($!)
  done
  db="$scratch/$(basename "$f" .mlir).db"
  "$tune" "$f" --backend="$backend" --db="$db" --max-variants=64 --quiet \
    >"$scratch/tune" 2>&1 &
  tuning=$!
  status=0
  for pid in "${checks[@]}"; do wait "$pid" || status=1; done
  cat "$scratch/check-loop" "$scratch/check-kernel"
  [ "$status" = 0 ] || { wait "$tuning" || true; exit 1; }
  echo
  echo "---- tune: every kernel, $backend backend, into a scratch database"
  wait "$tuning" || { cat "$scratch/tune"; exit 1; }
  cat "$scratch/tune"
  echo
  echo "---- CUDA C++ with the tuned knobs (--deplodock-pipeline=\"tune-db=...\")"
  "$opt" "$f" --deplodock-pipeline="tune-db=$db tune-report" |
    "$translate" --emit-cuda
  echo
  echo "---- check: the tuned kernels against Tensor IR"
  "$run" --interp "$f" --pipeline=lower-to-kernel --tune-db="$db" \
    "${expect[@]}" --print=none --atol="$atol"
done
