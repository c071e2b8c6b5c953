"""The decoder layers of the benchmark's `layers` family, as PyTorch modules.

    layer(model="tinyllama", seq="128")

builds the decoder layer of examples/pytorch/layers.py at the widths of
bench/cases.py's MODELS (Llama-style without q/k/v bias for tinyllama,
Qwen2-style with it for qwen and mini). The RoPE tables are frozen
parameters rather than buffers, so that deplodock-import lifts them to
function arguments like the weights: the exported IR then holds no data.
The harness passes every parameter (weights and tables) in the order of
named_parameters(), then the hidden states.

Weights here are placeholders: the harness draws its own (bench/inputs.py)
and uses the same values for PyTorch and for our kernels.
"""

from __future__ import annotations

import importlib.util
import pathlib
import sys

import torch
from torch import nn

BENCH = pathlib.Path(__file__).resolve().parent.parent
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

import cases as suite  # noqa: E402

TORCH_DTYPES = {"fp32": torch.float32, "bf16": torch.bfloat16,
                "fp16": torch.float16}


def _examples():
    """examples/pytorch/layers.py, loaded as a module."""
    name = "deplodock_pytorch_layers"
    if name in sys.modules:
        return sys.modules[name]
    path = suite.REPO / "examples" / "pytorch" / "layers.py"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def layer(model: str = "mini", seq: str | int = 8,
          dtype: str = "fp32") -> nn.Module:
    """The decoder layer of `model` at sequence length `seq`, its
    parameters in `dtype` (a bench/cases.py DTYPES key)."""
    ex = _examples()
    m, spec = suite.MODELS[model], suite.LAYERS[model]
    s = int(seq)
    out = ex.DecoderLayer(m.hidden, m.heads, m.kv_heads, m.intermediate, s,
                          bias=spec.bias)
    cos, sin = ex.rope_tables(s, m.head_dim, base=spec.rope_base)
    attn = out.attn
    del attn.cos, attn.sin
    attn.cos = nn.Parameter(cos, requires_grad=False)
    attn.sin = nn.Parameter(sin, requires_grad=False)
    return out.to(TORCH_DTYPES[dtype]).eval()
