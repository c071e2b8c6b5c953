"""Transformer layers in plain PyTorch, with random weights, for the
PyTorch path (tools/deplodock-import).

    tools/deplodock-import/deplodock-import examples/pytorch/layers.py llama \
        --input 1x8x32xf32 -o llama.mlir

Each factory below takes `size` ("small" for the tests, "real" for the
widths of the model it is named after) and returns the module; `INPUTS`
gives each factory's example inputs at both sizes. Weights are drawn from a
seeded generator, scaled so that activations stay O(1).
"""

import math

import torch
from torch import nn
from torch.nn import functional as F

# Widths: hidden, heads, kv heads, intermediate, vocabulary.
WIDTHS = {
    "llama": {"small": (32, 4, 2, 64, 96), "real": (2048, 32, 4, 5632, 32000)},
    "qwen2": {"small": (32, 4, 2, 48, 96), "real": (896, 14, 2, 4864, 151936)},
    "gpt2": {"small": (32, 4, 4, 128, 96), "real": (768, 12, 12, 3072, 50257)},
}
SEQ = {"small": 8, "real": 128}


def _init(module, seed):
    """Seeded weights with std 1/sqrt(fan_in); norms near 1."""
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in module.named_parameters():
            if p.dim() == 1 and "norm" in name:
                p.copy_(1 + 0.1 * torch.randn(p.shape, generator=g))
            elif p.dim() == 1:
                p.copy_(0.1 * torch.randn(p.shape, generator=g))
            else:
                p.copy_(torch.randn(p.shape, generator=g) / math.sqrt(p.shape[-1]))
    return module.eval()


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def rope_tables(seq, head_dim, base=10000.0):
    inv = 1.0 / (base ** (torch.arange(0, head_dim, 2, dtype=torch.float32) / head_dim))
    angles = torch.outer(torch.arange(seq, dtype=torch.float32), inv)
    angles = torch.cat([angles, angles], dim=-1)
    return angles.cos(), angles.sin()


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat([-x2, x1], dim=-1)


class GQAttention(nn.Module):
    """Grouped-query attention with RoPE and a causal mask (Llama, Qwen2)."""

    def __init__(self, hidden, heads, kv_heads, seq, bias):
        super().__init__()
        self.heads, self.kv_heads = heads, kv_heads
        self.head_dim = hidden // heads
        self.q_proj = nn.Linear(hidden, heads * self.head_dim, bias=bias)
        self.k_proj = nn.Linear(hidden, kv_heads * self.head_dim, bias=bias)
        self.v_proj = nn.Linear(hidden, kv_heads * self.head_dim, bias=bias)
        self.o_proj = nn.Linear(heads * self.head_dim, hidden, bias=False)
        cos, sin = rope_tables(seq, self.head_dim)
        self.register_buffer("cos", cos, persistent=False)
        self.register_buffer("sin", sin, persistent=False)

    def forward(self, x):
        b, s, _ = x.shape
        q = self.q_proj(x).view(b, s, self.heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(b, s, self.kv_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(b, s, self.kv_heads, self.head_dim).transpose(1, 2)
        cos, sin = self.cos[:s], self.sin[:s]
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        rep = self.heads // self.kv_heads
        k = k.repeat_interleave(rep, dim=1)
        v = v.repeat_interleave(rep, dim=1)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.o_proj(y.transpose(1, 2).reshape(b, s, -1))


class SwiGLU(nn.Module):
    def __init__(self, hidden, inter):
        super().__init__()
        self.gate_proj = nn.Linear(hidden, inter, bias=False)
        self.up_proj = nn.Linear(hidden, inter, bias=False)
        self.down_proj = nn.Linear(inter, hidden, bias=False)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class DecoderLayer(nn.Module):
    """A Llama-architecture decoder layer (pre-norm; Qwen2 with q/k/v bias)."""

    def __init__(self, hidden, heads, kv_heads, inter, seq, bias=False):
        super().__init__()
        self.input_norm = RMSNorm(hidden)
        self.attn = GQAttention(hidden, heads, kv_heads, seq, bias)
        self.post_norm = RMSNorm(hidden)
        self.mlp = SwiGLU(hidden, inter)

    def forward(self, x):
        x = x + self.attn(self.input_norm(x))
        return x + self.mlp(self.post_norm(x))


class GPT2Block(nn.Module):
    """A GPT-2 block: LayerNorm, attention with masked_fill, GELU-tanh MLP."""

    def __init__(self, hidden, heads, inter, seq):
        super().__init__()
        self.heads = heads
        self.ln_1 = nn.LayerNorm(hidden)
        self.c_attn = nn.Linear(hidden, 3 * hidden)
        self.c_proj = nn.Linear(hidden, hidden)
        self.ln_2 = nn.LayerNorm(hidden)
        self.c_fc = nn.Linear(hidden, inter)
        self.mlp_proj = nn.Linear(inter, hidden)
        mask = torch.tril(torch.ones(seq, seq, dtype=torch.bool))
        self.register_buffer("bias", mask, persistent=False)

    def attention(self, x):
        b, s, h = x.shape
        q, k, v = self.c_attn(x).split(h, dim=2)
        shape = (b, s, self.heads, h // self.heads)
        q, k, v = (t.view(shape).transpose(1, 2) for t in (q, k, v))
        w = (q @ k.transpose(-1, -2)) / math.sqrt(k.shape[-1])
        w = w.masked_fill(~self.bias[:s, :s], float("-inf"))
        y = torch.softmax(w, dim=-1) @ v
        return self.c_proj(y.transpose(1, 2).reshape(b, s, h))

    def forward(self, x):
        x = x + self.attention(self.ln_1(x))
        return x + self.mlp_proj(F.gelu(self.c_fc(self.ln_2(x)), approximate="tanh"))


class Embedding(nn.Module):
    """Token ids to hidden states (a gather)."""

    def __init__(self, vocab, hidden):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, hidden)

    def forward(self, ids):
        return self.embed_tokens(ids)


class LMHead(nn.Module):
    """The final norm and the projection to vocabulary logits."""

    def __init__(self, hidden, vocab):
        super().__init__()
        self.norm = RMSNorm(hidden)
        self.lm_head = nn.Linear(hidden, vocab, bias=False)

    def forward(self, x):
        return self.lm_head(self.norm(x))


class TopOne(nn.Module):
    """The largest logit and its index along the last axis (greedy
    decoding): one reduction with two results, max and argmax."""

    def forward(self, x):
        values, indices = torch.max(x, dim=-1)
        return values, indices


def llama(size="small"):
    h, nh, nkv, inter, _ = WIDTHS["llama"][size]
    return _init(DecoderLayer(h, nh, nkv, inter, SEQ[size]), 1)


def qwen2(size="small"):
    h, nh, nkv, inter, _ = WIDTHS["qwen2"][size]
    return _init(DecoderLayer(h, nh, nkv, inter, SEQ[size], bias=True), 2)


def gpt2(size="small"):
    h, nh, _, inter, _ = WIDTHS["gpt2"][size]
    return _init(GPT2Block(h, nh, inter, SEQ[size]), 3)


def embedding(size="small"):
    h, _, _, _, vocab = WIDTHS["llama"][size]
    return _init(Embedding(vocab, h), 4)


def lm_head(size="small"):
    h, _, _, _, vocab = WIDTHS["llama"][size]
    return _init(LMHead(h, vocab), 5)


def top_one(size="small"):
    return TopOne()


def _hidden(name):
    return lambda size: f"1x{SEQ[size]}x{WIDTHS[name][size][0]}xf32"


# Example inputs of each factory, as deplodock-import's --input takes them.
INPUTS = {
    "llama": _hidden("llama"),
    "qwen2": _hidden("qwen2"),
    "gpt2": _hidden("gpt2"),
    "embedding": lambda size: f"1x{SEQ[size]}xi64",
    "lm_head": _hidden("llama"),
    "top_one": lambda size: f"1x{SEQ[size]}x{WIDTHS['llama'][size][4]}xf32",
}
