#!/usr/bin/env python3
"""Writes the benchmark cases as MLIR on tensors, from bench/cases.py.

    bench/generate.py --list                       # every suite case's name
    bench/generate.py --list --long                # with shapes, FLOPs, bytes
    bench/generate.py --summary                    # counts per family and dtype
    bench/generate.py --case sdpa.qwen.s128.bf16   # print one case
    bench/generate.py --out DIR [filters]          # DIR/<case>.mlir + DIR/cases.json

The filters (--cases, --families, --models, --dtypes) narrow any of these;
the test model 'mini' is only included when named.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
from collections import Counter
from typing import Sequence

import cases as suite
import cli


def case_record(case: suite.Case) -> dict:
    """What the harness needs to know of a case, as JSON."""
    return {
        "name": case.name, "family": case.family, "model": case.model.name,
        "seq": case.seq, "dtype": case.dtype, "projection": case.projection,
        "in_suite": case.in_suite, "original": case.original,
        "args": [{"name": a.name, "shape": list(a.shape), "role": a.role}
                 for a in case.args],
        "result_shape": list(case.result_shape),
        "flops": case.flops, "mma_flops": case.mma_flops,
        "other_flops": case.other_flops, "min_bytes": case.min_bytes,
    }


def write_cases(chosen: list[suite.Case], out: pathlib.Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for case in chosen:
        (out / f"{case.name}.mlir").write_text(case.mlir())
    manifest = [dict(case_record(c), file=f"{c.name}.mlir") for c in chosen]
    (out / "cases.json").write_text(json.dumps(manifest, indent=1) + "\n")


def summary(chosen: list[suite.Case]) -> str:
    counts = Counter((c.family, c.dtype) for c in chosen)
    dtypes = [d for d in suite.DTYPES if any(c.dtype == d for c in chosen)]
    lines = [f"{'family':<16}" + "".join(f"{d:>6}" for d in dtypes)
             + f"{'all':>6}"]
    for family in suite.FAMILIES:
        row = [counts[(family, d)] for d in dtypes]
        if sum(row):
            lines.append(f"{family:<16}" + "".join(f"{n:>6}" for n in row)
                         + f"{sum(row):>6}")
    totals = [sum(counts[(f, d)] for f in suite.FAMILIES) for d in dtypes]
    lines.append(f"{'all':<16}" + "".join(f"{n:>6}" for n in totals)
                 + f"{sum(totals):>6}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--list", action="store_true",
                      help="print the selected cases' names")
    mode.add_argument("--summary", action="store_true",
                      help="print the number of cases per family and dtype")
    mode.add_argument("--case", metavar="NAME",
                      help="print the MLIR of one case")
    mode.add_argument("--out", metavar="DIR", type=pathlib.Path,
                      help="write the selected cases and cases.json to DIR")
    parser.add_argument("--long", action="store_true",
                        help="with --list: shapes, FLOPs and bytes too")
    cli.add_selection_args(parser)
    args = parser.parse_args(argv)

    if args.case:
        try:
            case = suite.find(args.case)
        except suite.SelectionError as e:
            cli.fail(str(e))
        sys.stdout.write(case.mlir())
        return 0
    chosen = cli.selected_cases(args)
    if args.list:
        for c in chosen:
            if args.long:
                print(f"{c.name:<40} {c.dtype:<5} {c.flops:>14} FLOP "
                      f"{c.min_bytes:>12} B  {c.shapes}")
            else:
                print(c.name)
    elif args.summary:
        print(summary(chosen))
    else:
        write_cases(chosen, args.out)
        print(f"wrote {len(chosen)} cases to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
