"""Checking an output against a float64 reference, with dtype-aware tolerances.

Two measures, both relative to the reference's scale so that they mean the
same for any input scale:

* rel_l2  = ||out - ref|| / ||ref||        (the error overall)
* max_err = max |out - ref| / rms(ref)     (the worst element)

The reference is the case computed in float64 from the same (rounded)
inputs. FP32 kernels land far under the FP32 bounds; BF16 and FP16
kernels round the result (and matmul operands) to 8 or 11 significant
bits, about 4e-3 or 5e-4 per rounding, hence their wider bounds. A single
wrong row of a 512-row output already moves rel_l2 by about 4%, beyond
every bound. NaN or infinity where the reference is finite never passes.
'tf32' is for FP32 cases run with TF32 contractions (the opt-in TF32
section): TF32 keeps FP16's 11 significant bits, hence FP16's bounds.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Tolerance:
    rel_l2: float
    max_err: float


TOLERANCES: dict[str, Tolerance] = {
    "fp32": Tolerance(rel_l2=1e-4, max_err=1e-3),
    "fp16": Tolerance(rel_l2=5e-3, max_err=5e-2),
    "bf16": Tolerance(rel_l2=2e-2, max_err=1.5e-1),
}
TOLERANCES["tf32"] = TOLERANCES["fp16"]


def compare(out: np.ndarray, ref: np.ndarray, dtype: str) -> dict:
    """{'ok': bool, 'rel_l2', 'max_err', 'nonfinite', 'reason'} for out vs ref."""
    tol = TOLERANCES[dtype]
    result = {"ok": False, "rel_l2": None, "max_err": None, "nonfinite": 0,
              "tolerance": {"rel_l2": tol.rel_l2, "max_err": tol.max_err},
              "reason": ""}
    out = np.asarray(out, dtype=np.float64)
    ref = np.asarray(ref, dtype=np.float64)
    if out.shape != ref.shape:
        if out.size == ref.size:
            out = out.reshape(ref.shape)  # .npy may drop unit dims
        else:
            result["reason"] = f"shape {list(out.shape)} != {list(ref.shape)}"
            return result
    bad = ~np.isfinite(out) & np.isfinite(ref)
    result["nonfinite"] = int(bad.sum())
    diff = np.abs(np.where(np.isfinite(ref), out - ref, 0.0))
    diff = np.where(bad, np.inf, diff)
    norm = float(np.sqrt(np.sum(np.square(np.where(np.isfinite(ref), ref, 0.0)))))
    rms = norm / np.sqrt(max(ref.size, 1))
    scale = norm if norm > 0 else 1.0
    result["rel_l2"] = float(np.sqrt(np.sum(np.square(diff))) / scale)
    result["max_err"] = float(np.max(diff, initial=0.0) / (rms if rms > 0 else 1.0))
    if result["nonfinite"]:
        result["reason"] = f"{result['nonfinite']} non-finite elements"
    elif result["rel_l2"] > tol.rel_l2:
        result["reason"] = (f"rel_l2 {result['rel_l2']:.3g} > {tol.rel_l2:g}")
    elif result["max_err"] > tol.max_err:
        result["reason"] = (f"max_err {result['max_err']:.3g} > {tol.max_err:g}")
    else:
        result["ok"] = True
    return result
