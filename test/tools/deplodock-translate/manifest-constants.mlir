// A constant the layer reads (a RoPE table, a mask) travels in the manifest,
// in base64: the runtime fills it once.
// RUN: rm -rf %t && mkdir -p %t
// RUN: deplodock-translate --emit-cuda --cuda-manifest=%t/const.json %s -o /dev/null
// RUN: %python %S/Inputs/manifest-lines.py %t/const.json | FileCheck %s --check-prefix=CONST
// CONST:      {"binding": 0, "bytes": 16, "dtype": "f32", "name": "arg0", "role": "input", "shape": [4]}
// CONST-NEXT: {"bytes": 16, "data": "AACAPwAAAMAAAAA/AABAQA==", "dtype": "f32", "name": "table", "role": "constant", "shape": [4]}
// CONST-NEXT: {"binding": 1, "bytes": 16, "dtype": "f32", "name": "alloc0", "role": "output", "shape": [4]}
// CONST-NEXT: {"block": [4, 1, 1], "early": false, "grid": [1, 1, 1], "kernel": "scale", "params": [{"buffer": 0}, {"buffer": 1}, {"buffer": 2}], "smem": 0, "writes": [2], "zero": []}

memref.global "private" constant @table : memref<4xf32> = dense<[1.0, -2.0, 0.5, 3.0]>
dkernel.func @scale(%x: memref<4xf32>, %t: memref<4xf32>, %y: memref<4xf32>) outputs [2] grid [1, 1, 1] block [4, 1, 1] smem 0 {
  dkernel.return
}
func.func @layer(%x: memref<4xf32>) -> memref<4xf32> {
  %t = memref.get_global @table : memref<4xf32>
  %y = memref.alloc() : memref<4xf32>
  dkernel.launch @scale(%x, %t, %y) : memref<4xf32>, memref<4xf32>, memref<4xf32>
  return %y : memref<4xf32>
}
