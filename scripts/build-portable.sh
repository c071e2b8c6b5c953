#!/usr/bin/env bash
# Builds self-contained tools for a GPU machine that has no LLVM or MLIR
# (DEPLODOCK_PORTABLE: static MLIR, LLVM, SQLite and libstdc++; glibc >= 2.36,
# the CUDA driver and NVRTC are all they need, the last two opened lazily).
# Configures build-portable/, builds the tools, and packs stripped copies
# into build-portable/carry/deplodock-tools.tar.xz, small enough to carry
# (bench/gpu/run.sh unpacks it).
#
#   scripts/build-portable.sh                 # the tools the GPU machine runs
#   scripts/build-portable.sh deplodock-opt   # or these
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${PORTABLE_BUILD_DIR:-$root/build-portable}
tools=("$@")
[ ${#tools[@]} -gt 0 ] || tools=(deplodock-run deplodock-tune deplodock-bench-worker
  deplodock-opt deplodock-translate)

BUILD_DIR=$build_dir "$root/scripts/setup.sh" --portable
ninja -C "$build_dir" -j "${JOBS:-$(nproc)}" "${tools[@]}"

# Stripped tools in stripped/; the GPU machine gets them as one archive in
# carry/ (they share most of their code: 65 MiB of tools pack into ~10).
stripped="$build_dir/stripped"
mkdir -p "$stripped" "$build_dir/carry"
for t in "${tools[@]}"; do
  llvm-strip-22 -o "$stripped/$t" "$build_dir/bin/$t"
  awk -v t="$t" -v s="$(stat -c %s "$stripped/$t")" \
    'BEGIN { printf "%-28s %6.1f MiB stripped\n", t, s / 1048576 }'
done
archive="$build_dir/carry/deplodock-tools.tar.xz"
XZ_OPT="-6 -T${JOBS:-$(nproc)}" tar -C "$stripped" -cJf "$archive" "${tools[@]}"
awk -v s="$(stat -c %s "$archive")" -v a="$archive" \
  'BEGIN { printf "%-28s %6.1f MiB: carry %s\n", "archive", s / 1048576, a }'
