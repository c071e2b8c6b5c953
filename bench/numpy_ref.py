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


REFERENCES: dict[str, Callable[..., np.ndarray]] = {
    "matmul": matmul, "rmsnorm": rmsnorm, "softmax": softmax,
    "silu_mul": silu_mul, "sdpa": sdpa, "naive_attn": naive_attn,
    "matmul_add": matmul_add, "silu_mul_matmul": silu_mul_matmul,
}
