#!/usr/bin/env python3
"""Half-precision .npy inputs as the benchmark harness writes them.

usage: half-npy.py write DIR   # x and w of bench-half.mlir in every encoding
       half-npy.py same A B    # prints "same" when two .npy hold equal arrays

`write` draws x(1,8,32) and w(32,16) and stores them with bench/inputs.py's
to_storage, the harness's own conventions: bf16 as uint16 bits (x.bits.npy)
and as bf16-exact float32 (x.f32.npy), the same bits as int16 (x.i16.npy),
and f16 as float16 (x.f16.npy).
"""

import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[4] / "bench"))
import inputs  # noqa: E402


def write(folder):
    out = pathlib.Path(folder)
    rng = np.random.default_rng(7)
    for name, shape in (("x", (1, 8, 32)), ("w", (32, 16))):
        values = rng.standard_normal(shape, dtype=np.float32)
        bits = inputs.to_storage(values, "bf16", "bits")
        np.save(out / f"{name}.bits.npy", bits)
        np.save(out / f"{name}.i16.npy", bits.view(np.int16))
        np.save(out / f"{name}.f32.npy", inputs.to_storage(values, "bf16", "f32"))
        np.save(out / f"{name}.f16.npy", inputs.to_storage(values, "fp16"))


def same(a, b):
    x, y = np.load(a), np.load(b)
    ok = x.shape == y.shape and np.array_equal(x, y, equal_nan=True)
    print("same" if ok else f"differ: {x.dtype}{x.shape} vs {y.dtype}{y.shape}")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "write":
        write(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == "same":
        same(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
