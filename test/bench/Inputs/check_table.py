#!/usr/bin/env python3
"""Consistency checks of the shape table in bench/cases.py.

    check_table.py REPO

Prints one line per check and exits 1 if any fails. Independent of the
generator's own arithmetic where it can be: shapes are read back from the
generated MLIR's function signature, and a few FLOP and byte counts are
written out by hand.
"""

import pathlib
import re
import sys

failures = 0


def check(what, ok, detail=""):
    global failures
    print(f"{'PASS' if ok else 'FAIL'}: {what}" + (f" ({detail})" if detail and not ok else ""))
    if not ok:
        failures += 1


def signature(mlir):
    """[(shape, elem)] of the arguments and of the results of the func."""
    m = re.search(r"func\.func @\w+\((.*)\) -> (.*) \{$", mlir, re.M)
    def types(text):
        return [(tuple(int(d) for d in t.split("x")[:-1]), t.split("x")[-1])
                for t in re.findall(r"tensor<([^>]*)>", text)]
    return types(m.group(1)), types(m.group(2))


def main():
    repo = pathlib.Path(sys.argv[1])
    sys.path.insert(0, str(repo / "bench"))
    import cases as suite

    for m in suite.MODELS.values():
        check(f"{m.name}: heads x head_dim = hidden",
              m.heads * m.head_dim == m.hidden)
        check(f"{m.name}: kv heads divide heads", m.heads % m.kv_heads == 0)

    everything = suite.all_cases(include_test_models=True)
    names = [c.name for c in everything]
    check("case names are unique", len(names) == len(set(names)))
    original = [c for c in everything if c.original]
    check("84 original cases", len(original) == 84, len(original))
    check("original cases keep the original names (no dtype suffix)",
          all(c.name.count(".") == (3 if c.projection else 2) for c in original))
    for dtype in ("bf16", "fp16"):
        twins = [c for c in everything if c.in_suite and c.dtype == dtype
                 and c.family != "layers"]
        check(f"every original case has a {dtype} twin",
              [c.base_name for c in twins] == [c.base_name for c in original])

    bad = []
    for c in everything:
        args, results = signature(c.mlir())
        want_args = [(a.shape, suite.DTYPES[c.arg_dtype(a)]) for a in c.args]
        want_results = [(c.result_shape, suite.DTYPES[c.out_dtype])]
        if args != want_args or results != want_results:
            bad.append(c.name)
    check("every case's MLIR signature matches its arguments, result and dtype",
          not bad, ", ".join(bad[:5]))

    q = suite.find("matmul.qwen.down_proj.s512")
    check("matmul.qwen.down_proj.s512 FLOPs = 2*512*18944*3584",
          q.flops == 2 * 512 * 18944 * 3584, q.flops)
    check("matmul.qwen.down_proj.s512 bytes = 4*(512*18944 + 18944*3584 + 512*3584)",
          q.min_bytes == 4 * (512 * 18944 + 18944 * 3584 + 512 * 3584))
    h = suite.find("rmsnorm.tinyllama.s128.bf16")
    check("rmsnorm.tinyllama.s128.bf16 bytes = 2*(2*128*2048 + 2048)",
          h.min_bytes == 2 * (2 * 128 * 2048 + 2048), h.min_bytes)
    f8 = suite.find("scaled_mm.qwen.gate_proj.s512.fp8")
    check("scaled_mm.qwen.gate_proj.s512.fp8 FLOPs = 2*512*3584*18944 + "
          "2*512*18944", f8.flops == 2 * 512 * 3584 * 18944 + 2 * 512 * 18944,
          f8.flops)
    check("scaled_mm.qwen.gate_proj.s512.fp8 bytes = 512*3584 + 18944*3584 + "
          "2*4 + 2*512*18944 (e4m3 in, f32 scales, bf16 out)",
          f8.min_bytes == 512 * 3584 + 18944 * 3584 + 8 + 2 * 512 * 18944,
          f8.min_bytes)
    check("scaled_mm holds its weight N x K",
          [a.shape for a in f8.args] == [(1, 512, 3584), (18944, 3584), (), ()])
    check("FP8 is scaled_mm's only dtype, and scaled_mm FP8's only family",
          {c.family for c in everything if c.dtype == "fp8"} == {"scaled_mm"}
          and {c.dtype for c in everything if c.family == "scaled_mm"}
          == {"fp8"})
    a = suite.find("sdpa.tinyllama.s32")
    pairs = 32 * 32 * 33 // 2
    check("sdpa.tinyllama.s32 matmul FLOPs count the causal pairs only",
          a.mma_flops == 4 * pairs * 64, a.mma_flops)
    check("sdpa.tinyllama.s32 bytes = 4*(2*32*32*64 + 2*4*32*64)",
          a.min_bytes == 4 * (2 * 32 * 32 * 64 + 2 * 4 * 32 * 64))
    t = suite.find("layers.tinyllama.s128")
    linear = 2048 * 2048 * 2 + 256 * 2048 * 2 + 5632 * 2048 * 3
    check("layers.tinyllama.s128 matmul FLOPs = projections + causal attention",
          t.mma_flops == 2 * 128 * linear + 4 * 32 * (128 * 129 // 2) * 64,
          t.mma_flops)
    layers = [c for c in everything if c.family == "layers"]
    big = [c.name for c in layers if c.layer_file.stat().st_size > 64 << 10]
    check("exported layers hold no weights (each file under 64 KiB)", not big,
          ", ".join(big))
    print(f"{len(everything)} cases checked")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
