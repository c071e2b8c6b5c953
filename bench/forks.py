#!/usr/bin/env python3
"""Measures chosen fork options of suite cases on the GPU, side by side.

    bench/forks.py --out DIR --cases 'matmul.qwen.gate_proj.s512.bf16' \\
        --target sm_90a --variant default= \\
        --variant ws=warp_specialize=true --variant persistent=persistent=true \\
        --variant cluster=cluster_m=2

Each --variant LABEL=KNOBS runs `deplodock-run CASE.mlir --bench
--knobs=KNOBS` (empty KNOBS: the heuristic's choice) on every selected case,
with seeded inputs; deplodock-run checks the output against the CPU
interpreter or the layer's simplest GPU lowering and exits non-zero when it
is off, so a variant that is fast and wrong shows as `run_fail`. Knobs
apply to every kernel of the case, and a knob that some kernel's rules
cannot take (persistent=true where the tiles fit one wave, say) fails the
run with the rule's reason, also as `run_fail`: check the variants with
deplodock-opt before spending GPU time on them.

`--variant-bin LABEL=DIR` runs that variant with the tools in DIR instead
(another build's, say the previous commit's portable tools): its default
against this build's measures a change of the lowering itself.
`--half-prologues LABEL` lowers that variant with f16 and bf16 prologues
fused into their contractions (deplodock-run's `--half-prologues`), to
measure that fusion against the default's two kernels. `--plain-launch
LABEL` runs that variant with every kernel launched after the one before
has finished (DEPLODOCK_DEPENDENT_LAUNCH=0), to measure what programmatic
dependent launch gains on sm_90 layers of several kernels.

Writes DIR/forks.json (every run: status, median µs, kernels, error) and
DIR/forks.md (a table of medians and each variant's speed-up over the first
variant), and prints the table. Variants of one case run back to back on
the same inputs, so their ratios are what to read; use bench/gpu/run.sh for
the comparison with PyTorch.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import pathlib
import subprocess
import sys
import time

import cases as suite
import cli
import lowering


def parse_variant(text: str) -> tuple[str, str]:
    label, sep, knobs = text.partition("=")
    if not sep or not label or any(c in label for c in " |"):
        raise argparse.ArgumentTypeError(
            f"--variant wants LABEL=KNOBS (KNOBS may be empty), not '{text}'")
    return label, knobs


def parse_variant_bin(text: str) -> tuple[str, pathlib.Path]:
    label, sep, folder = text.partition("=")
    if not sep or not label or not folder:
        raise argparse.ArgumentTypeError(
            f"--variant-bin wants LABEL=DIR, not '{text}'")
    return label, pathlib.Path(folder).absolute()


def run_variant(tools: lowering.Tools, mlir: pathlib.Path, target: str,
                knobs: str, out_dir: pathlib.Path, timeout: float,
                fake: bool = False, half_prologues: bool = False,
                plain_launch: bool = False) -> dict:
    out_dir.mkdir(parents=True, exist_ok=True)
    bench_json = out_dir / "bench.json"
    bench_json.unlink(missing_ok=True)
    cmd = [str(tools.path("deplodock-run")), str(mlir), "--bench",
           f"--target={target}", f"--bench-json={bench_json}"]
    if knobs:
        cmd.append(f"--knobs={knobs}")
    if half_prologues:
        cmd.append("--half-prologues")
    if fake:
        cmd.append("--fake-device")
    env = None
    if plain_launch:
        # The runtime (and the worker it starts) then launches plainly.
        env = dict(os.environ, DEPLODOCK_DEPENDENT_LAUNCH="0")
    start = time.monotonic()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True,
                              timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return {"status": "timeout", "error": f"over {timeout:g} s",
                "command": cmd}
    seconds = round(time.monotonic() - start, 2)
    if proc.returncode != 0:
        return {"status": "run_fail", "seconds": seconds, "command": cmd,
                "error": lowering.first_error(proc.stderr),
                "stderr": proc.stderr[-2000:]}
    try:
        bench = json.loads(bench_json.read_text())
        median = float(bench["total_us"]["median"])
    except (OSError, ValueError, KeyError, TypeError) as e:
        return {"status": "run_fail", "seconds": seconds, "command": cmd,
                "error": f"unreadable --bench-json: {e}"}
    return {"status": "ok", "median_us": median, "seconds": seconds,
            "command": cmd, "kernels": bench.get("kernels")}


def speedup(base: dict | None, other: dict) -> str:
    if not base or base.get("status") != "ok" or other.get("status") != "ok":
        return ""
    return f" ({base['median_us'] / other['median_us']:.2f}×)"


def table(results: dict, labels: list[str]) -> str:
    lines = ["| case | " + " | ".join(labels) + " |",
             "|---|" + "---:|" * len(labels)]
    ratios: dict[str, list[float]] = {label: [] for label in labels[1:]}
    for case, runs in results.items():
        base = runs.get(labels[0])
        cells = []
        for label in labels:
            r = runs.get(label, {})
            if r.get("status") == "ok":
                cells.append(f"{r['median_us']:.1f}" +
                             (speedup(base, r) if label != labels[0] else ""))
                if label != labels[0] and base and base.get("status") == "ok":
                    ratios[label].append(base["median_us"] / r["median_us"])
            else:
                cells.append(r.get("status", "—"))
        lines.append(f"| {case} | " + " | ".join(cells) + " |")
    geo = ["geomean vs " + labels[0], "—"]
    for label in labels[1:]:
        v = ratios[label]
        geo.append(f"{math.exp(sum(map(math.log, v)) / len(v)):.3f}× "
                   f"({len(v)})" if v else "—")
    lines.append("| " + " | ".join(geo) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    cli.add_selection_args(parser)
    parser.add_argument("--out", type=pathlib.Path, required=True)
    parser.add_argument("--work-dir", type=pathlib.Path,
                        default=pathlib.Path("/tmp/deplodock-forks"))
    parser.add_argument("--bin-dir", help="folder of our tools (default: "
                        "$DEPLODOCK_BIN, else build/bin)")
    parser.add_argument("--target", default="sm_90")
    parser.add_argument("--variant", action="append", type=parse_variant,
                        required=True, metavar="LABEL=KNOBS",
                        help="a fork choice to measure (repeatable; the "
                        "first is the baseline of the speed-ups)")
    parser.add_argument("--variant-bin", action="append", default=[],
                        type=parse_variant_bin, metavar="LABEL=DIR",
                        help="run variant LABEL with the tools in DIR "
                        "(repeatable)")
    parser.add_argument("--half-prologues", action="append", default=[],
                        metavar="LABEL",
                        help="lower variant LABEL with f16 and bf16 "
                        "prologues fused (repeatable)")
    parser.add_argument("--plain-launch", action="append", default=[],
                        metavar="LABEL",
                        help="run variant LABEL without programmatic "
                        "dependent launch (repeatable)")
    parser.add_argument("--case-timeout", type=float, default=60.0)
    parser.add_argument("--max-minutes", type=float, default=8.0,
                        help="no run starts after this many minutes")
    parser.add_argument("--fake-device", action="store_true",
                        help="run on the bench worker's fake device (no GPU; "
                        "FAKE timings, for tests)")
    args = parser.parse_args(argv)

    labels = [label for label, _ in args.variant]
    if len(set(labels)) != len(labels):
        cli.fail("two --variant options share a label")
    tools = lowering.Tools(lowering.resolve_bin_dir(
        args.bin_dir, cli.default_bin_dir()))
    if len({label for label, _ in args.variant_bin}) < len(args.variant_bin):
        cli.fail("two --variant-bin options share a label")
    variant_tools = {label: lowering.Tools(folder)
                     for label, folder in args.variant_bin}
    for label in variant_tools:
        if label not in labels:
            cli.fail(f"--variant-bin names '{label}', which no --variant "
                     "labels")
    for flag, named in (("--half-prologues", args.half_prologues),
                        ("--plain-launch", args.plain_launch)):
        for label in named:
            if label not in labels:
                cli.fail(f"{flag} names '{label}', which no --variant "
                         "labels")
    try:
        for t in [tools, *variant_tools.values()]:
            t.require(["deplodock-run"])
    except lowering.ToolError as e:
        cli.fail(str(e))
    chosen = cli.selected_cases(args)
    args.out.mkdir(parents=True, exist_ok=True)
    deadline = time.monotonic() + 60 * args.max_minutes
    results: dict[str, dict] = {}
    for case in chosen:
        mlir = args.work_dir / f"{case.name}.mlir"
        mlir.parent.mkdir(parents=True, exist_ok=True)
        mlir.write_text(case.mlir())
        runs = results.setdefault(case.name, {})
        for label, knobs in args.variant:
            if time.monotonic() > deadline:
                runs[label] = {"status": "not_run"}
                continue
            r = run_variant(variant_tools.get(label, tools), mlir,
                            args.target, knobs,
                            args.work_dir / case.name / label,
                            args.case_timeout, args.fake_device,
                            label in args.half_prologues,
                            label in args.plain_launch)
            r["knobs"] = knobs
            runs[label] = r
            shown = (f"{r['median_us']:.1f} us" if r["status"] == "ok"
                     else f"{r['status']}: {r.get('error', '')}")
            print(f"{case.name} [{label}] {shown}", flush=True)
    report = {"target": args.target, "fake": args.fake_device,
              "variants": dict(args.variant),
              "variant_bins": {label: str(t.bin_dir)
                               for label, t in variant_tools.items()},
              "half_prologues": args.half_prologues,
              "plain_launch": args.plain_launch,
              "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
              "results": results}
    (args.out / "forks.json").write_text(json.dumps(report, indent=1) + "\n")
    md = table(results, labels)
    (args.out / "forks.md").write_text(
        ("FAKE TIMINGS (fake device): nothing here was measured\n\n"
         if args.fake_device else "")
        + f"Fork sweep, --target={args.target}, {report['date']}\n\n"
        + "\n".join(f"* {label}: `{knobs or '(heuristic)'}`"
                    + (f" (tools in {variant_tools[label].bin_dir})"
                       if label in variant_tools else "")
                    for label, knobs in args.variant) + "\n\n" + md + "\n")
    print(md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
