#!/usr/bin/env python3
"""Checks that every benchmark case lowers through our pipeline to CUDA.

For each selected case: write its MLIR, run
`deplodock-opt --deplodock-pipeline=target=T` and
`deplodock-translate --emit-cuda`, and with --nvcc also compile the CUDA
for the target (`nvcc -arch=T -cubin`). Prints one line per case, then the
failures grouped by their first error and counts per family and dtype, and
ptxas's "Potential Performance Loss" notes (C75xx: e.g. wgmma serialised)
grouped by note: kernels that compile, but slower than they are written.

    bench/check.py                                  # every suite case
    bench/check.py --families sdpa --dtypes bf16 --nvcc
    bench/check.py --json check.json --markdown check.md --jobs 2

Exit status: 0 when every case lowers, 1 when some fail, 2 on a usage error
(unknown case, missing tools).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import pathlib
import sys
import tempfile
from collections import Counter, defaultdict
from typing import Sequence

import cases as suite
import cli
import lowering


def check_cases(chosen: list[suite.Case], tools: lowering.Tools,
                work: pathlib.Path, target: str, nvcc: str | None,
                timeout: float, jobs: int) -> dict[str, lowering.LowerResult]:
    work.mkdir(parents=True, exist_ok=True)

    def one(case: suite.Case) -> lowering.LowerResult:
        path = work / f"{case.name}.mlir"
        path.write_text(case.mlir())
        return lowering.lower_case(tools, path, work, target, nvcc, timeout)

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(one, chosen))
    return {c.name: r for c, r in zip(chosen, results)}


def render_markdown(chosen: list[suite.Case],
                    results: dict[str, lowering.LowerResult], target: str,
                    nvcc: bool) -> str:
    ok = sum(r.status == "ok" for r in results.values())
    stages = "deplodock-opt --deplodock-pipeline, deplodock-translate --emit-cuda"
    if nvcc:
        stages += f", nvcc -arch={target} -cubin"
    lines = [f"# Lowering check ({target})", "",
             f"Stages: {stages}.", "",
             f"**{ok} of {len(chosen)} cases lower.**", "",
             "| family | dtype | cases | lower | fail |",
             "|---|---|---:|---:|---:|"]
    groups: dict[tuple[str, str], list[str]] = defaultdict(list)
    for c in chosen:
        groups[(c.family, c.dtype)].append(results[c.name].status)
    for (family, dtype), statuses in groups.items():
        good = statuses.count("ok")
        lines.append(f"| {family} | {dtype} | {len(statuses)} | {good} | "
                     f"{len(statuses) - good} |")
    failures = failure_groups(chosen, results)
    if failures:
        lines += ["", "## Failures", "", "| stage | error | cases |",
                  "|---|---|---|"]
        for (status, error), names in failures.items():
            err = error.replace("|", "\\|")
            lines.append(f"| {status} | `{err}` | {', '.join(names)} |")
    warnings = warning_groups(chosen, results)
    if warnings:
        lines += ["", "## ptxas performance notes", "",
                  "Kernels that compile but that ptxas says it made slower.", "",
                  "| note | cases |", "|---|---|"]
        for note, names in warnings.items():
            text = note.replace("|", "\\|")
            lines.append(f"| {text} | {', '.join(names)} |")
    return "\n".join(lines) + "\n"


def warning_groups(chosen: list[suite.Case],
                   results: dict[str, lowering.LowerResult]
                   ) -> dict[str, list[str]]:
    """ptxas performance note -> the cases whose compile printed it."""
    groups: dict[str, list[str]] = defaultdict(list)
    for c in chosen:
        for note in results[c.name].warnings:
            groups[note].append(c.name)
    return dict(groups)


def failure_groups(chosen: list[suite.Case],
                   results: dict[str, lowering.LowerResult]
                   ) -> dict[tuple[str, str], list[str]]:
    """(status, first error with the case's file name removed) -> cases."""
    groups: dict[tuple[str, str], list[str]] = defaultdict(list)
    for c in chosen:
        r = results[c.name]
        if r.status != "ok":
            error = r.error.replace(c.name, "CASE")
            groups[(r.status, error)].append(c.name)
    return dict(groups)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    cli.add_selection_args(parser)
    parser.add_argument("--bin-dir", help="folder of deplodock-opt and "
                        "deplodock-translate (default: $DEPLODOCK_BIN, else "
                        "build/bin)")
    parser.add_argument("--target", default="sm_90",
                        help="GPU to lower for (default sm_90)")
    parser.add_argument("--nvcc", nargs="?", const="", default=None,
                        metavar="PATH",
                        help="also compile the CUDA with nvcc (found on PATH "
                        "or in /usr/local/cuda unless given)")
    parser.add_argument("--work-dir", type=pathlib.Path,
                        help="keep the .mlir, kernel IR and .cu files here "
                        "(default: a temporary folder)")
    parser.add_argument("--json", type=pathlib.Path, help="write results here")
    parser.add_argument("--markdown", type=pathlib.Path,
                        help="write a Markdown report here")
    parser.add_argument("--timeout", type=float, default=120.0,
                        help="seconds per tool call (default 120)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="cases lowered at once (default 1)")
    parser.add_argument("--quiet", action="store_true",
                        help="print only failures and the summary")
    args = parser.parse_args(argv)

    chosen = cli.selected_cases(args)
    tools = lowering.Tools(lowering.resolve_bin_dir(args.bin_dir,
                                                    cli.default_bin_dir()))
    try:
        tools.require(("deplodock-opt", "deplodock-translate"))
    except lowering.ToolError as e:
        cli.fail(str(e))
    nvcc = None
    if args.nvcc is not None:
        nvcc = lowering.find_nvcc(args.nvcc or None)
        if not nvcc:
            cli.fail("--nvcc: no nvcc on PATH or in /usr/local/cuda/bin")
    if args.jobs < 1:
        cli.fail("--jobs must be at least 1")

    with tempfile.TemporaryDirectory(prefix="deplodock-check-") as tmp:
        work = args.work_dir or pathlib.Path(tmp)
        results = check_cases(chosen, tools, work, args.target, nvcc,
                              args.timeout, args.jobs)

    for c in chosen:
        r = results[c.name]
        if r.status == "ok" and not args.quiet:
            codes = ", ".join(w.split(":")[0] for w in r.warnings)
            notes = f"; ptxas: {codes}" if codes else ""
            print(f"ok    {c.name} ({r.kernels} kernels{notes})")
        elif r.status != "ok":
            print(f"FAIL  {c.name}: {r.status}: {r.error}")
    failures = failure_groups(chosen, results)
    ok = sum(r.status == "ok" for r in results.values())
    print(f"\n{ok} of {len(chosen)} cases lower to CUDA for {args.target}"
          + (" and compile with nvcc" if nvcc else ""))
    by_status = Counter(r.status for r in results.values() if r.status != "ok")
    for status, n in sorted(by_status.items()):
        print(f"  {status}: {n}")
    for (status, error), names in failures.items():
        print(f"  [{status}] {error}\n      {len(names)} cases: "
              f"{', '.join(names)}")
    for note, names in warning_groups(chosen, results).items():
        print(f"  [ptxas] {note}\n      {len(names)} cases: {', '.join(names)}")

    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(
            {"target": args.target, "nvcc": bool(nvcc),
             "cases": {n: r.to_json() for n, r in results.items()}},
            indent=1, sort_keys=True) + "\n")
    if args.markdown:
        args.markdown.parent.mkdir(parents=True, exist_ok=True)
        args.markdown.write_text(render_markdown(chosen, results, args.target,
                                                 bool(nvcc)))
    return 0 if ok == len(chosen) else 1


if __name__ == "__main__":
    sys.exit(main())
