"""Prints a half-precision linear layer whose weight is held N x K.

    half_linear_nk.py DTYPE M K N   # DTYPE: f16 or bf16; y = x(M,K) . W(N,K)^T

Both operands are K-major (as nn.Linear stores its weight), the products
sum in f32 and the result is rounded once to DTYPE: the form warpgroup MMA
(wgmma_async) reads straight from TMA slabs.
"""
import sys

dtype, m, k, n = sys.argv[1], *map(int, sys.argv[2:5])
x, w = f"tensor<{m}x{k}x{dtype}>", f"tensor<{n}x{k}x{dtype}>"
acc, out = f"tensor<{m}x{n}xf32>", f"tensor<{m}x{n}x{dtype}>"
print(f"""func.func @linear(%x: {x}, %w: {w}) -> {out} {{
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : {acc}
  %filled = linalg.fill ins(%zero : f32) outs(%init : {acc}) -> {acc}
  %mm = linalg.generic {{indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}} ins(%x, %w : {x}, {w}) outs(%filled : {acc}) {{
  ^bb0(%a: {dtype}, %b: {dtype}, %s: f32):
    %ae = arith.extf %a : {dtype} to f32
    %be = arith.extf %b : {dtype} to f32
    %p = arith.mulf %ae, %be : f32
    %t = arith.addf %s, %p : f32
    linalg.yield %t : f32
  }} -> {acc}
  %empty = tensor.empty() : {out}
  %y = linalg.generic {{indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}} ins(%mm : {acc}) outs(%empty : {out}) {{
  ^bb0(%v: f32, %o: {dtype}):
    %r = arith.truncf %v : f32 to {dtype}
    linalg.yield %r : {dtype}
  }} -> {out}
  return %y : {out}
}}""")
