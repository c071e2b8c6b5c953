"""The IR campaign: mutants of the examples (at small sizes) and of the
Tensor, Loop, Tile and Kernel IR the pipelines make of them, fed to
deplodock-opt, deplodock-translate, deplodock-run (--interp with a
differential check against the mutant's own level, sometimes --bench on
the fake device and --check-variants) and deplodock-tune.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys

from . import oracles
from .cases import Case, Step, tool_path
from .mutate_ir import mutate

# The pipelines the seeds are made with: level name -> deplodock-opt flags.
LEVELS = (
    ("tensor", ["--lower-to-tensor"]),
    ("loop", ["--lower-to-loop"]),
    ("tile", ["--lower-to-tile"]),
    ("tile-simplest", ["--lower-to-tile=simplest"]),
    ("tile-sm80", ["--lower-to-tile=target=sm_80"]),
    ("kernel", ["--lower-to-kernel"]),
    ("kernel-simplest", ["--lower-to-kernel=simplest"]),
)
# From Loop IR to Kernel IR, as lower-to-kernel does after lower-to-loop.
LOOP_TO_KERNEL = ("dtile-lower,canonicalize,cse,convert-dtile-to-dkernel,"
                  "dkernel-dependent-launch")
BENCH_BUDGET = ["--warmup-ms=0.1", "--max-time-ms=1", "--min-samples=1"]


def make_seeds(src_root: str, bin_dir: str, out_dir: str) -> list:
    """(name, level, text) of every seed: each example at small shapes
    (examples/generate.py --small; the others as they are) and what each
    pipeline makes of it."""
    os.makedirs(out_dir, exist_ok=True)
    generate = os.path.join(src_root, "examples", "generate.py")
    names = subprocess.run([sys.executable, generate, "--list"], check=True,
                           capture_output=True, text=True).stdout.split()
    sources = []
    for name in names:
        text = subprocess.run([sys.executable, generate, "--small", name],
                              check=True, capture_output=True,
                              text=True).stdout
        sources.append((name, text))
    # Head dimension 128 in f32: rows a thread cannot hold, where the
    # attention rules that split them (attention_split_d, attention_rows)
    # apply; the examples' head dimension 64 fits.
    sources.append(("sdpa_d128", subprocess.run(
        [sys.executable, generate, "--small", "sdpa", "--dims",
         "D=128,NH=2,NKV=1"], check=True, capture_output=True,
        text=True).stdout))
    examples = os.path.join(src_root, "examples")
    for file in sorted(os.listdir(examples)):
        name = file[:-len(".mlir")]
        if file.endswith(".mlir") and name not in names:
            with open(os.path.join(examples, file)) as f:
                sources.append((name, f.read()))
    seeds = []
    opt = tool_path(bin_dir, "deplodock-opt")
    for name, text in sources:
        path = os.path.join(out_dir, name + ".mlir")
        with open(path, "w") as f:
            f.write(text)
        seeds.append((name, "input", text))
        for level, flags in LEVELS:
            proc = subprocess.run([opt, path] + flags, capture_output=True,
                                  text=True)
            if proc.returncode != 0:
                raise RuntimeError("seed %s at %s: %s" % (name, level,
                                                          proc.stderr))
            with open(os.path.join(out_dir, "%s.%s.mlir" % (name, level)),
                      "w") as f:
                f.write(proc.stdout)
            seeds.append((name, level, proc.stdout))
    return seeds


def _bench_step(shapes) -> Step:
    """--bench on the fake device: exit 0 wrote the JSON and the results."""
    return Step("deplodock-run", [
        "--bench", "--fake-device", "in.mlir", "--bench-json=b.json",
        "--output-dir=bo"] + BENCH_BUDGET,
        oracle=oracles.every(oracles.file_written("b.json", True),
                             oracles.results_written("bo", shapes)))


def _lowering_steps(level: str, shapes, rng: random.Random) -> list:
    """The runs made on a mutant in.mlir at `level`."""
    base = level.split("-")[0]
    run_flags = ["--interp", "in.mlir", "--print=summary", "--output-dir=out"]
    if base == "input":
        opt, compare = ["--deplodock-pipeline"], [
            "--pipeline=lower-to-tensor", "--compare=lower-to-kernel"]
    elif base == "tensor":
        opt, compare = ["--deplodock-pipeline"], ["--compare=lower-to-kernel"]
    elif base == "loop":
        opt = ["--pass-pipeline=builtin.module(%s)" % LOOP_TO_KERNEL]
        compare = ["--compare=dtile-lower,convert-dtile-to-dkernel"]
    elif base == "tile":
        target = "sm_80" if level == "tile-sm80" else "sm_90"
        opt = ["--convert-dtile-to-dkernel=target=%s" % target]
        compare = ["--compare=convert-dtile-to-dkernel{target=%s}" % target]
    else:
        opt, compare = [], []
    interp = Step("deplodock-run", run_flags + compare,
                  oracle=oracles.every(oracles.compare_passes(),
                                       oracles.results_written("out", shapes)))
    if base == "kernel":
        steps = [
            Step("deplodock-opt", ["in.mlir", "-o", "rt.mlir"],
                 oracle=oracles.file_written("rt.mlir")),
            Step("deplodock-translate", ["--emit-cuda", "in.mlir", "-o",
                                         "k.cu"],
                 oracle=oracles.cuda_kernels("in.mlir", "k.cu")),
            interp,
            # The cost model reads any Kernel IR that verifies.
            Step("deplodock-opt", ["in.mlir", "--dkernel-estimate", "-o",
                                   "est.mlir"], after=0,
                 oracle=oracles.file_written("est.mlir")),
        ]
        if rng.random() < 0.15:
            steps.append(_bench_step(shapes))
        return steps
    steps = [
        Step("deplodock-opt", ["in.mlir"] + opt + ["-o", "k.mlir"],
             oracle=oracles.file_written("k.mlir")),
        # What the compiler prints must parse and verify again.
        Step("deplodock-opt", ["k.mlir", "-o", "rt.mlir"], after=0,
             oracle=oracles.every(
                 oracles.must_succeed("the compiler's own output does not parse back"),
                 oracles.file_written("rt.mlir"))),
        Step("deplodock-translate", ["--emit-cuda", "k.mlir", "-o", "k.cu"],
             after=0, oracle=oracles.cuda_kernels("k.mlir", "k.cu")),
        interp,
    ]
    if base == "loop" and rng.random() < 0.25:
        steps.append(Step("deplodock-run", [
            "--interp", "in.mlir", "--check-variants=3", "--print=summary",
            "--variant-pipeline=convert-dtile-to-dkernel"],
            oracle=oracles.compare_passes()))
    if base in ("input", "tensor"):
        if rng.random() < 0.12:
            steps.append(_bench_step(shapes))
        if rng.random() < 0.08:
            steps.append(Step("deplodock-tune", [
                "in.mlir", "--no-db", "--max-variants=3", "--quiet",
                "--backend=model"], oracle=oracles.nothing_in_home()))
    return steps


def make_cases(seeds: list, count: int, seed: int, start: int = 0) -> list:
    cases = []
    for index in range(start, start + count):
        rng = random.Random("%d:ir:%d" % (seed, index))
        name, level, text = rng.choice(seeds)
        mutations = rng.choices((1, 2, 3), (60, 25, 15))[0]
        mutant, done = mutate(text, rng, mutations)
        shapes = oracles.result_shapes(mutant)
        cases.append(Case("ir", index,
                          "%s.%s: %s" % (name, level, "; ".join(done)),
                          {"in.mlir": mutant.encode()},
                          _lowering_steps(level, shapes, rng)))
    return cases
