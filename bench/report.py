#!/usr/bin/env python3
"""Merges benchmark results and renders them: JSON, Markdown, PNG.

    bench/report.py RESULTS.json [MORE.json ...] --out DIR [--name bench]
    bench/report.py RESULTS.json [MORE.json ...] --doc docs/benchmarks.md

Reads one or more results files written by bench/harness.py (for instance
the partial results of several GPU sessions), merges them case by case (a
later file's measurement replaces an earlier one; 'not_run' never replaces
anything), and writes DIR/NAME.json, DIR/NAME.md and, when matplotlib is
installed, DIR/NAME.png. Files of a dry run (FAKE timings) and of a real
run are never merged, nor runs on different GPUs (unless
--allow-mixed-devices).

With --doc it writes only the Markdown, to the given file, as the page
docs/benchmarks.md is rendered: from real measurements only (a dry run's
FAKE timings are refused), headed by where the numbers come from.

Ratios are PyTorch's time over ours: above 1.0 we are faster. Only cases
whose output matched the reference count; a wrong result is never a win.
"""

from __future__ import annotations

import argparse
import json
import math
import pathlib
import sys
from typing import Iterable, Sequence

import cases as suite

BACKENDS = ("eager", "compile", "ours", "tuned")
OURS = ("ours", "tuned")
# The opt-in TF32 section (harness --tf32): the same four on FP32 cases with
# TF32 contractions. Never part of the FP32 ratios above.
TF32 = {b: f"{b}_tf32" for b in BACKENDS}
TF32_BACKENDS = tuple(TF32.values())
OURS_TF32 = tuple(TF32[b] for b in OURS)
ALL_BACKENDS = BACKENDS + TF32_BACKENDS
ALL_OURS = OURS + OURS_TF32
SCHEMA = 1
FAKE_BANNER = ("FAKE TIMINGS: dry run without a GPU. Every time below is "
               "invented (deterministically, from the roofline floor); "
               "nothing was measured.")


class ReportError(ValueError):
    """Results that cannot be read or merged."""


# --- Reading, merging, writing ----------------------------------------------

def clean_json(value):
    """`value` with NaN and infinities replaced by strings (strict JSON)."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {k: clean_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [clean_json(v) for v in value]
    return value


def load(path: pathlib.Path) -> dict:
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise ReportError(f"{path}: no such file") from None
    except json.JSONDecodeError as e:
        raise ReportError(f"{path}: not JSON ({e})") from None
    if not isinstance(data, dict) or data.get("schema") != SCHEMA \
            or not isinstance(data.get("cases"), dict):
        raise ReportError(f"{path}: not a results file of bench/harness.py "
                          f"(schema {SCHEMA})")
    return data


def device_name(results: dict) -> str:
    return str(results.get("environment", {}).get("device", {}).get("name", "?"))


def merge(parts: list[dict], allow_mixed_devices: bool = False) -> dict:
    """Case-by-case merge; later parts win, except with 'not_run' entries."""
    if not parts:
        raise ReportError("nothing to merge")
    fakes = {bool(p.get("fake")) for p in parts}
    if len(fakes) > 1:
        raise ReportError("cannot merge a dry run (FAKE timings) with a real run")
    devices = {device_name(p) for p in parts}
    if len(devices) > 1 and not allow_mixed_devices:
        raise ReportError("results from different GPUs: " + ", ".join(
            sorted(devices)) + " (--allow-mixed-devices to merge anyway)")
    merged = json.loads(json.dumps(parts[0]))
    for part in parts[1:]:
        for name, record in part["cases"].items():
            mine = merged["cases"].setdefault(name, {})
            for key, value in record.items():
                if key in ALL_BACKENDS and isinstance(value, dict) and \
                        value.get("status") == "not_run" and key in mine:
                    continue
                mine[key] = value
        merged["updated"] = max(merged.get("updated", ""),
                                part.get("updated", ""))
    if len(parts) > 1:
        # A part that is itself a merge lists its own runs.
        merged["merged_from"] = [run for p in parts
                                 for run in (p.get("merged_from")
                                             or [run_summary(p)])]
    merged["cases"] = in_table_order(merged["cases"])
    for record in merged["cases"].values():
        record["ratios"] = ratios(record)
    return merged


def run_summary(part: dict) -> dict:
    """One run of a merge: when, where, what and how many cases it measured."""
    return {"created": part.get("created"), "device": device_name(part),
            "commit": part.get("environment", {}).get("commit"),
            "target": part.get("settings", {}).get("target"),
            "cases": sum(1 for r in part["cases"].values() if any(
                isinstance(r.get(b), dict) and r[b].get("status") != "not_run"
                for b in ALL_BACKENDS))}


def in_table_order(records: dict) -> dict:
    """The case records in the order of the shape table (unknown ones last)."""
    order = {c.name: i for i, c in enumerate(suite.all_cases(True))}
    return dict(sorted(records.items(),
                       key=lambda kv: (order.get(kv[0], len(order)), kv[0])))


# Per-call detail a committed results file does not need: the timing
# samples, the exact commands, the tools' error output, and the device
# and reference each of our runs repeats (the run's environment names the
# device once). The run's own bench.json and run.log keep them.
BULKY_KEYS = frozenset({"samples_us", "command", "commands", "stderr"})
BULKY_BENCH_KEYS = frozenset({"device", "reference"})


def compact(value, parent: str = ""):
    """`value` without the bulky keys at any depth: small enough to commit."""
    if isinstance(value, dict):
        return {k: compact(v, k) for k, v in value.items()
                if k not in BULKY_KEYS
                and not (parent == "bench" and k in BULKY_BENCH_KEYS)}
    if isinstance(value, list):
        return [compact(v) for v in value]
    return value


def write_json(results: dict, path: pathlib.Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(clean_json(results), indent=1) + "\n")
    tmp.replace(path)


# --- Derived numbers ---------------------------------------------------------

def time_of(record: dict, backend: str) -> float | None:
    """The backend's median in µs, if it ran and (for ours) was correct."""
    entry = record.get(backend) or {}
    if entry.get("status") != "ok":
        return None
    t = entry.get("median_us")
    return float(t) if isinstance(t, (int, float)) and t > 0 else None


def best_ours(record: dict, ours: Sequence[str] = OURS
              ) -> tuple[str, float] | None:
    times = [(b, time_of(record, b)) for b in ours]
    times = [(b, t) for b, t in times if t is not None]
    return min(times, key=lambda bt: bt[1]) if times else None


def ratios(record: dict) -> dict:
    """PyTorch time / our time (and compile's over eager's)."""
    out = {}
    for base in ("eager", "compile"):
        tb = time_of(record, base)
        for ours in OURS:
            to = time_of(record, ours)
            out[f"{base}/{ours}"] = tb / to if tb and to else None
        best = best_ours(record)
        out[f"{base}/best"] = tb / best[1] if tb and best else None
    te, tc = time_of(record, "eager"), time_of(record, "compile")
    out["eager/compile"] = te / tc if te and tc else None
    floor = (record.get("floor") or {}).get("us")
    best = best_ours(record)
    out["floor/best"] = floor / best[1] if floor and best else None
    # TF32 against TF32 only, under keys of their own.
    if any(b in record for b in TF32_BACKENDS):
        best = best_ours(record, OURS_TF32)
        for base in ("eager", "compile"):
            tb = time_of(record, TF32[base])
            for ours in OURS:
                to = time_of(record, TF32[ours])
                out[f"{TF32[base]}/{TF32[ours]}"] = tb / to if tb and to else None
            out[f"{TF32[base]}/best_tf32"] = tb / best[1] if tb and best else None
    return out


def geomean(values: Iterable[float]) -> float | None:
    vals = [v for v in values if v]
    if not vals:
        return None
    return math.exp(sum(math.log(v) for v in vals) / len(vals))


def summarize(records: list[dict], key: str, ours: str | None) -> dict:
    """Geomean and wins of ratio `key` over records, with our failures."""
    rs = [r["ratios"].get(key) for r in records]
    measured = [v for v in rs if v]
    out = {"cases": len(records), "measured": len(measured),
           "geomean": geomean(measured),
           "wins": sum(v >= 1.0 for v in measured)}
    if ours:
        backends = {"best": OURS, "best_tf32": OURS_TF32}.get(ours, (ours,))
        statuses = [[(r.get(b) or {}).get("status") for b in backends]
                    for r in records]
        out["wrong"] = sum("wrong" in s and "ok" not in s for s in statuses)
        out["failed"] = sum(
            all(x not in ("ok", "wrong", "not_run", "skipped", None) for x in s)
            for s in statuses)
    return out


# --- Markdown ----------------------------------------------------------------

def _fmt_us(record: dict, backend: str) -> str:
    entry = record.get(backend) or {}
    status = entry.get("status")
    if status is None or status in ("not_run", "skipped"):
        return "—"
    t = entry.get("median_us")
    if status == "ok" and t:
        mark = " †" if backend not in ALL_OURS and \
            (entry.get("check") or {}).get("ok") is False else ""
        if is_noisy(entry):
            mark += " ≈"
        return f"{t:,.1f}{mark}"
    return status


def is_noisy(entry: dict) -> bool:
    """Whether a PyTorch timing stayed noisy after its attempts."""
    return bool((entry.get("timing") or {}).get("noisy"))


def _fmt_ratio(v: float | None) -> str:
    return f"{v:.2f}×" if v else "—"


def _fmt_geo(s: dict) -> str:
    return f"{s['geomean']:.3f}×" if s["geomean"] else "—"


def _fmt_rate(key: str, value: float) -> str:
    """'bandwidth 3.0 TB/s', 'BF16 matrix 798 TFLOP/s' from roofline JSON keys."""
    if key == "bandwidth_Bps":
        return f"bandwidth {value / 1e12:.1f} TB/s"
    dtype, _, kind = key.partition("_")
    unit = "matrix " if kind.startswith("matrix") else ""
    return f"{dtype.upper()} {unit}{value / 1e12:.0f} TFLOP/s"


def _fmt_pct(fraction: float | None) -> str:
    if not fraction:
        return "—"
    pct = 100 * fraction
    return "<0.1%" if pct < 0.1 else f"{pct:.1f}%"


def environment_lines(results: dict) -> list[str]:
    env = results.get("environment", {})
    dev = env.get("device", {})
    lines = []
    parts = [dev.get("name", "unknown GPU")]
    if dev.get("cc"):
        parts.append(f"sm_{dev['cc'].replace('.', '')}")
    if dev.get("sm_count"):
        parts.append(f"{dev['sm_count']} SMs")
    if dev.get("l2_bytes"):
        parts.append(f"{dev['l2_bytes'] / 2**20:.0f} MiB L2")
    lines.append(f"* Device: {', '.join(parts)}")
    sw = [f"{k} {env[k]}" for k in ("driver", "cuda", "torch", "triton",
                                    "python", "numpy") if env.get(k)]
    if sw:
        lines.append(f"* Software: {', '.join(sw)}")
    when = results.get("updated") or results.get("created")
    runs = results.get("merged_from") or []
    commits = sorted({r.get("commit") or "?" for r in runs})
    if len(commits) > 1:
        lines.append(f"* Date: {when}, commits {', '.join(commits)} (the "
                     "runs below say which measured what)")
    else:
        lines.append(f"* Date: {when}" + (f", commit {env['commit']}"
                                          if env.get("commit") else ""))
    s = results.get("settings", {})
    t = s.get("timing", {})
    if t:
        lines.append(
            f"* PyTorch timing: CUDA events per call on a private stream, "
            f"warm-up {t.get('warmup_ms')} ms, L2 flushed ({t.get('flush_bytes', 0) >> 20} "
            f"MiB zeroed) before every call" +
            (", the call queued behind a GPU spin" if t.get("queue_ahead")
             else "") + f", median of {t.get('min_reps')}–"
            f"{t.get('max_reps')} calls fitting in {t.get('rep_ms')} ms" +
            (f", timed again (up to {t['attempts']} times, the quietest "
             f"kept) where the 90th percentile passed {t['noisy_spread']}x "
             "the 10th" if t.get("attempts", 1) > 1 else "") +
            f"; TF32 {'on' if s.get('tf32') else 'off'}; torch.compile mode "
            f"'{s.get('compile_mode')}'")
    if len(runs) > 1:
        lines.append("* Merged from runs (a later run's measurement of a case "
                     "wins): " + "; ".join(
                         f"{r.get('created')}, commit {r.get('commit') or '?'}"
                         f", --target={r.get('target') or '?'}, "
                         f"{r.get('cases', '?')} cases" for r in runs))
    if s.get("tf32_section"):
        lines.append("* TF32 section (opt-in, FP32 cases only): PyTorch with "
                     "TF32 allowed, ours with `--precision=tf32`; kept apart "
                     "from every FP32 ratio")
    if s.get("target"):
        lines.append(f"* Ours: `deplodock-run --bench --target={s['target']}` "
                     f"(its own timing, total of the function's kernels); tuned: "
                     f"`deplodock-tune --backend=cuda` (≤ {s.get('tune_variants')} "
                     f"variants, ≤ {s.get('tune_seconds')} s a case) then "
                     "`--tune-db`")
    roof = s.get("roofline")
    if roof:
        rates = roof.get("rates", {})
        desc = ", ".join(_fmt_rate(k, v["value"]) for k, v in rates.items())
        lines.append(f"* Roofline floor ({roof.get('key')}): max(matmul FLOPs / "
                     f"matrix rate, other FLOPs / FP32 rate, bytes / bandwidth); "
                     f"{desc} (sources in the JSON)")
    return lines


def render_markdown(results: dict) -> str:
    fake = bool(results.get("fake"))
    records = [dict(r, name=n) for n, r in results["cases"].items()]
    for r in records:
        r.setdefault("ratios", ratios(r))
    title = "Deplodock vs PyTorch: kernel benchmark"
    out = [f"# {'FAKE — ' if fake else ''}{title}", ""]
    if fake:
        out += [f"> **{FAKE_BANNER}**", ""]
    out += environment_lines(results) + [""]

    out += ["## Summary", "",
            "Ratio = PyTorch µs / our µs (> 1: we are faster), over the cases "
            "where both ran and our output matched the reference.", "",
            "| comparison | cases | measured | geomean | ≥ 1.0× | wrong | failed |",
            "|---|---:|---:|---:|---:|---:|---:|"]
    for label, key, ours in [
            ("ours (heuristic) vs eager", "eager/ours", "ours"),
            ("ours (heuristic) vs torch.compile", "compile/ours", "ours"),
            ("ours (tuned) vs eager", "eager/tuned", "tuned"),
            ("ours (tuned) vs torch.compile", "compile/tuned", "tuned"),
            ("best of ours vs eager", "eager/best", "best"),
            ("best of ours vs torch.compile", "compile/best", "best"),
            ("torch.compile vs eager", "eager/compile", None)]:
        s = summarize(records, key, ours)
        out.append(f"| {label} | {s['cases']} | {s['measured']} | "
                   f"{_fmt_geo(s)} | {s['wins']} | {s.get('wrong', '')} | "
                   f"{s.get('failed', '')} |")
    noisy = sorted(r["name"] for r in records
                   if any(is_noisy(r.get(b) or {}) for b in ("eager", "compile")))
    if noisy:
        out += ["", f"PyTorch's timing stayed noisy in every attempt for "
                f"{len(noisy)} cases (marked ≈ below): {', '.join(noisy)}."]
    out += ["", "### By family and dtype (best of ours)", "",
            "| family | dtype | cases | vs eager | ≥ 1.0× | vs compile | "
            "≥ 1.0× | % of floor (geomean) |",
            "|---|---|---:|---:|---:|---:|---:|---:|"]
    groups: dict[tuple[str, str], list[dict]] = {}
    for r in records:
        case = r.get("case", {})
        groups.setdefault((case.get("family", "?"), case.get("dtype", "?")),
                          []).append(r)
    for (family, dtype), rs in groups.items():
        e, c = summarize(rs, "eager/best", None), summarize(rs, "compile/best", None)
        fl = geomean(r["ratios"].get("floor/best") for r in rs)
        out.append(f"| {family} | {dtype} | {len(rs)} | {_fmt_geo(e)} | "
                   f"{e['wins']} | {_fmt_geo(c)} | {c['wins']} | "
                   f"{_fmt_pct(fl)} |")

    out += ["", "## Cases", "",
            "µs are medians; a status replaces the time where a backend did not "
            "produce a correct timed result (wrong: output off the reference; "
            "lower_fail, run_fail, tune_fail, timeout, error; — not run). "
            "† PyTorch's own output was outside the tolerance. "
            "≈ PyTorch's timing stayed noisy in every attempt (the timing "
            "line above says how that is judged): its ratios are less sure. "
            "% of floor = roofline floor / best of ours.", "",
            "| case | eager µs | compile µs | ours µs | tuned µs | eager/ours | "
            "compile/ours | eager/tuned | compile/tuned | floor µs | % of floor |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in records:
        rt = r["ratios"]
        floor = (r.get("floor") or {}).get("us")
        pct = rt.get("floor/best")
        out.append(
            f"| {r['name']} | {_fmt_us(r, 'eager')} | {_fmt_us(r, 'compile')} | "
            f"{_fmt_us(r, 'ours')} | {_fmt_us(r, 'tuned')} | "
            f"{_fmt_ratio(rt.get('eager/ours'))} | "
            f"{_fmt_ratio(rt.get('compile/ours'))} | "
            f"{_fmt_ratio(rt.get('eager/tuned'))} | "
            f"{_fmt_ratio(rt.get('compile/tuned'))} | "
            f"{f'{floor:,.2f}' if floor else '—'} | "
            f"{_fmt_pct(pct)} |")
    out += tf32_markdown(records)
    problems = [r for r in records
                if any((r.get(b) or {}).get("status") not in
                       (None, "ok", "not_run", "skipped") for b in ALL_BACKENDS)]
    if problems:
        out += ["", "## Problems", ""]
        for r in problems:
            for b in ALL_BACKENDS:
                entry = r.get(b) or {}
                if entry.get("status") not in (None, "ok", "not_run", "skipped"):
                    why = entry.get("error") or (entry.get("check") or {}).get(
                        "reason", "")
                    out.append(f"* {r['name']} / {b}: {entry['status']}"
                               + (f": {why}" if why else ""))
    if fake:
        out += ["", f"> **{FAKE_BANNER}**"]
    return "\n".join(out) + "\n"


def tf32_markdown(records: list[dict]) -> list[str]:
    """The opt-in TF32 section: FP32 cases with TF32 contractions, ours
    against PyTorch with TF32 allowed; nothing when no case ran it."""
    rs = [r for r in records
          if any((r.get(b) or {}).get("status") not in (None, "skipped")
                 for b in TF32_BACKENDS)]
    if not rs:
        return []
    out = ["", "## TF32 (opt-in)", "",
           "FP32 cases with TF32 contractions: eager and torch.compile with "
           "`torch.backends.cuda.matmul.allow_tf32` and "
           "`torch.backends.cudnn.allow_tf32` on, ours with "
           "`--precision=tf32` (tuned: `deplodock-tune --precision=tf32`). "
           "Checked with TF32's tolerance (FP16's). These times are in no "
           "ratio above, and the ratios above in none here.", "",
           "| comparison | cases | measured | geomean | ≥ 1.0× | wrong | failed |",
           "|---|---:|---:|---:|---:|---:|---:|"]
    for label, key, ours in [
            ("ours TF32 (heuristic) vs eager TF32", "eager_tf32/ours_tf32",
             "ours_tf32"),
            ("ours TF32 (tuned) vs eager TF32", "eager_tf32/tuned_tf32",
             "tuned_tf32"),
            ("best of ours TF32 vs eager TF32", "eager_tf32/best_tf32",
             "best_tf32"),
            ("best of ours TF32 vs torch.compile TF32",
             "compile_tf32/best_tf32", "best_tf32")]:
        s = summarize(rs, key, ours)
        out.append(f"| {label} | {s['cases']} | {s['measured']} | "
                   f"{_fmt_geo(s)} | {s['wins']} | {s['wrong']} | "
                   f"{s['failed']} |")
    out += ["", "| case | eager TF32 µs | compile TF32 µs | ours TF32 µs | "
            "tuned TF32 µs | eager/best | compile/best |",
            "|---|---:|---:|---:|---:|---:|---:|"]
    for r in rs:
        rt = r["ratios"]
        out.append(
            f"| {r['name']} | "
            + " | ".join(_fmt_us(r, b) for b in TF32_BACKENDS)
            + f" | {_fmt_ratio(rt.get('eager_tf32/best_tf32'))} | "
            f"{_fmt_ratio(rt.get('compile_tf32/best_tf32'))} |")
    return out


# --- Chart -------------------------------------------------------------------

def render_png(results: dict, path: pathlib.Path) -> str | None:
    """Writes a speed-up chart; returns why not when it cannot."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib import ticker
    except ImportError:
        return "matplotlib is not installed: no PNG chart (the JSON and " \
               "Markdown are complete without it)"
    fake = bool(results.get("fake"))
    names = list(results["cases"])
    records = [results["cases"][n] for n in names]
    for r in records:
        r.setdefault("ratios", ratios(r))
    series = [("torch.compile", "eager/compile", "tab:gray"),
              ("ours (heuristic)", "eager/ours", "tab:blue"),
              ("ours (tuned)", "eager/tuned", "tab:orange")]
    height = 2.0 + 0.22 * len(names)
    fig, ax = plt.subplots(figsize=(10, height))
    bar = 0.8 / len(series)
    for i, (label, key, color) in enumerate(series):
        ys, xs = [], []
        for j, r in enumerate(records):
            v = r["ratios"].get(key)
            if v:
                ys.append(j + (i - 1) * bar)
                xs.append(v)
        ax.barh(ys, xs, height=bar, color=color, label=label)
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_xscale("log")
    ax.xaxis.set_major_locator(ticker.LogLocator(base=2))
    ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:g}×"))
    ax.xaxis.set_minor_formatter(ticker.NullFormatter())
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels(names, fontsize=6)
    ax.invert_yaxis()
    ax.set_xlabel("speed-up over PyTorch eager (eager µs / µs; > 1 is faster)")
    title = f"{device_name(results)}, {results.get('updated', '')[:10]}"
    if fake:
        title = f"FAKE TIMINGS (dry run, nothing measured), " \
                f"{results.get('updated', '')[:10]}"
        ax.text(0.5, 0.5, "FAKE", transform=ax.transAxes, fontsize=80,
                color="red", alpha=0.2, ha="center", va="center", rotation=30)
    ax.set_title(title, fontsize=9)
    ax.legend(loc="lower right", fontsize=7)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return None


# --- Short text table (printed last by the harness) ---------------------------

def short_table(results: dict, limit: int = 40) -> str:
    fake = bool(results.get("fake"))
    records = [dict(r, name=n) for n, r in results["cases"].items()]
    for r in records:
        r.setdefault("ratios", ratios(r))
    lines = []
    if fake:
        lines.append("FAKE TIMINGS (dry run): nothing below was measured")
    lines.append(f"{'case':<40} {'eager':>9} {'compile':>9} {'ours':>11} "
                 f"{'tuned':>11} {'e/best':>7} {'c/best':>7}")
    for r in records[:limit]:
        rt = r["ratios"]
        lines.append(
            f"{r['name']:<40} {_fmt_us(r, 'eager'):>9} {_fmt_us(r, 'compile'):>9} "
            f"{_fmt_us(r, 'ours'):>11} {_fmt_us(r, 'tuned'):>11} "
            f"{_fmt_ratio(rt.get('eager/best')):>7} "
            f"{_fmt_ratio(rt.get('compile/best')):>7}")
    if len(records) > limit:
        lines.append(f"... {len(records) - limit} more cases in the Markdown")
    summaries = [("best of ours vs eager", "eager/best", "best"),
                 ("best of ours vs compile", "compile/best", "best")]
    if any(b in r for r in records for b in TF32_BACKENDS):
        summaries.append(("TF32: best of ours vs eager TF32",
                          "eager_tf32/best_tf32", "best_tf32"))
    for label, key, ours in summaries:
        s = summarize(records, key, ours)
        lines.append(f"{label}: geomean {_fmt_geo(s)} over {s['measured']} "
                     f"cases, {s['wins']} ≥ 1.0×, {s['wrong']} wrong, "
                     f"{s['failed']} failed")
    return "\n".join(lines)


def write_all(results: dict, out: pathlib.Path, name: str) -> list[str]:
    """Writes NAME.json, NAME.md and NAME.png; returns notes to print."""
    for record in results["cases"].values():
        record["ratios"] = ratios(record)
    write_json(results, out / f"{name}.json")
    (out / f"{name}.md").write_text(render_markdown(results))
    try:
        why = render_png(results, out / f"{name}.png")
    except Exception as e:  # noqa: BLE001 - the chart is optional
        why = f"the chart failed ({type(e).__name__}: {e}); JSON and " \
              "Markdown are written"
    return [f"note: {why}"] if why else []


def render_doc(results: dict, sources: Sequence[pathlib.Path]) -> str:
    """The docs page: how it was made, then the Markdown report."""
    for record in results["cases"].values():
        record["ratios"] = ratios(record)
    names = ", ".join(f"`{p.name}`" for p in sources)
    head = ("<!-- Rendered by bench/report.py --doc; edit the results, not "
            "this page. -->\n\n"
            f"Rendered from {names} (real measurements). The device, date "
            "and commit below say what was measured; later commits are not "
            "in these numbers until the suite runs again (bench/gpu/run.sh, "
            "then bench/report.py --doc with its bench.json).\n\n")
    return head + render_markdown(results)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("results", nargs="+", type=pathlib.Path,
                        help="results files of bench/harness.py, oldest first")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--out", type=pathlib.Path,
                       help="folder for the merged JSON, Markdown and PNG")
    where.add_argument("--doc", type=pathlib.Path,
                       help="write only the Markdown page to this file "
                       "(docs/benchmarks.md); real measurements only")
    parser.add_argument("--name", default=None,
                        help="file name stem (default: bench, or bench.FAKE "
                        "for a dry run)")
    parser.add_argument("--allow-mixed-devices", action="store_true",
                        help="merge results of different GPUs")
    parser.add_argument("--compact", action="store_true",
                        help="leave out the timing samples, commands and "
                        "error output (for results committed to the "
                        "repository)")
    args = parser.parse_args(argv)
    try:
        merged = merge([load(p) for p in args.results],
                       args.allow_mixed_devices)
    except ReportError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.doc:
        if merged.get("fake"):
            print("error: --doc renders real measurements only; these are "
                  "a dry run's FAKE timings", file=sys.stderr)
            return 2
        args.doc.write_text(render_doc(merged, args.results))
        print(short_table(merged))
        return 0
    name = args.name or ("bench.FAKE" if merged.get("fake") else "bench")
    if args.compact:
        merged = compact(merged)
    for note in write_all(merged, args.out, name):
        print(note, file=sys.stderr)
    print(short_table(merged))
    return 0


if __name__ == "__main__":
    sys.exit(main())
