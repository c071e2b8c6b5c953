"""Prints a dtile.tile with N one-slot TMA stages: N mbarriers to track."""

import sys

n = int(sys.argv[1])
slab = "memref<8x4xf32, #gpu.address_space<workgroup>>"
print("func.func @many(%arg0: memref<64x128xf32>, %arg1: memref<64x128xf32>) {")
print("  dtile.kernel @many ins(%x = %arg0 : memref<64x128xf32>) "
      "outs(%y = %arg1 : memref<64x128xf32>) {")
print('    dtile.tile blocks(%b : 1 "b") threads(%t : 32 "t") {')
for i in range(n):
    print(f"      %s{i} = dtile.stage %x[0, {i % 32 * 4}] box [8, 4] "
          f"transport tma : memref<64x128xf32> -> {slab}")
print("      dtile.async_wait keep 0")
print("    }")
print("  }")
print("  return")
print("}")
