#!/usr/bin/env python3
"""Finds wgmma accumulators read before the wait that retires them, in SASS.

    nvcc -arch=sm_90a -cubin -o k.cubin k.cu && cuobjdump -sass k.cubin > k.sass
    scripts/wgmma-sass-check.py k.sass [more.sass ...]

ptxas schedules the epilogue of a warpgroup MMA loop itself; with groups
left in flight across the loop's back edge (wgmma_wait=1) and the loop
unrolled by 4, it once converted accumulators (F2FP) ahead of the final
WARPGROUP.DEPBAR.LE gsb0, 0x0 on an H200 and the sums came out wrong
(bench/results/forks-h200-2026-11-27b.md). This reads the disassembly in
order: after an HGMMA, until a DEPBAR to 0 groups, any other instruction
reading one of its accumulator registers (N/2 from the first: m64nNk16) is
reported. Exit status 1 when any is. cuobjdump needs nvdisasm on PATH
(the `nvidia-cuda-nvdisasm` wheel has one when the CUDA toolkit lacks it).
"""

import re
import sys

STORES = ("STG", "STS", "ST.", "STL", "RED", "ATOM")


def hazards(sass: str) -> list[str]:
    found: list[str] = []
    accumulators: set[int] = set()
    in_flight = False
    for line in sass.splitlines():
        m = re.match(r"\s*/\*[0-9a-f]+\*/\s*(.*?)\s*;?\s*(/\*.*)?$", line)
        if not m or not m.group(1):
            continue
        text = m.group(1).rstrip(" ;")
        hgmma = re.match(r"HGMMA\.64x(\d+)x\d+\S*\s+R(\d+),", text)
        if hgmma:
            base = int(hgmma.group(2))
            accumulators = set(range(base, base + int(hgmma.group(1)) // 2))
            in_flight = True
            continue
        if "WARPGROUP.DEPBAR.LE gsb0, 0x0" in text:
            in_flight = False
            continue
        if not in_flight or text.startswith("WARPGROUP"):
            continue
        text = re.sub(r"^@!?U?P[T0-9]+\s+", "", text)  # the predicate
        opcode, _, operands = text.partition(" ")
        registers = [int(r) for r in re.findall(r"\bR(\d+)\b", operands)]
        # A store reads every register operand; anything else writes its first.
        reads = registers if opcode.startswith(STORES) else registers[1:]
        if accumulators.intersection(reads):
            found.append(text)
    return found


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    status = 0
    for path in sys.argv[1:]:
        with open(path) as f:
            found = hazards(f.read())
        print(f"{path}: {len(found)} accumulator reads before their wait")
        for text in found[:5]:
            print(f"  {text}")
        status |= bool(found)
    return status


if __name__ == "__main__":
    sys.exit(main())
