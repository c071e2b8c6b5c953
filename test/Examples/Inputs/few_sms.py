"""Wraps the functions read from stdin in a module for sm_90a with only N
multiprocessors (and L2_BYTES of L2, the H100's 50 MB unless given), so that
a small matmul has more tiles than one wave holds (and operands larger than
the L2).

    few_sms.py N [L2_BYTES] < functions.mlir
"""
import sys

sms = int(sys.argv[1])
l2_bytes = int(sys.argv[2]) if len(sys.argv) > 2 else 52428800
target = (
    f'#dkernel.target<"sm_90a", capability = 90, sm_count = {sms}, '
    "smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, "
    "threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, "
    f"registers_per_thread = 255, warp_size = 32, l2_bytes = {l2_bytes}, "
    "features = [cp_async, mma_sync, tma, wgmma]>"
)
print(f"module attributes {{dkernel.target = {target}}} {{")
print(sys.stdin.read(), end="")
print("}")
