"""The cases in PyTorch: what eager and torch.compile run, and the reference.

Each function takes the case's arguments in the order of bench/cases.py
and computes what the case's MLIR computes, written as a PyTorch user
writes it (F.rms_norm, torch.softmax, F.scaled_dot_product_attention...).
In BF16 and FP16, PyTorch's kernels accumulate in FP32 and round results
to the half type, as our MLIR does; where PyTorch rounds an intermediate
that our MLIR keeps in FP32 (naive attention's scores), the difference is
within the half dtype's tolerance.

The reference for the correctness check is the same function on the same
inputs converted to float64.
"""

from __future__ import annotations

import math
from typing import Callable

import torch
import torch.nn.functional as F

import cases as suite


def matmul(x, w):
    return x @ w


def rmsnorm(x, w):
    return F.rms_norm(x, (x.shape[-1],), w, eps=suite.RMSNORM_EPS)


def softmax(x):
    return torch.softmax(x, dim=-1)


def silu_mul(gate, up):
    return F.silu(gate) * up


def sdpa(q, k, v):
    return F.scaled_dot_product_attention(q, k, v, is_causal=True,
                                          enable_gqa=True)


def naive_attn(q, k, v):
    s, d = q.shape[-2], q.shape[-1]
    scores = q @ k.transpose(-2, -1) / math.sqrt(d)
    mask = torch.full((s, s), suite.NAIVE_ATTN_MASK, dtype=scores.dtype,
                      device=scores.device).triu(1)
    return torch.softmax(scores + mask, dim=-1) @ v


def matmul_add(x, w, r):
    return x @ w + r


def silu_mul_matmul(gate, up, w):
    return (F.silu(gate) * up) @ w


REFERENCES: dict[str, Callable[..., torch.Tensor]] = {
    "matmul": matmul, "rmsnorm": rmsnorm, "softmax": softmax,
    "silu_mul": silu_mul, "sdpa": sdpa, "naive_attn": naive_attn,
    "matmul_add": matmul_add, "silu_mul_matmul": silu_mul_matmul,
}

TORCH_DTYPES = {"fp32": torch.float32, "bf16": torch.bfloat16,
                "fp16": torch.float16}
