#!/usr/bin/env python3
"""Deplodock's fuzzer: runs the tools on mutated IR, protocol frames, flags
and files, and reports how every run ended.

    fuzz/fuzz.py --out=DIR [--seed=N] [--ir=N] [--frames=N] [--client=N]
                 [--flags=N] [--jobs=N] [--timeout=S] [--memory-gb=G]

Deterministic for a seed: case i of a campaign is made from (seed, i) alone.
The report gives, per campaign, the runs that ended clean, diagnosed,
crashed, hung or wrong, and the reproducer (DIR/findings/<case>/repro.sh)
of every finding. Exit status: 1 when a run crashed, hung or was wrong and
the finding is not listed in fuzz/known-findings.txt (--strict: even when
it is), else 0. See fuzz/README.md.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from deplodock_fuzz import files, ir, protocol  # noqa: E402
from deplodock_fuzz.cases import run_cases  # noqa: E402
from deplodock_fuzz.report import Report, load_known  # noqa: E402
from deplodock_fuzz.runner import Limits  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SRC_ROOT = os.path.dirname(HERE)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin-dir", default=os.path.join(SRC_ROOT, "build",
                                                          "bin"),
                        help="where the tools are (default: build/bin)")
    parser.add_argument("--out", required=True,
                        help="directory for seeds, scratch and findings")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ir", type=int, default=200,
                        help="IR mutants (default 200)")
    parser.add_argument("--frames", type=int, default=100,
                        help="protocol frames sent to the bench worker")
    parser.add_argument("--client", type=int, default=30,
                        help="bench client runs against a lying worker")
    parser.add_argument("--flags", type=int, default=60,
                        help="tool runs with mutated flags and files")
    parser.add_argument("--start", type=int, default=0,
                        help="index of the first case of each campaign")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="seconds before a run counts as hung")
    parser.add_argument("--memory-gb", type=float, default=4.0,
                        help="address-space limit of every run (0: none)")
    parser.add_argument("--sanitized", action="store_true",
                        help="the tools are built with a sanitizer: no "
                        "address-space limit (ASan and TSan reserve "
                        "terabytes)")
    parser.add_argument("--known", default=os.path.join(HERE,
                                                        "known-findings.txt"))
    parser.add_argument("--strict", action="store_true",
                        help="known findings fail the run too")
    parser.add_argument("--json", help="also write the report as JSON here")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args()

    bin_dir = os.path.abspath(args.bin_dir)
    for tool in ("deplodock-opt", "deplodock-run", "deplodock-translate",
                 "deplodock-tune", "deplodock-bench-worker"):
        if not os.access(os.path.join(bin_dir, tool), os.X_OK):
            print("error: %s not found in %s (build it first)" % (tool, bin_dir),
                  file=sys.stderr)
            return 2
    out = os.path.abspath(args.out)
    keep = os.path.join(out, "findings")
    shutil.rmtree(keep, ignore_errors=True)
    os.makedirs(keep, exist_ok=True)
    work = tempfile.mkdtemp(prefix="scratch-", dir=out)
    limits = Limits(args.timeout, int(args.memory_gb * (1 << 30)),
                    args.sanitized)
    report = Report(load_known(args.known))

    seeds = ir.make_seeds(SRC_ROOT, bin_dir, os.path.join(out, "seeds"))
    campaigns = (
        ("ir", "mutants", lambda: ir.make_cases(seeds, args.ir, args.seed,
                                                args.start)),
        ("worker", "frames", lambda: protocol.worker_cases(
            args.frames, args.seed, args.start)),
        ("client", "lying answers", lambda: protocol.client_cases(
            args.client, args.seed, args.start, HERE, seeds)),
        ("flags", "flag and file sets", lambda: files.make_cases(
            args.flags, args.seed, args.start, seeds)),
    )
    try:
        for name, unit, make in campaigns:
            cases = make()
            if not cases:
                continue
            campaign = report.campaign(name, unit)
            started = time.monotonic()

            def progress(result, campaign=campaign, total=len(cases)):
                report.add(campaign, result)
                if not args.quiet and (campaign.cases % 100 == 0
                                       or campaign.cases == total):
                    print("%s: %d/%d cases, %.0f s" % (
                        name, campaign.cases, total,
                        time.monotonic() - started), file=sys.stderr)

            run_cases(cases, bin_dir, limits, args.jobs, work, keep, progress)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    text = report.text()
    print(text)
    if args.json:
        with open(args.json, "w") as f:
            f.write(report.json())
    failures = report.new_failures()
    if args.strict:
        failures = sum(f.count for f in report.findings.values())
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
