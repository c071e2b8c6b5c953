"""The benchmark suite: one shape table and the cases it spans.

Everything that fixes a case (model dimensions, sequence lengths, the
projections of each model, the operator families, the dtypes) is in the
table at the top of this module. The rest derives from it: the case list
in a fixed order, each case's arguments, its MLIR (built with the layer
builders of examples/generate.py), its FLOPs and the fewest bytes it must
move through device memory.

The suite is the 84 FP32 cases of the original Deplodock benchmark
(TinyLlama-1.1B and Qwen2.5-7B at sequence lengths 32, 128 and 512; eight
operator families), plus the same 84 cases in BF16 and in FP16. FP32 cases
keep the original names (`matmul.tinyllama.q_proj.s32`); half-precision
cases add the dtype (`matmul.tinyllama.q_proj.s32.bf16`). In BF16 and FP16
the tensors are stored in the half type and all arithmetic runs in FP32
(see `Precision` in examples/generate.py), as PyTorch's kernels do.

The `layers` family adds whole decoder layers exported from PyTorch
(bench/layers/, FP32 and BF16 only); they are not among the 84 originals.
The `scaled_mm` family adds the projections in FP8 (`fp8`: e4m3 operands,
the weight held N x K, per-tensor f32 scales, bf16 out), as
torch._scaled_mm runs them; FP8 is its only dtype, and its only family.

The `mini` model is not part of the suite: its cases are small enough for
the CPU interpreter, so the dry run can check them end to end.
"""

from __future__ import annotations

import fnmatch
import functools
import importlib.util
import pathlib
import sys
from dataclasses import dataclass
from types import ModuleType

REPO = pathlib.Path(__file__).resolve().parent.parent

# --- The shape table ---------------------------------------------------------


@dataclass(frozen=True)
class Model:
    """The dimensions of one transformer layer."""

    name: str
    hidden: int
    intermediate: int
    heads: int
    kv_heads: int
    head_dim: int
    seqs: tuple[int, ...]
    in_suite: bool
    source: str

    @property
    def kv(self) -> int:
        """Width of the key (or value) projection: kv heads x head dim."""
        return self.kv_heads * self.head_dim


MODELS: dict[str, Model] = {
    m.name: m for m in (
        Model("tinyllama", hidden=2048, intermediate=5632, heads=32,
              kv_heads=4, head_dim=64, seqs=(32, 128, 512), in_suite=True,
              source="TinyLlama-1.1B config.json"),
        Model("qwen", hidden=3584, intermediate=18944, heads=28,
              kv_heads=4, head_dim=128, seqs=(32, 128, 512), in_suite=True,
              source="Qwen2.5-7B config.json"),
        Model("mini", hidden=32, intermediate=48, heads=4, kv_heads=2,
              head_dim=8, seqs=(8,), in_suite=False,
              source="examples/generate.py SMALL; for tests only"),
    )
}


@dataclass(frozen=True)
class LayerSpec:
    """What a model's whole decoder layer (the `layers` family) adds to its
    widths: q/k/v bias (Qwen2) and the RoPE base."""

    bias: bool
    rope_base: float


LAYERS: dict[str, LayerSpec] = {
    "tinyllama": LayerSpec(bias=False, rope_base=10000.0),
    "qwen": LayerSpec(bias=True, rope_base=1000000.0),
    "mini": LayerSpec(bias=True, rope_base=10000.0),
}
# Sequence lengths of the layers family (the suite's longer two) and its
# dtypes (whole layers are exported from PyTorch, not built here).
LAYER_SEQS: tuple[int, ...] = (128, 512)
LAYER_DTYPES: tuple[str, ...] = ("fp32", "bf16")
# The exported layers: bench/layers/<case name>.mlir (bench/layers/export.py).
LAYER_DIR = REPO / "bench" / "layers"

# Projection -> (input width, output width), as attributes of Model.
PROJECTIONS: dict[str, tuple[str, str]] = {
    "q_proj": ("hidden", "hidden"),
    "kv_proj": ("hidden", "kv"),
    "o_proj": ("hidden", "hidden"),
    "gate_proj": ("hidden", "intermediate"),
    "up_proj": ("hidden", "intermediate"),
    "down_proj": ("intermediate", "hidden"),
}
# The projections whose output meets a residual (the matmul_add family).
RESIDUAL_PROJECTIONS: tuple[str, ...] = ("o_proj", "down_proj")

# The operator families, in the order of the original case list.
FAMILIES: tuple[str, ...] = ("matmul", "rmsnorm", "softmax", "silu_mul",
                             "sdpa", "naive_attn", "matmul_add",
                             "silu_mul_matmul", "layers", "scaled_mm")

# Suite dtype -> element type of the MLIR tensors. FP32 first: it is the
# original suite, and a time-limited run measures the cases in this order.
DTYPES: dict[str, str] = {"fp32": "f32", "bf16": "bf16", "fp16": "f16",
                          "fp8": "f8E4M3FN"}
# Bytes of an element of each dtype.
DTYPE_BYTES: dict[str, int] = {"fp32": 4, "bf16": 2, "fp16": 2, "fp8": 1}
# The families with FP8 cases, which have no others (the other families have
# no FP8 cases).
FP8_FAMILIES: tuple[str, ...] = ("scaled_mm",)

# The argument roles held in f32 whatever the case's dtype.
SCALE_ROLES: tuple[str, ...] = ("scale", "weight_scale")

RMSNORM_EPS = 1e-6          # stored as the f32 nearest to it
NAIVE_ATTN_MASK = -1.0e9    # added above the diagonal, in f32

# --- Cases -------------------------------------------------------------------


@dataclass(frozen=True)
class Arg:
    """One function argument: its name, shape and how its values are drawn.

    role: 'activation' (standard normal), 'weight' (normal with variance
    1/fan-in, as nn.Linear's initialisation keeps activations O(1)) or
    'norm_weight' (1 + 0.1 * standard normal). The layers family passes
    nn.Linear's (out, in) weights as 'linear_weight' (fan-in the last
    axis), biases as 'bias' (0.1 * standard normal) and the RoPE tables
    as 'rope_cos' and 'rope_sin' (computed, not drawn). The FP8 cases pass
    the weight as 'quantized_weight' (standard normal, its 1/sqrt(fan-in)
    moved into the weight's scale) and the per-tensor scales, f32 scalars,
    as 'scale' (the activation's) and 'weight_scale' (1/sqrt(fan-in)).
    """

    name: str
    shape: tuple[int, ...]
    role: str = "activation"

    @property
    def numel(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n


@dataclass(frozen=True)
class Case:
    """One benchmark case."""

    family: str
    model: Model
    seq: int
    dtype: str
    projection: str | None = None

    @property
    def base_name(self) -> str:
        """The name without the dtype: equal for a case's three dtypes."""
        parts = [self.family, self.model.name]
        if self.projection:
            parts.append(self.projection)
        parts.append(f"s{self.seq}")
        return ".".join(parts)

    @property
    def name(self) -> str:
        if self.dtype == "fp32":
            return self.base_name
        return f"{self.base_name}.{self.dtype}"

    @property
    def out_dtype(self) -> str:
        """The dtype of the result (an FP8 case's is bf16)."""
        return "bf16" if self.dtype == "fp8" else self.dtype

    def arg_dtype(self, arg: Arg) -> str:
        """The dtype an argument is stored in (the scales are f32)."""
        return "fp32" if arg.role in SCALE_ROLES else self.dtype

    @property
    def in_suite(self) -> bool:
        return self.model.in_suite

    @property
    def original(self) -> bool:
        """One of the 84 cases of the original (FP32) suite."""
        return (self.in_suite and self.dtype == "fp32"
                and self.family != "layers")

    # Sizes --------------------------------------------------------------

    def _kn(self) -> tuple[int, int]:
        """(input width, output width) of the case's projection."""
        if self.projection is None:
            raise ValueError(f"{self.family} cases have no projection")
        k, n = PROJECTIONS[self.projection]
        return getattr(self.model, k), getattr(self.model, n)

    @property
    def args(self) -> tuple[Arg, ...]:
        m, s = self.model, self.seq
        if self.family in ("matmul", "matmul_add"):
            k, n = self._kn()
            args = [Arg("x", (1, s, k)), Arg("w", (k, n), "weight")]
            if self.family == "matmul_add":
                args.append(Arg("r", (1, s, n)))
            return tuple(args)
        if self.family == "rmsnorm":
            return (Arg("x", (1, s, m.hidden)),
                    Arg("w", (m.hidden,), "norm_weight"))
        if self.family == "softmax":
            return (Arg("x", (1, m.heads, s, s)),)
        if self.family == "silu_mul":
            return (Arg("gate", (1, s, m.intermediate)),
                    Arg("up", (1, s, m.intermediate)))
        if self.family == "sdpa":
            return (Arg("q", (1, m.heads, s, m.head_dim)),
                    Arg("k", (1, m.kv_heads, s, m.head_dim)),
                    Arg("v", (1, m.kv_heads, s, m.head_dim)))
        if self.family == "naive_attn":
            shape = (1, m.heads, s, m.head_dim)
            return (Arg("q", shape), Arg("k", shape), Arg("v", shape))
        if self.family == "silu_mul_matmul":
            return (Arg("gate", (1, s, m.intermediate)),
                    Arg("up", (1, s, m.intermediate)),
                    Arg("w", (m.intermediate, m.hidden), "weight"))
        if self.family == "layers":
            return self._layer_args()
        if self.family == "scaled_mm":
            k, n = self._kn()
            return (Arg("x", (1, s, k)), Arg("w", (n, k), "quantized_weight"),
                    Arg("sx", (), "scale"), Arg("sw", (), "weight_scale"))
        raise ValueError(f"unknown family '{self.family}'")

    def _layer_args(self) -> tuple[Arg, ...]:
        """The decoder layer's parameters, in the order of PyTorch's
        named_parameters() (bench/layers/export.py checks it), then x."""
        m, s = self.model, self.seq
        bias = LAYERS[m.name].bias
        args = [Arg("input_norm.weight", (m.hidden,), "norm_weight"),
                Arg("attn.cos", (s, m.head_dim), "rope_cos"),
                Arg("attn.sin", (s, m.head_dim), "rope_sin")]
        for proj, width in (("q", m.hidden), ("k", m.kv), ("v", m.kv)):
            args.append(Arg(f"attn.{proj}_proj.weight", (width, m.hidden),
                            "linear_weight"))
            if bias:
                args.append(Arg(f"attn.{proj}_proj.bias", (width,), "bias"))
        args += [Arg("attn.o_proj.weight", (m.hidden, m.hidden),
                     "linear_weight"),
                 Arg("post_norm.weight", (m.hidden,), "norm_weight"),
                 Arg("mlp.gate_proj.weight", (m.intermediate, m.hidden),
                     "linear_weight"),
                 Arg("mlp.up_proj.weight", (m.intermediate, m.hidden),
                     "linear_weight"),
                 Arg("mlp.down_proj.weight", (m.hidden, m.intermediate),
                     "linear_weight"),
                 Arg("x", (1, s, m.hidden))]
        return tuple(args)

    @property
    def result_shape(self) -> tuple[int, ...]:
        m, s = self.model, self.seq
        if self.family in ("matmul", "matmul_add", "scaled_mm"):
            return (1, s, self._kn()[1])
        if self.family in ("rmsnorm", "silu_mul_matmul", "layers"):
            return (1, s, m.hidden)
        if self.family == "softmax":
            return (1, m.heads, s, s)
        if self.family == "silu_mul":
            return (1, s, m.intermediate)
        return (1, m.heads, s, m.head_dim)  # sdpa, naive_attn

    @property
    def shapes(self) -> str:
        """The argument shapes, as the original case list writes them."""
        return ", ".join(f"{a.name}({','.join(map(str, a.shape))})"
                         for a in self.args)

    # Work ---------------------------------------------------------------

    @property
    def mma_flops(self) -> int:
        """FLOPs of the matmul-shaped work (tensor cores in BF16/FP16)."""
        m, s = self.model, self.seq
        if self.family in ("matmul", "matmul_add", "scaled_mm"):
            k, n = self._kn()
            return 2 * s * k * n
        if self.family == "silu_mul_matmul":
            return 2 * s * m.intermediate * m.hidden
        if self.family in ("sdpa", "naive_attn"):
            # q k^T and p v over the unmasked (causal) query-key pairs.
            return 4 * self._causal_pairs() * m.head_dim
        if self.family == "layers":
            # The seven projections, then attention's q k^T and p v.
            linear = sum(a.numel for a in self.args
                         if a.role == "linear_weight")
            return 2 * s * linear + 4 * self._causal_pairs() * m.head_dim
        return 0

    @property
    def other_flops(self) -> int:
        """FLOPs of the elementwise and reduction work (CUDA cores).

        One per arithmetic op and per special function (exp, rsqrt).
        """
        m, s = self.model, self.seq
        if self.family == "rmsnorm":
            # x^2, the sum, x * rstd, * w per element; mean, +eps, rsqrt per row.
            return 4 * s * m.hidden + 3 * s
        if self.family == "softmax":
            # max, subtract, exp, sum, divide.
            return 5 * m.heads * s * s
        if self.family == "silu_mul":
            # negate, exp, add 1, divide, multiply.
            return 5 * s * m.intermediate
        if self.family == "silu_mul_matmul":
            return 5 * s * m.intermediate
        if self.family == "matmul_add":
            return s * self._kn()[1]
        if self.family == "scaled_mm":
            # The two scales' product and its multiply per output.
            return 2 * s * self._kn()[1]
        if self.family == "sdpa":
            # scale and softmax over the unmasked pairs.
            return 6 * self._causal_pairs()
        if self.family == "naive_attn":
            # scale, mask add and softmax over the unmasked pairs.
            return 7 * self._causal_pairs()
        if self.family == "layers":
            # Two RMSNorms and two residual adds; RoPE on q and k (two
            # multiplies, a negate and an add per element); the biases;
            # attention's scale and softmax; silu_mul.
            biases = sum(a.numel for a in self.args if a.role == "bias")
            rope = 4 * s * (m.hidden + m.kv)
            return (2 * (4 * s * m.hidden + 3 * s) + 2 * s * m.hidden + rope
                    + s * biases + 6 * self._causal_pairs()
                    + 5 * s * m.intermediate)
        return 0

    @property
    def flops(self) -> int:
        return self.mma_flops + self.other_flops

    @property
    def min_bytes(self) -> int:
        """Each argument read once and the result written once."""
        r = 1
        for d in self.result_shape:
            r *= d
        return (sum(a.numel * DTYPE_BYTES[self.arg_dtype(a)]
                    for a in self.args)
                + r * DTYPE_BYTES[self.out_dtype])

    def _causal_pairs(self) -> int:
        """(query, key) pairs a causal mask keeps, over all query heads."""
        return self.model.heads * self.seq * (self.seq + 1) // 2

    # MLIR ---------------------------------------------------------------

    @property
    def layer_file(self):
        """The exported layer's .mlir (layers family only)."""
        return LAYER_DIR / f"{self.name}.mlir"

    def build(self):
        """The layer as an examples/generate.py `Fn`."""
        g = builders()
        m, s = self.model, self.seq
        if self.family == "scaled_mm":
            return g.layer_scaled_mm(s, *self._kn())
        prec = {"fp32": g.F32, "bf16": g.BF16, "fp16": g.F16}[self.dtype]
        if self.family == "matmul":
            return g.layer_matmul(s, *self._kn(), prec)
        if self.family == "matmul_add":
            return g.layer_matmul_add(s, *self._kn(), prec)
        if self.family == "rmsnorm":
            return g.layer_rmsnorm(s, m.hidden, prec)
        if self.family == "softmax":
            return g.layer_softmax(m.heads, s, prec)
        if self.family == "silu_mul":
            return g.layer_silu_mul(s, m.intermediate, prec)
        if self.family == "sdpa":
            return g.layer_sdpa(m.heads, m.kv_heads, s, m.head_dim, prec)
        if self.family == "naive_attn":
            return g.layer_naive_attn(m.heads, s, m.head_dim, prec)
        if self.family == "silu_mul_matmul":
            return g.layer_silu_mul_matmul(s, m.intermediate, m.hidden, prec)
        raise ValueError(f"unknown family '{self.family}'")

    def mlir(self) -> str:
        if self.family == "layers":
            # Exported from PyTorch (bench/layers/export.py), with its header.
            if not self.layer_file.is_file():
                raise SelectionError(f"{self.layer_file}: missing; run "
                                     "bench/layers/export.py")
            return self.layer_file.read_text()
        header = (f"// Benchmark case {self.name} ({self.dtype}): "
                  f"{self.shapes}.\n"
                  "// Generated by bench/generate.py from the shape table in "
                  "bench/cases.py.\n")
        return header + self.build().text()


@functools.lru_cache(maxsize=None)
def builders() -> ModuleType:
    """examples/generate.py, loaded as a module."""
    path = REPO / "examples" / "generate.py"
    spec = importlib.util.spec_from_file_location("deplodock_examples", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _family_cases(family: str, model: Model, dtype: str) -> list[Case]:
    if (family in FP8_FAMILIES) != (dtype == "fp8"):
        return []
    if family == "layers":
        # Exported layers have their own sequence lengths and dtypes.
        if dtype not in LAYER_DTYPES:
            return []
        seqs = LAYER_SEQS if model.in_suite else model.seqs
        return [Case(family, model, s, dtype) for s in seqs]
    out = []
    for seq in model.seqs:
        if family in ("matmul", "scaled_mm"):
            projections: tuple[str | None, ...] = tuple(PROJECTIONS)
        elif family == "matmul_add":
            projections = RESIDUAL_PROJECTIONS
        else:
            projections = (None,)
        out += [Case(family, model, seq, dtype, p) for p in projections]
    return out


def all_cases(include_test_models: bool = False) -> list[Case]:
    """Every case, in the fixed order: dtype, family, model, seq, projection.

    The test model (`mini`) comes last, and only when asked for.
    """
    models = [m for m in MODELS.values() if m.in_suite]
    if include_test_models:
        models += [m for m in MODELS.values() if not m.in_suite]
    cases = []
    for in_suite in (True, False):
        for dtype in DTYPES:
            for family in FAMILIES:
                for model in models:
                    if model.in_suite == in_suite:
                        cases += _family_cases(family, model, dtype)
    return cases


class SelectionError(ValueError):
    """A case, family, model or dtype the table does not have."""


def _check_names(kind: str, asked: list[str] | None, known) -> None:
    for name in asked or []:
        if name not in known:
            raise SelectionError(f"unknown {kind} '{name}' (known: "
                                 f"{', '.join(known)})")


def select(cases: list[str] | None = None, families: list[str] | None = None,
           models: list[str] | None = None,
           dtypes: list[str] | None = None) -> list[Case]:
    """The cases matching every filter given, in table order.

    `cases` holds exact names or shell patterns ('matmul.qwen.*'); each
    must match a case. A pattern matches a case's name or its name without
    the dtype ('sdpa.*.s128' selects the three dtypes of those cases). The
    test model is only selected by an exact name or by `models`.
    """
    _check_names("family", families, FAMILIES)
    _check_names("model", models, list(MODELS))
    _check_names("dtype", dtypes, list(DTYPES))
    pool = all_cases(include_test_models=True)
    if models:
        pool = [c for c in pool if c.model.name in models]
    if families:
        pool = [c for c in pool if c.family in families]
    if dtypes:
        pool = [c for c in pool if c.dtype in dtypes]
    # Patterns and the default selection cover the suite's models only,
    # unless --models names others; exact names may name any case.
    suite = [c for c in pool if models or c.in_suite]
    if not cases:
        return suite
    by_name = {c.name: c for c in pool}
    every = {c.name for c in all_cases(include_test_models=True)}
    chosen: set[str] = set()
    for pattern in cases:
        if any(ch in pattern for ch in "*?["):
            hits = [c.name for c in suite
                    if fnmatch.fnmatchcase(c.name, pattern)
                    or fnmatch.fnmatchcase(c.base_name, pattern)]
            if not hits:
                raise SelectionError(f"no case matches '{pattern}'")
            chosen.update(hits)
        elif pattern in by_name:
            chosen.add(pattern)
        elif pattern in every:
            raise SelectionError(f"case '{pattern}' is excluded by the "
                                 "other filters")
        else:
            raise SelectionError(f"unknown case '{pattern}' (see "
                                 "bench/generate.py --list)")
    return [c for c in pool if c.name in chosen]


def find(name: str) -> Case:
    for case in all_cases(include_test_models=True):
        if case.name == name:
            return case
    raise SelectionError(f"unknown case '{name}' (see bench/generate.py --list)")
