#!/usr/bin/env python3
"""Writes and reads the bench worker's frames, for lit tests.

usage: frames.py encode FILE [PREFIX]  # lines "// SEND: <json>" -> frames
       frames.py decode [DTYPE]        # frames on stdin -> one JSON line each
       frames.py talk FILE PREFIX [DTYPE] -- WORKER ARGS...

talk: encodes FILE's PREFIX lines, sends them to the worker on its stdin,
decodes what it answers, then prints its stderr ("stderr: " before each
line) and how it ended ("exit: N" or "signal: N"), in that order whatever
the timing.

encode: a JSON value {"$bytes": {"dtype": "f32", "values": [...]}} anywhere
in a message becomes a reference {"offset", "bytes"} into the frame's blob;
a line "// SEND-RAW: <text>" is written as it is (Python escapes decoded,
no newline added), to test malformed frames. With PREFIX, the lines read
are "// PREFIX-SEND: " and "// PREFIX-SEND-RAW: ", so that one file can hold
several conversations next to their FileCheck lines.

decode: prints each frame as "<type>:" and then one line "  <path> = <value>"
per leaf of its JSON, sorted by key (checks[0].ok = true), and, when the
blob is not empty, "blob: <n> bytes" (and its values, when DTYPE is given). Bytes that
are not a frame are printed as "not a frame: <text>", and a frame cut short
as "truncated frame".
"""

import io
import json
import struct
import subprocess
import sys

FORMATS = {"f32": "f", "f64": "d", "i8": "b", "i16": "h", "i32": "i",
           "i64": "q", "i1": "?", "f16": "e"}


def pack(value, blob):
    if isinstance(value, dict):
        if "$bytes" in value:
            spec = value["$bytes"]
            data = struct.pack("<%d%s" % (len(spec["values"]),
                                          FORMATS[spec["dtype"]]),
                               *spec["values"])
            ref = {"offset": len(blob), "bytes": len(data)}
            blob.extend(data)
            return ref
        return {k: pack(v, blob) for k, v in value.items()}
    if isinstance(value, list):
        return [pack(v, blob) for v in value]
    return value


def encode(path, prefix, out=None):
    out = out if out is not None else sys.stdout.buffer
    name = "SEND" if prefix == "SEND" else prefix + "-SEND"
    raw, framed = "// %s-RAW: " % name, "// %s: " % name
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith(raw):
                text = line[len(raw):]
                out.write(text.encode().decode("unicode_escape").encode(
                    "latin-1"))
            elif line.startswith(framed):
                blob = bytearray()
                message = pack(json.loads(line[len(framed):]), blob)
                text = json.dumps(message).encode()
                out.write(b"DPLK1 %d %d\n" % (len(text), len(blob)))
                out.write(text + bytes(blob))


def flatten(value, path):
    """(path, leaf) pairs of a JSON value: a.b[0].c, sorted by key."""
    if isinstance(value, dict) and value:
        for key in sorted(value):
            yield from flatten(value[key], "%s.%s" % (path, key) if path
                               else key)
    elif isinstance(value, list) and value:
        for i, item in enumerate(value):
            yield from flatten(item, "%s[%d]" % (path, i))
    else:
        yield path, value


def decode(dtype, data=None):
    if data is None:
        data = sys.stdin.buffer.read()
    at = 0
    while at < len(data):
        newline = data.find(b"\n", at)
        words = data[at:newline if newline >= 0 else len(data)].split(b" ")
        if newline < 0 or len(words) != 3 or words[0] != b"DPLK1":
            print("not a frame: %r" % data[at:at + 40].decode("latin-1"))
            return
        json_bytes, blob_bytes = int(words[1]), int(words[2])
        start = newline + 1
        if start + json_bytes + blob_bytes > len(data):
            print("truncated frame")
            return
        message = json.loads(data[start:start + json_bytes])
        print("%s:" % message.pop("type", "?"))
        for key, value in flatten(message, ""):
            print("  %s = %s" % (key, json.dumps(value)))
        if blob_bytes:
            blob = data[start + json_bytes:start + json_bytes + blob_bytes]
            line = "blob: %d bytes" % blob_bytes
            if dtype:
                size = struct.calcsize("<" + FORMATS[dtype])
                values = struct.unpack("<%d%s" % (len(blob) // size,
                                                  FORMATS[dtype]), blob)
                line += " " + " ".join("%g" % v for v in values)
            print(line)
        at = start + json_bytes + blob_bytes


def talk(path, prefix, dtype, command):
    request = io.BytesIO()
    encode(path, prefix, request)
    proc = subprocess.run(command, input=request.getvalue(),
                          capture_output=True, timeout=120)
    sys.stdout.flush()
    decode(dtype, proc.stdout)
    for line in proc.stderr.decode(errors="replace").splitlines():
        print("stderr: " + line)
    if proc.returncode < 0:
        print("signal: %d" % -proc.returncode)
    else:
        print("exit: %d" % proc.returncode)


if __name__ == "__main__":
    if len(sys.argv) > 4 and sys.argv[1] == "talk" and "--" in sys.argv:
        split = sys.argv.index("--")
        options = sys.argv[2:split]
        if len(options) in (2, 3):
            talk(options[0], options[1],
                 options[2] if len(options) == 3 else None,
                 sys.argv[split + 1:])
            sys.exit(0)
        sys.exit(__doc__)
    if len(sys.argv) in (3, 4) and sys.argv[1] == "encode":
        encode(sys.argv[2], sys.argv[3] if len(sys.argv) == 4 else "SEND")
    elif len(sys.argv) in (2, 3) and sys.argv[1] == "decode":
        decode(sys.argv[2] if len(sys.argv) == 3 else None)
    else:
        sys.exit(__doc__)
