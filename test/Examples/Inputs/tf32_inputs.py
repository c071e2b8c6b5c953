"""Writes .npy inputs for tf32-matmul.mlir's x(1,S,K) . W(K,N), float32.

    tf32_inputs.py exact DIR S K N
        x and w in multiples of 1/8 in [-1, 1]: exact in tf32, their
        products exact and every sum of them exact in f32, so any lowering,
        tf32 or not, gives the same result bit for bit.
    tf32_inputs.py rounding DIR S K N
        x holds values that tf32 rounds (to nearest, ties away from zero) in
        its first column, w is 1 in its first row: row i of the product is
        x[i][0] rounded to tf32. Also writes that product as expected.npy.
"""
import pathlib
import random
import struct
import sys


def save(path, shape, values):
    dims = ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "")
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%s), }" % dims
    header += " " * ((64 - (11 + len(header)) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode())
        f.write(struct.pack("<%df" % len(values), *values))


# Values f32 holds exactly, and what cvt.rna.tf32.f32 makes of them (10
# mantissa bits; a tie goes away from zero, where round-to-even differs).
U = 2.0**-10
ROUNDED = [
    (1 + U / 2, 1 + U),  # a tie: 1 is even, away gives 1 + U
    (-(1 + U / 2), -(1 + U)),
    (1 + 2 * U + U / 2, 1 + 3 * U),  # a tie: 1 + 2U is even
    (1 + U / 4, 1.0),
    (1 + 3 * U / 4, 1 + U),
    (3.0, 3.0),
    (0.0, 0.0),
]

mode, out, s, k, n = sys.argv[1], pathlib.Path(sys.argv[2]), *map(int, sys.argv[3:6])
out.mkdir(parents=True, exist_ok=True)
if mode == "exact":
    rng = random.Random(7)
    save(out / "x.npy", (1, s, k), [rng.randint(-8, 8) / 8 for _ in range(s * k)])
    save(out / "w.npy", (k, n), [rng.randint(-8, 8) / 8 for _ in range(k * n)])
else:
    x = [0.0] * (s * k)
    expected = [0.0] * (s * n)
    for i in range(s):
        value, rounded = ROUNDED[i % len(ROUNDED)]
        x[i * k] = value
        expected[i * n:(i + 1) * n] = [rounded] * n
    w = [1.0 if r == 0 else 0.0 for r in range(k) for _ in range(n)]
    save(out / "x.npy", (1, s, k), x)
    save(out / "w.npy", (k, n), w)
    save(out / "expected.npy", (1, s, n), expected)
