"""The flags-and-files campaign: every tool run with a valid command line
of which one or two flags (or the input file) are replaced by edge values:
empty, NaN, infinite, negative, huge, not a number; paths that do not
exist, are directories, cannot be written (/dev/full) or hold garbage;
.npy inputs with wrong headers, shapes, types or sizes.

Oracles: a value the docs say is refused (a NaN tolerance, an empty path,
a budget out of range) must not give exit 0; a tool that exits 0 wrote the
files it was asked for; deplodock-tune never writes the default database.
"""

from __future__ import annotations

import math
import random

from . import npy, oracles
from .cases import Case, Step

NUMBERS = ("", "nan", "-nan", "inf", "-inf", "-1", "0", "1", "0.5", "1e308",
           "-1e308", "1e-320", "99999999999999999999999", "0x10", "abc", "-0",
           "3600000", "3600001", "86400", "86401", "1000000", "1000001",
           "4294967296", "18446744073709551615", "18446744073709551616")
# Counts of work (variants, samples): large ones take as long as they ask.
COUNTS = ("", "nan", "-1", "0", "1", "3", "abc", "-0", "1e3",
          "99999999999999999999999", "4294967296", "18446744073709551616")
NAMES = ("", "nonexistent", "x" * 5000, "@#$%", "main", "\u00e9", "-", "a b")
PIPELINES = ("", "bogus", "builtin.module(", "canonicalize,,cse",
             "lower-to-tile{knobs=BK=0}", "lower-to-tile{target=sm_1}",
             "lower-to-tile{knobs=BK=99999999999999999999}",
             "lower-to-kernel{knobs=x:BK=32;;y}", "lower-to-loop",
             "builtin.module(" * 300 + ")" * 300, "func.func(canonicalize)",
             "lower-to-tile{tune-db=}", "lower-to-tile{tune-db=/nonexistent/x.db}",
             "lower-to-tile{tune-context=bogus}", "dtile-lower{knobs==}",
             "convert-dtile-to-dkernel{target=sm_99}")
KNOBS = ("", "BK=0", "BK=-1", "BK=99999999999999999999", "x:BK=32;;", "=",
         ";", "BK", "BK=32,BK=64", "stage=[0:99]", "stage=[", "BM=3,BN=5",
         "split_k=1000000", "threads=0", "\u00e9=1", "unroll=4294967297")
OUT_PATHS = ("", "/dev/full", "/nonexistent-dir/x", ".", "sub/deeper/x",
             "garbage.bin/x", "in.mlir")
IN_PATHS = ("", "/nonexistent", ".", "/dev/null", "empty.bin", "garbage.bin",
            "half.mlir", "notutf8.bin")


def _strtod(text):
    """The number C's strtod (and so LLVM's option parser) reads, or None."""
    try:
        return float(text)
    except ValueError:
        pass
    try:
        return float.fromhex(text)
    except ValueError:
        return None


def _finite_in(lo, hi, lo_open=False):
    """refuse(value): the value is not a number in [lo, hi] (docs)."""
    def refuse(value):
        v = _strtod(value)
        if v is None:
            return True
        return (not math.isfinite(v) or v < lo or v > hi
                or (lo_open and v == lo))
    return refuse


def _empty(value):
    return value == ""


def _nonneg_finite(value):
    return _finite_in(0, math.inf)(value)


# tool mode -> (base arguments, files it needs, [(flag, values, refuse)])
# where refuse(value) says the docs make the value one to refuse.
TOOLS = {
    "run-interp": (
        ["--interp", "in.mlir", "--print=summary"],
        {"in.mlir": "tensor"},
        [("--rtol", NUMBERS, _nonneg_finite), ("--atol", NUMBERS, _nonneg_finite),
         ("--seed", NUMBERS, None), ("--func", NAMES, _empty),
         ("--compare", PIPELINES, _empty), ("--pipeline", PIPELINES, _empty),
         ("--compare-func", NAMES, _empty), ("--output-dir", OUT_PATHS, _empty),
         ("--save-inputs", OUT_PATHS, _empty), ("--input", IN_PATHS + (
             "bad0.npy", "bad1.npy"), _empty),
         ("--check-variants", COUNTS, None), ("--target", NAMES, _empty),
         ("--variant-pipeline", PIPELINES, _empty),
         ("--tune-db", IN_PATHS, _empty), ("--variant-cuda-dir", OUT_PATHS,
                                           _empty),
         ("--print", ("values", "summary", "none", "", "all"), None)]),
    "run-bench": (
        ["--bench", "--fake-device", "in.mlir", "--warmup-ms=0.1",
         "--max-time-ms=1", "--min-samples=1", "--bench-json=b.json"],
        {"in.mlir": "tensor"},
        [("--bench-json", OUT_PATHS, _empty),
         ("--bench-timeout", NUMBERS, _finite_in(0, 86400)),
         ("--cpu-reference-limit", NUMBERS, None), ("--device", NUMBERS, None),
         ("--kernel-cache", OUT_PATHS, _empty),
         ("--kernel-timeout", NUMBERS, _finite_in(0, 86400, True)),
         ("--knobs", KNOBS, _empty),
         ("--max-time-ms", NUMBERS, _finite_in(0, 3600000)),
         ("--min-samples", NUMBERS, _finite_in(1, 1000000)),
         ("--warmup-ms", NUMBERS, _finite_in(0, 3600000)),
         ("--worker", IN_PATHS, _empty), ("--worker-arg", NAMES, None),
         ("--fake-fault", ("", "bogus", "compile_fail", "launch_fail",
                           "sticky", "wrong", "kernel_hang"), None),
         ("--output-dir", OUT_PATHS, _empty), ("--input", IN_PATHS + (
             "bad0.npy", "bad1.npy"), _empty),
         ("--target", NAMES + ("sm_80", "sm_90", "sm_1"), _empty),
         ("--tune-db", IN_PATHS, _empty), ("--func", NAMES, _empty)]),
    "opt": (
        ["in.mlir", "--lower-to-tile", "-o", "out.mlir"],
        {"in.mlir": "tensor"},
        [("-o", OUT_PATHS, None),
         ("--lower-to-tile", tuple("knobs=" + k for k in KNOBS) +
          ("target=sm_1", "target=", "tune-db=/nonexistent", "tune-db=",
           "tune-context=bogus", "simplest=2"), None),
         ("--pass-pipeline", PIPELINES, None),
         ("--convert-dtile-to-dkernel", ("target=", "target=sm_1",
                                         "target=sm_80"), None),
         ("--dtile-lower", tuple("knobs=" + k for k in KNOBS), None),
         ("--mlir-max-pattern-match-iterations", NUMBERS, None)]),
    "translate": (
        ["--emit-cuda", "in.mlir", "-o", "out.cu"],
        {"in.mlir": "kernel"},
        [("-o", OUT_PATHS, None)]),
    "tune": (
        ["in.mlir", "--backend=model", "--max-variants=3", "--quiet",
         "--db=t.db"],
        {"in.mlir": "tensor"},
        [("--db", OUT_PATHS, _empty), ("--beam-width", COUNTS, None),
         ("--exploration", NUMBERS, None), ("--max-seconds", NUMBERS, None),
         ("--max-variants", COUNTS, None), ("--patience", COUNTS, None),
         ("--seed", NUMBERS, None), ("--input-seed", NUMBERS, None),
         ("--search", ("mcts", "greedy", "random", "beam", "exhaustive", "",
                       "bogus"), _empty),
         ("--backend", ("model", "replay", "cuda", "", "bogus"), _empty),
         ("--kernel", NAMES, _empty), ("--knobs-out", OUT_PATHS, _empty),
         ("--record-table", OUT_PATHS, _empty),
         ("--replay-table", IN_PATHS, _empty),
         ("--target", NAMES + ("sm_80", "sm_90"), _empty),
         ("--time-lowering", COUNTS, None),
         ("--compare", ("mcts,beam", "", ",", "bogus", "mcts,,"), _empty),
         ("--worker", IN_PATHS, _empty), ("--device", NUMBERS, None)]),
    "worker": (
        ["--fake-device"], {},
        [("--cache-dir", OUT_PATHS, _empty), ("--device", NUMBERS, None)]),
}
# Flags naming a file the tool writes, and the oracle of an exit 0.
WRITES = {"--bench-json": True, "-o": False, "--knobs-out": False,
          "--record-table": False}


def _files(rng, seeds):
    """The case's files: the inputs every flag value above may name."""
    by_level = {}
    for name, level, text in seeds:
        if name in ("matmul", "softmax", "silu_mul", "rmsnorm", "matmul_add",
                    "sdpa"):
            by_level.setdefault(level, []).append(text)
    tensor = rng.choice(by_level["tensor"])
    files = {
        "empty.bin": b"",
        "garbage.bin": bytes(rng.randrange(256) for _ in range(300)),
        "half.mlir": tensor[:len(tensor) // 2].encode(),
        "notutf8.bin": b"func.func @f() {\xff\xfe\n return\n}\n",
        "bad0.npy": _bad_npy(rng),
        "bad1.npy": _bad_npy(rng),
    }
    return files, tensor, rng.choice(by_level["kernel"])


def _bad_npy(rng):
    descr = rng.choice(("<f4", "<f2", "<f8", "<i4", "|b1", "<u8", ">f4",
                        "<c8", "O"))
    shape = rng.choice(((1, 8, 32), (32, 32), (), (0,), (1 << 40,),
                        (1 << 32, 1 << 32), (-1, 4), (1, 8, 31)))
    body = bytes(4 * rng.choice((0, 1, 256, 1024)))
    kind = rng.randrange(5)
    if kind == 0:
        return npy.header(descr, shape) + body
    if kind == 1:
        return npy.header(descr, shape, fortran=True) + body
    if kind == 2:
        h = npy.header("<f4", (1, 8, 32))
        return h[:rng.randrange(len(h))]
    if kind == 3:
        h = bytearray(npy.header("<f4", (1, 8, 32)))
        h[rng.randrange(len(h))] = rng.randrange(256)
        return bytes(h) + bytes(1024)
    return b"\x93NUMPY\x03\x00" + bytes(4) + b"{}"


def make_cases(count: int, seed: int, start: int, seeds: list) -> list:
    cases = []
    modes = sorted(TOOLS)
    for index in range(start, start + count):
        rng = random.Random("%d:flags:%d" % (seed, index))
        mode = rng.choice(modes)
        base, needs, flags = TOOLS[mode]
        files, tensor, kernel = _files(rng, seeds)
        for name, level in needs.items():
            files[name] = (tensor if level == "tensor" else kernel).encode()
        args = list(base)
        whats, must_refuse, written = [], [], []
        for _ in range(rng.choice((1, 1, 2))):
            flag, values, refuse = rng.choice(flags)
            value = rng.choice(values)
            # Replace the flag where the base has it, else add it.
            args = [a for a in args if not a.startswith(flag + "=")]
            must_refuse = [r for r in must_refuse if not r.startswith(flag + "=")]
            if flag == "-o" and "-o" in args:
                i = args.index("-o")
                del args[i:i + 2]
            args += [flag, value] if flag == "-o" else ["%s=%s" % (flag, value)]
            whats.append("%s=%r" % (flag, value[:40]))
            if refuse and refuse(value):
                must_refuse.append("%s=%r" % (flag, value[:40]))
        if rng.random() < 0.15 and "in.mlir" in args:
            bad = rng.choice(IN_PATHS)
            args[args.index("in.mlir")] = bad
            whats.append("input %r" % bad)
        checks = []
        if must_refuse:
            checks.append(oracles.must_fail(", ".join(must_refuse)))
        for flag, is_json in WRITES.items():
            path = _value(args, flag)
            if path and not path.startswith("/dev/") and path not in (
                    ".", "in.mlir") and not path.startswith("/nonexistent"):
                checks.append(oracles.file_written(path, is_json))
        if _value(args, "--output-dir") in ("out", "sub/deeper/x"):
            checks.append(oracles.results_written(
                _value(args, "--output-dir"), oracles.result_shapes(tensor)))
        if mode == "tune":
            checks.append(oracles.nothing_in_home())
        stdin = b"DPLK1 16 0\n{\"type\": \"info\"}" if mode == "worker" else b""
        tool = {"run-interp": "deplodock-run", "run-bench": "deplodock-run",
                "opt": "deplodock-opt", "translate": "deplodock-translate",
                "tune": "deplodock-tune", "worker": "deplodock-bench-worker"}[mode]
        cases.append(Case("flags", index, "%s: %s" % (mode, "; ".join(whats)),
                          files, [Step(tool, args, stdin=stdin,
                                       oracle=oracles.every(*checks))]))
    return cases


def _value(args, flag):
    for i, a in enumerate(args):
        if a.startswith(flag + "="):
            return a[len(flag) + 1:]
        if a == flag and flag == "-o" and i + 1 < len(args):
            return args[i + 1]
    return None
