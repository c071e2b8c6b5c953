// deplodock-run --bench --precision: with tf32 the f32 matmul is lowered onto
// TF32 mma.sync and the run says so (its JSON's precision); without, or with
// ieee, it stays IEEE f32. A bad value is the lowering's located error, and a
// layer already in Kernel IR (lowered with its own precision) refuses it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: deplodock-run --bench %s --fake-device --warmup-ms=0.1 --max-time-ms=1 --precision=tf32 --bench-json=%t/tf32.json | FileCheck %s --check-prefix=RAN
// RUN: FileCheck %s --check-prefix=TF32 --input-file=%t/tf32.json
// RUN: deplodock-run --bench %s --fake-device --warmup-ms=0.1 --max-time-ms=1 --bench-json=%t/default.json | FileCheck %s --check-prefix=RAN
// RUN: FileCheck %s --check-prefix=IEEE --input-file=%t/default.json
// RUN: deplodock-run --bench %s --fake-device --warmup-ms=0.1 --max-time-ms=1 --precision=ieee --bench-json=%t/ieee.json | FileCheck %s --check-prefix=RAN
// RUN: FileCheck %s --check-prefix=IEEE --input-file=%t/ieee.json
/// The TF32 kernels are not the IEEE ones.
// RUN: not diff -q %t/tf32.json %t/ieee.json
// RUN: not deplodock-run --bench %s --fake-device --precision=fp8 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: deplodock-opt --deplodock-pipeline="precision=tf32" %s -o %t/kernel.mlir
// RUN: not deplodock-run --bench %t/kernel.mlir --fake-device --precision=tf32 2>&1 | FileCheck %s --check-prefix=KERNEL-IR

func.func @mm(%a: tensor<64x256xf32>, %b: tensor<256x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = linalg.matmul ins(%a, %b : tensor<64x256xf32>, tensor<256x64xf32>) outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}

// RAN: @mm on Deplodock fake GPU
// RAN: reference: 1 output checked against the CPU interpreter

// TF32: "precision": "tf32",
// IEEE: "precision": "ieee",

// BAD: bench-tf32.mlir:{{[0-9]+}}:1: error: precision must be ieee or tf32, got 'fp8'
// KERNEL-IR: error: --precision sets how the layer is lowered, but it is Kernel IR already
