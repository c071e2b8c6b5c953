// --cuda-manifest writes, beside the CUDA, what a caller needs to launch the
// layer: buffers with their roles and bindings (arguments, then the returned
// allocations in the order returned, scratch ones unbound), and each launch
// with its geometry, shared memory, parameters (buffers or TMA descriptors)
// and the buffers zeroed before it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: deplodock-translate --emit-cuda --cuda-manifest=%t/layer.json %s -o %t/layer.cu
// RUN: FileCheck %s --check-prefix=CUDA --input-file=%t/layer.cu
// The same bytes every time.
// RUN: deplodock-translate --emit-cuda --cuda-manifest=%t/again.json %s -o /dev/null
// RUN: cmp %t/layer.json %t/again.json

// CUDA: {{^}}split_k(
// CUDA: {{^}}tma(
// CUDA: {{^}}scratch(

/// The file is indented JSON.
// RUN: FileCheck %s --check-prefix=RAW --strict-whitespace --input-file=%t/layer.json
// RAW:      {{^}}{
// RAW-NEXT: {{^}}  "buffers": [
// RAW-NEXT: {{^}}    {
// RAW-NEXT: {{^}}      "binding": 0,

// RUN: %python %S/Inputs/manifest-lines.py %t/layer.json | FileCheck %s
// CHECK:      {"binding": 0, "bytes": 128, "dtype": "f32", "name": "arg0", "role": "input", "shape": [4, 8]}
/// An argument the importer named (a PyTorch parameter) keeps its name.
// CHECK-NEXT: {"binding": 1, "bytes": 4096, "dtype": "f16", "name": "proj.weight", "role": "input", "shape": [64, 32]}
// CHECK-NEXT: {"binding": 2, "bytes": 2, "dtype": "i8", "name": "arg2", "role": "input", "shape": [2]}
/// %c, returned second, is the fifth binding; %y, returned first, the
/// fourth; %tmp is the kernels' own.
// CHECK-NEXT: {"binding": 4, "bytes": 16, "dtype": "f32", "name": "alloc0", "role": "output", "shape": [4]}
// CHECK-NEXT: {"binding": 3, "bytes": 16, "dtype": "f32", "name": "alloc1", "role": "output", "shape": [4]}
// CHECK-NEXT: {"bytes": 32, "dtype": "f32", "name": "alloc2", "role": "workspace", "shape": [8]}
// CHECK-NEXT: {"block": [4, 1, 1], "early": false, "grid": [1, 1, 2], "kernel": "split_k", "params": [{"buffer": 0}, {"buffer": 3}], "smem": 0, "writes": [3], "zero": [3]}
// CHECK-NEXT: {"block": [32, 1, 1], "early": false, "grid": [4, 1, 1], "kernel": "tma", "params": [{"buffer": 1}, {"tma": {"box": [16, 32], "buffer": 1, "swizzle": 64}}, {"buffer": 4}, {"buffer": 2}], "smem": 1024, "writes": [4], "zero": []}
// CHECK-NEXT: {"block": [8, 1, 1], "early": false, "grid": [1, 1, 1], "kernel": "scratch", "params": [{"buffer": 5}], "smem": 0, "writes": [5], "zero": []}
// CHECK-NEXT: {"format": "deplodock-layer", "function": "host", "index_bitwidth": 32, "num_arguments": 3, "results": [4, 3], "version": 1}

/// --cuda-index-bitwidth is recorded.
// RUN: deplodock-translate --emit-cuda --cuda-index-bitwidth=64 --cuda-manifest=%t/64.json %s -o /dev/null
// RUN: %python %S/Inputs/manifest-lines.py %t/64.json | FileCheck %s --check-prefix=IDX64
// IDX64: "index_bitwidth": 64

/// One kernel alone: its buffer parameters are the bindings.
// RUN: deplodock-translate --emit-cuda --cuda-manifest=%t/kernel.json --cuda-manifest-func=tma %s -o /dev/null
// RUN: %python %S/Inputs/manifest-lines.py %t/kernel.json | FileCheck %s --check-prefix=KERNEL
// KERNEL:      {"binding": 0, "bytes": 4096, "dtype": "f16", "name": "arg0", "role": "input", "shape": [64, 32]}
// KERNEL-NEXT: {"binding": 1, "bytes": 16, "dtype": "f32", "name": "arg1", "role": "input", "shape": [4]}
// KERNEL-NEXT: {"binding": 2, "bytes": 2, "dtype": "i8", "name": "arg2", "role": "input", "shape": [2]}
// KERNEL:      "function": "tma", "index_bitwidth": 32, "num_arguments": 3, "results": [1]

dkernel.func @split_k(%a: memref<4x8xf32>, %c: memref<4xf32>) outputs [1] zero_init [1] grid [1, 1, 2] block [4, 1, 1] smem 0 {
  %z = arith.constant 0.0 : f32
  %t = gpu.thread_id x
  dkernel.atomic_store add %z, %c[%t] : memref<4xf32>
  dkernel.return
}
dkernel.func @tma(%x: memref<64x32xf16>, %desc: !dkernel.tma_descriptor<16x32xf16, swizzle = 64>, %y: memref<4xf32>, %i: memref<2xi8>) outputs [2] grid [4, 1, 1] block [32, 1, 1] smem 1024 {
  dkernel.tma_descriptor %desc describes %x : !dkernel.tma_descriptor<16x32xf16, swizzle = 64>, memref<64x32xf16>
  dkernel.return
}
dkernel.func @scratch(%s: memref<8xf32>) outputs [0] grid [1, 1, 1] block [8, 1, 1] smem 0 {
  dkernel.return
}
func.func @host(%a: memref<4x8xf32>, %x: memref<64x32xf16> {deplodock.name = "proj.weight"}, %i: memref<2xi8>) -> (memref<4xf32>, memref<4xf32>) {
  %c = memref.alloc() : memref<4xf32>
  dkernel.launch @split_k(%a, %c) : memref<4x8xf32>, memref<4xf32>
  %y = memref.alloc() : memref<4xf32>
  dkernel.launch @tma(%x, %y, %i) : memref<64x32xf16>, memref<4xf32>, memref<2xi8>
  %tmp = memref.alloc() : memref<8xf32>
  dkernel.launch @scratch(%tmp) : memref<8xf32>
  return %y, %c : memref<4xf32>, memref<4xf32>
}

