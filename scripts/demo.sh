#!/usr/bin/env bash
# The main job on the bundled examples: builds Deplodock, then lowers each
# example as far as the pipeline reaches and prints every level.
#
#   scripts/demo.sh                       # every examples/*.mlir
#   scripts/demo.sh examples/rmsnorm.mlir # one file
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${BUILD_DIR:-$root/build}
export BUILD_DIR=$build_dir

"$root/scripts/setup.sh"
ninja -C "$build_dir" -j "${JOBS:-$(nproc)}" deplodock-opt deplodock-translate >/dev/null
opt="$build_dir/bin/deplodock-opt"

files=("$@")
[ ${#files[@]} -gt 0 ] || files=("$root"/examples/*.mlir)
for f in "${files[@]}"; do
  echo "==================== $(basename "$f")"
  echo "---- input, verified"
  "$opt" "$f"
done
