#!/usr/bin/env python3
"""The fork sweeps planned for the next GPU session, by name.

    bench/sweeps.py --list
    bench/sweeps.py --check [--bin-dir DIR] [NAME ...]
    bench/sweeps.py --out DIR [--bin-dir DIR] [--fake-device] NAME [NAME ...]

--bin-dir may name the folder of scripts/build-portable.sh's packed tools
(build-portable/carry), as on the GPU machine: they are unpacked first.

Each sweep is a bench/forks.py run: chosen suite cases, each measured with
the heuristic's lowering and with a few knob choices, side by side. With
--out, sweep NAME writes DIR/forks-NAME.md and DIR/forks-NAME.json (a
device call returns at most eight files: four sweeps a call). --check
lowers every variant of every case to Kernel IR on this machine, without
a GPU, and fails on any a rule refuses: a variant that cannot lower costs
GPU time and measures nothing. bench/README.md says why each sweep is
planned; its results go to bench/results/forks-*.md.
"""

from __future__ import annotations

import argparse
import dataclasses
import pathlib
import shutil
import subprocess
import sys
import time

import cases as suite
import cli
import forks
import lowering


@dataclasses.dataclass(frozen=True)
class Sweep:
    why: str
    target: str
    cases: tuple[str, ...]
    variants: tuple[tuple[str, str], ...]  # (label, knobs); first: baseline
    # Variants lowered with f16/bf16 prologues fused (half-prologues).
    half_prologues: tuple[str, ...] = ()
    # Variants run without programmatic dependent launch.
    plain_launch: tuple[str, ...] = ()


SWEEPS: dict[str, Sweep] = {
    "bf16-tile-order": Sweep(
        why="tile_order, new and unmeasured: the GEMMs whose B outgrows the "
        "L2 (136 MB in BF16 on Qwen's MLP) launched a group of tile rows at "
        "a time (the default there now) against row by row (the old grid, "
        "reading B from DRAM once per row of tiles: 3.0 of 4 times on Qwen "
        "gate_proj s512, 446 TFLOP/s against eager's 690); warp "
        "specialisation, 1.05x before, with each order",
        target="sm_90a",
        cases=("matmul.qwen.gate_proj.s512.bf16", "matmul.qwen.up_proj.s512.bf16",
               "scaled_mm.qwen.gate_proj.s512.fp8"),
        variants=(("default", ""), ("rows", "tile_group=1"),
                  ("g2", "tile_group=2"),
                  ("ws", "warp_specialize=true,setmaxnreg=232"),
                  ("wsrows", "warp_specialize=true,setmaxnreg=232,"
                   "tile_group=1"))),
    "fp32-tile-order": Sweep(
        why="tile_order on the FP32 GEMMs whose B outgrows half the L2 "
        "(TinyLlama's MLP and Qwen's at s512, 46-272 MB): the groups the "
        "heuristic takes now against row by row, the old grid; these SIMT "
        "GEMMs are compute-bound, so little change is expected, and a loss "
        "would take the default back",
        target="sm_90",
        cases=("matmul.qwen.gate_proj.s512", "matmul.qwen.q_proj.s512",
               "matmul.qwen.down_proj.s512", "matmul.tinyllama.gate_proj.s512"),
        variants=(("default", ""), ("rows", "tile_group=1"),
                  ("g2", "tile_group=2"))),
    "fp32-model-picks": Sweep(
        why="the FP32 GEMM variants model v12 ranks first after 64 estimates "
        "for two gate_proj s512 GEMMs and TinyLlama o_proj s512 (0.72x "
        "eager) (deplodock-tune --backend=model --seed=1), estimated 1.49x, "
        "1.13x and 1.62x faster than their defaults, each tried on all "
        "three: TMA copies, permuted columns without vector reads, 64 x 256 "
        "tiles, K split 4-8 ways where the tiles fill the SMs already; "
        "the tuner's prior ranks FP32 candidates by these estimates, so "
        "whether they win on the GPU says how far to trust it there (GPU / "
        "model 1.40 on the family's defaults at 6586168)",
        target="sm_90",
        cases=("matmul.qwen.gate_proj.s512", "matmul.tinyllama.gate_proj.s512",
               "matmul.tinyllama.o_proj.s512"),
        variants=(("default", ""),
                  ("qg512", "BK=32,BM=128,BN=128,FM=8,FN=8,async_copy=false,"
                   "double_buffer=true,pad=true,permute=true,pipeline=false,"
                   "reg_double=false,split_k=4,stage=[0,1],swizzle=128,"
                   "tile_group=4,tma=true,transpose_a=true,unroll=4,"
                   "vector_reads=false"),
                  ("tg512", "BK=64,BM=128,BN=128,FM=8,FN=8,async_copy=false,"
                   "double_buffer=false,pad=true,permute=true,reg_double=false,"
                   "split_k=8,stage=[0,1],swizzle=0,tile_group=1,tma=true,"
                   "transpose_a=true,unroll=1,vector_reads=false"),
                  ("to512", "BK=32,BM=64,BN=256,FM=8,FN=8,async_copy=true,"
                   "double_buffer=false,pad=true,permute=true,reg_double=true,"
                   "split_k=8,stage=[0,1],tile_group=1,transpose_a=true,"
                   "unroll=32,vector_reads=false"))),
    "fp32-prologue": Sweep(
        why="silu(gate) * up, now fused into the down projection (one "
        "kernel; 6586168 ran it as two, 0.79-1.23x eager): the default "
        "computes it as the block stages the A slab (a sync copy through "
        "registers, unrolled, with the weight by cp.async), against "
        "computing it at each read from gate and up staged as they are, "
        "and the computed slab without the K pipeline (double-buffered)",
        target="sm_90",
        cases=("silu_mul_matmul.tinyllama.s32", "silu_mul_matmul.tinyllama.s128",
               "silu_mul_matmul.qwen.s32", "silu_mul_matmul.qwen.s512"),
        variants=(("default", ""), ("atread", "stage=[0]"),
                  ("nopipe", "pipeline=false"))),
    "bf16-prologue": Sweep(
        why="silu(gate) * up fused into the BF16 down projection "
        "(half-prologues, off by default: model v12 rates it 1.03-2.8x slower): "
        "the activation's slab computed by the threads in runs of 16 bytes "
        "into wgmma's swizzle, B by TMA, against the default's two kernels "
        "(0.61-0.99x eager at 312f75f); with the refill after the MMAs' "
        "commit, which overlaps the slab's loads with the tensor cores",
        target="sm_90a",
        cases=("silu_mul_matmul.tinyllama.s32.bf16",
               "silu_mul_matmul.tinyllama.s512.bf16",
               "silu_mul_matmul.qwen.s32.bf16", "silu_mul_matmul.qwen.s512.bf16"),
        variants=(("default", ""), ("fused", ""),
                  ("fusedlate", "refill_late=true")),
        half_prologues=("fused", "fusedlate")),
    "dependent-launch": Sweep(
        why="programmatic dependent launch, new and unmeasured: layers of two "
        "kernels (BF16 GEMMs split over K with their sum kernel, 1.5-3 us "
        "after the split kernel at 6586168; BF16 silu_mul then the down "
        "projection) with each kernel launched while the one before finishes "
        "(the default now) against launched after it (DEPLODOCK_DEPENDENT_"
        "LAUNCH=0, as before); if it loses, the runtime's default flips",
        target="sm_90a",
        cases=("matmul.tinyllama.q_proj.s32.bf16",
               "matmul.tinyllama.kv_proj.s32.bf16",
               "matmul.tinyllama.gate_proj.s32.bf16",
               "matmul.tinyllama.q_proj.s128.bf16",
               "matmul.qwen.down_proj.s128.bf16",
               "matmul.qwen.kv_proj.s512.bf16",
               "silu_mul_matmul.tinyllama.s32.bf16"),
        variants=(("default", ""), ("plain", "")),
        plain_launch=("plain",)),
    "fp32-splits-early": Sweep(
        why="FP32 K splits through the workspace now that its sum kernel "
        "launches while the split kernel finishes: the atomic default pays "
        "a memset of the output before a kernel that cannot start early; "
        "the workspace tied it before (1.015x over six larger GEMMs), the "
        "32-token ones take 19-25 us, where a launch gap counts",
        target="sm_90",
        cases=("matmul.tinyllama.q_proj.s32", "matmul.tinyllama.kv_proj.s32",
               "matmul.qwen.q_proj.s32", "matmul.qwen.kv_proj.s32"),
        variants=(("default", ""), ("ws8", "split_k=8,split_workspace=true"),
                  ("ws8plain", "split_k=8,split_workspace=true")),
        plain_launch=("ws8plain",)),
    "fp32-attention": Sweep(
        why="FP32 attention at TinyLlama's head dim 64 (rows that fit a "
        "thread, so no attention_split_d): 32-row query blocks, 64-key "
        "steps and 8 key splits, the choice at head dim 128 before rows were "
        "split there, taken apart, with register double buffering",
        target="sm_90",
        cases=("sdpa.tinyllama.s128", "sdpa.tinyllama.s512",
               "naive_attn.tinyllama.s512"),
        variants=(("default", ""),
                  ("q32k64s8", "BQ=32,BKV=64,split_kv=8"),
                  ("q32k64s8rd", "BQ=32,BKV=64,split_kv=8,reg_double=true"),
                  ("q32k32s8", "BQ=32,BKV=32,split_kv=8"),
                  ("q64k64s4", "BQ=64,BKV=64,split_kv=4"),
                  ("q32k64s4", "BQ=32,BKV=64,split_kv=4"))),
    "fp32-attention-rows": Sweep(
        why="FP32 attention at Qwen's head dim 128, rows split 8 ways (the "
        "default since 2026-11-28: 2.0-2.9x): two rows a thread "
        "(attention_rows) with 64-row blocks ran 1.06-1.08x faster at s512 "
        "but 0.72x at s128; their key steps and lanes, to find a rule by "
        "the heads' length; the default with only the keys staged "
        "(stage=[2]), which model v11 estimates 2.5x faster at s512; and "
        "16-row blocks, twice the blocks of 32 where Qwen's s128 left 20 "
        "of 132 SMs without one",
        target="sm_90",
        cases=("sdpa.qwen.s512", "naive_attn.qwen.s512", "sdpa.qwen.s128"),
        variants=(("default", ""),
                  ("d4q64k16r2", "BQ=64,BKV=16,split_kv=1,split_d=4,"
                   "rows_per_thread=2"),
                  ("d4q64k32r2", "BQ=64,BKV=32,split_kv=1,split_d=4,"
                   "rows_per_thread=2"),
                  ("d8q64k32r2", "BQ=64,BKV=32,split_kv=1,split_d=8,"
                   "rows_per_thread=2"),
                  ("d4q32k32", "BQ=32,BKV=32,split_kv=1,split_d=4"),
                  ("d8q64k32", "BQ=64,BKV=32,split_kv=1,split_d=8"),
                  ("kst", "BQ=32,BKV=32,split_kv=1,split_d=8,stage=[2]"),
                  ("d8q16k32", "BQ=16,BKV=32,split_kv=1,split_d=8"))),
    "bf16-splits": Sweep(
        why="BF16 GEMMs split over K that the sweep of 2026-11-28 did not "
        "cover: the fused families' s128 cases, which the new narrow-split "
        "rule changed unmeasured or left at 8 splits, and TinyLlama kv_proj "
        "s512, whose 64 x 256 tiles make too few blocks for it",
        target="sm_90a",
        cases=("matmul_add.qwen.o_proj.s128.bf16",
               "silu_mul_matmul.qwen.s128.bf16",
               "silu_mul_matmul.tinyllama.s128.bf16",
               "matmul.tinyllama.kv_proj.s512.bf16"),
        variants=(("default", ""),
                  ("wg1n256s4", "warpgroups=1,wgmma_n=256,wgmma_split_k=4"),
                  ("wg1n256s2", "warpgroups=1,wgmma_n=256,wgmma_split_k=2"),
                  ("wg2n128s2", "warpgroups=2,wgmma_n=128,wgmma_split_k=2"),
                  ("wg1n128s4", "warpgroups=1,wgmma_n=128,wgmma_split_k=4"))),
    "bf16-splits-s32": Sweep(
        why="BF16 GEMMs of 32 tokens, one warpgroup split 8 ways by default "
        "(0.86-1.24x eager on Qwen): fewer splits, narrower tiles",
        target="sm_90a",
        cases=("matmul.qwen.q_proj.s32.bf16", "matmul.qwen.down_proj.s32.bf16",
               "matmul.tinyllama.down_proj.s32.bf16",
               "matmul.tinyllama.o_proj.s32.bf16"),
        variants=(("default", ""),
                  ("n256s4", "warpgroups=1,wgmma_n=256,wgmma_split_k=4"),
                  ("n256s2", "warpgroups=1,wgmma_n=256,wgmma_split_k=2"),
                  ("n128s4", "warpgroups=1,wgmma_n=128,wgmma_split_k=4"),
                  ("n192", "warpgroups=1,wgmma_n=192"))),
    "bf16-deep-stages": Sweep(
        why="BF16 GEMMs of 32 tokens split over K into 4 or 7 chunks a "
        "block, new and unmeasured: pipelines 5 deep, which stage every "
        "chunk of a 4-chunk split before the loop (the default, 4 deep, "
        "refills the last after the first lands: two TMA latencies where "
        "one would do; TinyLlama q_proj s32 took 10.1 us against an "
        "estimated 5.2 at 6586168), alone and leaving a wgmma group in "
        "flight; the model estimates the kv_proj ones 1.1-1.4x faster",
        target="sm_90a",
        cases=("matmul.tinyllama.q_proj.s32.bf16",
               "matmul.tinyllama.kv_proj.s32.bf16",
               "matmul.tinyllama.gate_proj.s32.bf16",
               "matmul.qwen.kv_proj.s32.bf16"),
        variants=(("default", ""), ("s5", "pipeline=true,stages=5"),
                  ("s5w1", "pipeline=true,stages=5,wgmma_wait=1"))),
    "bf16-clusters": Sweep(
        why="BF16 GEMMs the model finds L2-bound (and one FP8): clusters of "
        "two sharing B by multicast, lock-step (0.41-0.72x, its consumers "
        "wait for the peer) against warp-specialised (the producer waits), "
        "new; a wgmma group left in flight (wgmma_wait=1), whose wgmmas "
        "ptxas no longer serialises; the epilogue's bf16 pairs stored "
        "32 bits at a time",
        target="sm_90a",
        cases=("matmul.qwen.gate_proj.s512.bf16", "matmul.qwen.up_proj.s512.bf16",
               "matmul.qwen.down_proj.s512.bf16", "matmul.qwen.q_proj.s512.bf16",
               "matmul.tinyllama.gate_proj.s512.bf16",
               "scaled_mm.qwen.gate_proj.s512.fp8"),
        variants=(("default", ""),
                  ("ws", "warp_specialize=true,setmaxnreg=232"),
                  ("wscl", "warp_specialize=true,setmaxnreg=232,cluster_m=2"),
                  ("w1", "pipeline=true,stages=4,wgmma_wait=1"),
                  ("wsclw1", "warp_specialize=true,setmaxnreg=232,cluster_m=2,"
                   "pipeline=true,stages=4,wgmma_wait=1"),
                  ("cl", "cluster_m=2"),
                  ("vs", "vector_stores=true"))),
    "fp32-rows": Sweep(
        why="FP32 softmax over rows of 32 (1.01-1.11x eager; one row of 32 "
        "threads a block): rows a block, as rows of 128 gained 1.29x from "
        "two rows a block",
        target="sm_90",
        cases=("softmax.qwen.s32", "softmax.tinyllama.s32"),
        variants=(("default", ""), ("r2t32", "rows=2,threads=32"),
                  ("r4t32", "rows=4,threads=32"), ("r8t32", "rows=8,threads=32"),
                  ("r16t32", "rows=16,threads=32"))),
    "fp32-long-rows": Sweep(
        why="FP32 softmax over rows of 512 (0.94-0.98x eager; one row of 64 "
        "threads a block, 8 elements a thread): more threads a row, rows a "
        "block",
        target="sm_90",
        cases=("softmax.qwen.s512", "softmax.tinyllama.s512"),
        variants=(("default", ""), ("r2t64", "rows=2,threads=64"),
                  ("r4t64", "rows=4,threads=64"), ("t128", "threads=128"),
                  ("r2t128", "rows=2,threads=128"), ("t32", "threads=32"))),
}


def cases_of(sweep: Sweep) -> list[suite.Case]:
    try:
        return suite.select(cases=list(sweep.cases))
    except suite.SelectionError as e:
        cli.fail(str(e))


def check(tools: lowering.Tools, names: list[str], work: pathlib.Path) -> int:
    """Lowers every variant; the number that a rule refused."""
    work.mkdir(parents=True, exist_ok=True)
    refused = 0
    for name in names:
        sweep = SWEEPS[name]
        for case in cases_of(sweep):
            mlir = work / f"{case.name}.mlir"
            mlir.write_text(case.mlir())
            for label, knobs in sweep.variants:
                option = f"target={sweep.target}" + (f" knobs={knobs}" if knobs
                                                     else "")
                if label in sweep.half_prologues:
                    option += " half-prologues=true"
                proc = subprocess.run(
                    [str(tools.path("deplodock-opt")), str(mlir),
                     f"--deplodock-pipeline={option}", "-o", "/dev/null"],
                    capture_output=True, text=True)
                if proc.returncode != 0:
                    refused += 1
                    print(f"{name}: {case.name} [{label}] refused: "
                          f"{lowering.first_error(proc.stderr)}")
        print(f"{name}: {len(sweep.cases)} cases x {len(sweep.variants)} "
              "variants checked", flush=True)
    return refused


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="*", metavar="NAME")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--list", action="store_true",
                      help="print the sweeps and why each is planned")
    mode.add_argument("--check", action="store_true",
                      help="lower every variant here (no GPU); exit 1 if a "
                      "rule refuses one")
    mode.add_argument("--out", type=pathlib.Path,
                      help="run the sweeps, results in this folder")
    parser.add_argument("--bin-dir", help="folder of our tools (default: "
                        "$DEPLODOCK_BIN, else build/bin)")
    parser.add_argument("--work-dir", type=pathlib.Path,
                        default=pathlib.Path("/tmp/deplodock-sweeps"))
    parser.add_argument("--max-minutes", type=float, default=2.0,
                        help="per sweep: no run starts after this many minutes")
    parser.add_argument("--fake-device", action="store_true",
                        help="the bench worker's fake device (FAKE timings)")
    args = parser.parse_args(argv)

    unknown = [n for n in args.names if n not in SWEEPS]
    if unknown:
        cli.fail(f"no sweep named {', '.join(unknown)} (known: "
                 f"{', '.join(SWEEPS)})")
    if args.list:
        for name, sweep in SWEEPS.items():
            print(f"{name} ({sweep.target}, {len(sweep.cases)} cases x "
                  f"{len(sweep.variants)} variants): {sweep.why}")
        return 0
    names = args.names or list(SWEEPS)
    bin_dir = lowering.resolve_bin_dir(args.bin_dir, cli.default_bin_dir())
    packed = bin_dir / "deplodock-tools.tar.xz"
    if packed.is_file():
        # scripts/build-portable.sh packs the tools (bench/gpu/run.sh too
        # takes that folder).
        bin_dir = args.work_dir / "bin"
        bin_dir.mkdir(parents=True, exist_ok=True)
        if subprocess.run(["tar", "-C", str(bin_dir), "-xJf",
                           str(packed)]).returncode != 0:
            cli.fail(f"cannot unpack {packed}")
    tools = lowering.Tools(bin_dir)
    if args.check:
        try:
            tools.require(["deplodock-opt"])
        except lowering.ToolError as e:
            cli.fail(str(e))
        refused = check(tools, names, args.work_dir)
        return 1 if refused else 0
    if not args.names:
        cli.fail("name the sweeps to run (--list shows them)")
    args.out.mkdir(parents=True, exist_ok=True)
    status = 0
    for name in names:
        sweep = SWEEPS[name]
        started = time.monotonic()
        argv_forks = ["--out", str(args.work_dir / name), "--work-dir",
                      str(args.work_dir / name / "work"), "--bin-dir",
                      str(tools.bin_dir), "--target", sweep.target,
                      "--max-minutes", f"{args.max_minutes:g}",
                      "--cases", ",".join(sweep.cases)]
        for label, knobs in sweep.variants:
            argv_forks += ["--variant", f"{label}={knobs}"]
        for label in sweep.half_prologues:
            argv_forks += ["--half-prologues", label]
        for label in sweep.plain_launch:
            argv_forks += ["--plain-launch", label]
        if args.fake_device:
            argv_forks.append("--fake-device")
        print(f"== {name}: {sweep.why}", flush=True)
        status |= forks.main(argv_forks)
        for ext in ("md", "json"):
            shutil.copyfile(args.work_dir / name / f"forks.{ext}",
                            args.out / f"forks-{name}.{ext}")
        print(f"== {name}: {time.monotonic() - started:.0f} s", flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
