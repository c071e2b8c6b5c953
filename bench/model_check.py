#!/usr/bin/env python3
"""How far the roofline model is from the GPU.

    bench/model_check.py RESULTS.json [--target sm_90a] [filters]
    bench/model_check.py --table TABLE --input LAYER.mlir [--target sm_90]

With RESULTS.json (bench/harness.py or bench/report.py output): for every
case whose heuristic kernels ('ours') ran and matched the reference, lowers
the case with `deplodock-opt --deplodock-pipeline` and estimates each
kernel with `--dkernel-estimate`, then prints the measured / estimated
ratio per case and its geometric mean per family and dtype: above 1, the
model is optimistic. Where the results name the launch shape of each
kernel measured (grid, block, shared memory), a case whose default lowers
to another shape today is marked 'differs' and left out of the means: the
defaults changed since the run, so the model would estimate another
variant. The target is the run's unless --target names one (a run merged
from several targets: select each dtype with --dtypes and give its
target). FAKE results are refused: their timings are invented, not
measured.

With --table (a latency table `deplodock-tune --record-table` wrote on a
GPU) and the layer it was recorded from: estimates every variant the table
measured, with its knobs, and prints per kernel the geometric mean of
measured / estimated, the rank correlation (Spearman) between the two, and
the measured time of the variant the model ranks first against the
fastest measured: how well the model would guide a search on that GPU.
"""

from __future__ import annotations

import argparse
import json
import math
import pathlib
import re
import subprocess
import sys
import tempfile
from collections import defaultdict
from dataclasses import dataclass
from typing import Sequence

import cases as suite
import cli
import lowering
import report

_FUNC = re.compile(r"dkernel\.func @(\w+)\(.*\bgrid \[([\d, ]+)\] "
                   r"block \[([\d, ]+)\] smem (\d+)")
_REMARK = re.compile(r"remark: estimate of @(\w+): (?:(\w+)-bound, "
                     r"([\d.]+) us|cannot launch)")


@dataclass
class Estimate:
    name: str
    grid: list[int]
    block: list[int]
    smem: int
    us: float | None  # None: cannot launch
    bound: str


def estimate(tools: lowering.Tools, mlir: pathlib.Path, target: str,
             knobs: str | None = None) -> list[Estimate] | None:
    """The model's estimate of every kernel `mlir` lowers to (with `knobs`,
    else the heuristics), in launch order; None when it does not lower."""
    option = f"target={target}" + (f" knobs={knobs}" if knobs else "")
    proc = subprocess.run(
        [str(tools.path("deplodock-opt")), str(mlir),
         f"--deplodock-pipeline={option}", "--dkernel-estimate"],
        capture_output=True, text=True)
    if proc.returncode != 0:
        return None
    shapes = {m[1]: ([int(x) for x in m[2].split(",")],
                     [int(x) for x in m[3].split(",")], int(m[4]))
              for m in _FUNC.finditer(proc.stdout)}
    result = []
    for m in _REMARK.finditer(proc.stderr):
        grid, block, smem = shapes.get(m[1], ([], [], 0))
        result.append(Estimate(m[1], grid, block, smem,
                               float(m[3]) if m[3] else None, m[2] or ""))
    return result or None


def geomean(values: list[float]) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values))


def same_launches(measured: list[dict], estimates: list[Estimate]) -> bool:
    """Whether the kernels measured are the ones estimated: same names and
    launch shapes in the same order (True when the run recorded none)."""
    if not measured:
        return True
    if len(measured) != len(estimates):
        return False
    return all(k.get("name") == e.name and k.get("grid") == e.grid
               and k.get("block") == e.block
               and k.get("smem_bytes", e.smem) == e.smem
               for k, e in zip(measured, estimates))


def ranks(values: list[float]) -> list[float]:
    """Ranks from 1, ties sharing their mean rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    result = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            result[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return result


def spearman(a: list[float], b: list[float]) -> float | None:
    if len(a) < 3:
        return None
    ra, rb = ranks(a), ranks(b)
    ma, mb = sum(ra) / len(ra), sum(rb) / len(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = math.sqrt(sum((x - ma) ** 2 for x in ra))
    vb = math.sqrt(sum((y - mb) ** 2 for y in rb))
    return cov / (va * vb) if va and vb else None


def check_results(args: argparse.Namespace, tools: lowering.Tools) -> int:
    try:
        results = report.load(args.results)
    except report.ReportError as e:
        cli.fail(str(e))
    if results.get("fake"):
        cli.fail(f"{args.results}: FAKE timings (a dry run): nothing to "
                 "compare the model with")
    target = args.target or results.get("settings", {}).get("target")
    if not target:
        cli.fail(f"{args.results} names no target: pass --target")
    # Without filters, every case of the results (the test model's too).
    filtered = any((args.cases, args.families, args.models, args.dtypes))
    chosen = ({c.name for c in cli.selected_cases(args)} if filtered
              else set(results["cases"]))

    ratios: dict[tuple[str, str], list[float]] = defaultdict(list)
    differ = 0
    print(f"{'case':44} {'GPU us':>10} {'model us':>10} {'GPU/model':>10}"
          "  model's bound")
    with tempfile.TemporaryDirectory() as tmp:
        for name, record in results["cases"].items():
            measured = report.time_of(record, "ours")
            if name not in chosen or measured is None:
                continue
            case = suite.find(name)
            mlir = pathlib.Path(tmp) / f"{name}.mlir"
            mlir.write_text(case.mlir())
            kernels = estimate(tools, mlir, target)
            if not kernels or any(k.us is None for k in kernels):
                print(f"{name:44} {measured:10.1f} {'-':>10} {'-':>10}")
                continue
            total = sum(k.us for k in kernels)
            bounds = ",".join(k.bound for k in kernels)
            launches = (record.get("ours", {}).get("bench") or {}).get(
                "kernels") or []
            if not same_launches(launches, kernels):
                differ += 1
                print(f"{name:44} {measured:10.1f} {total:10.1f} "
                      f"{'differs':>10}  {bounds}")
                continue
            ratio = measured / total
            ratios[(case.family, case.dtype)].append(ratio)
            print(f"{name:44} {measured:10.1f} {total:10.1f} {ratio:10.2f}"
                  f"  {bounds}")
    print(f"\n| family | dtype | cases | GPU / model (geomean) | min | max |")
    print("|---|---|---:|---:|---:|---:|")
    for (family, dtype), values in ratios.items():
        print(f"| {family} | {dtype} | {len(values)} | {geomean(values):.2f} "
              f"| {min(values):.2f} | {max(values):.2f} |")
    if differ:
        print(f"\n{differ} case(s) left out: today's default lowers to other "
              "kernels than the ones measured")
    if not ratios:
        print("no case of the selection ran correctly in these results",
              file=sys.stderr)
        return 1
    return 0


def check_table(args: argparse.Namespace, tools: lowering.Tools) -> int:
    try:
        table = json.loads(args.table.read_text())
    except (OSError, json.JSONDecodeError) as e:
        cli.fail(f"{args.table}: {e}")
    if table.get("format") != "deplodock-latency-table":
        cli.fail(f"{args.table}: not a deplodock latency table")
    if table.get("recorded_with") == "model":
        cli.fail(f"{args.table}: recorded on the model, not measured")
    target = args.target or table.get("target")
    if not target:
        cli.fail(f"{args.table} names no target: pass --target")
    if not args.input.is_file():
        cli.fail(f"{args.input}: no such file")
    checked = 0
    for key, kernel in sorted(table.get("kernels", {}).items()):
        name = kernel["name"]
        gpu, model = [], []
        stale = 0
        for knobs, entry in sorted(kernel.get("variants", {}).items()):
            if entry.get("status") != "ok":
                continue
            kernels = estimate(tools, args.input, target, f"{name}:{knobs}")
            if not kernels or any(k.us is None for k in kernels):
                # Its knobs no longer lower (a rule added since fills in its
                # default, which another recorded knob does not allow).
                stale += 1
                continue
            gpu.append(entry["median_us"])
            model.append(sum(k.us for k in kernels))
        if not gpu:
            print(f"@{name}: no variant of the table lowers from "
                  f"{args.input}")
            continue
        checked += 1
        rho = spearman(gpu, model)
        pick = gpu[min(range(len(model)), key=lambda i: model[i])]
        left = f" ({stale} no longer lower with their knobs)" if stale else ""
        print(f"@{name} ({key[:12]}): {len(gpu)} variants{left}; GPU / model "
              f"{geomean([g / m for g, m in zip(gpu, model)]):.2f} "
              f"(min {min(g / m for g, m in zip(gpu, model)):.2f}, max "
              f"{max(g / m for g, m in zip(gpu, model)):.2f}); Spearman "
              + (f"{rho:.2f}" if rho is not None else "-")
              + f"; the model's pick takes {pick:.1f} us, the fastest "
              f"{min(gpu):.1f} us")
    return 0 if checked else 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("results", type=pathlib.Path, nargs="?")
    parser.add_argument("--table", type=pathlib.Path,
                        help="a GPU latency table instead of results")
    parser.add_argument("--input", type=pathlib.Path,
                        help="--table: the layer the table was recorded from")
    parser.add_argument("--target", help="default: the run's (the table's) "
                        "target")
    parser.add_argument("--bin-dir", help="folder of our tools (default: "
                        "$DEPLODOCK_BIN, else build/bin)")
    cli.add_selection_args(parser)
    args = parser.parse_args(argv)
    if (args.results is None) == (args.table is None):
        cli.fail("give either RESULTS.json or --table")
    if args.table is not None and args.input is None:
        cli.fail("--table needs --input, the layer it was recorded from")
    tools = lowering.Tools(lowering.resolve_bin_dir(
        args.bin_dir, cli.REPO / "build" / "bin"))
    try:
        tools.require(["deplodock-opt"])
    except lowering.ToolError as e:
        cli.fail(str(e))
    if args.table is not None:
        return check_table(args, tools)
    return check_results(args, tools)


if __name__ == "__main__":
    sys.exit(main())
