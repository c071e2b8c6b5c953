"""Seeded inputs of a case, as .npy files, and reading our results back.

The values are the same for a case's three dtypes (the seed mixes the
case's name without the dtype), rounded to the dtype. How each dtype is
stored in .npy:

* fp32: float32 ('<f4').
* fp16: float16 ('<f2').
* bf16: NumPy has no bfloat16. By default the raw bfloat16 bits as uint16
  ('<u2', encoding "bits"); with encoding "f32", float32 holding values
  that are exactly representable in bfloat16, so converting them is exact.
  Either way the values are float32 draws rounded to nearest even. Results
  are read back from float32, float16 or uint16 bits.
* fp8 (e4m3fn, the one FP8 type of the suite): the raw bits as uint8
  ('|u1'), float32 draws rounded to nearest even (no value of the suite
  comes near the largest, 448). The scales of FP8 cases are float32.
"""

from __future__ import annotations

import pathlib
import zlib

import numpy as np

import cases as suite


def case_seed(case: suite.Case, seed: int) -> int:
    return (seed * 1_000_003 + zlib.crc32(case.base_name.encode())) % 2**32


def round_to_bf16(x: np.ndarray) -> np.ndarray:
    """float32 values rounded to the nearest bfloat16 (ties to even)."""
    bits = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32)
    rounding = np.uint32(0x7FFF) + ((bits >> np.uint32(16)) & np.uint32(1))
    rounded = (bits + rounding) & np.uint32(0xFFFF0000)
    return rounded.view(np.float32)


BF16_ENCODINGS = ("bits", "f32")


def _e4m3_values() -> np.ndarray:
    """The values of the e4m3fn codes 0-126 (the non-negative finite ones,
    ascending): 4 exponent bits (bias 7), 3 mantissa bits, subnormals at
    exponent 0; 127 is NaN."""
    codes = np.arange(127)
    exp, man = codes >> 3, codes & 7
    return np.where(exp == 0, man / 8.0 * 2.0**-6,
                    (1 + man / 8.0) * 2.0**(exp - 7)).astype(np.float64)


E4M3_VALUES = _e4m3_values()
E4M3_MAX = float(E4M3_VALUES[-1])  # 448


def to_e4m3_bits(x: np.ndarray) -> np.ndarray:
    """float32 values rounded to the nearest e4m3fn (ties to the even
    code), as uint8 bits."""
    a = np.abs(np.asarray(x, dtype=np.float64))
    if not np.all(np.isfinite(a)) or np.any(a > E4M3_MAX):
        raise ValueError("a value beyond e4m3fn's largest, 448")
    hi = np.minimum(np.searchsorted(E4M3_VALUES, a), len(E4M3_VALUES) - 1)
    lo = np.maximum(hi - 1, 0)
    dlo, dhi = a - E4M3_VALUES[lo], E4M3_VALUES[hi] - a
    code = np.where((dhi < dlo) | ((dhi == dlo) & (hi % 2 == 0)), hi, lo)
    sign = np.signbit(np.asarray(x, dtype=np.float32)).astype(np.int64) << 7
    return (code | sign).astype(np.uint8)


def from_e4m3_bits(bits: np.ndarray) -> np.ndarray:
    """uint8 e4m3fn bits as float32 (NaN for the NaN codes)."""
    b = bits.astype(np.int64)
    mag = b & 0x7F
    values = np.where(mag == 0x7F, np.nan,
                      E4M3_VALUES[np.minimum(mag, len(E4M3_VALUES) - 1)])
    return np.where(b >> 7, -values, values).astype(np.float32)


def to_storage(x: np.ndarray, dtype: str, bf16: str = "bits") -> np.ndarray:
    """float32 values as the case's .npy stores them."""
    if dtype == "fp32":
        return x.astype(np.float32)
    if dtype == "fp16":
        return x.astype(np.float16)
    if dtype == "fp8":
        return to_e4m3_bits(x)
    if dtype == "bf16":
        rounded = round_to_bf16(x)
        if bf16 == "f32":
            return rounded
        if bf16 == "bits":
            return (rounded.view(np.uint32) >> np.uint32(16)).astype(np.uint16)
        raise ValueError(f"unknown bf16 encoding '{bf16}'")
    raise ValueError(f"unknown dtype '{dtype}'")


def as_float32(a: np.ndarray) -> np.ndarray:
    """An input array's values as float32 (uint16 is bfloat16 bits, uint8
    e4m3fn bits)."""
    if a.dtype == np.uint16:
        return (a.astype(np.uint32) << np.uint32(16)).view(np.float32)
    if a.dtype == np.uint8:
        return from_e4m3_bits(a)
    return a.astype(np.float32)


def make_inputs(case: suite.Case, seed: int = 0,
                bf16: str = "bits") -> list[np.ndarray]:
    """The case's arguments, in order, in their .npy representation."""
    rng = np.random.default_rng(case_seed(case, seed))
    out = []
    for arg in case.args:
        if arg.role in suite.SCALE_ROLES:
            # The activation's scale 1; the weight's 1 / sqrt(fan-in), which
            # its quantized values (standard normal) leave out.
            fan_in = next(a.shape[-1] for a in case.args
                          if a.role == "quantized_weight")
            x = np.float32(1.0 if arg.role == "scale" else 1.0 / np.sqrt(fan_in))
            out.append(np.asarray(x, dtype=np.float32).reshape(arg.shape))
            continue
        if arg.role in ("rope_cos", "rope_sin"):
            x = rope_table(arg.shape, suite.LAYERS[case.model.name].rope_base,
                           arg.role == "rope_sin")
            out.append(to_storage(x, case.dtype, bf16))
            continue
        x = rng.standard_normal(arg.shape, dtype=np.float32)
        if arg.role == "weight":
            x *= np.float32(1.0 / np.sqrt(arg.shape[0]))
        elif arg.role == "linear_weight":
            x *= np.float32(1.0 / np.sqrt(arg.shape[-1]))
        elif arg.role == "norm_weight":
            x = np.float32(1.0) + np.float32(0.1) * x
        elif arg.role == "bias":
            x *= np.float32(0.1)
        out.append(to_storage(x, case.dtype, bf16))
    return out


def rope_table(shape: tuple[int, ...], base: float, sin: bool) -> np.ndarray:
    """The (seq, head_dim) cos or sin table of rotary embeddings, as
    rope_tables in examples/pytorch/layers.py computes it (float32)."""
    seq, dim = shape
    inv = (1.0 / base ** (np.arange(0, dim, 2, dtype=np.float32) / dim)
           ).astype(np.float32)
    angles = np.outer(np.arange(seq, dtype=np.float32), inv)
    angles = np.concatenate([angles, angles], axis=-1)
    return (np.sin(angles) if sin else np.cos(angles)).astype(np.float32)


def save_inputs(arrays: list[np.ndarray], folder: pathlib.Path) -> list[pathlib.Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i, a in enumerate(arrays):
        path = folder / f"input{i}.npy"
        np.save(path, a)
        paths.append(path)
    return paths


def load_result(path: pathlib.Path, dtype: str) -> np.ndarray:
    """A result .npy as float64; uint16 is read as bfloat16 bits."""
    a = np.load(path)
    if a.dtype == np.uint16:
        if dtype != "bf16":
            raise ValueError(f"{path.name}: uint16 data for a {dtype} case")
        a = as_float32(a)
    if a.dtype.kind != "f":
        raise ValueError(f"{path.name}: unexpected element type {a.dtype}")
    return a.astype(np.float64)
