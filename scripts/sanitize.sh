#!/usr/bin/env bash
# Builds Deplodock with AddressSanitizer and UndefinedBehaviorSanitizer in
# build-asan/ (or ThreadSanitizer in build-tsan/) and runs the whole test
# suite (lit and ctest) under them, then a short fuzz run of the sanitized
# tools; prints a summary. Our code is instrumented; libMLIR and libLLVM are
# Debian's, not instrumented (a bug inside them shows only where our code
# touches the memory).
#
#   scripts/sanitize.sh                 # configure, build, test, fuzz
#   ASAN_BUILD_DIR=out scripts/sanitize.sh
#   FUZZ_IR=0 scripts/sanitize.sh       # no fuzz run
#   SANITIZER=thread scripts/sanitize.sh  # ThreadSanitizer: the tuner's
#                                       # threads, the interpreter's, the
#                                       # worker's (TSAN_BUILD_DIR=out)
#
# Exit status: non-zero when the build fails or any part reports a failure
# (a sanitizer report fails the test it happens in).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mode=${SANITIZER:-address}
case $mode in
address)
  build_dir=${ASAN_BUILD_DIR:-$root/build-asan}
  sanitizers=address,undefined
  label="ASan + UBSan"
  ;;
thread)
  build_dir=${TSAN_BUILD_DIR:-$root/build-tsan}
  sanitizers=thread
  label="TSan"
  ;;
*)
  echo "sanitize: SANITIZER is address or thread, not '$mode'" >&2
  exit 2
  ;;
esac
jobs=${JOBS:-$(nproc)}

# Packages only: setup.sh configures its own (unsanitized) build dir too.
"$root/scripts/setup.sh"
# The sanitizers' runtime libraries (not needed by the normal build).
if ! dpkg-query -W -f='${Status}' libclang-rt-22-dev 2>/dev/null |
  grep -q "install ok installed"; then
  echo "sanitize: installing libclang-rt-22-dev"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
    --no-install-recommends libclang-rt-22-dev >/dev/null
fi

flags="-fsanitize=$sanitizers -fno-sanitize-recover=all"
flags="$flags -fno-omit-frame-pointer -g"
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
if [ ! -f "$build_dir/build.ninja" ]; then
  echo "sanitize: configuring $build_dir"
  cmake -G Ninja -S "$root" -B "$build_dir" -Wno-dev \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_FLAGS_RELEASE="-O1 -DNDEBUG" \
    -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" \
    -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=$sanitizers" \
    -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=$sanitizers" \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DLLVM_USE_LINKER=lld "${launcher[@]}" \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir >/dev/null
fi
echo "== build ($label)"
start=$SECONDS
ninja -C "$build_dir" -j "$jobs"
build_s=$((SECONDS - start))

# Every report ends the process with a non-zero status, so the test fails.
# Leaks are reported too; LLVM's own command-line registries are not leaks.
# allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons what it has not
# handed out when its header is compiled with ASan (our code), but Debian's
# uninstrumented libMLIR allocates from the same slabs without unpoisoning,
# which ASan would report as use-after-poison inside libMLIR.
# handle_segv=0: the fault-injection tests make the worker die by SIGSEGV on
# purpose and check that the client sees that signal; ASan would turn it into
# its own report and exit 1 (invalid accesses it detects are still reported).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=1:abort_on_error=0:allocator_may_return_null=1:allow_user_poisoning=0:handle_segv=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$root/fuzz/lsan.supp:print_suppressions=0}
# A race report ends the process with exit 66, so the test fails. The
# suppressions are synchronisation TSan cannot see inside the uninstrumented
# libraries (fuzz/tsan.supp says which); handle_segv=0 as for ASan.
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:exitcode=66:handle_segv=0:report_signal_unsafe=0:suppressions=$root/fuzz/tsan.supp:print_suppressions=0}

lit_status=0
ctest_status=0
fuzz_status=0
echo "== lit (sanitized)"
start=$SECONDS
# Left out: the tests that load the instrumented libraries into programs
# built without the sanitizers (Python through ctypes: the package, pip,
# the tutorial; the installed-package consumer build), which cannot supply
# the sanitizers' runtime the libraries call.
/usr/lib/llvm-22/bin/lit -sv \
  --filter-out='Python/|Install/install\.test|Docs/tutorial\.test' \
  "$build_dir/test" || lit_status=$?
lit_s=$((SECONDS - start))
echo "== ctest (sanitized)"
start=$SECONDS
# NVRTC (NVIDIA's closed library, present where CUDA is) keeps a 72 KiB
# pool of its own C++ runtime until exit, when it is already unloaded and
# LeakSanitizer cannot name it: its tests run without leak checking.
(cd "$build_dir" && ctest -j "$jobs" --output-on-failure -E '^Nvrtc\.' &&
  ASAN_OPTIONS=$ASAN_OPTIONS:detect_leaks=0 ctest -j "$jobs" \
    --output-on-failure -R '^Nvrtc\.') || ctest_status=$?
ctest_s=$((SECONDS - start))
fuzz_s=0
if [ "${FUZZ_IR:-300}" != 0 ]; then
  echo "== fuzz (sanitized)"
  start=$SECONDS
  /usr/bin/python3 "$root/fuzz/fuzz.py" --bin-dir="$build_dir/bin" \
    --out="$build_dir/fuzz-out" --sanitized --seed="${FUZZ_SEED:-1}" \
    --ir="${FUZZ_IR:-300}" --frames="${FUZZ_FRAMES:-200}" \
    --client="${FUZZ_CLIENT:-20}" --flags="${FUZZ_FLAGS:-100}" --quiet ||
    fuzz_status=$?
  fuzz_s=$((SECONDS - start))
fi

echo "== summary ($label, $build_dir)"
summary() {
  [ "$2" -eq 0 ] && echo "$1: passed ($3 s)" || echo "$1: FAILED (exit $2, $3 s)"
}
echo "build: $build_s s"
summary lit "$lit_status" "$lit_s"
summary ctest "$ctest_status" "$ctest_s"
[ "${FUZZ_IR:-300}" = 0 ] || summary fuzz "$fuzz_status" "$fuzz_s"
[ "$lit_status" -eq 0 ] && [ "$ctest_status" -eq 0 ] && [ "$fuzz_status" -eq 0 ]
