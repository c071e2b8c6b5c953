#!/usr/bin/env bash
# A long fuzz campaign over the built tools (build/bin): IR mutants of the
# examples and of their Tensor/Loop/Tile/Kernel IR, protocol frames for the
# bench worker, lying answers for the bench client, flags and files for every
# tool. Prints the report (tried / clean / diagnosed / crashed / hung / wrong
# per campaign, and the reproducer of every finding) and writes it as JSON.
# See fuzz/README.md; the lit suite runs a bounded version (test/Fuzz).
#
#   scripts/fuzz.sh                         # seed 1, 5000 IR mutants ...
#   SEED=7 IR=20000 FRAMES=5000 scripts/fuzz.sh
#   BIN_DIR=build-asan/bin SANITIZED=1 scripts/fuzz.sh
#
# Exit status: 1 when a run crashed, hung or was wrong and the finding is
# not listed in fuzz/known-findings.txt (STRICT=1: even when it is).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${BUILD_DIR:-$root/build}
bin_dir=${BIN_DIR:-$build_dir/bin}
out=${OUT:-$build_dir/fuzz-out}
if [ -z "${BIN_DIR:-}" ]; then
  "$root/scripts/setup.sh"
  ninja -C "$build_dir" -j "${JOBS:-$(nproc)}" deplodock-opt deplodock-run \
    deplodock-translate deplodock-tune deplodock-bench-worker
fi
args=(--bin-dir="$bin_dir" --out="$out" --seed="${SEED:-1}"
  --ir="${IR:-5000}" --frames="${FRAMES:-1500}" --client="${CLIENT:-300}"
  --flags="${FLAGS:-1000}" --jobs="${JOBS:-$(nproc)}"
  --json="$out/report.json")
[ -z "${SANITIZED:-}" ] || args+=(--sanitized)
[ -z "${STRICT:-}" ] || args+=(--strict)
mkdir -p "$out"
# Debian's python3: the one on PATH may be another (the fuzzer needs only
# the standard library, but runs the same everywhere this way).
python=/usr/bin/python3
[ -x "$python" ] || python=python3
exec "$python" "$root/fuzz/fuzz.py" "${args[@]}"
