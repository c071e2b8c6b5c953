#!/usr/bin/env bash
# Installs, builds and runs the whole test suite: lit/FileCheck tests of the
# dialects, passes and tools, then the GoogleTest units through ctest. Both
# run even when the first fails; the exit status is non-zero when either
# did.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${BUILD_DIR:-$root/build}
export BUILD_DIR=$build_dir

"$root/scripts/setup.sh"
jobs=${JOBS:-$(nproc)}
echo "== build"
ninja -C "$build_dir" -j "$jobs"

lit_status=0
ctest_status=0
echo "== lit"
/usr/lib/llvm-22/bin/lit -sv "$build_dir/test" || lit_status=$?
echo "== ctest"
(cd "$build_dir" && ctest -j "$jobs" --output-on-failure) || ctest_status=$?

echo "== summary"
summary() { [ "$2" -eq 0 ] && echo "$1: passed" || echo "$1: FAILED (exit $2)"; }
summary lit "$lit_status"
summary ctest "$ctest_status"
[ "$lit_status" -eq 0 ] && [ "$ctest_status" -eq 0 ]
