// RUN: %python %deplodock_src_root/bench/generate.py --case matmul.qwen.down_proj.s512 | FileCheck %s --check-prefix=MATMUL
// RUN: %python %deplodock_src_root/bench/generate.py --case rmsnorm.qwen.s32.bf16 | FileCheck %s --check-prefix=RMS
// RUN: %python %deplodock_src_root/bench/generate.py --case sdpa.tinyllama.s128.bf16 | FileCheck %s --check-prefix=SDPA
// RUN: %python %deplodock_src_root/bench/generate.py --case naive_attn.qwen.s32.fp16 | FileCheck %s --check-prefix=NAIVE
// RUN: %python %deplodock_src_root/bench/generate.py --case silu_mul_matmul.tinyllama.s32.bf16 > %t.smm.mlir
// RUN: FileCheck %s --check-prefix=SMM < %t.smm.mlir
// RUN: deplodock-opt %t.smm.mlir --deplodock-pipeline | deplodock-translate --emit-cuda | FileCheck %s --check-prefix=CUDA
/// The FP32 cases are the example layers at the table's shapes.
// RUN: %python %deplodock_src_root/bench/generate.py --case silu_mul.tinyllama.s32 | tail -n +3 > %t.bench.mlir
// RUN: %python %deplodock_src_root/examples/generate.py --real silu_mul | tail -n +3 | diff - %t.bench.mlir

/// A projection as torch-mlir writes nn.Linear: collapse, matmul, expand.
//      MATMUL: // Benchmark case matmul.qwen.down_proj.s512 (fp32): x(1,512,18944), w(18944,3584).
//      MATMUL: func.func @matmul(%x: tensor<1x512x18944xf32>, %w: tensor<18944x3584xf32>) -> (tensor<1x512x3584xf32>)
//      MATMUL:   tensor.collapse_shape %x {{\[\[}}0, 1], [2]] : tensor<1x512x18944xf32> into tensor<512x18944xf32>
//      MATMUL:   linalg.matmul ins({{.*}} : tensor<512x18944xf32>, tensor<18944x3584xf32>) outs({{.*}} : tensor<512x3584xf32>)
//      MATMUL:   tensor.expand_shape
//  MATMUL-NOT:   arith.truncf
//      MATMUL:   return

/// In BF16 the tensors are stored in bf16, the arithmetic runs in f32:
/// the sum of squares accumulates in f32 and the result is rounded once.
//      RMS: func.func @rmsnorm(%x: tensor<1x32x3584xbf16>, %w: tensor<3584xbf16>) -> (tensor<1x32x3584xbf16>)
//      RMS:   ^bb0(%a0: bf16, %out: f32):
// RMS-NEXT:     %a0w = arith.extf %a0 : bf16 to f32
// RMS-NEXT:     %m = arith.mulf %a0w, %a0w : f32
//      RMS:   linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x32x1xf32>)
//      RMS:   iterator_types = ["parallel", "parallel", "reduction"]
//      RMS:     %m = arith.addf %a0, %out : f32
//      RMS:   ^bb0(%a0: bf16, %a1: f32, %a2: bf16, %out: bf16):
//      RMS:     %eps = arith.constant 9.99999997E-7 : f32
//      RMS:     math.rsqrt %{{.*}} : f32
//      RMS:     %stored = arith.truncf %o : f32 to bf16
// RMS-NEXT:     linalg.yield %stored : bf16

/// Causal GQA attention: bf16 operands, f32 scores and softmax, the
/// probabilities rounded to bf16 before they meet v.
//      SDPA: func.func @sdpa(%q: tensor<1x32x128x64xbf16>, %k: tensor<1x4x128x64xbf16>, %v: tensor<1x4x128x64xbf16>) -> (tensor<1x32x128x64xbf16>)
//      SDPA:   linalg.broadcast ins(%{{.*}} : tensor<4x128x64xbf16>) outs(%{{.*}} : tensor<4x8x128x64xbf16>) dimensions = [1]
//      SDPA:   linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<32x128x64xbf16>, tensor<32x64x128xbf16>) outs(%{{.*}} : tensor<32x128x128xf32>)
//      SDPA:     %scale = arith.constant 1.250000000e-01 : f32
//      SDPA:     arith.cmpi sgt
//      SDPA:     %ninf = arith.constant 0xFF800000 : f32
//      SDPA:   linalg.softmax dimension(2) ins(%{{.*}} : tensor<32x128x128xf32>)
//      SDPA:     arith.truncf %a0 : f32 to bf16
//      SDPA:   linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<32x128x128xbf16>, tensor<32x128x64xbf16>) outs(%{{.*}} : tensor<32x128x64xf32>)
//      SDPA:   return %{{.*}} : tensor<1x32x128x64xbf16>

/// The -1e9 mask is built and added in f32 (it does not fit in f16).
//      NAIVE: func.func @naive_attn(%q: tensor<1x28x32x128xf16>, %k: tensor<1x28x32x128xf16>, %v: tensor<1x28x32x128xf16>)
//      NAIVE:   %big = arith.constant -1.0e+09 : f32
//      NAIVE:   %scale = arith.constant 8.838834765e-02 : f32
//      NAIVE:   linalg.softmax dimension(2) ins(%{{.*}} : tensor<28x32x32xf32>)

/// silu(g)*u is stored in bf16 (as PyTorch stores it) before the matmul.
//      SMM: func.func @silu_mul_matmul(%gate: tensor<1x32x5632xbf16>, %up: tensor<1x32x5632xbf16>, %w: tensor<5632x2048xbf16>) -> (tensor<1x32x2048xbf16>)
//      SMM:     math.exp %{{.*}} : f32
//      SMM:     arith.truncf %o : f32 to bf16
//      SMM:   linalg.matmul ins(%{{.*}} : tensor<32x5632xbf16>, tensor<5632x2048xbf16>) outs(%{{.*}} : tensor<32x2048xf32>)

/// ... and it lowers to CUDA on bf16 buffers.
//      CUDA: #include <cuda_bf16.h>
//      CUDA: __global__
// CUDA-NEXT: silu_mul_matmul_0_pointwise(const __nv_bfloat16* __restrict__ in0, const __nv_bfloat16* __restrict__ in1, __nv_bfloat16* __restrict__ out0)
//      CUDA: __global__
// CUDA-NEXT: silu_mul_matmul_1_reduce(const __nv_bfloat16* __restrict__
