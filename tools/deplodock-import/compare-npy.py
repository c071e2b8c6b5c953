#!/usr/bin/env python3
"""Checks deplodock-run's results against PyTorch's outputs.

    compare-npy.py EXPECTED_DIR RESULT_DIR

EXPECTED_DIR holds expected<i>.npy (deplodock-import --reference writes them
in layer.data/), RESULT_DIR result<i>.npy (deplodock-run --output-dir). Each
float result must lie within the float32 tolerance of reference.py: RTOL of
the expected element plus ATOL_SCALE of the largest expected magnitude (sums
of many products cancel, so their error scales with the terms); integer and
boolean results must be equal. Prints a line per result; exits 1 if any is
off or missing, 2 on bad usage.
"""

import pathlib
import sys

import numpy as np

RTOL = 1e-4
ATOL_SCALE = 1e-5


def load_indexed(directory, stem):
    arrays = []
    while (directory / f"{stem}{len(arrays)}.npy").exists():
        arrays.append(np.load(directory / f"{stem}{len(arrays)}.npy"))
    return arrays


def compare(i, want, got):
    line = f"result #{i}: shape {got.shape}"
    if want.shape != got.shape or want.dtype != got.dtype:
        return False, f"{line} {got.dtype}, expected {want.shape} {want.dtype}: FAIL"
    if not np.issubdtype(want.dtype, np.floating):
        bad = want != got
        if bad.any():
            return False, f"{line}, {int(bad.sum())} of {want.size} differ: FAIL"
        return True, f"{line}, exact: PASS"
    want64, got64 = want.astype(np.float64), got.astype(np.float64)
    scale = np.max(np.abs(want64)) if want.size else 0.0
    err = np.abs(got64 - want64)
    bound = RTOL * np.abs(want64) + ATOL_SCALE * scale
    # Infinities must match exactly (masked scores); NaNs fail.
    same = (want64 == got64) | (err <= bound)
    line += f", max abs error {np.nanmax(err, initial=0):.3g}, max |expected| {scale:.3g}"
    if not same.all():
        worst = np.unravel_index(int(np.argmax(~same)), want.shape)
        return False, (f"{line}, {int((~same).sum())} of {want.size} off, first at "
                       f"{tuple(int(j) for j in worst)}: expected {want[worst]:.9g} "
                       f"got {got[worst]:.9g}: FAIL")
    return True, f"{line}: PASS"


def main(argv):
    if len(argv) != 3:
        print(f"usage: {argv[0]} EXPECTED_DIR RESULT_DIR", file=sys.stderr)
        return 2
    expected = load_indexed(pathlib.Path(argv[1]), "expected")
    results = load_indexed(pathlib.Path(argv[2]), "result")
    if not expected:
        print(f"error: no expected0.npy in {argv[1]}", file=sys.stderr)
        return 2
    if len(results) != len(expected):
        print(f"error: {len(expected)} expected results, found {len(results)} "
              f"in {argv[2]}: FAIL")
        return 1
    ok = True
    for i, (want, got) in enumerate(zip(expected, results)):
        passed, line = compare(i, want, got)
        print(line)
        ok &= passed
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
