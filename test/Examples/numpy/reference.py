#!/usr/bin/env python3
"""An independent NumPy reference for the layers of examples/generate.py.

    reference.py NAME DIR

DIR holds input<i>.npy and result<i>.npy, as written by

    deplodock-run --interp NAME.mlir ... --save-inputs=DIR --output-dir=DIR

This script recomputes example NAME in float64 from its definition (not from
the MLIR, and not from our dtensor semantics) and checks every result of the
interpreter against it within a float32 tolerance. It prints one line per
result and exits with 1 if any is off.

The definitions follow examples/generate.py: argument order, shapes, the
rotate-half convention of RoPE (concat(-x2, x1)), the scale 1/sqrt(d), the
causal mask (-inf above the diagonal, or -1e9 added in naive_attn), GQA
(query head h reads key/value head h // (NH / NKV)) and RMSNorm's eps (the
f32 value of 1e-6).
"""

import inspect
import pathlib
import sys

import numpy as np

EPS = float(np.float32(1e-6))  # What `arith.constant 9.99999997E-7 : f32` is.


def matmul(x, w):
    """x(1,S,K) . w(K,N) -> (1,S,N)."""
    return x @ w


def rmsnorm(x, w, eps=EPS):
    """x * rsqrt(mean(x^2, last axis) + eps) * w."""
    return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps) * w


def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def silu(x):
    return x / (1.0 + np.exp(-x))


def silu_mul(gate, up):
    return silu(gate) * up


def causal(s):
    """True above the diagonal: key position j > query position i."""
    return np.triu(np.ones((s, s), dtype=bool), k=1)


def repeat_kv(t, nh):
    """(1, NKV, S, D) -> (1, NH, S, D): query head h reads kv head
    h // (NH / NKV), as linalg.broadcast dimensions = [1] then a collapse
    of (NKV, rep) lays them out."""
    nkv = t.shape[1]
    assert nh % nkv == 0, (nh, nkv)
    return np.repeat(t, nh // nkv, axis=1)


def sdpa(q, k, v):
    """Causal grouped-query attention on (1, heads, S, D)."""
    nh, s, d = q.shape[1], q.shape[2], q.shape[3]
    k, v = repeat_kv(k, nh), repeat_kv(v, nh)
    scores = (q @ np.swapaxes(k, -1, -2)) * (1.0 / np.sqrt(d))
    scores = np.where(causal(s), -np.inf, scores)
    return softmax(scores) @ v


def naive_attn(q, k, v):
    """softmax(q k^T / sqrt(d) + mask) v, the mask -1e9 above the diagonal."""
    s, d = q.shape[2], q.shape[3]
    scores = (q @ np.swapaxes(k, -1, -2)) * (1.0 / np.sqrt(d))
    scores = scores + np.where(causal(s), -1.0e9, 0.0)
    return softmax(scores) @ v


def matmul_add(x, w, r):
    return x @ w + r


def silu_mul_matmul(gate, up, w):
    return silu_mul(gate, up) @ w


def rope(x, cos, sin):
    """x * cos + rotate_half(x) * sin, rotate_half(x) = concat(-x2, x1)."""
    half = x.shape[-1] // 2
    rotated = np.concatenate([-x[..., half:], x[..., :half]], axis=-1)
    return x * cos + rotated * sin


def heads(x, n, d):
    """(1, S, n*d) -> (1, n, S, d)."""
    return x.reshape(x.shape[0], x.shape[1], n, d).transpose(0, 2, 1, 3)


def decoder_block(x, ln1, wq, wk, wv, wo, ln2, wg, wu, wd, cos, sin):
    """One TinyLlama decoder layer."""
    s, h = x.shape[1], x.shape[2]
    d = cos.shape[1]
    nh, nkv = h // d, wk.shape[1] // d
    assert cos.shape == (s, d) and sin.shape == (s, d)
    h1 = rmsnorm(x, ln1)
    q = rope(heads(h1 @ wq, nh, d), cos, sin)
    k = rope(heads(h1 @ wk, nkv, d), cos, sin)
    v = heads(h1 @ wv, nkv, d)
    attn = sdpa(q, k, v)  # (1, NH, S, D)
    merged = attn.transpose(0, 2, 1, 3).reshape(1, s, h)
    o = merged @ wo + x
    h2 = rmsnorm(o, ln2)
    return silu_mul(h2 @ wg, h2 @ wu) @ wd + o


# Example name -> its reference; the arguments are those of the function.
EXAMPLES = {
    "matmul": matmul,
    "rmsnorm": rmsnorm,
    "softmax": softmax,
    "silu_mul": silu_mul,
    "sdpa": sdpa,
    "naive_attn": naive_attn,
    "matmul_add": matmul_add,
    "silu_mul_matmul": silu_mul_matmul,
    "decoder_block": decoder_block,
}

# A float32 tolerance: every element within RTOL of the reference, relative
# to the reference's own magnitude plus ATOL_SCALE of its largest magnitude
# (sums of many products cancel, so their error scales with the terms, not
# with the result), plus NOISE times the largest error of the same
# definition evaluated by NumPy in float32. The last term only matters for
# ill-conditioned inputs: at the real TinyLlama shapes, uniform random
# weights make the decoder block's outputs reach 3e4 and float32 NumPy
# itself is off by more than 1 there.
RTOL = 1e-4
ATOL_SCALE = 1e-5
NOISE = 4


def load_indexed(directory, stem):
    arrays = []
    while (directory / f"{stem}{len(arrays)}.npy").exists():
        arrays.append(np.load(directory / f"{stem}{len(arrays)}.npy"))
    return arrays


def check(name, reference, directory):
    """Checks the results in `directory` against `reference` applied to the
    inputs there; prints a line per result and returns whether all pass."""
    inputs = load_indexed(directory, "input")
    results = load_indexed(directory, "result")
    arity = sum(p.default is inspect.Parameter.empty
                for p in inspect.signature(reference).parameters.values())
    if len(inputs) != arity:
        print(f"error: {name} takes {arity} inputs, found {len(inputs)} "
              f"in {directory}", file=sys.stderr)
        return False
    for i, a in enumerate(inputs):
        if a.dtype != np.float32:
            print(f"error: input{i}.npy is {a.dtype}, not float32",
                  file=sys.stderr)
            return False
    expected = reference(*[a.astype(np.float64) for a in inputs])
    with np.errstate(all="ignore"):
        single = reference(*inputs)
    if not isinstance(expected, tuple):
        expected, single = (expected,), (single,)
    if len(results) != len(expected):
        print(f"error: {name} has {len(expected)} results, found "
              f"{len(results)} in {directory}", file=sys.stderr)
        return False
    ok = True
    for i, (want, got, low) in enumerate(zip(expected, results, single)):
        want = np.asarray(want, dtype=np.float64)
        low = np.asarray(low, dtype=np.float64)
        if got.shape != want.shape:
            print(f"{name} result #{i}: shape {got.shape}, expected "
                  f"{want.shape}: FAIL")
            ok = False
            continue
        got = got.astype(np.float64)
        err = np.abs(got - want)
        if want.size == 0:
            print(f"{name} result #{i}: shape {got.shape}, empty: PASS")
            continue
        scale = np.max(np.abs(want))
        noise = np.nanmax(np.abs(low - want))
        bound = RTOL * np.abs(want) + ATOL_SCALE * scale + NOISE * noise
        bad = ~(err <= bound)  # NaNs fail too.
        worst = int(np.argmax(np.where(np.isnan(err), np.inf, err - bound)))
        line = (f"{name} result #{i}: shape {got.shape}, max abs error "
                f"{np.nanmax(err):.3g}, max |expected| {scale:.3g}, float32 "
                f"NumPy error {noise:.3g}")
        if bad.any():
            idx = np.unravel_index(worst, want.shape)
            line += (f", {int(bad.sum())} of {want.size} off, worst at "
                     f"{tuple(int(j) for j in idx)}: expected "
                     f"{want[idx]:.9g} got {got[idx]:.9g}: FAIL")
            ok = False
        else:
            line += ": PASS"
        print(line)
    return ok


def main(argv, references=EXAMPLES):
    if len(argv) != 3 or argv[1] not in references:
        print(f"usage: {argv[0]} {{{','.join(references)}}} DIR",
              file=sys.stderr)
        return 2
    name, directory = argv[1], pathlib.Path(argv[2])
    return 0 if check(name, references[name], directory) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
