"""Mutates pipelined Tile IR for pipeline-depth.mlir: each wait naming slabs
names, instead of the oldest slab set in flight (chunk k's), the next one
(chunk k + 1's), so the chunk computed on has not landed.

    wrong_wait.py < pipelined.mlir > mutated.mlir
"""
import re
import sys

carried = []
out = []
for line in sys.stdin:
    loop = re.search(r"dloop\.for .*iter\((.*)\) \{", line)
    if loop:
        # The carried slabs, in order: the sets in flight, oldest first.
        carried = re.findall(r"(%[\w#]+) = [^,]*: memref<[^>]*>", loop.group(1))
    wait = re.search(r"dtile\.async_wait keep 0 for ([^:]*):", line)
    if wait:
        named = [n.strip() for n in wait.group(1).split(",")]
        first = carried.index(named[0])
        later = carried[first + len(named):first + 2 * len(named)]
        if len(later) != len(named):
            sys.exit("wrong_wait.py: no later slab set to name")
        line = line.replace(wait.group(1), ", ".join(later) + " ")
    out.append(line)
sys.stdout.write("".join(out))
