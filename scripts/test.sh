#!/usr/bin/env bash
# Installs, builds and runs the whole test suite: lit/FileCheck tests of the
# dialects, passes and tools, then the GoogleTest units through ctest.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${BUILD_DIR:-$root/build}
export BUILD_DIR=$build_dir

"$root/scripts/setup.sh"
jobs=${JOBS:-$(nproc)}
echo "== build"
ninja -C "$build_dir" -j "$jobs"
echo "== lit"
/usr/lib/llvm-22/bin/lit -sv "$build_dir/test"
echo "== ctest"
(cd "$build_dir" && ctest -j "$jobs" --output-on-failure)
