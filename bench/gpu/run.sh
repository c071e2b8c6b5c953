#!/usr/bin/env bash
# Runs the benchmark suite on a GPU machine (see bench/README.md).
#
#   bench/gpu/run.sh [--bin DIR] [--out DIR] [--work DIR] [HARNESS ARGS...]
#
# Checks the environment first (a GPU, PyTorch with CUDA, our tools and
# that they load), then runs bench/harness.py and writes under the output
# folder: run.log, bench.json, bench.md, bench.png (when matplotlib is
# there) and tune.db (the tuner's database, when one was written).
#
#   --bin DIR    folder of deplodock-opt, -translate, -run, -tune, or of
#                the deplodock-tools.tar.xz that scripts/build-portable.sh
#                packs (default: $DEPLODOCK_BIN, else build-portable/carry)
#   --out DIR    output folder (default: $OUT, as the device tool sets it)
#   --work DIR   cases, inputs and outputs (default: /tmp/deplodock-bench;
#                large, so never under the output folder)
#   --env-only   check the environment and stop
#
# Every other argument goes to bench/harness.py, for example
#   bench/gpu/run.sh --families rmsnorm,softmax --backends eager,compile,ours
#   bench/gpu/run.sh --dtypes fp32 --max-minutes 8 --resume prev/bench.json
#   bench/gpu/run.sh --dtypes fp32 --tf32   # also the opt-in TF32 section
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bin=${DEPLODOCK_BIN:-$repo/build-portable/carry}
out=${OUT:-}
work=${TMPDIR:-/tmp}/deplodock-bench
python=${PYTHON:-python3}
env_only=0
harness_args=()

die() {
  echo "error: $*" >&2
  exit 2
}

while [ $# -gt 0 ]; do
  case "$1" in
    --bin) [ $# -ge 2 ] || die "--bin needs a folder"; bin=$2; shift 2 ;;
    --bin=*) bin=${1#--bin=}; shift ;;
    --out) [ $# -ge 2 ] || die "--out needs a folder"; out=$2; shift 2 ;;
    --out=*) out=${1#--out=}; shift ;;
    --work) [ $# -ge 2 ] || die "--work needs a folder"; work=$2; shift 2 ;;
    --work=*) work=${1#--work=}; shift ;;
    --env-only) env_only=1; shift ;;
    -h|--help) sed -n '2,23p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) harness_args+=("$1"); shift ;;
  esac
done

[ -n "$out" ] || die "no output folder: set \$OUT or pass --out DIR"
mkdir -p "$out" "$work"
out=$(cd "$out" && pwd)
[ -d "$bin" ] || die "no tools folder $bin (run scripts/build-portable.sh and carry build-portable/carry, or pass --bin DIR)"
bin=$(cd "$bin" && pwd)
# scripts/build-portable.sh packs the tools into one archive.
if [ -f "$bin/deplodock-tools.tar.xz" ]; then
  mkdir -p "$work/bin"
  tar -C "$work/bin" -xJf "$bin/deplodock-tools.tar.xz" ||
    die "cannot unpack $bin/deplodock-tools.tar.xz"
  bin=$work/bin
fi
exec > >(tee -a "$out/run.log") 2>&1

echo "== environment ($(date -u +%Y-%m-%dT%H:%M:%SZ))"
command -v nvidia-smi >/dev/null || die "nvidia-smi not found: no NVIDIA driver here"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.sm,temperature.gpu \
  --format=csv || die "nvidia-smi finds no GPU"
if command -v nvcc >/dev/null; then nvcc --version | tail -1; else echo "nvcc: not on PATH"; fi

"$python" - <<'EOF' || die "$python needs PyTorch with a CUDA GPU, and numpy"
import platform
import numpy
import torch
print(f"python {platform.python_version()}, numpy {numpy.__version__}, "
      f"torch {torch.__version__} (CUDA {torch.version.cuda})")
if not torch.cuda.is_available():
    raise SystemExit("torch.cuda.is_available() is False")
p = torch.cuda.get_device_properties(0)
print(f"device {p.name}, sm_{p.major}{p.minor}, {p.multi_processor_count} SMs")
for name in ("triton", "matplotlib"):
    try:
        print(name, __import__(name).__version__)
    except ImportError:
        print(f"{name}: not installed" +
              (" (no PNG chart)" if name == "matplotlib" else ""))
EOF

missing=()
for tool in deplodock-opt deplodock-translate deplodock-run deplodock-tune deplodock-bench-worker; do
  if [ ! -x "$bin/$tool" ]; then
    missing+=("$tool")
    continue
  fi
  if ldd "$bin/$tool" 2>/dev/null | grep -q "not found"; then
    ldd "$bin/$tool" | grep "not found" >&2
    die "$bin/$tool needs libraries this machine lacks (carry a portable build: see bench/README.md)"
  fi
  "$bin/$tool" --version >/dev/null 2>&1 || die "$bin/$tool does not run here"
  echo "$tool: ok"
done
for tool in ${missing[@]+"${missing[@]}"}; do
  case "$tool" in
    deplodock-bench-worker) die "missing $bin/deplodock-bench-worker (deplodock-run --bench and deplodock-tune --backend=cuda run kernels through it)" ;;
    deplodock-tune) echo "deplodock-tune: missing (the 'tuned' backend needs it; pass --backends eager,compile,ours without it)" ;;
    *) die "missing $bin/$tool" ;;
  esac
done
[ "$env_only" = 1 ] && exit 0

echo "== benchmark"
status=0
PYTHONUNBUFFERED=1 "$python" "$repo/bench/harness.py" --out "$out" \
  --work-dir "$work" --bin-dir "$bin" ${harness_args[@]+"${harness_args[@]}"} || status=$?
if [ -f "$work/tune.db" ]; then
  size=$(stat -c %s "$work/tune.db")
  if [ "$size" -lt $((16 << 20)) ]; then cp "$work/tune.db" "$out/tune.db"; fi
fi
exit "$status"
