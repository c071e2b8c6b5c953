#!/usr/bin/env python3
"""Writes the example layers as MLIR on tensors (linalg, tensor, arith, math).

Each example is what a torch-mlir or IREE user hands over for one operator
family of the benchmark suite, or a whole TinyLlama decoder block. The same
code writes them at the model's real shapes (the files in examples/) and at
scaled-down shapes for the interpreter tests:

    examples/generate.py --write            # regenerate examples/*.mlir
    examples/generate.py --check            # fail if examples/ is stale
    examples/generate.py --small rmsnorm    # one example, small shapes
    examples/generate.py --scaled rmsnorm   # the real shapes scaled down
    examples/generate.py --small sdpa --dims S=37,CAUSAL=0 --dtype bf16
    examples/generate.py --list

The file is also a module: the benchmark suite (bench/cases.py) builds its
cases with the `layer_*` functions below, at any shape and in f32, bf16 or
f16 (see `Precision`).
"""

from __future__ import annotations

import argparse
import pathlib
import string
import sys
from dataclasses import dataclass
from typing import Callable, Sequence

# Model dimensions: hidden, intermediate, heads, kv heads, head dim, sequence.
REAL = dict(H=2048, I=5632, NH=32, NKV=4, D=64, S=32)  # TinyLlama, seq 32
SMALL = dict(H=32, I=48, NH=4, NKV=2, D=8, S=8)
# The real shapes divided by 8 (sequence by 2), keeping TinyLlama's ratios:
# 8 query heads per kv head, I/H = 2.75.
SCALED = dict(H=256, I=704, NH=16, NKV=2, D=16, S=16)


@dataclass(frozen=True)
class Precision:
    """The element type tensors are stored in and the one arithmetic runs in.

    In f32 both are f32 and the layers are plain f32 programs. In bf16 and
    f16 the arguments, the results and every operand of a matmul are stored
    in the half type, while all arithmetic (matmul accumulation, reductions,
    exp, rsqrt...) runs in f32 and is rounded to the half type only where a
    tensor is stored: the mixed precision of PyTorch's half kernels.
    """

    storage: str = "f32"
    compute: str = "f32"


F32 = Precision()
BF16 = Precision("bf16")
F16 = Precision("f16")


def ty(shape, elem="f32"):
    return "tensor<" + "".join(f"{d}x" for d in shape) + elem + ">"


def amap(n, results):
    dims = ", ".join(f"d{i}" for i in range(n))
    return f"affine_map<({dims}) -> ({', '.join(results)})>"


def ident(n):
    return amap(n, [f"d{i}" for i in range(n)])


def float_width(elem: str) -> int:
    return {"f8E4M3FN": 8, "f8E5M2": 8, "f16": 16, "bf16": 16, "f32": 32,
            "f64": 64}[elem]


class Fn:
    """Accumulates the body of one func.func with fresh SSA names.

    `args` are (name, shape) or (name, shape, element type) pairs, and so
    are the (value, shape[, element type]) entries of `results`; the
    element type defaults to f32.
    """

    def __init__(self, name, args, doc):
        self.name, self.args, self.doc = name, args, doc
        self.lines, self.count = [], {}
        self.results = []

    def fresh(self, hint):
        n = self.count.get(hint, 0)
        self.count[hint] = n + 1
        return f"%{hint}" if n == 0 else f"%{hint}{n}"

    def emit(self, line):
        self.lines.append("  " + line)

    def const(self, value, elem="f32", hint="c"):
        v = self.fresh(hint)
        self.emit(f"{v} = arith.constant {value} : {elem}")
        return v

    def empty(self, shape, elem="f32"):
        v = self.fresh("init")
        self.emit(f"{v} = tensor.empty() : {ty(shape, elem)}")
        return v

    def fill(self, value, shape, elem="f32"):
        c = self.const(value, elem, hint="fill_value")
        e = self.empty(shape, elem)
        v = self.fresh("filled")
        t = ty(shape, elem)
        self.emit(f"{v} = linalg.fill ins({c} : {elem}) outs({e} : {t}) -> {t}")
        return v

    def generic(self, hint, ins, out_shape, body, result, iters=None,
                out_map=None, init=None, out_elem="f32", compute="f32"):
        """A linalg.generic computing `body` in the `compute` type.

        ins: [(value, shape, map)] or [(value, shape, map, element type)].
        body: lines in which $a0, $a1... are the inputs and $out the output's
        running value, all of type $t (the compute type); `result` names the
        value yielded. Inputs of another type are converted to the compute
        type first, and the result to `out_elem` last.
        """
        n = len(iters) if iters else len(out_shape)
        iters = iters or ["parallel"] * n
        out_map = out_map or ident(n)
        init = init or self.empty(out_shape, out_elem)
        ins = [tuple(i) + ("f32",) * (4 - len(i)) for i in ins]
        maps = ", ".join([m for _, _, m, _ in ins] + [out_map])
        its = ", ".join(f'"{i}"' for i in iters)
        v = self.fresh(hint)
        in_vals = ", ".join(x for x, _, _, _ in ins)
        in_tys = ", ".join(ty(s, e) for _, s, _, e in ins)
        args = ", ".join(f"%a{i}: {e}" for i, (_, _, _, e) in enumerate(ins))
        self.emit(f"{v} = linalg.generic {{indexing_maps = [{maps}], "
                  f"iterator_types = [{its}]}}")
        if ins:
            self.emit(f"    ins({in_vals} : {in_tys})")
        self.emit(f"    outs({init} : {ty(out_shape, out_elem)}) {{")
        self.emit(f"  ^bb0({args}{', ' if args else ''}%out: {out_elem}):")
        names = {"t": compute, "out": "%out"}
        for i, (_, _, _, e) in enumerate(ins):
            names[f"a{i}"] = f"%a{i}"
            if e != compute:
                names[f"a{i}"] = f"%a{i}w"
                self.emit(f"    %a{i}w = {convert(e, compute)} %a{i} : {e} to "
                          f"{compute}")
        if out_elem != compute and any("$out" in line for line in body):
            raise ValueError("a generic reading its output must compute in "
                             "the output's type")
        for line in body:
            self.emit("    " + string.Template(line).substitute(names))
        result = string.Template(result).substitute(names)
        if out_elem != compute:
            self.emit(f"    %stored = {convert(compute, out_elem)} {result} : "
                      f"{compute} to {out_elem}")
            result = "%stored"
        self.emit(f"    linalg.yield {result} : {out_elem}")
        self.emit(f"}} -> {ty(out_shape, out_elem)}")
        return v

    def cast(self, x, shape, src, dst):
        """x converted elementwise from `src` to `dst` (x itself if equal)."""
        if src == dst:
            return x
        n = len(shape)
        return self.generic("cast", [(x, shape, ident(n), src)], shape, [],
                            "$a0", out_elem=dst, compute=src)

    def collapse(self, x, reassoc, out_shape, src_shape, elem="f32"):
        v = self.fresh("flat")
        self.emit(f"{v} = tensor.collapse_shape {x} {reassoc} : "
                  f"{ty(src_shape, elem)} into {ty(out_shape, elem)}")
        return v

    def expand(self, x, reassoc, out_shape, src_shape, elem="f32"):
        v = self.fresh("view")
        sizes = ", ".join(str(d) for d in out_shape)
        self.emit(f"{v} = tensor.expand_shape {x} {reassoc} output_shape "
                  f"[{sizes}] : {ty(src_shape, elem)} into "
                  f"{ty(out_shape, elem)}")
        return v

    def transpose(self, x, shape, perm, elem="f32"):
        out = [shape[p] for p in perm]
        e = self.empty(out, elem)
        v = self.fresh("t")
        self.emit(f"{v} = linalg.transpose ins({x} : {ty(shape, elem)}) "
                  f"outs({e} : {ty(out, elem)}) permutation = "
                  f"[{', '.join(map(str, perm))}]")
        return v, out

    def matmul(self, a, b, m, k, n, elem="f32", acc="f32"):
        """a[m,k] . b[k,n] of `elem` elements, accumulated in `acc`."""
        init = self.fill("0.0", [m, n], acc)
        v = self.fresh("mm")
        self.emit(f"{v} = linalg.matmul ins({a}, {b} : {ty([m, k], elem)}, "
                  f"{ty([k, n], elem)}) outs({init} : {ty([m, n], acc)}) -> "
                  f"{ty([m, n], acc)}")
        return v

    def batch_matmul(self, a, b, bsz, m, k, n, elem="f32", acc="f32"):
        init = self.fill("0.0", [bsz, m, n], acc)
        v = self.fresh("bmm")
        self.emit(f"{v} = linalg.batch_matmul ins({a}, {b} : "
                  f"{ty([bsz, m, k], elem)}, {ty([bsz, k, n], elem)}) "
                  f"outs({init} : {ty([bsz, m, n], acc)}) -> "
                  f"{ty([bsz, m, n], acc)}")
        return v

    def softmax(self, x, shape, dim, elem="f32"):
        e = self.empty(shape, elem)
        v = self.fresh("probs")
        t = ty(shape, elem)
        self.emit(f"{v} = linalg.softmax dimension({dim}) ins({x} : {t}) "
                  f"outs({e} : {t}) -> {t}")
        return v

    def text(self):
        def typed(entry):
            return ty(entry[1], entry[2] if len(entry) > 2 else "f32")

        args = ", ".join(f"%{a[0]}: {typed(a)}" for a in self.args)
        rets = ", ".join(typed(r) for r in self.results)
        out = [f"// {line}" if line else "//" for line in self.doc.split("\n")]
        out.append(f"func.func @{self.name}({args}) -> ({rets}) {{")
        out += self.lines
        vals = ", ".join(r[0] for r in self.results)
        out.append(f"  return {vals} : {rets}")
        out.append("}")
        return "\n".join(out) + "\n"


def convert(src: str, dst: str) -> str:
    """The arith op converting a float of type `src` to `dst`."""
    return "arith.extf" if float_width(dst) > float_width(src) else "arith.truncf"


# --- Building blocks shared by the examples ---------------------------------

def linear(f, x, s, k, w, n, prec=F32):
    """x[1,s,k] . w[k,n] -> [1,s,n], as torch-mlir writes nn.Linear.

    x and w are stored in prec.storage; the result is in prec.compute.
    """
    flat = f.collapse(x, "[[0, 1], [2]]", [s, k], [1, s, k], prec.storage)
    y = f.matmul(flat, w, s, k, n, prec.storage, prec.compute)
    return f.expand(y, "[[0, 1], [2]]", [1, s, n], [s, n], prec.compute)


def rmsnorm(f, x, w, s, h, eps="9.99999997E-7", prec=F32):
    st, ct = prec.storage, prec.compute
    sq = f.generic("sq", [(x, [1, s, h], ident(3), st)], [1, s, h],
                   ["%m = arith.mulf $a0, $a0 : $t"], "%m", out_elem=ct,
                   compute=ct)
    zero = f.fill("0.0", [1, s, 1], ct)
    ss = f.generic("sumsq", [(sq, [1, s, h], ident(3), ct)], [1, s, 1],
                   ["%m = arith.addf $a0, $out : $t"], "%m",
                   iters=["parallel", "parallel", "reduction"],
                   out_map=amap(3, ["d0", "d1", "0"]), init=zero, out_elem=ct,
                   compute=ct)
    return f.generic(
        "normed",
        [(x, [1, s, h], ident(3), st),
         (ss, [1, s, 1], amap(3, ["d0", "d1", "0"]), ct),
         (w, [h], amap(3, ["d2"]), st)],
        [1, s, h],
        [f"%n = arith.constant {float(h):.1f} : $t",
         f"%eps = arith.constant {eps} : $t",
         "%mean = arith.divf $a1, %n : $t",
         "%var = arith.addf %mean, %eps : $t",
         "%rstd = math.rsqrt %var : $t",
         "%y = arith.mulf $a0, %rstd : $t",
         "%o = arith.mulf %y, $a2 : $t"], "%o", out_elem=st, compute=ct)


def silu_mul(f, g, u, shape, prec=F32):
    n, st = len(shape), prec.storage
    return f.generic(
        "act", [(g, shape, ident(n), st), (u, shape, ident(n), st)], shape,
        ["%one = arith.constant 1.0 : $t",
         "%neg = arith.negf $a0 : $t",
         "%e = math.exp %neg : $t",
         "%d = arith.addf %one, %e : $t",
         "%s = arith.divf $a0, %d : $t",
         "%o = arith.mulf %s, $a1 : $t"], "%o", out_elem=st,
        compute=prec.compute)


def add(f, a, b, shape, hint="sum", elems=("f32", "f32"), prec=F32):
    """a + b, `elems` their element types, stored in prec.storage."""
    n = len(shape)
    return f.generic(hint, [(a, shape, ident(n), elems[0]),
                            (b, shape, ident(n), elems[1])], shape,
                     ["%o = arith.addf $a0, $a1 : $t"], "%o",
                     out_elem=prec.storage, compute=prec.compute)


def attention(f, q, k, v, nh, nkv, s, d, causal, prec=F32, sq=None):
    """softmax(q k^T / sqrt(d) [+ causal mask]) v on [1, heads, s, d].

    q, k, v are stored in prec.storage; the result is in prec.compute. The
    probabilities are stored in prec.storage before they meet v. With `sq`
    queries (default s) they are the last sq positions: query i sees keys
    up to s - sq + i (decoding, sq = 1, sees them all).
    """
    st, ct = prec.storage, prec.compute
    sq = s if sq is None else sq
    q3 = f.collapse(q, "[[0, 1], [2], [3]]", [nh, sq, d], [1, nh, sq, d], st)
    if nkv != nh:  # GQA: each kv head serves nh / nkv query heads.
        rep = nh // nkv
        k3 = f.collapse(k, "[[0, 1], [2], [3]]", [nkv, s, d], [1, nkv, s, d],
                        st)
        v3 = f.collapse(v, "[[0, 1], [2], [3]]", [nkv, s, d], [1, nkv, s, d],
                        st)
        outs = []
        for t in (k3, v3):
            e = f.empty([nkv, rep, s, d], st)
            b = f.fresh("rep")
            f.emit(f"{b} = linalg.broadcast ins({t} : {ty([nkv, s, d], st)}) "
                   f"outs({e} : {ty([nkv, rep, s, d], st)}) dimensions = [1]")
            outs.append(f.collapse(b, "[[0, 1], [2], [3]]", [nh, s, d],
                                   [nkv, rep, s, d], st))
        k3, v3 = outs
    else:
        k3 = f.collapse(k, "[[0, 1], [2], [3]]", [nh, s, d], [1, nh, s, d], st)
        v3 = f.collapse(v, "[[0, 1], [2], [3]]", [nh, s, d], [1, nh, s, d], st)
    kt, _ = f.transpose(k3, [nh, s, d], [0, 2, 1], st)
    scores = f.batch_matmul(q3, kt, nh, sq, d, s, st, ct)
    scale = 1.0 / (d ** 0.5)
    body = [f"%scale = arith.constant {scale:.9e} : $t",
            "%sx = arith.mulf $a0, %scale : $t"]
    result = "%sx"
    if causal:
        body += ["%i = linalg.index 1 : index",
                 "%j = linalg.index 2 : index"]
        if sq != s:
            body += [f"%past = arith.constant {s - sq} : index",
                     "%pos = arith.addi %i, %past : index",
                     "%future = arith.cmpi sgt, %j, %pos : index"]
        else:
            body += ["%future = arith.cmpi sgt, %j, %i : index"]
        body += ["%ninf = arith.constant 0xFF800000 : $t",
                 "%m = arith.select %future, %ninf, %sx : $t"]
        result = "%m"
    scaled = f.generic("scaled", [(scores, [nh, sq, s], ident(3), ct)],
                       [nh, sq, s], body, result, out_elem=ct, compute=ct)
    probs = f.softmax(scaled, [nh, sq, s], 2, ct)
    probs = f.cast(probs, [nh, sq, s], ct, st)
    out = f.batch_matmul(probs, v3, nh, sq, s, d, st, ct)
    return f.expand(out, "[[0, 1], [2], [3]]", [1, nh, sq, d], [nh, sq, d],
                    ct)


def rope(f, x, cos, sin, nh, s, d):
    """x * cos + rotate_half(x) * sin on [1, heads, s, d]."""
    half = d // 2
    shape = [1, nh, s, d]
    lo = f.fresh("lo")
    f.emit(f"{lo} = tensor.extract_slice {x}[0, 0, 0, 0] [1, {nh}, {s}, {half}] "
           f"[1, 1, 1, 1] : {ty(shape)} to {ty([1, nh, s, half])}")
    hi = f.fresh("hi")
    f.emit(f"{hi} = tensor.extract_slice {x}[0, 0, 0, {half}] [1, {nh}, {s}, {half}] "
           f"[1, 1, 1, 1] : {ty(shape)} to {ty([1, nh, s, half])}")
    neg = f.generic("negated", [(hi, [1, nh, s, half], ident(4))], [1, nh, s, half],
                    ["%n = arith.negf $a0 : $t"], "%n")
    rot = f.fresh("rot")
    f.emit(f"{rot} = tensor.concat dim(3) {neg}, {lo} : ({ty([1, nh, s, half])}, "
           f"{ty([1, nh, s, half])}) -> {ty(shape)}")
    table = amap(4, ["d2", "d3"])
    return f.generic(
        "roped",
        [(x, shape, ident(4)), (rot, shape, ident(4)), (cos, [s, d], table),
         (sin, [s, d], table)],
        shape,
        ["%xc = arith.mulf $a0, $a2 : $t", "%rs = arith.mulf $a1, $a3 : $t",
         "%o = arith.addf %xc, %rs : $t"], "%o")


def heads(f, x, s, n, d):
    """[1, s, n*d] -> [1, n, s, d]."""
    v = f.expand(x, "[[0], [1], [2, 3]]", [1, s, n, d], [1, s, n * d])
    t, _ = f.transpose(v, [1, s, n, d], [0, 2, 1, 3])
    return t


# --- Layers at explicit sizes (the benchmark families) -----------------------

def layer_matmul(s: int, k: int, n: int, prec: Precision = F32) -> Fn:
    st = prec.storage
    f = Fn("matmul", [("x", [1, s, k], st), ("w", [k, n], st)],
           "A projection, x(1,S,H) . W(H,N), as torch-mlir lowers nn.Linear "
           "without bias.")
    y = f.cast(linear(f, "%x", s, k, "%w", n, prec), [1, s, n], prec.compute,
               st)
    f.results.append((y, [1, s, n], st))
    return f


def layer_rmsnorm(s: int, h: int, prec: Precision = F32) -> Fn:
    st = prec.storage
    f = Fn("rmsnorm", [("x", [1, s, h], st), ("w", [h], st)],
           "RMSNorm: y = x * rsqrt(mean(x^2) + eps) * w.")
    f.results.append((rmsnorm(f, "%x", "%w", s, h, prec=prec), [1, s, h], st))
    return f


def layer_softmax(nh: int, s: int, prec: Precision = F32) -> Fn:
    shape, st, ct = [1, nh, s, s], prec.storage, prec.compute
    f = Fn("softmax", [("x", shape, st)], "Softmax over the last axis of "
           "attention scores (linalg.softmax, as IREE has it).")
    x = f.cast("%x", shape, st, ct)
    probs = f.cast(f.softmax(x, shape, 3, ct), shape, ct, st)
    f.results.append((probs, shape, st))
    return f


def layer_silu_mul(s: int, i: int, prec: Precision = F32) -> Fn:
    shape, st = [1, s, i], prec.storage
    f = Fn("silu_mul", [("gate", shape, st), ("up", shape, st)],
           "The gated activation of a LLaMA MLP: silu(gate) * up.")
    f.results.append((silu_mul(f, "%gate", "%up", shape, prec), shape, st))
    return f


def layer_sdpa(nh: int, nkv: int, s: int, d: int,
               prec: Precision = F32, causal: bool = True,
               sq: int | None = None) -> Fn:
    """With `sq` queries (default s): the last sq positions over s keys."""
    st = prec.storage
    sq = s if sq is None else sq
    mask = "a causal mask" if causal else "no mask"
    queries = "" if sq == s else f"\nThe {sq} queries are the last positions of the {s} keys."
    f = Fn("sdpa", [("q", [1, nh, sq, d], st), ("k", [1, nkv, s, d], st),
                    ("v", [1, nkv, s, d], st)],
           f"Scaled dot-product attention with {mask} and grouped-query\n"
           "attention: NKV key/value heads each serve NH/NKV query heads."
           + queries)
    out = attention(f, "%q", "%k", "%v", nh, nkv, s, d, causal, prec, sq)
    f.results.append((f.cast(out, [1, nh, sq, d], prec.compute, st),
                      [1, nh, sq, d], st))
    return f


def layer_naive_attn(nh: int, s: int, d: int, prec: Precision = F32) -> Fn:
    shape, st, ct = [1, nh, s, d], prec.storage, prec.compute
    f = Fn("naive_attn", [("q", shape, st), ("k", shape, st), ("v", shape, st)],
           "Attention written out: softmax(q k^T / sqrt(d) + mask) v, the mask\n"
           "-1e9 above the diagonal, added rather than selected.")
    q3 = f.collapse("%q", "[[0, 1], [2], [3]]", [nh, s, d], shape, st)
    k3 = f.collapse("%k", "[[0, 1], [2], [3]]", [nh, s, d], shape, st)
    v3 = f.collapse("%v", "[[0, 1], [2], [3]]", [nh, s, d], shape, st)
    kt, _ = f.transpose(k3, [nh, s, d], [0, 2, 1], st)
    scores = f.batch_matmul(q3, kt, nh, s, d, s, st, ct)
    mask = f.generic("mask", [], [s, s],
                     ["%i = linalg.index 0 : index",
                      "%j = linalg.index 1 : index",
                      "%future = arith.cmpi sgt, %j, %i : index",
                      "%big = arith.constant -1.0e+09 : $t",
                      "%zero = arith.constant 0.0 : $t",
                      "%m = arith.select %future, %big, %zero : $t"], "%m",
                     out_elem=ct, compute=ct)
    scale = 1.0 / (d ** 0.5)
    scaled = f.generic(
        "scaled", [(scores, [nh, s, s], ident(3), ct),
                   (mask, [s, s], amap(3, ["d1", "d2"]), ct)], [nh, s, s],
        [f"%scale = arith.constant {scale:.9e} : $t",
         "%sx = arith.mulf $a0, %scale : $t",
         "%m = arith.addf %sx, $a1 : $t"], "%m", out_elem=ct, compute=ct)
    probs = f.cast(f.softmax(scaled, [nh, s, s], 2, ct), [nh, s, s], ct, st)
    out = f.batch_matmul(probs, v3, nh, s, s, d, st, ct)
    out = f.cast(out, [nh, s, d], ct, st)
    f.results.append((f.expand(out, "[[0, 1], [2], [3]]", shape, [nh, s, d],
                               st), shape, st))
    return f


def layer_matmul_add(s: int, k: int, n: int, prec: Precision = F32) -> Fn:
    st = prec.storage
    f = Fn("matmul_add",
           [("x", [1, s, k], st), ("w", [k, n], st), ("r", [1, s, n], st)],
           "An output projection with its residual: x . W + r.")
    y = linear(f, "%x", s, k, "%w", n, prec)
    f.results.append((add(f, y, "%r", [1, s, n], elems=(prec.compute, st),
                          prec=prec), [1, s, n], st))
    return f


def layer_silu_mul_matmul(s: int, i: int, h: int,
                          prec: Precision = F32) -> Fn:
    st = prec.storage
    f = Fn("silu_mul_matmul", [("gate", [1, s, i], st), ("up", [1, s, i], st),
                               ("w", [i, h], st)],
           "The end of a LLaMA MLP: (silu(gate) * up) . W_down.")
    m = silu_mul(f, "%gate", "%up", [1, s, i], prec)
    y = f.cast(linear(f, m, s, i, "%w", h, prec), [1, s, h], prec.compute, st)
    f.results.append((y, [1, s, h], st))
    return f


def layer_scaled_mm(s: int, k: int, n: int) -> Fn:
    """An FP8 linear layer as deployed on Hopper (torch._scaled_mm): e4m3
    activations x(1,S,K) by an e4m3 weight held N x K (nn.Linear's layout,
    the one FP8 tensor cores read), products summed in f32, the per-tensor
    scales applied to the sums, the result rounded once to bf16."""
    f8 = "f8E4M3FN"
    f = Fn("scaled_mm", [("x", [1, s, k], f8), ("w", [n, k], f8),
                         ("sx", [], "f32"), ("sw", [], "f32")],
           "An FP8 projection: (x . W^T) * sx * sw, W held N x K, bf16 out.")
    flat = f.collapse("%x", "[[0, 1], [2]]", [s, k], [1, s, k], f8)
    sums = f.generic(
        "mm", [(flat, [s, k], amap(3, ["d0", "d2"]), f8),
               ("%w", [n, k], amap(3, ["d1", "d2"]), f8)], [s, n],
        ["%p = arith.mulf $a0, $a1 : $t", "%r = arith.addf $out, %p : $t"],
        "%r", iters=["parallel", "parallel", "reduction"],
        out_map=amap(3, ["d0", "d1"]), init=f.fill("0.0", [s, n]))
    scalar = amap(2, [])
    y = f.generic("scaled", [(sums, [s, n], ident(2)), ("%sx", [], scalar),
                             ("%sw", [], scalar)], [s, n],
                  ["%s = arith.mulf $a1, $a2 : $t",
                   "%m = arith.mulf $a0, %s : $t"], "%m", out_elem="bf16")
    out = f.expand(y, "[[0, 1], [2]]", [1, s, n], [s, n], "bf16")
    f.results.append((out, [1, s, n], "bf16"))
    return f


# --- The examples ------------------------------------------------------------

def ex_matmul(c, prec=F32):
    return layer_matmul(c["S"], c["H"], c["H"], prec)


def ex_rmsnorm(c, prec=F32):
    return layer_rmsnorm(c["S"], c["H"], prec)


def ex_softmax(c, prec=F32):
    return layer_softmax(c["NH"], c["S"], prec)


def ex_silu_mul(c, prec=F32):
    return layer_silu_mul(c["S"], c["I"], prec)


def ex_sdpa(c, prec=F32):
    return layer_sdpa(c["NH"], c["NKV"], c["S"], c["D"], prec,
                      bool(c.get("CAUSAL", 1)), c.get("SQ"))


def ex_naive_attn(c, prec=F32):
    return layer_naive_attn(c["NH"], c["S"], c["D"], prec)


def ex_matmul_add(c, prec=F32):
    return layer_matmul_add(c["S"], c["H"], c["H"], prec)


def ex_silu_mul_matmul(c, prec=F32):
    return layer_silu_mul_matmul(c["S"], c["I"], c["H"], prec)


def ex_decoder_block(c, prec=F32):
    if prec != F32:
        raise ValueError("decoder_block is written in f32 only")
    s, h, i, nh, nkv, d = c["S"], c["H"], c["I"], c["NH"], c["NKV"], c["D"]
    kv = nkv * d
    f = Fn("decoder_block",
           [("x", [1, s, h]), ("ln1", [h]), ("wq", [h, h]), ("wk", [h, kv]),
            ("wv", [h, kv]), ("wo", [h, h]), ("ln2", [h]), ("wg", [h, i]),
            ("wu", [h, i]), ("wd", [i, h]), ("cos", [s, d]), ("sin", [s, d])],
           "One TinyLlama decoder layer: RMSNorm, q/k/v projections, rotary\n"
           "embeddings, causal grouped-query attention, output projection and\n"
           "residual, RMSNorm, SiLU-gated MLP and residual.")
    h1 = rmsnorm(f, "%x", "%ln1", s, h)
    q = heads(f, linear(f, h1, s, h, "%wq", h), s, nh, d)
    k = heads(f, linear(f, h1, s, h, "%wk", kv), s, nkv, d)
    v = heads(f, linear(f, h1, s, h, "%wv", kv), s, nkv, d)
    q = rope(f, q, "%cos", "%sin", nh, s, d)
    k = rope(f, k, "%cos", "%sin", nkv, s, d)
    attn = attention(f, q, k, v, nh, nkv, s, d, True)
    t, _ = f.transpose(attn, [1, nh, s, d], [0, 2, 1, 3])
    merged = f.collapse(t, "[[0], [1], [2, 3]]", [1, s, h], [1, s, nh, d])
    o = add(f, linear(f, merged, s, h, "%wo", h), "%x", [1, s, h], "resid")
    h2 = rmsnorm(f, o, "%ln2", s, h)
    g = linear(f, h2, s, h, "%wg", i)
    u = linear(f, h2, s, h, "%wu", i)
    m = silu_mul(f, g, u, [1, s, i])
    y = add(f, linear(f, m, s, i, "%wd", h), o, [1, s, h], "out")
    f.results.append((y, [1, s, h]))
    return f


EXAMPLES: dict[str, Callable[[dict], Fn]] = {
    "matmul": ex_matmul,
    "rmsnorm": ex_rmsnorm,
    "softmax": ex_softmax,
    "silu_mul": ex_silu_mul,
    "sdpa": ex_sdpa,
    "naive_attn": ex_naive_attn,
    "matmul_add": ex_matmul_add,
    "silu_mul_matmul": ex_silu_mul_matmul,
    "decoder_block": ex_decoder_block,
}

HEADER = ("// Generated by examples/generate.py from the {shapes} shapes "
          "({dims}).\n// Edit the generator, not this file.\n")


PRECISIONS = {"f32": F32, "bf16": BF16, "f16": F16}


def render(name, dims, label, prec=F32):
    text = EXAMPLES[name](dims, prec).text()
    pretty = ", ".join(f"{k}={v}" for k, v in dims.items())
    if prec != F32:
        pretty += f", {prec.storage}"
    return HEADER.format(shapes=label, dims=pretty) + text


def parse_dims(text: str) -> dict:
    """NAME=INT,... as a dict (the --dims option)."""
    dims = {}
    for item in filter(None, text.split(",")):
        name, sep, value = item.partition("=")
        if not sep or not value.strip().isdigit():
            raise argparse.ArgumentTypeError(
                f"expected NAME=INTEGER, got '{item}'")
        dims[name.strip()] = int(value)
    return dims


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", action="store_true",
                       help="write examples/<name>.mlir at the real shapes")
    group.add_argument("--check", action="store_true",
                       help="fail if examples/ differs from the generator")
    group.add_argument("--small", metavar="NAME",
                       help="print one example at the small shapes")
    group.add_argument("--scaled", metavar="NAME",
                       help="print one example at the real shapes / 8")
    group.add_argument("--real", metavar="NAME",
                       help="print one example at the real shapes")
    group.add_argument("--list", action="store_true", help="list the examples")
    parser.add_argument("--dims", type=parse_dims, default={},
                        metavar="NAME=N,...",
                        help="override dimensions of --small/--scaled/--real "
                             "(H, I, NH, NKV, D, S; for sdpa also SQ, the "
                             "number of queries, the last SQ positions, and "
                             "CAUSAL=0, no mask)")
    parser.add_argument("--dtype", choices=sorted(PRECISIONS), default="f32",
                        help="storage type of --small/--scaled/--real "
                             "(arithmetic stays f32)")
    args = parser.parse_args(argv)
    here = pathlib.Path(__file__).resolve().parent
    if args.list:
        print("\n".join(EXAMPLES))
        return 0
    for name, dims, label in [(args.small, SMALL, "small"),
                              (args.scaled, SCALED, "scaled-down TinyLlama"),
                              (args.real, REAL, "TinyLlama")]:
        if not name:
            continue
        if name not in EXAMPLES:
            print(f"error: no example '{name}' (see --list)", file=sys.stderr)
            return 2
        unknown = sorted(set(args.dims) - set(dims) - {"CAUSAL", "SQ"})
        if unknown:
            print(f"error: no dimension {', '.join(unknown)} (see --help)",
                  file=sys.stderr)
            return 2
        try:
            text = render(name, {**dims, **args.dims}, label,
                          PRECISIONS[args.dtype])
        except ValueError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
        print(text, end="")
        return 0
    stale = []
    for name in EXAMPLES:
        path = here / f"{name}.mlir"
        text = render(name, REAL, "TinyLlama")
        if args.write:
            path.write_text(text)
        elif not path.exists() or path.read_text() != text:
            stale.append(path.name)
    if stale:
        print("error: stale examples (run examples/generate.py --write): "
              + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
