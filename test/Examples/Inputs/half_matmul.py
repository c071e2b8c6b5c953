"""Prints examples/generate.py's matmul layer in a half precision (or f32).

    half_matmul.py DTYPE S K N   # DTYPE: f16, bf16 or f32; x(1,S,K) . W(K,N)
"""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[3] / "examples"))
import generate  # noqa: E402

dtype, s, k, n = sys.argv[1], *map(int, sys.argv[2:5])
prec = {"f16": generate.F16, "bf16": generate.BF16, "f32": generate.F32}[dtype]
print(generate.layer_matmul(s, k, n, prec).text(), end="")
