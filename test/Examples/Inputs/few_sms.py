"""Wraps the functions read from stdin in a module for sm_90a with only N
multiprocessors, so that a small matmul has more tiles than one wave holds.

    few_sms.py N < functions.mlir
"""
import sys

sms = int(sys.argv[1])
target = (
    f'#dkernel.target<"sm_90a", capability = 90, sm_count = {sms}, '
    "smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, "
    "threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, "
    "registers_per_thread = 255, warp_size = 32, "
    "features = [cp_async, mma_sync, tma, wgmma]>"
)
print(f"module attributes {{dkernel.target = {target}}} {{")
print(sys.stdin.read(), end="")
print("}")
