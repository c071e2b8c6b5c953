"""The cases' semantics in NumPy float64, for checking without a GPU.

Argument order and meaning follow bench/cases.py; torch_ref.py holds the
same functions in PyTorch. The dry run checks our interpreter's results of
small cases against these.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

import cases as suite

# The f32 nearest to 1e-6, as the MLIR constant holds it.
EPS = float(np.float32(suite.RMSNORM_EPS))


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def _silu(x: np.ndarray) -> np.ndarray:
    return x / (1.0 + np.exp(-x))


def _causal(s: int) -> np.ndarray:
    """True where key j lies after query i."""
    return np.triu(np.ones((s, s), dtype=bool), k=1)


def matmul(x, w):
    return x @ w


def rmsnorm(x, w):
    return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + EPS) * w


def softmax(x):
    return _softmax(x)


def silu_mul(gate, up):
    return _silu(gate) * up


def sdpa(q, k, v):
    nh, s, d = q.shape[1], q.shape[2], q.shape[3]
    rep = nh // k.shape[1]
    k, v = np.repeat(k, rep, axis=1), np.repeat(v, rep, axis=1)
    scores = (q @ np.swapaxes(k, -1, -2)) / np.sqrt(d)
    return _softmax(np.where(_causal(s), -np.inf, scores)) @ v


def naive_attn(q, k, v):
    s, d = q.shape[2], q.shape[3]
    scores = (q @ np.swapaxes(k, -1, -2)) / np.sqrt(d)
    return _softmax(scores + np.where(_causal(s), suite.NAIVE_ATTN_MASK, 0.0)) @ v


def matmul_add(x, w, r):
    return x @ w + r


def silu_mul_matmul(gate, up, w):
    return silu_mul(gate, up) @ w


def scaled_mm(x, w, sx, sw):
    return (x @ w.T) * (sx * sw)


def _linear(x, w, b=None):
    """nn.Linear: x w^T (+ b)."""
    y = x @ w.T
    return y if b is None else y + b


def _rope(x, cos, sin):
    half = x.shape[-1] // 2
    rotated = np.concatenate([-x[..., half:], x[..., :half]], axis=-1)
    return x * cos + rotated * sin


def layers(*args):
    """The decoder layer of bench/layers/models.py, in the argument order of
    Case._layer_args: q/k/v biases present when there are 15 arguments."""
    it = iter(args)
    bias = len(args) == 15
    in_w, cos, sin = next(it), next(it), next(it)
    proj = {}
    for name in "qkv":
        proj[name] = (next(it), next(it) if bias else None)
    o_w, post_w, gate_w, up_w, down_w, x = it
    _, s, hidden = x.shape
    d = cos.shape[-1]
    heads, kv_heads = hidden // d, proj["k"][0].shape[0] // d

    def split(t, n):
        return t.reshape(1, s, n, d).transpose(0, 2, 1, 3)

    h = rmsnorm(x, in_w)
    q = _rope(split(_linear(h, *proj["q"]), heads), cos, sin)
    k = _rope(split(_linear(h, *proj["k"]), kv_heads), cos, sin)
    v = split(_linear(h, *proj["v"]), kv_heads)
    y = sdpa(q, k, v).transpose(0, 2, 1, 3).reshape(1, s, hidden)
    x = x + _linear(y, o_w)
    h = rmsnorm(x, post_w)
    return x + _linear(silu_mul(_linear(h, gate_w), _linear(h, up_w)), down_w)


REFERENCES: dict[str, Callable[..., np.ndarray]] = {
    "matmul": matmul, "rmsnorm": rmsnorm, "softmax": softmax,
    "silu_mul": silu_mul, "sdpa": sdpa, "naive_attn": naive_attn,
    "matmul_add": matmul_add, "silu_mul_matmul": silu_mul_matmul,
    "layers": layers, "scaled_mm": scaled_mm,
}
