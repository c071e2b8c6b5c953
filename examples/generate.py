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
    examples/generate.py --list
"""

import argparse
import pathlib
import sys

# Model dimensions: hidden, intermediate, heads, kv heads, head dim, sequence.
REAL = dict(H=2048, I=5632, NH=32, NKV=4, D=64, S=32)  # TinyLlama, seq 32
SMALL = dict(H=32, I=48, NH=4, NKV=2, D=8, S=8)
# The real shapes divided by 8 (sequence by 2), keeping TinyLlama's ratios:
# 8 query heads per kv head, I/H = 2.75.
SCALED = dict(H=256, I=704, NH=16, NKV=2, D=16, S=16)


def ty(shape, elem="f32"):
    return "tensor<" + "".join(f"{d}x" for d in shape) + elem + ">"


def amap(n, results):
    dims = ", ".join(f"d{i}" for i in range(n))
    return f"affine_map<({dims}) -> ({', '.join(results)})>"


def ident(n):
    return amap(n, [f"d{i}" for i in range(n)])


class Fn:
    """Accumulates the body of one func.func with fresh SSA names."""

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

    def empty(self, shape):
        v = self.fresh("init")
        self.emit(f"{v} = tensor.empty() : {ty(shape)}")
        return v

    def fill(self, value, shape):
        c = self.const(value, hint="fill_value")
        e = self.empty(shape)
        v = self.fresh("filled")
        self.emit(f"{v} = linalg.fill ins({c} : f32) outs({e} : {ty(shape)}) -> {ty(shape)}")
        return v

    def generic(self, hint, ins, out_shape, body, iters=None, out_map=None,
                init=None):
        """ins: [(value, shape, map)]; body: lines using %a0.. and %out."""
        n = len(iters) if iters else len(out_shape)
        iters = iters or ["parallel"] * n
        out_map = out_map or ident(n)
        init = init or self.empty(out_shape)
        maps = ", ".join([m for _, _, m in ins] + [out_map])
        its = ", ".join(f'"{i}"' for i in iters)
        v = self.fresh(hint)
        in_vals = ", ".join(x for x, _, _ in ins)
        in_tys = ", ".join(ty(s) for _, s, _ in ins)
        args = ", ".join(f"%a{i}: f32" for i in range(len(ins)))
        self.emit(f"{v} = linalg.generic {{indexing_maps = [{maps}], "
                  f"iterator_types = [{its}]}}")
        if ins:
            self.emit(f"    ins({in_vals} : {in_tys})")
        self.emit(f"    outs({init} : {ty(out_shape)}) {{")
        self.emit(f"  ^bb0({args}{', ' if args else ''}%out: f32):")
        for line in body:
            self.emit("    " + line)
        self.emit(f"}} -> {ty(out_shape)}")
        return v

    def collapse(self, x, reassoc, out_shape, src_shape):
        v = self.fresh("flat")
        self.emit(f"{v} = tensor.collapse_shape {x} {reassoc} : "
                  f"{ty(src_shape)} into {ty(out_shape)}")
        return v

    def expand(self, x, reassoc, out_shape, src_shape):
        v = self.fresh("view")
        sizes = ", ".join(str(d) for d in out_shape)
        self.emit(f"{v} = tensor.expand_shape {x} {reassoc} output_shape "
                  f"[{sizes}] : {ty(src_shape)} into {ty(out_shape)}")
        return v

    def transpose(self, x, shape, perm):
        out = [shape[p] for p in perm]
        e = self.empty(out)
        v = self.fresh("t")
        self.emit(f"{v} = linalg.transpose ins({x} : {ty(shape)}) outs({e} : "
                  f"{ty(out)}) permutation = [{', '.join(map(str, perm))}]")
        return v, out

    def matmul(self, a, b, m, k, n):
        init = self.fill("0.0", [m, n])
        v = self.fresh("mm")
        self.emit(f"{v} = linalg.matmul ins({a}, {b} : {ty([m, k])}, "
                  f"{ty([k, n])}) outs({init} : {ty([m, n])}) -> {ty([m, n])}")
        return v

    def batch_matmul(self, a, b, bsz, m, k, n):
        init = self.fill("0.0", [bsz, m, n])
        v = self.fresh("bmm")
        self.emit(f"{v} = linalg.batch_matmul ins({a}, {b} : {ty([bsz, m, k])}, "
                  f"{ty([bsz, k, n])}) outs({init} : {ty([bsz, m, n])}) -> "
                  f"{ty([bsz, m, n])}")
        return v

    def softmax(self, x, shape, dim):
        e = self.empty(shape)
        v = self.fresh("probs")
        self.emit(f"{v} = linalg.softmax dimension({dim}) ins({x} : {ty(shape)}) "
                  f"outs({e} : {ty(shape)}) -> {ty(shape)}")
        return v

    def text(self):
        args = ", ".join(f"%{n}: {ty(s)}" for n, s in self.args)
        rets = ", ".join(ty(s) for _, s in self.results)
        out = [f"// {line}" if line else "//" for line in self.doc.split("\n")]
        out.append(f"func.func @{self.name}({args}) -> ({rets}) {{")
        out += self.lines
        vals = ", ".join(v for v, _ in self.results)
        out.append(f"  return {vals} : {rets}")
        out.append("}")
        return "\n".join(out) + "\n"


# --- Building blocks shared by the examples ---------------------------------

def linear(f, x, s, k, w, n):
    """x[1,s,k] . w[k,n] -> [1,s,n], as torch-mlir writes nn.Linear."""
    flat = f.collapse(x, "[[0, 1], [2]]", [s, k], [1, s, k])
    y = f.matmul(flat, w, s, k, n)
    return f.expand(y, "[[0, 1], [2]]", [1, s, n], [s, n])


def rmsnorm(f, x, w, s, h, eps="9.99999997E-7"):
    sq = f.generic("sq", [(x, [1, s, h], ident(3))], [1, s, h],
                   ["%m = arith.mulf %a0, %a0 : f32", "linalg.yield %m : f32"])
    zero = f.fill("0.0", [1, s, 1])
    ss = f.generic("sumsq", [(sq, [1, s, h], ident(3))], [1, s, 1],
                   ["%m = arith.addf %a0, %out : f32", "linalg.yield %m : f32"],
                   iters=["parallel", "parallel", "reduction"],
                   out_map=amap(3, ["d0", "d1", "0"]), init=zero)
    return f.generic(
        "normed",
        [(x, [1, s, h], ident(3)), (ss, [1, s, 1], amap(3, ["d0", "d1", "0"])),
         (w, [h], amap(3, ["d2"]))],
        [1, s, h],
        [f"%n = arith.constant {float(h):.1f} : f32",
         f"%eps = arith.constant {eps} : f32",
         "%mean = arith.divf %a1, %n : f32",
         "%var = arith.addf %mean, %eps : f32",
         "%rstd = math.rsqrt %var : f32",
         "%y = arith.mulf %a0, %rstd : f32",
         "%o = arith.mulf %y, %a2 : f32",
         "linalg.yield %o : f32"])


def silu_mul(f, g, u, shape):
    n = len(shape)
    return f.generic(
        "act", [(g, shape, ident(n)), (u, shape, ident(n))], shape,
        ["%one = arith.constant 1.0 : f32",
         "%neg = arith.negf %a0 : f32",
         "%e = math.exp %neg : f32",
         "%d = arith.addf %one, %e : f32",
         "%s = arith.divf %a0, %d : f32",
         "%o = arith.mulf %s, %a1 : f32",
         "linalg.yield %o : f32"])


def add(f, a, b, shape, hint="sum"):
    n = len(shape)
    return f.generic(hint, [(a, shape, ident(n)), (b, shape, ident(n))], shape,
                     ["%o = arith.addf %a0, %a1 : f32", "linalg.yield %o : f32"])


def attention(f, q, k, v, nh, nkv, s, d, causal):
    """softmax(q k^T / sqrt(d) [+ causal mask]) v on [1, heads, s, d]."""
    q3 = f.collapse(q, "[[0, 1], [2], [3]]", [nh, s, d], [1, nh, s, d])
    if nkv != nh:  # GQA: each kv head serves nh / nkv query heads.
        rep = nh // nkv
        k3 = f.collapse(k, "[[0, 1], [2], [3]]", [nkv, s, d], [1, nkv, s, d])
        v3 = f.collapse(v, "[[0, 1], [2], [3]]", [nkv, s, d], [1, nkv, s, d])
        outs = []
        for t in (k3, v3):
            e = f.empty([nkv, rep, s, d])
            b = f.fresh("rep")
            f.emit(f"{b} = linalg.broadcast ins({t} : {ty([nkv, s, d])}) outs({e} : "
                   f"{ty([nkv, rep, s, d])}) dimensions = [1]")
            outs.append(f.collapse(b, "[[0, 1], [2], [3]]", [nh, s, d],
                                   [nkv, rep, s, d]))
        k3, v3 = outs
    else:
        k3 = f.collapse(k, "[[0, 1], [2], [3]]", [nh, s, d], [1, nh, s, d])
        v3 = f.collapse(v, "[[0, 1], [2], [3]]", [nh, s, d], [1, nh, s, d])
    kt, _ = f.transpose(k3, [nh, s, d], [0, 2, 1])
    scores = f.batch_matmul(q3, kt, nh, s, d, s)
    scale = 1.0 / (d ** 0.5)
    body = [f"%scale = arith.constant {scale:.9e} : f32",
            "%sx = arith.mulf %a0, %scale : f32"]
    if causal:
        body += ["%i = linalg.index 1 : index",
                 "%j = linalg.index 2 : index",
                 "%future = arith.cmpi sgt, %j, %i : index",
                 "%ninf = arith.constant 0xFF800000 : f32",
                 "%m = arith.select %future, %ninf, %sx : f32",
                 "linalg.yield %m : f32"]
    else:
        body += ["linalg.yield %sx : f32"]
    scaled = f.generic("scaled", [(scores, [nh, s, s], ident(3))], [nh, s, s],
                       body)
    probs = f.softmax(scaled, [nh, s, s], 2)
    out = f.batch_matmul(probs, v3, nh, s, s, d)
    return f.expand(out, "[[0, 1], [2], [3]]", [1, nh, s, d], [nh, s, d])


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
                    ["%n = arith.negf %a0 : f32", "linalg.yield %n : f32"])
    rot = f.fresh("rot")
    f.emit(f"{rot} = tensor.concat dim(3) {neg}, {lo} : ({ty([1, nh, s, half])}, "
           f"{ty([1, nh, s, half])}) -> {ty(shape)}")
    table = amap(4, ["d2", "d3"])
    return f.generic(
        "roped",
        [(x, shape, ident(4)), (rot, shape, ident(4)), (cos, [s, d], table),
         (sin, [s, d], table)],
        shape,
        ["%xc = arith.mulf %a0, %a2 : f32", "%rs = arith.mulf %a1, %a3 : f32",
         "%o = arith.addf %xc, %rs : f32", "linalg.yield %o : f32"])


def heads(f, x, s, n, d):
    """[1, s, n*d] -> [1, n, s, d]."""
    v = f.expand(x, "[[0], [1], [2, 3]]", [1, s, n, d], [1, s, n * d])
    t, _ = f.transpose(v, [1, s, n, d], [0, 2, 1, 3])
    return t


# --- The examples ------------------------------------------------------------

def ex_matmul(c):
    s, h, n = c["S"], c["H"], c["H"]
    f = Fn("matmul", [("x", [1, s, h]), ("w", [h, n])],
           "A projection, x(1,S,H) . W(H,N), as torch-mlir lowers nn.Linear "
           "without bias.")
    f.results.append((linear(f, "%x", s, h, "%w", n), [1, s, n]))
    return f


def ex_rmsnorm(c):
    s, h = c["S"], c["H"]
    f = Fn("rmsnorm", [("x", [1, s, h]), ("w", [h])],
           "RMSNorm: y = x * rsqrt(mean(x^2) + eps) * w.")
    f.results.append((rmsnorm(f, "%x", "%w", s, h), [1, s, h]))
    return f


def ex_softmax(c):
    shape = [1, c["NH"], c["S"], c["S"]]
    f = Fn("softmax", [("x", shape)], "Softmax over the last axis of "
           "attention scores (linalg.softmax, as IREE has it).")
    e = f.empty(shape)
    v = f.fresh("probs")
    f.emit(f"{v} = linalg.softmax dimension(3) ins(%x : {ty(shape)}) outs({e} : "
           f"{ty(shape)}) -> {ty(shape)}")
    f.results.append((v, shape))
    return f


def ex_silu_mul(c):
    shape = [1, c["S"], c["I"]]
    f = Fn("silu_mul", [("gate", shape), ("up", shape)],
           "The gated activation of a LLaMA MLP: silu(gate) * up.")
    f.results.append((silu_mul(f, "%gate", "%up", shape), shape))
    return f


def ex_sdpa(c):
    nh, nkv, s, d = c["NH"], c["NKV"], c["S"], c["D"]
    f = Fn("sdpa", [("q", [1, nh, s, d]), ("k", [1, nkv, s, d]),
                    ("v", [1, nkv, s, d])],
           "Scaled dot-product attention with a causal mask and grouped-query\n"
           "attention: NKV key/value heads each serve NH/NKV query heads.")
    f.results.append((attention(f, "%q", "%k", "%v", nh, nkv, s, d, True),
                      [1, nh, s, d]))
    return f


def ex_naive_attn(c):
    nh, s, d = c["NH"], c["S"], c["D"]
    shape = [1, nh, s, d]
    f = Fn("naive_attn", [("q", shape), ("k", shape), ("v", shape)],
           "Attention written out: softmax(q k^T / sqrt(d) + mask) v, the mask\n"
           "-1e9 above the diagonal, added rather than selected.")
    q3 = f.collapse("%q", "[[0, 1], [2], [3]]", [nh, s, d], shape)
    k3 = f.collapse("%k", "[[0, 1], [2], [3]]", [nh, s, d], shape)
    v3 = f.collapse("%v", "[[0, 1], [2], [3]]", [nh, s, d], shape)
    kt, _ = f.transpose(k3, [nh, s, d], [0, 2, 1])
    scores = f.batch_matmul(q3, kt, nh, s, d, s)
    mask = f.generic("mask", [], [s, s],
                     ["%i = linalg.index 0 : index",
                      "%j = linalg.index 1 : index",
                      "%future = arith.cmpi sgt, %j, %i : index",
                      "%big = arith.constant -1.0e+09 : f32",
                      "%zero = arith.constant 0.0 : f32",
                      "%m = arith.select %future, %big, %zero : f32",
                      "linalg.yield %m : f32"])
    scale = 1.0 / (d ** 0.5)
    scaled = f.generic(
        "scaled", [(scores, [nh, s, s], ident(3)),
                   (mask, [s, s], amap(3, ["d1", "d2"]))], [nh, s, s],
        [f"%scale = arith.constant {scale:.9e} : f32",
         "%sx = arith.mulf %a0, %scale : f32",
         "%m = arith.addf %sx, %a1 : f32", "linalg.yield %m : f32"])
    probs = f.softmax(scaled, [nh, s, s], 2)
    out = f.batch_matmul(probs, v3, nh, s, s, d)
    f.results.append((f.expand(out, "[[0, 1], [2], [3]]", shape, [nh, s, d]),
                      shape))
    return f


def ex_matmul_add(c):
    s, h = c["S"], c["H"]
    f = Fn("matmul_add", [("x", [1, s, h]), ("w", [h, h]), ("r", [1, s, h])],
           "An output projection with its residual: x . W + r.")
    y = linear(f, "%x", s, h, "%w", h)
    f.results.append((add(f, y, "%r", [1, s, h]), [1, s, h]))
    return f


def ex_silu_mul_matmul(c):
    s, i, h = c["S"], c["I"], c["H"]
    f = Fn("silu_mul_matmul", [("gate", [1, s, i]), ("up", [1, s, i]),
                               ("w", [i, h])],
           "The end of a LLaMA MLP: (silu(gate) * up) . W_down.")
    m = silu_mul(f, "%gate", "%up", [1, s, i])
    f.results.append((linear(f, m, s, i, "%w", h), [1, s, h]))
    return f


def ex_decoder_block(c):
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


EXAMPLES = {
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


def render(name, dims, label):
    text = EXAMPLES[name](dims).text()
    pretty = ", ".join(f"{k}={v}" for k, v in dims.items())
    return HEADER.format(shapes=label, dims=pretty) + text


def main():
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
    args = parser.parse_args()
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
        print(render(name, dims, label), end="")
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
