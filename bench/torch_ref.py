"""The cases in PyTorch: what eager and torch.compile run, and the reference.

Each function takes the case's arguments in the order of bench/cases.py
and computes what the case's MLIR computes, written as a PyTorch user
writes it (F.rms_norm, torch.softmax, F.scaled_dot_product_attention...).
In BF16 and FP16, PyTorch's kernels accumulate in FP32 and round results
to the half type, as our MLIR does; where PyTorch rounds an intermediate
that our MLIR keeps in FP32 (naive attention's scores), the difference is
within the half dtype's tolerance.

The `layers` family runs the decoder layer module of bench/layers/models.py
itself, its parameters set to the case's argument tensors (see `prepare`).

The reference for the correctness check is the same function on the same
inputs converted to float64.
"""

from __future__ import annotations

import importlib.util
import math
from typing import Callable, Sequence

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


def scaled_mm(x, w, sx, sw):
    """(x . W^T) * sx * sw: on FP8 tensors torch._scaled_mm (cuBLASLt's FP8
    GEMM, W^T column-major as it wants it, bf16 out), else the same in the
    tensors' type (the float64 reference)."""
    if x.dtype == torch.float8_e4m3fn:
        y = torch._scaled_mm(x.reshape(-1, x.shape[-1]), w.t(), scale_a=sx,
                             scale_b=sw, out_dtype=torch.bfloat16)
        return y.reshape(*x.shape[:-1], w.shape[0])
    return (x @ w.t()) * (sx * sw)


REFERENCES: dict[str, Callable[..., torch.Tensor]] = {
    "matmul": matmul, "rmsnorm": rmsnorm, "softmax": softmax,
    "silu_mul": silu_mul, "sdpa": sdpa, "naive_attn": naive_attn,
    "matmul_add": matmul_add, "silu_mul_matmul": silu_mul_matmul,
    "scaled_mm": scaled_mm,
}

TORCH_DTYPES = {"fp32": torch.float32, "bf16": torch.bfloat16,
                "fp16": torch.float16, "fp8": torch.float8_e4m3fn}


def _layer_module(case: suite.Case, params: Sequence[torch.Tensor]):
    """The case's decoder layer with `params` (the case's arguments but the
    last, in order) as its parameters, shared, not copied."""
    spec = importlib.util.spec_from_file_location(
        "deplodock_bench_layer_models", suite.LAYER_DIR / "models.py")
    models = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(models)
    with torch.device("meta"):  # no placeholder weights: all are replaced
        module = models.layer(case.model.name, case.seq, case.dtype)
    names = [n for n, _ in module.named_parameters()]
    expected = [a.name for a in case.args[:-1]]
    if names != expected:
        raise ValueError(f"{case.name}: the module's parameters {names} are "
                         f"not the case's arguments {expected}")
    for name, t in zip(names, params):
        owner, _, leaf = name.rpartition(".")
        module.get_submodule(owner)._parameters[leaf] = torch.nn.Parameter(
            t, requires_grad=False)
    return module.eval()


def prepare(case: suite.Case, xs: Sequence[torch.Tensor]):
    """(function, its arguments) that compute the case on the tensors `xs`
    (the case's arguments, in order)."""
    if case.family == "layers":
        return _layer_module(case, xs[:-1]), [xs[-1]]
    return REFERENCES[case.family], list(xs)
