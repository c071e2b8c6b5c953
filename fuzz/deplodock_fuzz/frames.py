"""DPLK1 frames (docs/Runtime.md): encoding, strict decoding, and mutations
of their JSON and of the bytes around it.

A JSON mutation says whether it makes the message one the receiver must
refuse by the protocol's own rules (a value out of its documented range,
a blob reference past the blob, ...): accepting it is a wrong answer.
"""

from __future__ import annotations

import copy
import json
import random
import struct

MAGIC = b"DPLK1"

# Numbers at the edges of the ranges the protocol reads them into.
EDGE_NUMBERS = (0, 1, -1, 2, 255, 256, 65535, 65536, (1 << 31) - 1, 1 << 31,
                (1 << 32) - 1, 1 << 32, (1 << 53) + 1, (1 << 63) - 1, 1 << 63,
                1 << 64, -(1 << 63), 0.5, -0.5, 1e-300, 1e300, -1e300,
                3600000, 3600001, 86400, 86401, 1000000, 1000001)
NOTHING = "nothing to mutate"
EDGE_STRINGS = ("", "nan", "inf", "-inf", "x" * 4096, "\u0000", "é",
                "extern \"C\" __global__ void k() {}", "f32", "seeded",
                "crash", "compile")


def encode(message, blob: bytes = b"") -> bytes:
    text = message if isinstance(message, bytes) else json.dumps(
        message).encode()
    return b"DPLK1 %d %d\n" % (len(text), len(blob)) + text + blob


def decode_all(data: bytes):
    """The frames in `data`, as (message, blob) pairs, and a string saying
    what is wrong with the bytes after the last whole frame (None if
    nothing is)."""
    frames, at = [], 0
    while at < len(data):
        newline = data.find(b"\n", at, at + 65)
        if newline < 0:
            return frames, "no frame header at byte %d: %r" % (at, data[at:at + 40])
        words = data[at:newline].split(b" ")
        if (len(words) != 3 or words[0] != MAGIC or not words[1].isdigit()
                or not words[2].isdigit()):
            return frames, "bad frame header %r" % data[at:newline]
        size, blob_size = int(words[1]), int(words[2])
        start = newline + 1
        if start + size + blob_size > len(data):
            return frames, "frame cut short at byte %d" % at
        try:
            message = json.loads(data[start:start + size])
        except ValueError as e:
            return frames, "frame JSON does not parse: %s" % e
        if not isinstance(message, dict) or not isinstance(message.get("type"),
                                                           str):
            return frames, "frame JSON is not an object with a string type"
        frames.append((message, data[start + size:start + size + blob_size]))
        at = start + size + blob_size
    return frames, None


def _paths(value, path=()):
    """Every (path, leaf-or-container) of a JSON value."""
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, path + (i,))


def _get(value, path):
    for p in path:
        value = value[p]
    return value


def _set(value, path, new):
    if not path:
        return new
    _get(value, path[:-1])[path[-1]] = new
    return value


def _nest(depth: int):
    value = 1
    for _ in range(depth):
        value = [value]
    return value


def mutate_json(message: dict, rng: random.Random, refuse_rule=None):
    """One mutation of `message`. Returns (new message, description, must
    refuse): refuse_rule(path, old, new) says whether the protocol's rules
    make the new value one the receiver must refuse."""
    message = copy.deepcopy(message)
    paths = [p for p, _ in _paths(message) if p and p[0] != "type"]
    if not paths:
        return message, NOTHING, False
    path = rng.choice(paths)
    old = _get(message, path)
    kind = rng.randrange(10)
    where = ".".join(str(p) for p in path)
    if kind <= 3 and isinstance(old, (int, float)) and not isinstance(old, bool):
        new = rng.choice(EDGE_NUMBERS) if rng.random() < 0.7 else rng.choice(
            ("nan", "inf", "-inf"))
        what = "%s: %r -> %r" % (where, old, new)
    elif kind <= 4:
        new = rng.choice(EDGE_STRINGS)
        what = "%s -> string %r" % (where, new[:20])
    elif kind == 5:
        parent = _get(message, path[:-1])
        if isinstance(parent, dict):
            del parent[path[-1]]
            return message, "%s deleted" % where, (
                refuse_rule(path, old, None) if refuse_rule else False)
        parent.pop(path[-1])
        return message, "%s removed from its list" % where, (
            refuse_rule(path, old, None) if refuse_rule else False)
    elif kind == 6:
        new = rng.choice((None, True, [], {}, [1, 2, 3], {"x": 1}))
        what = "%s -> %s" % (where, json.dumps(new))
    elif kind == 7:
        if isinstance(old, list):
            new = old * rng.choice((0, 2, 200))
            what = "%s: list of %d -> %d" % (where, len(old), len(new))
        else:
            new = [old]
            what = "%s wrapped in a list" % where
    elif kind == 8:
        parent = _get(message, path[:-1]) if len(path) > 1 else message
        target = parent if isinstance(parent, dict) else message
        key = rng.choice(("bogus", "id", "type", "x" * 100))
        target[key] = rng.choice((1, "?", _nest(rng.choice((10, 63, 64, 65)))))
        return message, "key %s added beside %s" % (key, where), False
    else:
        new = _nest(rng.choice((1, 30, 63, 64, 65, 200)))
        what = "%s -> list nested %d deep" % (where, _depth(new))
    message = _set(message, path, new)
    refuse = refuse_rule(path, old, new) if refuse_rule else False
    return message, what, refuse


def _depth(value):
    d = 0
    while isinstance(value, list) and value:
        value, d = value[0], d + 1
    return d


def mutate_bytes(frame: bytes, rng: random.Random):
    """One mutation of an encoded frame's bytes; (bytes, description)."""
    newline = frame.find(b"\n")
    header, body = frame[:newline], frame[newline + 1:]
    words = header.split(b" ")
    size = int(words[1])
    kind = rng.randrange(9)
    if kind == 0:
        delta = rng.choice((-1, 1, -10, 10, size, -size))
        return (b"DPLK1 %d %s\n" % (size + delta, words[2]) + body,
                "json size %+d" % delta)
    if kind == 1:
        blob = rng.choice((b"1", b"-1", b"4294967296", b"99999999999999999999",
                           b"0x10", b"+4", b" 4", b""))
        return b"DPLK1 %d %s\n" % (size, blob) + body, "blob size %r" % blob
    if kind == 2:
        magic = rng.choice((b"DPLK2", b"dplk1", b"DPLK", b"", b"DPLK1 DPLK1"))
        return magic + header[5:] + b"\n" + body, "magic %r" % magic
    if kind == 3:
        # At least one byte: a frame cut to nothing is a frame not sent,
        # which the protocol allows for progress frames.
        cut = rng.randrange(1, len(frame))
        return frame[:cut], "cut after %d of %d bytes" % (cut, len(frame))
    if kind == 4 and body:
        i = rng.randrange(len(body))
        b = rng.choice((0, 0x22, 0x7B, 0x7D, 0x5C, 0xFF, 0x80, 0x0A))
        return (header + b"\n" + body[:i] + bytes([b]) + body[i + 1:],
                "byte %d of the JSON -> 0x%02x" % (i, b))
    if kind == 5:
        pad = rng.choice((b" ", b"0" * 70, b"\t"))
        return (b"DPLK1 " + pad + words[1] + b" " + words[2] + b"\n" + body,
                "header padded with %r" % pad[:4])
    if kind == 6:
        return header + b"\r\n" + body, "CRLF after the header"
    if kind == 7:
        junk = bytes(rng.randrange(256) for _ in range(rng.choice((1, 16, 200))))
        return junk + frame, "%d junk bytes before the frame" % len(junk)
    return frame + frame[:rng.randrange(1, len(frame))], "a partial frame after it"


def encode_with_refs(message):
    """message with {"$bytes": [fmt, values]} leaves replaced by blob
    references; returns (message, blob)."""
    blob = bytearray()

    def pack(value):
        if isinstance(value, dict):
            if "$bytes" in value:
                fmt, values = value["$bytes"]
                data = struct.pack("<%d%s" % (len(values), fmt), *values)
                ref = {"offset": len(blob), "bytes": len(data)}
                blob.extend(data)
                return ref
            return {k: pack(v) for k, v in value.items()}
        if isinstance(value, list):
            return [pack(v) for v in value]
        return value

    return pack(message), bytes(blob)
