"""Oracles: what a tool that did not crash must have got right.

Each returns a function (outcome, case directory) -> ("wrong", reason) or
None; they are combined with `every`.
"""

from __future__ import annotations

import json
import os
import re

from . import npy

_FUNC = re.compile(r"func\.func\s+(?:private\s+)?@([\w$.]+)\((.*?)\)\s*(?:->\s*(\(.*?\)|[^{]*?))?\s*(?:attributes\s*\{[^}]*\}\s*)?\{",
                   re.S)
_SHAPED = re.compile(r"(?:tensor|memref)<((?:\d+x)*)(\w+)")


def result_shapes(text: str, func: str | None = None):
    """Shapes of the results of the first func.func with a body (or `func`)
    in MLIR text; None when the text does not say."""
    for m in _FUNC.finditer(text):
        if func and m.group(1) != func:
            continue
        results = (m.group(3) or "").strip()
        if results.startswith("(") and results.endswith(")"):
            results = results[1:-1]
        shapes = []
        for part in _split_types(results):
            # MLIR takes whitespace inside a type (`memref<1x\n8xf32>`).
            shaped = _SHAPED.match(re.sub(r"\s+", "", part))
            if shaped:
                shapes.append(tuple(int(d) for d in shaped.group(1).split("x")[:-1]))
            elif part:
                shapes.append(())
        return shapes
    return None


def _split_types(text: str) -> list:
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "<([{":
            depth += 1
        elif c in ">)]}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    if text[start:].strip():
        parts.append(text[start:].strip())
    return parts


def every(*oracles):
    def check(outcome, directory):
        for oracle in oracles:
            if oracle is None:
                continue
            verdict = oracle(outcome, directory)
            if verdict:
                return verdict
        return None
    return check


_SUMMARY = re.compile(r"^result #(\d+): (\S+) min (\S+) max (\S+) mean \S+ nan (\d+)")
_COMPARE = re.compile(r"^compare result #(\d+) .*?: (?:max abs error (\S+), .*?)?"
                      r"(?:worst element \d+: expected (\S+) got (\S+))?: FAIL$")
_VARIANT = re.compile(r"result #(\d+) differs, max abs error (\S+)"
                      r"(?:, element \d+: expected (\S+) got (\S+))?")
# How far a lowering may be from its reference, relative to the largest
# magnitude of the reference's result: reordered sums round differently,
# and a long chain of ops (a decoder layer) compounds it. A miscompile
# (a wrong index, op or bound) is off by the values themselves.
SCALE = {"f64": 1e-6, "f32": 1e-3, "f16": 2e-2, "bf16": 5e-2}


def _number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def _judge(summary, error, expected, got):
    """Whether a reported mismatch is a wrong answer rather than rounding;
    None when the reference is not fit to judge it (NaN, infinite or near
    overflow: the mutant computes garbage whatever the lowering)."""
    if summary is None:
        return True
    elem, lo, hi, nans = summary
    lo, hi = _number(lo), _number(hi)
    if nans or lo is None or hi is None or max(abs(lo), abs(hi)) > 1e30:
        return None
    magnitude = max(abs(lo), abs(hi))
    e, g = _number(expected), _number(got)
    if e is not None and g is not None and (
            (e != e) != (g != g) or (abs(g) == float("inf"))):
        return True  # NaN or infinity where the reference is finite
    error = _number(error)
    if error is None:
        return True
    element = elem.split("x")[-1].rstrip(">")
    if element.startswith("i") or element == "index":
        return error > 0
    return error > SCALE.get(element, 1e-3) * magnitude + 1e-5


# Float ops whose result jumps under a rounding-level change of an operand
# (x mod 1e-5 of a sum in another order): the reference itself is then
# ill-conditioned, so a mismatch after them says nothing of the lowering.
_DISCONTINUOUS = re.compile(
    r"\b(arith\.remf|math\.floor|math\.ceil|math\.round|math\.roundeven|"
    r"math\.trunc)\b")


def _ill_conditioned(directory: str) -> bool:
    """Whether the case's input computes with a discontinuous float op."""
    try:
        with open(os.path.join(directory, "in.mlir"), errors="replace") as f:
            return bool(_DISCONTINUOUS.search(f.read()))
    except OSError:
        return False


def compare_passes():
    """deplodock-run's --compare/--compare-func/--check-variants: a lowering
    that disagrees with its reference, beyond rounding, is a wrong answer
    whatever the exit status; a lowering that changes a result's type too."""
    def check(outcome, directory):
        summaries = {}
        for line in outcome.stdout.splitlines():
            m = _SUMMARY.match(line)
            if m and m.group(1) not in summaries:
                summaries[m.group(1)] = (m.group(2), m.group(3), m.group(4),
                                         int(m.group(5)))
        for line in outcome.stdout.splitlines():
            if line.startswith("compare result") and line.endswith(": FAIL"):
                if " type " in line and "instead of" in line:
                    return "wrong", "lowering changed a result's type: " + line
                m = _COMPARE.match(line)
                if m and _judge(summaries.get(m.group(1)), m.group(2),
                                m.group(3), m.group(4)):
                    if _ill_conditioned(directory):
                        return "diagnosed", "ill-conditioned: " + line
                    return "wrong", "miscompiled: " + line
            m = _VARIANT.search(line)
            if m and _judge(summaries.get(m.group(1)), m.group(2), m.group(3),
                            m.group(4)):
                if _ill_conditioned(directory):
                    return "diagnosed", "ill-conditioned: " + line
                return "wrong", "miscompiled variant: " + line
        # What is left of a failed exit: mismatches within rounding, and
        # variants that failed to lower (each said so on stdout).
        for line in outcome.stdout.splitlines():
            if outcome.returncode and (line.endswith(": FAIL") or
                                       line.endswith(": failed to lower")):
                return "diagnosed", line
        return None
    return check


def results_written(out_dir: str, shapes):
    """An --interp run that exits 0 wrote one whole .npy per result, of the
    shape the function returns."""
    def check(outcome, directory):
        if outcome.returncode != 0 or shapes is None:
            return None
        for i, shape in enumerate(shapes):
            problem = npy.check(os.path.join(directory, out_dir,
                                             "result%d.npy" % i), shape)
            if problem:
                return "wrong", "exit 0 but " + problem
        extra = os.path.join(directory, out_dir, "result%d.npy" % len(shapes))
        if os.path.exists(extra):
            return "wrong", "exit 0 but wrote more results than the function has"
        return None
    return check


def file_written(name: str, parse_json: bool = False):
    """A tool that exits 0 wrote `name` (not empty; valid JSON if asked)."""
    def check(outcome, directory):
        if outcome.returncode != 0:
            return None
        path = os.path.join(directory, name)
        if not os.path.isfile(path) or os.path.getsize(path) == 0:
            return "wrong", "exit 0 but %s was not written" % name
        if parse_json:
            try:
                with open(path) as f:
                    json.load(f)
            except ValueError as e:
                return "wrong", "exit 0 but %s is not JSON: %s" % (name, e)
        return None
    return check


def cuda_kernels(kernel_ir: str, cuda: str):
    """emit-cuda that exits 0 printed one __global__ per dkernel.func."""
    def check(outcome, directory):
        if outcome.returncode != 0:
            return None
        try:
            with open(os.path.join(directory, kernel_ir)) as f:
                # The printer writes `dkernel.func @k`; input may omit the space.
                funcs = len(re.findall(r"^\s*dkernel\.func\s*@", f.read(),
                                       re.M))
            with open(os.path.join(directory, cuda)) as f:
                kernels = len(re.findall(r"__global__", f.read()))
        except OSError as e:
            return "wrong", "exit 0 but %s" % e
        if funcs != kernels:
            return "wrong", ("exit 0 but %d __global__ kernels for %d "
                             "dkernel.func" % (kernels, funcs))
        return None
    return check


def nothing_in_home():
    """No tool writes the default tune database when told where to write,
    or not to write (HOME is the case's directory)."""
    def check(outcome, directory):
        path = os.path.join(directory, ".cache", "deplodock", "autotune.db")
        if os.path.exists(path):
            return "wrong", "wrote the default tune database ~/.cache/deplodock/autotune.db"
        return None
    return check


def must_fail(why: str):
    """Input the tool must refuse: exit 0 is a silent wrong answer."""
    def check(outcome, directory):
        if outcome.returncode == 0:
            return "wrong", "exit 0 on " + why
        return None
    return check


def must_succeed(why: str):
    """Input the tool must accept (the compiler's own output)."""
    def check(outcome, directory):
        if outcome.returncode != 0:
            return "wrong", "%s: %s" % (why, outcome.reason)
        return None
    return check
