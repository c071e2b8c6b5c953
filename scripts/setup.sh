#!/usr/bin/env bash
# Installs what Deplodock needs on Debian 12 and configures the build in
# ./build. Idempotent: quiet when everything is already there.
#
#   scripts/setup.sh            # install (if needed) and configure
#   BUILD_DIR=out scripts/setup.sh
#   scripts/setup.sh --portable # configure a portable build (build-portable.sh)
#   scripts/setup.sh --torch    # also the PyTorch importer's venv in ./.venv
#                               # (best effort; or DEPLODOCK_TORCH=1)
set -euo pipefail

portable=OFF
torch=${DEPLODOCK_TORCH:-0}
for arg in "$@"; do
  case $arg in
  --portable) portable=ON ;;
  --torch) torch=1 ;;
  esac
done

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${BUILD_DIR:-$root/build}

packages=(build-essential cmake ninja-build python3
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools clang-22 lld-22
  libgtest-dev libsqlite3-dev python3-numpy)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ ! -f "$build_dir/build.ninja" ]; then
  echo "setup: configuring $build_dir"
  cmake -G Ninja -S "$root" -B "$build_dir" -Wno-dev \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DLLVM_USE_LINKER=lld \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DDEPLODOCK_PORTABLE=$portable >/dev/null
fi

# Opt-in and best effort: without PyPI the C++ build and tests still work and
# the PyTorch export tests report unsupported.
if [ "$torch" = 1 ]; then
  "$root/tools/deplodock-import/setup-venv.sh" ||
    echo "setup: no PyTorch venv (PyPI unreachable?); the export tests will be unsupported" >&2
fi
