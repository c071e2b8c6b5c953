#!/usr/bin/env python3
"""How far the roofline model is from the GPU on a benchmark run.

    bench/model_check.py RESULTS.json [--target sm_90a] [filters]

For every case of RESULTS.json (bench/harness.py or bench/report.py output)
whose heuristic kernels ('ours') ran and matched the reference, estimates
the same default variant with `deplodock-tune --backend=model
--max-variants=1` (the sum of its kernels' estimates) and prints the
measured / estimated ratio per case and its geometric mean per family and
dtype: above 1, the model is optimistic. The variant estimated is the
default as these tools lower it: use the tools of the commit the results
measured (the page and the JSON name it), or the defaults may differ. The target is the run's unless
--target names one (a run merged from several targets: select each dtype
with --dtypes and give its target). FAKE results are refused: their timings
are invented, not measured.
"""

from __future__ import annotations

import argparse
import json
import math
import pathlib
import subprocess
import sys
import tempfile
from collections import defaultdict
from typing import Sequence

import cases as suite
import cli
import lowering
import report


def model_us(tools: lowering.Tools, mlir: pathlib.Path,
             target: str) -> float | None:
    """The model's estimate of the default variant of every kernel, summed;
    None when a kernel has none (it failed to lower)."""
    proc = subprocess.run(
        [str(tools.path("deplodock-tune")), str(mlir), "--backend=model",
         f"--target={target}", "--max-variants=1", "--no-db", "--json",
         "--quiet"], capture_output=True, text=True)
    if proc.returncode != 0:
        return None
    kernels = json.loads(proc.stdout)["kernels"]
    estimates = [k.get("default_us") for k in kernels]
    if not estimates or any(e is None for e in estimates):
        return None
    return sum(estimates)


def geomean(values: list[float]) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("results", type=pathlib.Path)
    parser.add_argument("--target", help="default: the run's target")
    parser.add_argument("--bin-dir", help="folder of our tools (default: "
                        "$DEPLODOCK_BIN, else build/bin)")
    cli.add_selection_args(parser)
    args = parser.parse_args(argv)
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
    tools = lowering.Tools(lowering.resolve_bin_dir(
        args.bin_dir, cli.REPO / "build" / "bin"))
    try:
        tools.require(["deplodock-tune"])
    except lowering.ToolError as e:
        cli.fail(str(e))
    # Without filters, every case of the results (the test model's too).
    filtered = any((args.cases, args.families, args.models, args.dtypes))
    chosen = ({c.name for c in cli.selected_cases(args)} if filtered
              else set(results["cases"]))

    ratios: dict[tuple[str, str], list[float]] = defaultdict(list)
    print(f"{'case':44} {'GPU us':>10} {'model us':>10} {'GPU/model':>10}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, record in results["cases"].items():
            measured = report.time_of(record, "ours")
            if name not in chosen or measured is None:
                continue
            case = suite.find(name)
            mlir = pathlib.Path(tmp) / f"{name}.mlir"
            mlir.write_text(case.mlir())
            estimate = model_us(tools, mlir, target)
            if estimate is None or estimate <= 0:
                print(f"{name:44} {measured:10.1f} {'-':>10} {'-':>10}")
                continue
            ratio = measured / estimate
            ratios[(case.family, case.dtype)].append(ratio)
            print(f"{name:44} {measured:10.1f} {estimate:10.1f} {ratio:10.2f}")
    print(f"\n| family | dtype | cases | GPU / model (geomean) | min | max |")
    print("|---|---|---:|---:|---:|---:|")
    for (family, dtype), values in ratios.items():
        print(f"| {family} | {dtype} | {len(values)} | {geomean(values):.2f} "
              f"| {min(values):.2f} | {max(values):.2f} |")
    if not ratios:
        print("no case of the selection ran correctly in these results",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
