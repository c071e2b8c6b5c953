"""The protocol's rules (docs/Runtime.md), written again independently of
lib/Runtime: which requests a worker must refuse and which answers a client
must refuse. The oracles of the protocol campaigns: a worker that answers a
request these rules refuse with a result, or a client that takes an answer
they refuse, gives a wrong answer.
"""

from __future__ import annotations

import math
import re

DTYPE_BYTES = {"f16": 2, "bf16": 2, "f32": 4, "f64": 8, "i1": 1, "i8": 1,
               "i16": 2, "i32": 4, "i64": 8}
INITS = ("seeded", "data", "zero", "poison")
FAULTS = ("compile_fail", "launch_fail", "sticky", "kernel_hang", "wrong",
          "crash", "segfault", "exit", "hang", "garbage")
PHASES = ("compile", "verify", "time")
FAKE_KEYS = ("fault", "phase", "fault_kernel", "default_us", "registers",
             "kernel_us")
STATUSES = ("ok", "compile_fail", "launch_fail", "timeout", "wrong_result")
U32 = (1 << 32) - 1


class Refused(Exception):
    pass


def _int(value, where, lo=0, hi=(1 << 63) - 1):
    if isinstance(value, bool) or not isinstance(value, int):
        raise Refused("%s is not an integer" % where)
    if not lo <= value <= hi:
        raise Refused("%s = %d is out of [%d, %d]" % (where, value, lo, hi))
    return value


def _number(value, where):
    """A JSON number, or one of the strings nan, inf, -inf."""
    if isinstance(value, str) and value in ("nan", "inf", "-inf"):
        return float(value)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Refused("%s is not a number" % where)
    return float(value)


def _in(value, where, lo, hi, lo_open=False):
    v = _number(value, where)
    if not math.isfinite(v) or v < lo or v > hi or (lo_open and v == lo):
        raise Refused("%s = %r is out of range" % (where, value))
    return v


def _type(value, kind, where):
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise Refused("%s has the wrong type" % where)
    return value


def _blob_ref(ref, blob, where):
    _type(ref, dict, where)
    offset = _int(ref.get("offset"), where + ".offset")
    size = _int(ref.get("bytes"), where + ".bytes")
    if offset + size > len(blob):
        raise Refused("%s refers past the blob" % where)
    return size


def _launches(launches, buffers, where):
    _type(launches, list, where)
    if not launches:
        raise Refused("%s is empty" % where)
    for i, launch in enumerate(launches):
        w = "%s[%d]" % (where, i)
        _type(launch, dict, w)
        name = _type(launch.get("kernel"), str, w + ".kernel")
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            raise Refused("%s.kernel is not a C identifier" % w)
        threads = 1
        for key in ("grid", "block"):
            dims = _type(launch.get(key), list, "%s.%s" % (w, key))
            if len(dims) != 3:
                raise Refused("%s.%s has %d dimensions" % (w, key, len(dims)))
            for d in dims:
                _int(d, "%s.%s" % (w, key), 1, U32)
            if key == "block":
                threads = dims[0] * dims[1] * dims[2]
        if threads > 1024:
            raise Refused("%s has %d threads per block" % (w, threads))
        if "smem" in launch:
            _int(launch["smem"], w + ".smem", 0, U32)
        for p in _type(launch.get("params"), list, w + ".params"):
            _type(p, dict, w + ".params")
            if "tma" in p:
                tma = _type(p["tma"], dict, w + ".tma")
                b = _int(tma.get("buffer"), w + ".tma.buffer", 0, U32)
                if b >= len(buffers):
                    raise Refused("%s: TMA of buffer #%d of %d" % (w, b,
                                                                    len(buffers)))
                box = _type(tma.get("box"), list, w + ".tma.box")
                shape = buffers[b].get("shape", [])
                if len(box) != len(shape) or not 1 <= len(box) <= 5:
                    raise Refused("%s: TMA box rank" % w)
                # A box may run past the buffer's end (TMA reads zeros
                # there): 1 to 256 whatever the dimension.
                for x in box:
                    _int(x, w + ".tma.box", 1, 256)
                if _int(tma.get("swizzle", 0), w + ".tma.swizzle", 0, U32) \
                        not in (0, 32, 64, 128):
                    raise Refused("%s: swizzle" % w)
            else:
                b = _int(p.get("buffer"), w + ".params.buffer", 0, U32)
                if b >= len(buffers):
                    raise Refused("%s names buffer #%d of %d" % (w, b,
                                                                 len(buffers)))
        for key in ("zero", "writes"):
            for b in _type(launch.get(key, []), list, "%s.%s" % (w, key)):
                if _int(b, "%s.%s" % (w, key), 0, U32) >= len(buffers):
                    raise Refused("%s.%s names buffer #%d" % (w, key, b))


def _buffer_bytes(buffer, where):
    _type(buffer, dict, where)
    dtype = buffer.get("dtype")
    if dtype not in DTYPE_BYTES:
        raise Refused("%s.dtype %r" % (where, dtype))
    elements = 1
    for d in _type(buffer.get("shape"), list, where + ".shape"):
        elements *= _int(d, where + ".shape", 1, 1 << 40)
        if elements > 1 << 40:
            raise Refused("%s is too large" % where)
    return elements * DTYPE_BYTES[dtype]


def check_request(message: dict, blob: bytes) -> None:
    """Raises Refused when the rules make `message` a request the worker
    must refuse."""
    if "id" in message:
        _int(message["id"], "id")
    source = message.get("source")
    if not isinstance(source, str) or not source:
        raise Refused("no CUDA source")
    for key in ("compile_options",):
        for option in _type(message.get(key, []), list, key):
            _type(option, str, key)
    buffers = _type(message.get("buffers"), list, "buffers")
    sizes = []
    for i, buffer in enumerate(buffers):
        w = "buffers[%d]" % i
        size = _buffer_bytes(buffer, w)
        sizes.append(size)
        if "name" in buffer:
            _type(buffer["name"], str, w + ".name")
        init = buffer.get("init", "poison")
        if init not in INITS:
            raise Refused("%s.init %r" % (w, init))
        if init == "seeded":
            _int(buffer.get("seed", 0), w + ".seed", 0, (1 << 64) - 1)
            _int(buffer.get("stream", 0), w + ".stream", 0, (1 << 64) - 1)
        if init == "data" and _blob_ref(buffer.get("data"), blob,
                                        w + ".data") != size:
            raise Refused("%s: data size does not match the shape" % w)
    _launches(message.get("launches"), buffers, "launches")
    reference = message.get("reference")
    if reference is not None:
        _type(reference, dict, "reference")
        _type(reference.get("source"), str, "reference.source")
        for option in _type(reference.get("compile_options", []), list,
                            "reference.compile_options"):
            _type(option, str, "reference.compile_options")
        _launches(reference.get("launches"), buffers, "reference.launches")
    for i, output in enumerate(_type(message.get("outputs", []), list,
                                     "outputs")):
        w = "outputs[%d]" % i
        _type(output, dict, w)
        b = _int(output.get("buffer"), w + ".buffer", 0, U32)
        if b >= len(buffers):
            raise Refused("%s names buffer #%d" % (w, b))
        if "expected" in output:
            if reference is not None:
                raise Refused("%s has expected data and a reference" % w)
            if _blob_ref(output["expected"], blob, w + ".expected") != sizes[b]:
                raise Refused("%s: expected size" % w)
        if "tolerance" in output:
            t = _type(output["tolerance"], dict, w + ".tolerance")
            for key in ("rtol", "atol", "scale"):
                if key in t:
                    _in(t[key], w + ".tolerance." + key, 0, math.inf)
    timing = _type(message.get("timing", {}), dict, "timing")
    for key in ("min_samples", "max_samples"):
        if key in timing:
            _int(timing[key], "timing." + key, 1, 1000000)
    for key in ("warmup_ms", "min_time_ms", "max_time_ms"):
        if key in timing:
            _in(timing[key], "timing." + key, 0, 3600000)
    for key in ("target_spread", "graph_below_us", "batch_us"):
        if key in timing:
            _in(timing[key], "timing." + key, 0, 1e308)
    if "flush_l2" in timing:
        _type(timing["flush_l2"], bool, "timing.flush_l2")
    time = _type(message.get("time", {}), dict, "time")
    for key in ("each_launch", "total"):
        if key in time:
            _type(time[key], bool, "time." + key)
    if "return_outputs" in message:
        _type(message["return_outputs"], bool, "return_outputs")
    if "kernel_timeout_s" in message:
        _in(message["kernel_timeout_s"], "kernel_timeout_s", 0, 86400, True)
    if "timeout_s" in message:
        _in(message["timeout_s"], "timeout_s", 0, 86400)
    fake = _type(message.get("fake", {}), dict, "fake")
    for key, value in fake.items():
        if key not in FAKE_KEYS:
            raise Refused("fake.%s is not an instruction" % key)
    if "fault" in fake and fake["fault"] not in FAULTS:
        raise Refused("fake.fault %r" % fake["fault"])
    if "phase" in fake and fake["phase"] not in PHASES:
        raise Refused("fake.phase %r" % fake["phase"])
    if "fault_kernel" in fake:
        _type(fake["fault_kernel"], str, "fake.fault_kernel")
    if "default_us" in fake:
        _in(fake["default_us"], "fake.default_us", 0, 1e6)
    if "registers" in fake:
        _int(fake["registers"], "fake.registers", 0, 255)
    if "kernel_us" in fake:
        for name, us in _type(fake["kernel_us"], dict, "fake.kernel_us").items():
            _in(us, "fake.kernel_us." + name, 0, 1e6)


def request_refusal(message, blob) -> str | None:
    try:
        check_request(message, blob)
    except Refused as e:
        return str(e)
    except (TypeError, AttributeError, KeyError) as e:
        return "malformed: %s" % e
    return None


def check_result(message: dict, blob: bytes, request: dict,
                 request_id) -> None:
    """Raises Refused when the rules make `message` an answer to `request`
    (sent with id `request_id`) that the client must refuse."""
    if message.get("type") != "result":
        raise Refused("a %r message where a result belongs" % message.get("type"))
    if message.get("id") != request_id:
        raise Refused("answers request %r, not %r" % (message.get("id"),
                                                       request_id))
    if message.get("status") not in STATUSES:
        raise Refused("status %r" % message.get("status"))
    launches = len(request.get("launches", []))
    for i, t in enumerate(_type(message.get("timings", []), list, "timings")):
        w = "timings[%d]" % i
        _type(t, dict, w)
        values = {}
        for key in ("median_us", "min_us", "max_us", "mean_us"):
            values[key] = _number(t.get(key), w + "." + key)
            if not math.isfinite(values[key]) or values[key] < 0:
                raise Refused("%s.%s = %r" % (w, key, t.get(key)))
        if not values["min_us"] <= values["median_us"] <= values["max_us"]:
            raise Refused("%s: min <= median <= max does not hold" % w)
        _int(t.get("samples"), w + ".samples", 1)
        if "repeats" in t:
            _int(t["repeats"], w + ".repeats", 1)
        launch = _int(t.get("launch"), w + ".launch", -1)
        if launch >= launches:
            raise Refused("%s times launch #%d of %d" % (w, launch, launches))
    outputs = request.get("outputs", [])
    output_buffers = [o.get("buffer") for o in outputs]
    for i, c in enumerate(_type(message.get("checks", []), list, "checks")):
        _type(c, dict, "checks[%d]" % i)
        if c.get("buffer") not in output_buffers:
            raise Refused("checks[%d] of buffer %r, not an output" % (
                i, c.get("buffer")))
    sizes = [_buffer_bytes(request["buffers"][b], "buffer") for b in
             output_buffers]
    asked = sum(sizes) if request.get("return_outputs") else 0
    if len(blob) > asked:
        raise Refused("a blob of %d bytes, more than the %d asked for" % (
            len(blob), asked))
    held = _type(message.get("outputs", []), list, "outputs")
    if held:
        if not request.get("return_outputs") or len(held) != len(outputs):
            raise Refused("%d outputs held" % len(held))
        for ref, size in zip(held, sizes):
            if _blob_ref(ref, blob, "outputs") != size:
                raise Refused("an output of the wrong size")


def result_refusal(message, blob, request, request_id) -> str | None:
    try:
        check_result(message, blob, request, request_id)
    except Refused as e:
        return str(e)
    except (TypeError, AttributeError, KeyError, IndexError) as e:
        return "malformed: %s" % e
    return None
