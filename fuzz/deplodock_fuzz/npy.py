""".npy files without NumPy: the header the tools write and read, for the
oracles (a result file has the shape the function returns) and for
mutated input files."""

from __future__ import annotations

import ast
import struct

ITEM_SIZES = {"<f2": 2, "<f4": 4, "<f8": 8, "|b1": 1, "|i1": 1, "<i2": 2,
              "<u2": 2, "<i4": 4, "<i8": 8}


def header(descr: str, shape, fortran: bool = False) -> bytes:
    text = "{'descr': '%s', 'fortran_order': %s, 'shape': (%s), }" % (
        descr, fortran, "".join("%d, " % s for s in shape))
    pad = (64 - (10 + len(text) + 1) % 64) % 64
    text += " " * pad + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(text)) + text.encode()


def write(descr: str, shape, values) -> bytes:
    fmt = {"<f2": "e", "<f4": "f", "<f8": "d", "|b1": "?", "|i1": "b",
           "<i2": "h", "<u2": "H", "<i4": "i", "<i8": "q"}[descr]
    return header(descr, shape) + struct.pack("<%d%s" % (len(values), fmt),
                                              *values)


def read_header(data: bytes):
    """(descr, shape, data bytes after the header), or a string saying
    what is wrong with the file."""
    if len(data) < 10 or not data.startswith(b"\x93NUMPY"):
        return "not a .npy file"
    major = data[6]
    if major == 1:
        length, start = struct.unpack("<H", data[8:10])[0], 10
    elif major in (2, 3):
        length, start = struct.unpack("<I", data[8:12])[0], 12
    else:
        return "unknown .npy version %d" % major
    try:
        fields = ast.literal_eval(data[start:start + length].decode("latin-1"))
        return fields["descr"], tuple(fields["shape"]), data[start + length:]
    except (ValueError, SyntaxError, KeyError, TypeError) as e:
        return "bad .npy header: %s" % e


def check(path: str, shape) -> str | None:
    """Why the .npy file at path is not a whole array of `shape`, or None."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        return "cannot read %s: %s" % (path, e)
    parsed = read_header(data)
    if isinstance(parsed, str):
        return "%s: %s" % (path, parsed)
    descr, got, body = parsed
    if shape is not None and tuple(got) != tuple(shape):
        return "%s has shape %s, the function returns %s" % (path, got, shape)
    count = 1
    for s in got:
        count *= s
    size = ITEM_SIZES.get(descr)
    if size is None:
        return "%s has an unknown descr %s" % (path, descr)
    if len(body) != count * size:
        return "%s holds %d data bytes for shape %s of %s" % (
            path, len(body), got, descr)
    return None
