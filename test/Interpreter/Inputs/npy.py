#!/usr/bin/env python3
"""Writes and reads small .npy files without NumPy, for the lit tests.

    npy.py write FILE DTYPE SHAPE VALUES   # npy.py write x.npy f4 2x3 1,2,3,4,5,nan
    npy.py read FILE                       # prints the header dict and values
    npy.py raw FILE BYTES                  # writes BYTES (Python escapes) as is

DTYPE is the NumPy type code without byte order: f2, f4, f8, b1, i1, i2, i4,
i8. SHAPE is `2x3`, `5`, or `-` for a 0-d array. VALUES are comma-separated
numbers (nan, inf and -inf too), in C order. Files are version 1.0, as
numpy.save writes them.
"""

import ast
import struct
import sys

# DTYPE -> (descr, struct format).
TYPES = {
    "f2": ("<f2", "<e"), "f4": ("<f4", "<f"), "f8": ("<f8", "<d"),
    "b1": ("|b1", "<?"), "i1": ("|i1", "<b"), "i2": ("<i2", "<h"),
    "i4": ("<i4", "<i"), "i8": ("<i8", "<q"),
}


def write(path, dtype, shape_text, values_text):
    descr, fmt = TYPES[dtype]
    shape = () if shape_text == "-" else tuple(
        int(d) for d in shape_text.split("x"))
    values = [v for v in values_text.split(",") if v]
    count = 1
    for d in shape:
        count *= d
    assert len(values) == count, f"{len(values)} values for shape {shape}"
    convert = float if dtype[0] == "f" else int
    header = (f"{{'descr': '{descr}', 'fortran_order': False, "
              f"'shape': {shape!r}, }}")
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    data = b"".join(struct.pack(fmt, convert(v)) for v in values)
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) +
                header.encode("latin1") + data)


def read(path):
    with open(path, "rb") as f:
        raw = f.read()
    assert raw[:6] == b"\x93NUMPY", "not a .npy file"
    (length,) = struct.unpack("<H", raw[8:10])
    header = ast.literal_eval(raw[10:10 + length].decode("latin1"))
    fmt = {descr: fmt for descr, fmt in TYPES.values()}[header["descr"]]
    size = struct.calcsize(fmt)
    data = raw[10 + length:]
    values = [struct.unpack(fmt, data[i:i + size])[0]
              for i in range(0, len(data), size)]
    print(f"descr {header['descr']} shape {header['shape']} "
          f"fortran_order {header['fortran_order']}")
    print(" ".join(repr(v) for v in values))


def main(argv):
    if len(argv) == 6 and argv[1] == "write":
        write(*argv[2:])
    elif len(argv) == 3 and argv[1] == "read":
        read(argv[2])
    elif len(argv) == 4 and argv[1] == "raw":
        with open(argv[2], "wb") as f:
            f.write(argv[3].encode("latin1").decode("unicode_escape")
                    .encode("latin1"))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
