#!/usr/bin/env python3
"""Benchmarks our kernels against PyTorch eager and torch.compile on a GPU.

For every selected case (bench/cases.py):

1. write its MLIR and lower it to CUDA with our tools (recorded, so a case
   that does not lower says why);
2. draw seeded inputs (NumPy) and save them as .npy;
3. compute the float64 reference in PyTorch, then run and time PyTorch
   eager and torch.compile (bench/timing.py: CUDA events, warm-up by time,
   L2 flush, the call queued behind a GPU spin, median of adaptive
   repeats, a noisy timing taken again), checking their outputs too;
4. ours: `deplodock-run CASE.mlir --bench --input=... --output-dir=...
   --bench-json=...`, its output checked against the reference;
5. tuned: `deplodock-tune CASE.mlir --backend=cuda --db=DB ... --json`,
   then `deplodock-run --bench --tune-db=DB`, checked the same way.

PyTorch runs with TF32 off, ours in IEEE f32: the suite is true FP32. With
--tf32 (opt-in) each FP32 case also runs the same backends with TF32
contractions (eager_tf32, compile_tf32: allow_tf32 on; ours_tf32,
tuned_tf32: --precision=tf32), checked with TF32's tolerance and reported
in a section of their own, never in the FP32 ratios.

A result that does not match the reference is 'wrong' and never counted
as a time. Results are saved after every case to OUT/bench.json (all raw
numbers), and rendered as OUT/bench.md and OUT/bench.png (bench/report.py).

    bench/harness.py --out $OUT --bin-dir build-portable/carry --max-minutes 8
    bench/harness.py --out $OUT --families rmsnorm,softmax --backends eager,compile,ours
    bench/harness.py --out $OUT --resume old/bench.json      # skip what is done
    bench/harness.py --dry-run --out /tmp/dry --families matmul

--dry-run needs no GPU and no PyTorch: it lowers every case with our tools,
checks the small ones (the 'mini' test model) on our CPU interpreter
against NumPy and runs their GPU command (deplodock-run --bench, the same
inputs, outputs and JSON) on the worker's fake device, invents the timings
deterministically from the roofline floor, and writes the same files, named
bench.FAKE.*, marked FAKE.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import pathlib
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from dataclasses import dataclass, field
from typing import Sequence

try:
    import numpy
except ImportError:
    print("error: bench/harness.py needs numpy (python3 -m pip install numpy)",
          file=sys.stderr)
    sys.exit(2)

import cases as suite
import cli
import compare
import inputs as case_inputs
import lowering
import report
import roofline
import timing
from generate import case_record


@dataclass
class Settings:
    out: pathlib.Path
    work: pathlib.Path
    tools: lowering.Tools
    backends: tuple[str, ...]
    dry_run: bool = False
    target: str = "sm_90"
    seed: int = 0
    max_minutes: float = 8.0
    case_timeout: float = 180.0
    tune_seconds: float = 60.0
    tune_variants: int = 64
    # Minutes of tuning over all the selected cases, shared by their gaps to
    # the roofline floor (tune_budgets), or None: tune_seconds each.
    tune_total_minutes: float | None = None
    tune_budgets: dict = field(default_factory=dict)
    compile_mode: str = "default"
    bf16_npy: str = "bits"
    tf32: bool = False
    device_profile: str | None = None
    keep_arrays: bool = False
    interp_max_flops: float = 2e6
    retry_failed: bool = False
    timing: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"backends": list(self.backends), "target": self.target,
                "seed": self.seed, "max_minutes": self.max_minutes,
                "case_timeout_s": self.case_timeout,
                "tune_seconds": self.tune_seconds,
                "tune_variants": self.tune_variants,
                "tune_total_minutes": self.tune_total_minutes,
                "compile_mode": self.compile_mode, "tf32": False,
                "tf32_section": self.tf32,
                "bf16_npy": self.bf16_npy, "timing": self.timing,
                "tolerances": {d: vars(t) for d, t in compare.TOLERANCES.items()},
                "dry_run": self.dry_run}


TUNED_BACKENDS = ("tuned", report.TF32["tuned"])


def share_tuning(chosen: list[suite.Case], records: dict, total_s: float,
                 cap_s: float) -> dict[str, float]:
    """Each case's share of `total_s` seconds of tuning: by the factor its
    'ours' time stands above its roofline floor, in logs, since the suite's
    geomean counts every case's ratio alike (a case without both times
    weighs the median); at least a second, at most `cap_s`."""
    weights: dict[str, float] = {}
    for case in chosen:
        record = records.get(case.name) or {}
        ours = record.get("ours") or {}
        floor = (record.get("floor") or {}).get("us")
        if ours.get("status") == "ok" and floor:
            weights[case.name] = max(
                math.log(ours["median_us"] / floor), 0.0)
    known = sorted(weights.values())
    typical = statistics.median(known) if known else 1.0
    weights = {c.name: weights.get(c.name, typical) for c in chosen}
    total_w = sum(weights.values())
    shares = {}
    for name, w in weights.items():
        share = total_s * (w / total_w if total_w > 0 else 1 / len(weights))
        shares[name] = round(min(cap_s, max(1.0, share)), 1)
    return shares


def tune_seconds_for(settings: Settings, case: str) -> float:
    """The tuner's --max-seconds for a case: its share of
    --tune-total-minutes, else --tune-seconds."""
    return settings.tune_budgets.get(case, settings.tune_seconds)


def now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(
        timespec="seconds")


def git_commit() -> str | None:
    """$DEPLODOCK_COMMIT (a copy without .git), else git's description."""
    if os.environ.get("DEPLODOCK_COMMIT"):
        return os.environ["DEPLODOCK_COMMIT"]
    try:
        proc = subprocess.run(["git", "-C", str(suite.REPO), "describe",
                               "--always", "--dirty"], capture_output=True,
                              text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout.strip() if proc.returncode == 0 else None


def entry(status: str, **fields) -> dict:
    return dict(status=status, median_us=None, **fields)


def default_work_dir() -> pathlib.Path:
    return pathlib.Path(tempfile.gettempdir()) / "deplodock-bench"


def precision_of(backend: str) -> str | None:
    """'tf32' for the TF32 section's backends, else None (IEEE f32)."""
    return "tf32" if backend in report.TF32_BACKENDS else None


def remove_arrays(case_dir: pathlib.Path) -> None:
    """Drops a case's .npy files (inputs and results); they can be large."""
    for path in case_dir.rglob("*.npy"):
        path.unlink()


# --- Our tools on the GPU ----------------------------------------------------

def bench_command(settings: Settings, mlir: pathlib.Path,
                  input_paths: Sequence[pathlib.Path], out_dir: pathlib.Path,
                  tune_db: pathlib.Path | None = None,
                  precision: str | None = None) -> list[str]:
    """The deplodock-run --bench command of a case."""
    cmd = [str(settings.tools.path("deplodock-run")), str(mlir), "--bench",
           f"--target={settings.target}"]
    if precision:
        cmd.append(f"--precision={precision}")
    if tune_db:
        cmd.append(f"--tune-db={tune_db}")
    cmd += [f"--input={p}" for p in input_paths]
    cmd += [f"--output-dir={out_dir}",
            f"--bench-json={out_dir / 'bench.json'}"]
    return cmd


def run_ours(settings: Settings, case: suite.Case, mlir: pathlib.Path,
             input_paths: list[pathlib.Path], ref, out_dir: pathlib.Path,
             tune_db: pathlib.Path | None = None,
             extra_args: Sequence[str] = (),
             precision: str | None = None) -> dict:
    """deplodock-run --bench on the case; checked against `ref` (with
    TF32's tolerance when `precision` is tf32).

    `extra_args` go after the command (the dry run adds --fake-device: the
    same inputs, loading and outputs as on a GPU, without one)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    bench_json = out_dir / "bench.json"
    for stale in [bench_json, *out_dir.glob("result*.npy")]:
        stale.unlink(missing_ok=True)
    cmd = bench_command(settings, mlir, input_paths, out_dir, tune_db,
                        precision)
    cmd += list(extra_args)
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True,
                              timeout=settings.case_timeout)
    except subprocess.TimeoutExpired:
        return entry("timeout", command=cmd,
                     error=f"deplodock-run ran over {settings.case_timeout:g} s")
    if proc.returncode != 0:
        return entry("run_fail", command=cmd,
                     error=lowering.first_error(proc.stderr),
                     stderr=proc.stderr[-4000:])
    try:
        bench = json.loads(bench_json.read_text())
        median = float(bench["total_us"]["median"])
    except (OSError, ValueError, KeyError, TypeError) as e:
        return entry("run_fail", command=cmd,
                     error=f"unreadable --bench-json: {e}")
    try:
        out = case_inputs.load_result(out_dir / "result0.npy", case.out_dtype)
    except (OSError, ValueError) as e:
        return entry("run_fail", command=cmd, bench=bench,
                     error=f"no usable result0.npy: {e}")
    check = compare.compare(out, ref, precision or case.out_dtype)
    if bench.get("precision", "ieee") != (precision or "ieee"):
        return entry("run_fail", command=cmd, bench=bench, check=check,
                     error=f"deplodock-run ran in {bench.get('precision')}, "
                     f"not {precision or 'ieee'}")
    status = "ok" if check["ok"] else "wrong"
    return dict(status=status, median_us=median if check["ok"] else None,
                measured_us=median, command=cmd, bench=bench, check=check,
                error="" if check["ok"] else check["reason"])


def tune_command(settings: Settings, mlir: pathlib.Path, db: pathlib.Path,
                 seconds: float, precision: str | None = None) -> list[str]:
    """The deplodock-tune command of a case (TF32 tunes in its own context)."""
    return [str(settings.tools.path("deplodock-tune")), str(mlir),
            "--backend=cuda", f"--db={db}",
            f"--max-variants={settings.tune_variants}",
            f"--max-seconds={seconds:g}", "--json",
            *([f"--precision={precision}"] if precision else [])]


def run_tune(settings: Settings, mlir: pathlib.Path, db: pathlib.Path,
             seconds: float, precision: str | None = None
             ) -> tuple[dict | None, dict]:
    """deplodock-tune on the case; (failure entry or None, raw record)."""
    cmd = tune_command(settings, mlir, db, seconds, precision)
    start = time.monotonic()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True,
                              timeout=seconds + 120)
    except subprocess.TimeoutExpired:
        return entry("timeout", command=cmd, error="deplodock-tune ran over "
                     f"{seconds + 120:g} s"), {"command": cmd}
    raw: dict = {"command": cmd, "seconds": round(time.monotonic() - start, 3)}
    try:
        raw["result"] = json.loads(proc.stdout)
    except ValueError:
        raw["stdout"] = proc.stdout[-4000:]
    if proc.returncode != 0:
        return entry("tune_fail", command=cmd,
                     error=lowering.first_error(proc.stderr),
                     stderr=proc.stderr[-4000:]), raw
    return None, raw


# --- Runners -----------------------------------------------------------------

class GpuRunner:
    """Runs PyTorch and our tools on the GPU."""

    def __init__(self, settings: Settings):
        try:
            import torch  # only here: the dry run works without PyTorch
        except ImportError:
            cli.fail("PyTorch is not installed: measure on a GPU machine with "
                     "PyTorch, or use --dry-run")
        import torch_ref
        if not torch.cuda.is_available():
            cli.fail("PyTorch sees no CUDA GPU (use --dry-run to test the "
                     "harness without one)")
        self.torch, self.torch_ref, self.settings = torch, torch_ref, settings
        self.set_tf32(False)
        props = torch.cuda.get_device_properties(0)
        self.l2_bytes = int(getattr(props, "L2_cache_size", 0))
        self.timer = timing.Timer(timing.TimingSettings(**settings.timing),
                                  self.l2_bytes)
        self.props = props

    def set_tf32(self, on: bool) -> None:
        """PyTorch's TF32 switches: off for the suite, on for its TF32
        section only."""
        torch = self.torch
        torch.backends.cuda.matmul.allow_tf32 = on
        torch.backends.cudnn.allow_tf32 = on
        torch.set_float32_matmul_precision("high" if on else "highest")

    def environment(self) -> dict:
        torch, props = self.torch, self.props
        env = {
            "device": {"name": props.name, "cc": f"{props.major}.{props.minor}",
                       "sm_count": props.multi_processor_count,
                       "l2_bytes": self.l2_bytes,
                       "memory_bytes": props.total_memory},
            "torch": torch.__version__, "cuda": torch.version.cuda,
            "python": platform.python_version(), "host": platform.node(),
            # Whether our kernels may start while the one before finishes
            # (the runtime's programmatic dependent launch, docs/Runtime.md).
            "dependent_launch":
                os.environ.get("DEPLODOCK_DEPENDENT_LAUNCH") != "0",
        }
        try:
            import triton
            env["triton"] = triton.__version__
        except ImportError:
            env["triton"] = None
        env["numpy"] = numpy.__version__
        smi = shutil.which("nvidia-smi")
        if smi:
            proc = subprocess.run(
                [smi, "--query-gpu=driver_version,clocks.max.sm,clocks.max.mem,"
                 "power.limit", "--format=csv,noheader"],
                capture_output=True, text=True)
            fields = [f.strip() for f in proc.stdout.split(",")]
            if proc.returncode == 0 and len(fields) == 4:
                env["driver"] = fields[0]
                env["device"].update(max_sm_clock=fields[1],
                                     max_mem_clock=fields[2],
                                     power_limit=fields[3])
        return env

    def device_name(self) -> str:
        return self.props.name

    def run_case(self, case: suite.Case, case_dir: pathlib.Path,
                 backends: list[str], tune_db: pathlib.Path) -> dict:
        try:
            return self._run_case(case, case_dir, backends, tune_db)
        finally:
            if not self.settings.keep_arrays:
                remove_arrays(case_dir)

    def _run_case(self, case: suite.Case, case_dir: pathlib.Path,
                  backends: list[str], tune_db: pathlib.Path) -> dict:
        torch, s = self.torch, self.settings
        mlir = case_dir / f"{case.name}.mlir"
        arrays = case_inputs.make_inputs(case, s.seed, s.bf16_npy)
        input_paths = case_inputs.save_inputs(arrays, case_dir / "inputs")
        dtypes = self.torch_ref.TORCH_DTYPES
        xs = [torch.from_numpy(case_inputs.as_float32(a)).to("cuda").to(
            dtypes[case.arg_dtype(arg)]) for a, arg in zip(arrays, case.args)]
        record: dict = {}
        try:
            with torch.no_grad():
                ref_fn, ref_args = self.torch_ref.prepare(
                    case, [x.double() for x in xs])
                ref = ref_fn(*ref_args).cpu().numpy()
            del ref_fn, ref_args
            # Layers: a module holding xs as its parameters, called on x.
            fn, xs = self.torch_ref.prepare(case, xs)
        except Exception as e:  # noqa: BLE001 - any PyTorch failure is reported
            for b in backends:
                record[b] = entry("error", error=f"reference failed: {e}")
            return record

        for eager, comp in [("eager", "compile"),
                            (report.TF32["eager"], report.TF32["compile"])]:
            precision = precision_of(eager)
            self.set_tf32(precision == "tf32")
            try:
                record.update(self._torch_backends(
                    fn, xs, ref, precision or case.out_dtype, backends, eager,
                    comp))
            finally:
                self.set_tf32(False)
        xs.clear()  # free the GPU memory before our tools run
        fn = compiled = None  # a layer's module holds its weights
        torch._dynamo.reset()
        torch.cuda.empty_cache()
        for ours, tuned in [("ours", "tuned"),
                            (report.TF32["ours"], report.TF32["tuned"])]:
            precision = precision_of(ours)
            if ours in backends:
                record[ours] = run_ours(s, case, mlir, input_paths, ref,
                                        case_dir / ours, precision=precision)
            if tuned in backends:
                failure, raw = run_tune(s, mlir, tune_db,
                                        tune_seconds_for(s, case.name),
                                        precision)
                if failure:
                    record[tuned] = dict(failure, tune=raw)
                else:
                    record[tuned] = dict(
                        run_ours(s, case, mlir, input_paths, ref,
                                 case_dir / tuned, tune_db,
                                 precision=precision), tune=raw)
        return record

    def _torch_backends(self, fn, xs, ref, tolerance: str,
                        backends: list[str], eager: str, comp: str) -> dict:
        """Eager and torch.compile (named `eager`, `comp` in the record) under
        the TF32 switches as they are set now."""
        torch, s = self.torch, self.settings
        record: dict = {}

        def check(out) -> dict:
            return compare.compare(out.double().cpu().numpy(), ref, tolerance)

        if eager in backends:
            record[eager] = self._torch_backend(lambda: fn(*xs), check)
        if comp in backends:
            torch._dynamo.reset()  # inductor reads the TF32 switches now
            start = time.monotonic()
            try:
                compiled = torch.compile(fn, mode=s.compile_mode, dynamic=False)
                compiled(*xs)
                torch.cuda.synchronize()
            except Exception as e:  # noqa: BLE001
                record[comp] = entry("error", error=f"torch.compile: {e}")
            else:
                record[comp] = self._torch_backend(lambda: compiled(*xs), check)
                record[comp]["compile_s"] = round(time.monotonic() - start, 3)
            compiled = None
        return record

    def _torch_backend(self, call, check) -> dict:
        torch = self.torch
        try:
            out = call()
            torch.cuda.synchronize()
            result = check(out)
            del out
            t = self.timer.time(call)
        except Exception as e:  # noqa: BLE001
            return entry("error", error=f"{type(e).__name__}: {e}")
        # PyTorch is the baseline: its time stands even when its output is
        # off our tolerance; the report marks it.
        return dict(status="ok", median_us=t.median_us, timing=t.to_json(),
                    check=result)


class DryRunner:
    """No GPU, no PyTorch: real lowering, interpreter checks, FAKE times."""

    def __init__(self, settings: Settings):
        self.settings = settings
        key = settings.device_profile or "h100"
        self.spec = roofline.DEVICES[key]

    def environment(self) -> dict:
        return {"device": {"name": f"FAKE ({self.spec.name} profile, no GPU)"},
                "python": platform.python_version(),
                "numpy": numpy.__version__, "fake": True}

    def device_name(self) -> str:
        return self.spec.name

    def fake_us(self, case: suite.Case, backend: str, floor_us: float) -> float:
        """A deterministic invented time: a launch cost plus 1.1-5x the floor."""
        u = zlib.crc32(f"{case.name}/{backend}".encode()) / 2**32
        base = backend.removesuffix("_tf32")
        launch, factor = {"eager": (6.0, 1.5 + 2.5 * u),
                          "compile": (5.0, 1.3 + 2.0 * u),
                          "ours": (3.0, 1.2 + 3.8 * u),
                          "tuned": (2.5, 1.1 + 2.0 * u)}[base]
        return round(launch * (0.5 + u) + floor_us * factor, 3)

    def run_case(self, case: suite.Case, case_dir: pathlib.Path,
                 backends: list[str], tune_db: pathlib.Path) -> dict:
        s = self.settings
        floor_us = roofline.floor(case.mma_flops, case.other_flops,
                                  case.min_bytes, case.dtype, self.spec).us
        # The interpreter's and the fake device's checks, once per precision.
        checks: dict = {}
        record: dict = {}
        for b in backends:
            t = self.fake_us(case, b, floor_us)
            check = device = None
            if b in report.ALL_OURS and case.flops <= s.interp_max_flops:
                precision = precision_of(b)
                if precision not in checks:
                    checks[precision] = self.small_case_checks(
                        case, case_dir, precision)
                check, device = checks[precision]
            if b in report.ALL_OURS:
                cmd = self.planned_commands(case, case_dir, b, tune_db)
                if check is None:
                    record[b] = dict(status="ok", median_us=t, fake=True,
                                     check={"ok": None, "reason":
                                            "not checked (too large for the "
                                            "interpreter)"}, planned=cmd)
                elif check.get("status") == "run_fail":
                    record[b] = dict(check, planned=cmd, fake=True)
                elif not check["ok"]:
                    record[b] = entry("wrong", fake=True, check=check,
                                      fake_device=device, planned=cmd,
                                      error=check["reason"])
                elif device["status"] != "ok":
                    # The GPU path itself failed (inputs, outputs, JSON):
                    # a real run would fail the same way.
                    record[b] = entry(device["status"], fake=True, check=check,
                                      fake_device=device, planned=cmd,
                                      error="--fake-device: " +
                                      device.get("error", ""))
                else:
                    record[b] = dict(status="ok", median_us=t, fake=True,
                                     check=check, fake_device=device,
                                     planned=cmd, error="")
            else:
                record[b] = dict(status="ok", median_us=t, fake=True)
        if not s.keep_arrays:
            remove_arrays(case_dir)
        return record

    def planned_commands(self, case: suite.Case, case_dir: pathlib.Path,
                         backend: str, tune_db: pathlib.Path) -> list[list[str]]:
        """The commands a real run would run for `backend` (not run here)."""
        s = self.settings
        mlir = case_dir / f"{case.name}.mlir"
        tuned = backend in TUNED_BACKENDS
        precision = precision_of(backend)
        run = bench_command(s, mlir, [case_dir / "inputs" / f"input{i}.npy"
                                      for i in range(len(case.args))],
                            case_dir / backend, tune_db if tuned else None,
                            precision)
        if not tuned:
            return [run]
        return [tune_command(s, mlir, tune_db,
                             tune_seconds_for(s, case.name), precision), run]

    def small_case_checks(self, case: suite.Case, case_dir: pathlib.Path,
                          precision: str | None = None
                          ) -> tuple[dict, dict | None]:
        """Two checks against NumPy float64 on the same .npy inputs: our
        compiled kernels on the CPU interpreter, and the GPU path
        (deplodock-run --bench, as a real run calls it) on the fake device,
        which returns the interpreter's results of the layer. The second
        goes through what the dry run would otherwise skip: reading the
        inputs, writing result0.npy and the --bench-json."""
        import numpy_ref
        s = self.settings
        arrays = case_inputs.make_inputs(case, s.seed, s.bf16_npy)
        paths = case_inputs.save_inputs(arrays, case_dir / "inputs")
        ref = numpy_ref.REFERENCES[case.family](
            *[case_inputs.as_float32(a).astype("float64") for a in arrays])
        check = self.interp_check(case, case_dir, paths, ref, precision)
        if check.get("status") == "run_fail":
            return check, None
        mlir = case_dir / f"{case.name}.mlir"
        device = run_ours(s, case, mlir, paths, ref,
                          case_dir / f"fake-device{'-' + precision if precision else ''}",
                          extra_args=["--fake-device"], precision=precision)
        device.pop("median_us", None)
        device.pop("measured_us", None)  # FAKE: the fake device's clock
        device.pop("bench", None)
        return check, device

    def interp_check(self, case: suite.Case, case_dir: pathlib.Path,
                     paths: list[pathlib.Path], ref,
                     precision: str | None = None) -> dict:
        """Our compiled kernels on the CPU interpreter vs NumPy float64 (the
        SIMT interpreter rounds TF32 operands as the tensor cores do)."""
        s = self.settings
        out_dir = case_dir / ("interp" + (f"-{precision}" if precision else ""))
        pipeline = "deplodock-pipeline" + (
            f"{{precision={precision}}}" if precision else "")
        for stale in out_dir.glob("result*.npy"):
            stale.unlink()
        cmd = [str(s.tools.path("deplodock-run")), "--interp",
               str(case_dir / f"{case.name}.mlir"),
               f"--pipeline={pipeline}", "--print=none",
               *[f"--input={p}" for p in paths], f"--output-dir={out_dir}"]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True,
                                  timeout=s.case_timeout)
        except subprocess.TimeoutExpired:
            return entry("run_fail", error="deplodock-run --interp ran over "
                         f"{s.case_timeout:g} s", command=cmd)
        if proc.returncode != 0:
            return entry("run_fail", error=lowering.first_error(
                proc.stderr.replace(f"{case_dir}/", "")), command=cmd)
        try:
            out = case_inputs.load_result(out_dir / "result0.npy",
                                          case.out_dtype)
        except (OSError, ValueError) as e:
            return entry("run_fail", error=f"no usable result0.npy: {e}",
                         command=cmd)
        result = compare.compare(out, ref, precision or case.out_dtype)
        result["how"] = "deplodock-run --interp (SIMT) vs NumPy float64"
        return result


# --- The run -----------------------------------------------------------------

def to_run(record: dict | None, backends: tuple[str, ...],
           retry_failed: bool) -> list[str]:
    """The backends of a case still to measure."""
    if not record:
        return list(backends)
    out = []
    for b in backends:
        status = (record.get(b) or {}).get("status")
        if status in (None, "not_run") or (retry_failed and status != "ok"):
            out.append(b)
    return out


def case_backends(settings: Settings, case: suite.Case) -> tuple[str, ...]:
    """The backends a case runs: the TF32 section's on FP32 cases only."""
    if case.dtype == "fp32":
        return settings.backends
    return tuple(b for b in settings.backends if b not in report.TF32_BACKENDS)


def run(settings: Settings, chosen: list[suite.Case],
        previous: dict | None) -> dict:
    runner = DryRunner(settings) if settings.dry_run else GpuRunner(settings)
    spec = (roofline.DEVICES[settings.device_profile] if settings.device_profile
            else roofline.find_device(runner.device_name()))
    env = runner.environment()
    env["commit"] = git_commit()
    if previous:
        results = previous
        if report.device_name(previous) != env["device"]["name"]:
            cli.fail(f"--resume: those results are from "
                     f"'{report.device_name(previous)}', this is "
                     f"'{env['device']['name']}'")
        results["environment"] = env
    else:
        results = {"schema": report.SCHEMA, "fake": settings.dry_run,
                   "created": now(), "environment": env, "cases": {}}
    results["settings"] = settings.to_json()
    results["settings"]["roofline"] = spec.to_json() if spec else None
    if spec is None:
        print(f"warning: no roofline numbers for '{runner.device_name()}' "
              f"(known: {', '.join(roofline.DEVICES)}; see --device-profile): "
              "no floors", file=sys.stderr)
    name = "bench.FAKE" if settings.dry_run else "bench"
    json_path = settings.out / f"{name}.json"
    tune_db = settings.work / "tune.db"
    start = time.monotonic()
    deadline = start + settings.max_minutes * 60
    durations: list[float] = []
    todo = [(c, to_run(results["cases"].get(c.name), case_backends(settings, c),
                       settings.retry_failed)) for c in chosen]
    todo = [(c, b) for c, b in todo if b]
    skipped_done = len(chosen) - len(todo)
    if skipped_done:
        print(f"resume: {skipped_done} cases already measured")
    out_of_time = False

    def measure(i: int, n: int, case: suite.Case, backends: list[str],
                again: bool = False) -> None:
        """Measures `backends` of a case (`again`: the case ran an earlier
        pass of this run, whose seconds count too)."""
        nonlocal out_of_time
        record = results["cases"].setdefault(case.name, {})
        record["case"] = case_record(case)
        record["floor"] = None
        if spec:
            f = roofline.floor(case.mma_flops, case.other_flops,
                               case.min_bytes, case.dtype, spec)
            record["floor"] = {"us": f.us, "bound": f.bound,
                               "terms_us": f.terms_us}
        estimate = statistics.median(durations) if durations else 0.0
        if out_of_time or time.monotonic() + estimate > deadline:
            out_of_time = True
            for b in backends:
                record[b] = entry("not_run", error="time budget spent")
            return
        case_start = time.monotonic()
        case_dir = settings.work / case.name
        case_dir.mkdir(parents=True, exist_ok=True)
        mlir = case_dir / f"{case.name}.mlir"
        mlir.write_text(case.mlir())
        low = lowering.lower_case(settings.tools, mlir, case_dir,
                                  settings.target, None, settings.case_timeout)
        record["lowering"] = low.to_json()
        ours_backends = [b for b in backends if b in report.ALL_OURS]
        measured = [b for b in backends if b not in report.ALL_OURS]
        if low.status != "ok":
            for b in ours_backends:
                record[b] = entry("lower_fail", error=low.error)
        else:
            measured += ours_backends
        if case.name in settings.tune_budgets:
            record["tune_budget_s"] = settings.tune_budgets[case.name]
        if measured:
            record.update(runner.run_case(case, case_dir, measured, tune_db))
        record["fake"] = settings.dry_run
        earlier = record.get("seconds", 0.0) if again else 0.0
        record["seconds"] = round(earlier + time.monotonic() - case_start, 3)
        record["ratios"] = report.ratios(record)
        bench = (record.get("ours") or {}).get("bench") or {}
        if bench.get("device") and "deplodock_device" not in env:
            env["deplodock_device"] = bench["device"]
        durations.append(record["seconds"])
        results["updated"] = now()
        report.write_json(results, json_path)
        print(progress_line(i, n, case.name, record, settings.dry_run),
              flush=True)

    def pass_of(tuner: bool) -> list[tuple[suite.Case, list[str]]]:
        """The cases' tuned backends (`tuner`) or their others."""
        split = [(c, [b for b in bs if (b in TUNED_BACKENDS) == tuner])
                 for c, bs in todo]
        return [(c, bs) for c, bs in split if bs]

    if settings.tune_total_minutes is not None and pass_of(tuner=True):
        # First everything but the tuner, so that every case's time above
        # its floor is known; then the tuner, its minutes shared by those
        # gaps, the largest share first.
        first = pass_of(tuner=False)
        for i, (case, backends) in enumerate(first):
            measure(i + 1, len(first), case, backends)
        second = pass_of(tuner=True)
        settings.tune_budgets = share_tuning(
            [c for c, _ in second], results["cases"],
            settings.tune_total_minutes * 60, settings.tune_seconds)
        second.sort(key=lambda cb: -settings.tune_budgets[cb[0].name])
        print(f"tuning {len(second)} cases in about "
              f"{sum(settings.tune_budgets.values()) / 60:.1f} minutes "
              f"(--tune-total-minutes {settings.tune_total_minutes:g})",
              flush=True)
        measured_first = {c.name for c, _ in first}
        for i, (case, backends) in enumerate(second):
            measure(i + 1, len(second), case, backends,
                    again=case.name in measured_first)
    else:
        for i, (case, backends) in enumerate(todo):
            measure(i + 1, len(todo), case, backends)
    results["updated"] = now()
    results["cases"] = report.in_table_order(results["cases"])
    return results


def progress_line(i: int, n: int, name: str, record: dict, fake: bool) -> str:
    parts = []
    for b in report.ALL_BACKENDS:
        e = record.get(b)
        if not e:
            continue
        t = e.get("median_us")
        parts.append(f"{b} {t:,.1f}" if e.get("status") == "ok" and t
                     else f"{b} {e.get('status')}")
    tag = " [FAKE]" if fake else ""
    return (f"[{i:>3}/{n}] {name:<40} {'  '.join(parts)}  "
            f"({record.get('seconds', 0):.1f} s){tag}")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    cli.add_selection_args(parser)
    parser.add_argument("--out", type=pathlib.Path, required=True,
                        help="folder for bench.json, bench.md, bench.png")
    parser.add_argument("--work-dir", type=pathlib.Path,
                        help="folder for cases, inputs, outputs and the tune "
                        "DB (default: deplodock-bench in the temporary "
                        "folder; never under $OUT, which must stay small)")
    parser.add_argument("--bin-dir", help="folder of our tools (default: "
                        "$DEPLODOCK_BIN, else build/bin)")
    parser.add_argument("--backends", default="eager,compile,ours,tuned",
                        help="comma-separated subset of eager, compile, ours, "
                        "tuned (default: all; with --tf32 also their _tf32 "
                        "twins)")
    parser.add_argument("--dry-run", action="store_true",
                        help="no GPU or PyTorch: FAKE timings, real lowering")
    parser.add_argument("--resume", type=pathlib.Path, metavar="JSON",
                        help="start from these results; measure only what "
                        "they lack")
    parser.add_argument("--retry-failed", action="store_true",
                        help="with --resume: measure failed backends again")
    parser.add_argument("--max-minutes", type=float, default=8.0,
                        help="stop starting cases after this (default 8)")
    parser.add_argument("--case-timeout", type=float, default=180.0,
                        help="seconds per tool call (default 180)")
    parser.add_argument("--tune-seconds", type=float, default=60.0,
                        help="deplodock-tune --max-seconds (default 60)")
    parser.add_argument("--tune-variants", type=int, default=64,
                        help="deplodock-tune --max-variants (default 64)")
    parser.add_argument("--tune-total-minutes", type=float,
                        help="tune after every other backend has run, these "
                        "minutes shared by the cases (per tuned backend): by "
                        "the factor each one's 'ours' time stands above its "
                        "roofline floor, at least a second and at most "
                        "--tune-seconds a case, the largest share first")
    parser.add_argument("--target", default="sm_90")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--compile-mode", default="default",
                        help="torch.compile mode (default 'default')")
    parser.add_argument("--warmup-ms", type=float, default=25.0)
    parser.add_argument("--rep-ms", type=float, default=100.0)
    parser.add_argument("--min-reps", type=int, default=10)
    parser.add_argument("--max-reps", type=int, default=500)
    parser.add_argument("--device-profile", choices=sorted(roofline.DEVICES),
                        help="roofline numbers to use (default: from the GPU's "
                        "name; h100 in a dry run)")
    parser.add_argument("--bf16-npy", choices=case_inputs.BF16_ENCODINGS,
                        default="bits", help="how bf16 inputs are stored in "
                        ".npy: raw bits as uint16 (default) or float32")
    parser.add_argument("--tf32", action="store_true",
                        help="also run the FP32 cases with TF32 contractions "
                        "(PyTorch with allow_tf32, ours with --precision=tf32) "
                        "as backends NAME_tf32, reported in a TF32 section of "
                        "their own (default: true FP32 only)")
    parser.add_argument("--keep-arrays", action="store_true",
                        help="keep the input and output .npy files of every "
                        "case in the work folder (large)")
    parser.add_argument("--interp-max-flops", type=float, default=2e6,
                        help="dry run: check cases up to this many FLOPs on "
                        "the interpreter (default 2e6: the mini model and "
                        "the smallest suite cases)")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    chosen = cli.selected_cases(args)
    backends = tuple(b.strip() for b in args.backends.split(",") if b.strip())
    unknown = [b for b in backends if b not in report.ALL_BACKENDS]
    if unknown or not backends:
        cli.fail(f"unknown backend '{','.join(unknown)}' (known: "
                 f"{', '.join(report.ALL_BACKENDS)})")
    if args.tf32:
        backends += tuple(report.TF32[b] for b in backends
                          if b in report.TF32 and report.TF32[b] not in backends)
    elif any(b in report.TF32_BACKENDS for b in backends):
        cli.fail("the TF32 backends are opt-in: pass --tf32 with them")
    if args.tune_total_minutes is not None and not (
            0 < args.tune_total_minutes < math.inf):
        cli.fail("--tune-total-minutes wants a positive number of minutes")
    tools = lowering.Tools(lowering.resolve_bin_dir(args.bin_dir,
                                                    cli.default_bin_dir()))
    needed = ["deplodock-opt", "deplodock-translate", "deplodock-run"]
    if args.tune_total_minutes is not None and \
            not any(b in TUNED_BACKENDS for b in backends):
        cli.fail("--tune-total-minutes shares the tuner's time: add 'tuned' "
                 "to --backends")
    if any(b in backends for b in TUNED_BACKENDS) \
            and not args.dry_run:
        needed.append("deplodock-tune")
    try:
        tools.require(needed)
    except lowering.ToolError as e:
        cli.fail(str(e))
    previous = None
    if args.resume:
        try:
            previous = report.load(args.resume)
        except report.ReportError as e:
            cli.fail(f"--resume: {e}")
        if bool(previous.get("fake")) != args.dry_run:
            cli.fail("--resume: cannot mix a dry run (FAKE timings) with a "
                     "real run")
    settings = Settings(
        out=args.out, work=args.work_dir or default_work_dir(), tools=tools,
        backends=backends, dry_run=args.dry_run, target=args.target,
        seed=args.seed, max_minutes=args.max_minutes,
        case_timeout=args.case_timeout, tune_seconds=args.tune_seconds,
        tune_variants=args.tune_variants,
        tune_total_minutes=args.tune_total_minutes,
        compile_mode=args.compile_mode,
        bf16_npy=args.bf16_npy, tf32=args.tf32, device_profile=args.device_profile,
        keep_arrays=args.keep_arrays, interp_max_flops=args.interp_max_flops,
        retry_failed=args.retry_failed,
        timing=timing.TimingSettings(
            warmup_ms=args.warmup_ms, rep_ms=args.rep_ms,
            min_reps=args.min_reps, max_reps=args.max_reps).to_json())
    args.out.mkdir(parents=True, exist_ok=True)
    settings.work.mkdir(parents=True, exist_ok=True)
    results = run(settings, chosen, previous)
    name = "bench.FAKE" if args.dry_run else "bench"
    for note in report.write_all(results, args.out, name):
        print(note, file=sys.stderr)
    print()
    print(report.short_table(results))
    print(f"\nwrote {args.out / name}.json, .md" +
          (", .png" if (args.out / f"{name}.png").exists() else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
