#!/usr/bin/env python3
"""Checks of bench/compare.py and bench/inputs.py.

    numerics_check.py REPO

Prints one line per check and exits 1 if any fails.
"""

import pathlib
import sys
import tempfile

import numpy as np

failures = 0


def check(what, ok, detail=""):
    global failures
    print(f"{'PASS' if ok else 'FAIL'}: {what}" + (f" ({detail})" if not ok else ""))
    if not ok:
        failures += 1


def check_refused(what, fn, message):
    """Checks that fn() raises a ValueError whose text holds `message`."""
    try:
        fn()
    except ValueError as e:
        check(what, message in str(e), e)
        return
    check(what, False, "nothing raised")


def main():
    sys.path.insert(0, str(pathlib.Path(sys.argv[1]) / "bench"))
    import cases as suite
    import compare
    import inputs

    rng = np.random.default_rng(1)
    ref = rng.standard_normal((1, 512, 256))

    r = compare.compare(ref.copy(), ref, "fp32")
    check("identical output passes", r["ok"] and r["rel_l2"] == 0.0, r)
    noisy = ref * (1 + 1e-6 * rng.standard_normal(ref.shape))
    check("FP32 rounding noise passes FP32", compare.compare(noisy, ref, "fp32")["ok"])
    as_bf16 = inputs.round_to_bf16(ref.astype(np.float32)).astype(np.float64)
    check("a result rounded to bf16 passes BF16",
          compare.compare(as_bf16, ref, "bf16")["ok"])
    r = compare.compare(as_bf16, ref, "fp32")
    check("... and fails FP32", not r["ok"] and r["reason"].startswith("rel_l2"), r)
    as_f16 = ref.astype(np.float16)
    check("a result rounded to f16 passes FP16",
          compare.compare(as_f16, ref, "fp16")["ok"])
    for dtype in ("fp32", "fp16", "bf16"):
        row = ref.copy()
        row[0, 100, :] = 0.0
        r = compare.compare(row, ref, dtype)
        check(f"one unwritten row of 512 fails {dtype}", not r["ok"], r)
        one = ref.copy()
        one[0, 7, 3] += 1.0
        r = compare.compare(one, ref, dtype)
        check(f"one element off by 1.0 fails {dtype}",
              not r["ok"] and r["reason"].startswith(("max_err", "rel_l2")), r)
    nan = ref.copy()
    nan[0, 0, 0] = np.nan
    r = compare.compare(nan, ref, "bf16")
    check("a NaN fails", not r["ok"] and r["reason"] == "1 non-finite elements", r)
    r = compare.compare(ref[:, :-1], ref, "fp32")
    check("a wrong shape fails", not r["ok"] and r["reason"].startswith("shape"), r)
    check("dropped unit dimensions are tolerated",
          compare.compare(ref[0], ref, "fp32")["ok"])

    bits = lambda x: int(inputs.to_storage(np.float32([x]), "bf16", "bits")[0])
    check("bf16 bits of 1.0 are 0x3f80", bits(1.0) == 0x3F80, hex(bits(1.0)))
    check("1 + 2^-8 (a tie) rounds to even: 1.0", bits(1 + 2**-8) == 0x3F80)
    check("1 + 3*2^-8 (a tie) rounds to even: 1 + 2^-6", bits(1 + 3 * 2**-8) == 0x3F82)
    check("1 + 2^-8 + 2^-20 rounds up", bits(1 + 2**-8 + 2**-20) == 0x3F81)
    check("bits read back as float32",
          inputs.as_float32(np.uint16([0x3F82, 0xC000]))
          .tolist() == [1 + 2**-6, -2.0])

    e4m3 = lambda x: int(inputs.to_storage(np.float32([x]), "fp8")[0])
    check("e4m3 bits of 1.0 are 0x38, of -2.75 0xc3, of 448 0x7e",
          (e4m3(1.0), e4m3(-2.75), e4m3(448.0)) == (0x38, 0xC3, 0x7E))
    check("1 + 2^-4 (a tie) rounds to even: 1.0", e4m3(1 + 2**-4) == 0x38)
    check("1 + 3*2^-4 (a tie) rounds to even: 1.25", e4m3(1 + 3 * 2**-4) == 0x3A)
    check("half the least subnormal rounds to 0, 1.5 of it to 2^-8",
          (e4m3(2**-10), e4m3(1.5 * 2**-9)) == (0x00, 0x02))
    check("-0.0 keeps its sign", e4m3(-0.0) == 0x80)
    codes = np.arange(256, dtype=np.uint8)
    finite = codes[(codes & 0x7F) != 0x7F]
    check("every finite e4m3 code reads back and rounds to itself",
          np.array_equal(inputs.to_storage(inputs.as_float32(finite), "fp8"),
                         finite))
    check("the NaN codes read back as NaN",
          np.isnan(inputs.as_float32(np.uint8([0x7F, 0xFF]))).all())
    check_refused("a value past e4m3's 448 is refused",
                  lambda: inputs.to_storage(np.float32([500.0]), "fp8"), "448")
    f8 = suite.find("scaled_mm.tinyllama.down_proj.s32.fp8")
    x, w, sx, sw = inputs.make_inputs(f8)
    check("an FP8 case's operands are e4m3 bits, its scales f32 scalars",
          x.dtype == w.dtype == np.uint8 and sx.dtype == sw.dtype == np.float32
          and sx.shape == sw.shape == () and float(sx) == 1.0
          and abs(float(sw) * np.sqrt(5632) - 1) < 1e-6, (sx, sw))
    check("... its operands standard normal rounded to e4m3",
          abs(inputs.as_float32(w).astype(np.float64).std() - 1) < 0.02)

    fp32 = suite.find("matmul_add.tinyllama.o_proj.s32")
    bf16 = suite.find("matmul_add.tinyllama.o_proj.s32.bf16")
    a = inputs.make_inputs(fp32)
    b = inputs.make_inputs(bf16)
    c = inputs.make_inputs(bf16, bf16="f32")
    check("inputs are deterministic",
          all(np.array_equal(x, y) for x, y in zip(a, inputs.make_inputs(fp32))))
    check("another seed gives other inputs",
          not np.array_equal(a[0], inputs.make_inputs(fp32, seed=1)[0]))
    check("inputs have the argument shapes and .npy dtypes",
          [x.shape for x in a] == [arg.shape for arg in fp32.args]
          and [x.dtype for x in a] == [np.float32] * 3
          and [x.dtype for x in b] == [np.uint16] * 3
          and [x.dtype for x in c] == [np.float32] * 3)
    check("a case's bf16 inputs are its fp32 inputs rounded",
          all(np.array_equal(inputs.round_to_bf16(x), inputs.as_float32(y))
              and np.array_equal(inputs.as_float32(y), z)
              for x, y, z in zip(a, b, c)))
    w = a[1].astype(np.float64)
    check("weights have variance 1/fan-in",
          abs(w.var() * 2048 - 1) < 0.02, w.var() * 2048)
    norm = inputs.make_inputs(suite.find("rmsnorm.qwen.s32"))[1]
    check("norm weights are near 1", abs(norm.mean() - 1) < 0.01, norm.mean())

    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "result0.npy"
        np.save(path, np.uint16([0x3F80, 0x4000]))
        check("a bf16 result may come back as bits",
              inputs.load_result(path, "bf16").tolist() == [1.0, 2.0])
        check_refused("uint16 data for an fp32 case is refused",
                      lambda: inputs.load_result(path, "fp32"),
                      "uint16 data for a fp32 case")
        # FP8 cases return bf16: 8-bit results are no case's.
        np.save(path, np.uint8([0x38, 0x40]))
        check_refused("a uint8 result is refused",
                      lambda: inputs.load_result(path, "bf16"),
                      "unexpected element type uint8")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
