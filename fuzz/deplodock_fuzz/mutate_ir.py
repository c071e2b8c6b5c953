"""Mutations of MLIR text: constants, extents, element types, attributes and
knobs, op kinds, operands, deleted and duplicated ops.

Each mutator takes the text and a random.Random and returns the mutated
text and a short description, or None when the text has nothing it can
change. They work on the text, not on parsed IR, so that they also make
IR the parser and verifiers must refuse.
"""

from __future__ import annotations

import random
import re

# Integers that find edge cases: zero, one, negatives, powers of two at the
# widths the code computes in, and just past them.
EDGE_INTS = (0, 1, -1, 2, 3, 7, 31, 33, 64, 1000, 65535, 65536, 1 << 20,
             (1 << 31) - 1, 1 << 31, 1 << 32, (1 << 32) + 1, (1 << 62),
             (1 << 63) - 1, -(1 << 31), -(1 << 63))
# Extents: small ones that should lower, and ones that overflow sizes.
EDGE_EXTENTS = (0, 1, 2, 3, 5, 7, 13, 17, 31, 33, 64, 127, 1000, 4096, 65536,
                1 << 20, 1 << 31, 1 << 32, (1 << 62), (1 << 63) - 1)
EDGE_FLOATS = ("0.0", "-0.0", "1.0", "-1.0", "0.5", "3.0e+38", "-3.0e+38",
               "1.0e-45", "0x7FC00000", "0x7F800000", "0xFF800000",
               "1.0e+300", "2.0")
ELEMENT_TYPES = ("f32", "f16", "bf16", "f64", "i32", "i64", "i8", "i1",
                 "index")

# Op kinds that take the same operands, so that a swap keeps the IR valid.
OP_FAMILIES = (
    ("arith.addf", "arith.subf", "arith.mulf", "arith.divf", "arith.maximumf",
     "arith.minimumf", "arith.maxnumf", "arith.minnumf", "arith.remf"),
    ("arith.addi", "arith.subi", "arith.muli", "arith.divsi", "arith.divui",
     "arith.remsi", "arith.remui", "arith.ceildivsi", "arith.floordivsi",
     "arith.maxsi", "arith.minsi", "arith.andi", "arith.ori", "arith.xori",
     "arith.shli", "arith.shrsi", "arith.shrui"),
    ("math.exp", "math.log", "math.sqrt", "math.rsqrt", "math.tanh",
     "math.absf", "math.sin", "math.cos", "math.exp2", "math.log1p",
     "math.erf", "arith.negf", "math.floor", "math.ceil"),
    ("linalg.add", "linalg.sub", "linalg.mul", "linalg.div", "linalg.max",
     "linalg.min", "linalg.powf"),
    ("linalg.matmul", "linalg.batch_matmul"),
    ("linalg.exp", "linalg.log", "linalg.sqrt", "linalg.rsqrt", "linalg.abs",
     "linalg.negf", "linalg.tanh", "linalg.erf", "linalg.floor"),
)
# Keywords with a few legal spellings (and an illegal one).
KEYWORD_FAMILIES = (
    ("add", "mul", "max", "min", "maxnum", "minnum", "sub", "and"),
    ("free", "reduce", "serial", "parallel"),
    ("cp_async", "sync", "tma", "async"),
    ("x", "y", "z", "w"),
    ("oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "uno"),
    ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"),
)

_INT = re.compile(r"(?<![\w%#@.\-])(-?\d+)(?![\w.])")
_SHAPED = re.compile(r"\b(tensor|memref|vector)<((?:\?x|\d+x)*)(\w+)")
_FLOAT = re.compile(r"(?<![\w%#@])(-?\d+\.\d*(?:e[+-]?\d+)?|0x[0-9A-F]{4,16})"
                    r"(?=\s*:\s*(f|bf|tf)\d+)")
_SSA_DEF = re.compile(r"^\s*(%[\w]+)(:\d+)?\s*=", re.M)
_SSA_USE = re.compile(r"%[\w#]+")
_OPERAND_PAIR = re.compile(r"(%[\w#]+), (%[\w#]+)")
_KNOBS = re.compile(r"knobs<([^>]*)>")
_STRING = re.compile(r'"([^"\\]{0,40})"')
_AFFINE_OP = re.compile(r"\b(floordiv|ceildiv|mod)\s+(-?\d+)")


def _pick_match(pattern, text, rng):
    matches = list(pattern.finditer(text))
    return rng.choice(matches) if matches else None


def _splice(text, start, end, new):
    return text[:start] + new + text[end:]


def _edge_int(value: int, rng: random.Random) -> int:
    r = rng.random()
    if r < 0.5:
        return rng.choice(EDGE_INTS)
    if r < 0.8:
        return value + rng.choice((-2, -1, 1, 2))
    return value * rng.choice((-1, 2, 3, 16, 1 << 16))


def mutate_int(text, rng):
    m = _pick_match(_INT, text, rng)
    if not m:
        return None
    new = _edge_int(int(m.group(1)), rng)
    return (_splice(text, m.start(1), m.end(1), str(new)),
            "integer %s -> %d" % (m.group(1), new))


def _dims(spec: str) -> list:
    return spec.split("x")[:-1] if spec else []


def mutate_extent(text, rng):
    """One extent of a shaped type; with probability 1/2 of every equal type
    in the file, which keeps the layer consistent more often."""
    m = _pick_match(_SHAPED, text, rng)
    if not m or not m.group(2):
        return None
    dims = _dims(m.group(2))
    i = rng.randrange(len(dims))
    old = dims[i]
    if rng.random() < 0.7:
        new = str(rng.choice(EDGE_EXTENTS))
    else:
        new = str(max(0, int(old) + rng.choice((-1, 1)))) if old != "?" else "1"
    dims[i] = new
    spec = "".join(d + "x" for d in dims)
    before = m.group(0)
    after = "%s<%s%s" % (m.group(1), spec, m.group(3))
    if rng.random() < 0.5:
        out = re.sub(re.escape(before) + r"(?=[>,])", after, text)
        scope = "every"
    else:
        out = _splice(text, m.start(), m.end(), after)
        scope = "one"
    return out, "extent %s of %s %s -> %s" % (i, scope, before, new)


def mutate_element_type(text, rng):
    """An element type: of one shaped type, or everywhere in the file."""
    present = [t for t in ELEMENT_TYPES if re.search(r"\b%s\b" % t, text)]
    if not present:
        return None
    old = rng.choice(present)
    new = rng.choice([t for t in ELEMENT_TYPES if t != old])
    if rng.random() < 0.5:
        return (re.sub(r"\b%s\b" % old, new, text),
                "element type %s -> %s everywhere" % (old, new))
    m = _pick_match(re.compile(r"(?<=x)%s\b" % old), text, rng)
    if not m:
        return None
    return (_splice(text, m.start(), m.end(), new),
            "element type %s -> %s once" % (old, new))


def mutate_float(text, rng):
    m = _pick_match(_FLOAT, text, rng)
    if not m:
        return None
    new = rng.choice(EDGE_FLOATS)
    return (_splice(text, m.start(1), m.end(1), new),
            "float %s -> %s" % (m.group(1), new))


def mutate_op(text, rng):
    family = rng.choice([f for f in OP_FAMILIES
                         if any(op + " " in text for op in f)] or [None])
    if not family:
        return None
    old = rng.choice([op for op in family if op + " " in text])
    new = rng.choice([op for op in family if op != old])
    matches = [m for m in re.finditer(re.escape(old) + r"\b", text)]
    m = rng.choice(matches)
    return _splice(text, m.start(), m.end(), new), "op %s -> %s" % (old, new)


def mutate_keyword(text, rng):
    family = rng.choice(KEYWORD_FAMILIES)
    pattern = re.compile(r"(?<=[ \"])(%s)(?=[ \"\n,>])" % "|".join(family))
    m = _pick_match(pattern, text, rng)
    if not m:
        return None
    new = rng.choice([k for k in family if k != m.group(1)])
    return (_splice(text, m.start(), m.end(), new),
            "keyword %s -> %s" % (m.group(1), new))


def mutate_knobs(text, rng):
    m = _pick_match(_KNOBS, text, rng)
    if not m:
        return None
    items = [i.strip() for i in m.group(1).split(",") if i.strip()]
    # Lists ([0, 1]) were split by the comma too: keep it simple and treat
    # the body as text when it has brackets.
    choice = rng.random()
    if choice < 0.2 or not items:
        items.append("%s = %s" % (rng.choice(("BK", "bogus", "threads", "FM")),
                                  rng.choice(("0", "-4", "3", "4096", "true",
                                              "\"x\"", "[]"))))
        what = "knob added"
    elif choice < 0.4:
        items.pop(rng.randrange(len(items)))
        what = "knob dropped"
    else:
        i = rng.randrange(len(items))
        key = items[i].split("=")[0].strip()
        value = rng.choice(("0", "1", "-1", "3", "7", "1024", "65536",
                            "4294967296", "true", "false", "[0]", "[7]", "[]"))
        items[i] = "%s = %s" % (key, value)
        what = "knob %s -> %s" % (key, value)
    new = "knobs<%s>" % ", ".join(items)
    return _splice(text, m.start(), m.end(), new), what


def mutate_string(text, rng):
    m = _pick_match(_STRING, text, rng)
    if not m:
        return None
    new = rng.choice(("", "d0", "r0", "x" * 300, "\\22", "é", "d0_o d1"))
    return (_splice(text, m.start(1), m.end(1), new),
            "string \"%s\" -> \"%s\"" % (m.group(1), new[:20]))


def mutate_affine(text, rng):
    m = _pick_match(_AFFINE_OP, text, rng)
    if m:
        new = rng.choice(("0", "-1", "-4", "1", "3", "4294967296"))
        return (_splice(text, m.start(2), m.end(2), new),
                "%s %s -> %s" % (m.group(1), m.group(2), new))
    m = _pick_match(re.compile(r"(d\d+)(?= [+*)-]|\))"), text, rng)
    if not m:
        return None
    op = rng.choice(("floordiv", "ceildiv", "mod"))
    new = "(%s %s %s)" % (m.group(1), op, rng.choice(("0", "-2", "3")))
    return _splice(text, m.start(), m.end(), new), "affine %s -> %s" % (
        m.group(1), new)


def _op_lines(text):
    lines = text.split("\n")
    return lines, [i for i, line in enumerate(lines)
                   if "=" in line or line.strip().startswith(
                       ("dloop.", "dtile.", "dkernel.", "memref.store",
                        "gpu.", "scf.yield", "dloop.yield", "linalg."))]


def mutate_delete(text, rng):
    lines, ops = _op_lines(text)
    ops = [i for i in ops if "{" not in lines[i] and "}" not in lines[i]]
    if not ops:
        return None
    i = rng.choice(ops)
    removed = lines.pop(i)
    return "\n".join(lines), "deleted line %d: %s" % (i + 1, removed.strip()[:60])


def mutate_duplicate(text, rng):
    """Duplicates an op; its results get fresh names, so the copy parses
    and (for a store or a launch) has a side effect twice."""
    lines, ops = _op_lines(text)
    ops = [i for i in ops if "{" not in lines[i] and "}" not in lines[i]]
    if not ops:
        return None
    i = rng.choice(ops)
    copy = re.sub(r"^(\s*)%([\w#]+)", r"\1%dup_\2", lines[i])
    lines.insert(i + 1, copy)
    return "\n".join(lines), "duplicated line %d: %s" % (i + 1, lines[i].strip()[:60])


def mutate_swap_operands(text, rng):
    m = _pick_match(_OPERAND_PAIR, text, rng)
    if not m:
        return None
    return (_splice(text, m.start(), m.end(), "%s, %s" % (m.group(2), m.group(1))),
            "swapped %s, %s" % (m.group(1), m.group(2)))


def mutate_use(text, rng):
    """Replaces one use of a value with another value defined before it."""
    defs = list(_SSA_DEF.finditer(text))
    uses = [m for m in _SSA_USE.finditer(text)
            if not any(d.start(1) == m.start() for d in defs)]
    if not uses or len(defs) < 2:
        return None
    use = rng.choice(uses)
    # A value of a multi-result op is used as %name#i.
    earlier = [d.group(1) + ("#0" if d.group(2) else "") for d in defs
               if d.start() < use.start() and d.group(1) != use.group(0)]
    if not earlier:
        return None
    new = rng.choice(earlier)
    return (_splice(text, use.start(), use.end(), new),
            "use of %s -> %s" % (use.group(0), new))


def mutate_bytes(text, rng):
    """A character inserted, deleted or replaced: mostly parse errors."""
    if not text:
        return None
    i = rng.randrange(len(text))
    c = rng.choice("{}()<>[]%@#:,=x0-9\"\n \\")
    kind = rng.randrange(3)
    if kind == 0:
        return text[:i] + c + text[i:], "inserted %r at %d" % (c, i)
    if kind == 1:
        return text[:i] + text[i + 1:], "deleted %r at %d" % (text[i], i)
    return text[:i] + c + text[i + 1:], "replaced %r at %d by %r" % (text[i], i, c)


# (mutator, weight): the ones that keep the IR valid more often weigh more.
MUTATORS = (
    (mutate_int, 14), (mutate_extent, 12), (mutate_element_type, 6),
    (mutate_float, 5), (mutate_op, 8), (mutate_keyword, 5), (mutate_knobs, 6),
    (mutate_string, 2), (mutate_affine, 6), (mutate_delete, 7),
    (mutate_duplicate, 6), (mutate_swap_operands, 6), (mutate_use, 5),
    (mutate_bytes, 2),
)


def mutate(text: str, rng: random.Random, count: int) -> tuple[str, list]:
    """Applies `count` mutations (retrying those with nothing to change);
    returns the text and what was done."""
    done = []
    mutators = [m for m, _ in MUTATORS]
    weights = [w for _, w in MUTATORS]
    for _ in range(count * 8):
        if len(done) == count:
            break
        mutator = rng.choices(mutators, weights)[0]
        result = mutator(text, rng)
        if result is None or result[0] == text:
            continue
        text, what = result
        done.append(what)
    return text, done
