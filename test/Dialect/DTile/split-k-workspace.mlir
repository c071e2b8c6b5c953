// RUN: deplodock-opt %s --dtile-tileify --dtile-chunk-matmul-k --dtile-split-matmul-k="list-forks=true knobs=silu_mul:split_k=4,split_workspace=true;f16_output:split_k=2,split_workspace=true;bf16_output:split_k=8,split_workspace=true;narrow:split_k=2,split_workspace=true;masked:split_k=2,split_workspace=true" -verify-diagnostics | FileCheck %s
// RUN: deplodock-opt %s --dtile-lower="knobs=silu_mul:split_k=4,split_workspace=true" > %t.lowered.mlir
// RUN: FileCheck %s --check-prefix=LOWER < %t.lowered.mlir
// RUN: deplodock-opt %s --dtile-lower="knobs=silu_mul:BK=32,BM=4,BN=8,FM=1,FN=1,async_copy=true,double_buffer=true,pad=true,pipeline=true,split_k=4,split_workspace=true,stage=[0,1],unroll=32" | diff %t.lowered.mlir -
// RUN: deplodock-opt %t.lowered.mlir --convert-dtile-to-dkernel > %t.kernel.mlir
// RUN: FileCheck %s --check-prefix=KERNEL < %t.kernel.mlir
// RUN: deplodock-translate --emit-cuda %t.kernel.mlir -o %t.cu
// RUN: FileCheck %s --check-prefix=CUDA < %t.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -cubin -o %t.cubin %t.cu %}
// RUN: not deplodock-opt %s --dtile-lower="knobs=f16_sum:tensor_cores=false,split_k=2,split_workspace=true" 2>&1 | FileCheck %s --check-prefix=F16SUM

/// split_workspace: each split block stores its f32 partial sums to a
/// workspace [split_k, m, n]; a second kernel, already mapped to threads
/// over the output's last axis, sums the splits in order and applies the
/// epilogue (here SiLU of the sum times a residual, which the atomic split
/// cannot do: only the workspace options are offered, and the default
/// stays the unsplit kernel).
//       CHECK: #[[$TIMES4:.*]] = affine_map<(d0) -> (d0 * 4)>
// CHECK-LABEL: func.func @run_silu_mul
//       CHECK:   %[[OUT:.*]] = memref.alloc() : memref<16x64xf32>
//       CHECK:   %[[WS:.*]] = memref.alloc() : memref<4x16x64xf32>
//       CHECK:   dtile.kernel @silu_mul knobs<BK = 32, split_k = 4, split_workspace = true> ins(%{{[^ ]+}} = %{{[^ ]+}} : memref<16x512xf32>, %{{[^ ]+}} = %{{[^ ]+}} : memref<512x64xf32>) outs(%[[W:[^ ]+]] = %[[WS]] : memref<4x16x64xf32>) {
//   CHECK-NOT:   zero_init
//       CHECK:     dtile.tile blocks(%[[S:.*]] : 4 "k_s", %[[M:.*]] : 16 "m", %[[N:.*]] : 64 "n") {
//       CHECK:       %[[SUM:.*]] = dloop.for %{{.*}} = 0 to 4 reduce "k_o"
//       CHECK:       dloop.store %[[SUM]], %[[W]][%[[S]], %[[M]], %[[N]]] : memref<4x16x64xf32>
//  CHECK-NEXT:     }
//  CHECK-NEXT:   }
//       CHECK:   dtile.kernel @silu_mul_split_sum ins(%[[R:[^ ]+]] = %{{[^ ]+}} : memref<16x64xf32>, %[[P:[^ ]+]] = %[[WS]] : memref<4x16x64xf32>) outs(%[[Y:[^ ]+]] = %[[OUT]] : memref<16x64xf32>) {
/// Each thread sums 4 adjacent columns (the workspace rows hold whole
/// float4 runs): one vector read per split, split 0 first, the short loop
/// unrolled; the epilogue once per column, its 4 stores one float4 store.
//       CHECK:     dtile.tile blocks(%{{.*}} : 1 "unit") threads(%[[M2:.*]] : 16 "m", %[[NV:.*]] : 16 "n_v") {
//       CHECK:       %[[TOTAL:.*]]:4 = dloop.for %[[S2:.*]] = 0 to 4 reduce "k_s" iter(%[[A0:[^ ]+]] = %[[ZERO:[^ ]+]] : f32, %[[A1:[^ ]+]] = %[[ZERO]] : f32, %[[A2:[^ ]+]] = %[[ZERO]] : f32, %[[A3:[^ ]+]] = %[[ZERO]] : f32) unroll 4 {
//       CHECK:         %[[COL:.*]] = affine.apply #[[$TIMES4]](%[[NV]])
//  CHECK-NEXT:         %[[PART:.*]]:4 = dkernel.vector_load %[[P]][%[[S2]], %[[M2]], %[[COL]]] : memref<4x16x64xf32> -> f32, f32, f32, f32
//  CHECK-NEXT:         %[[N0:.*]] = arith.addf %[[A0]], %[[PART]]#0 : f32
//  CHECK-NEXT:         %[[N1:.*]] = arith.addf %[[A1]], %[[PART]]#1 : f32
//  CHECK-NEXT:         %[[N2:.*]] = arith.addf %[[A2]], %[[PART]]#2 : f32
//  CHECK-NEXT:         %[[N3:.*]] = arith.addf %[[A3]], %[[PART]]#3 : f32
//  CHECK-NEXT:         dloop.yield %[[N0]], %[[N1]], %[[N2]], %[[N3]] : f32, f32, f32, f32
//       CHECK:       arith.negf %[[TOTAL]]#0 : f32
//       CHECK:       arith.negf %[[TOTAL]]#3 : f32
//       CHECK:       math.exp
//       CHECK:       %[[SILU0:.*]] = arith.divf %[[TOTAL]]#0, %{{.*}} : f32
//       CHECK:       %[[SILU3:.*]] = arith.divf %[[TOTAL]]#3, %{{.*}} : f32
//       CHECK:       %[[RES0:.*]] = dloop.load %[[R]][%[[M2]], %[[NV]] * 4] : memref<16x64xf32>
//       CHECK:       %[[RES3:.*]] = dloop.load %[[R]][%[[M2]], %[[NV]] * 4 + 3] : memref<16x64xf32>
//       CHECK:       %[[PROD0:.*]] = arith.mulf %[[SILU0]], %[[RES0]] : f32
//       CHECK:       %[[PROD3:.*]] = arith.mulf %[[SILU3]], %[[RES3]] : f32
//       CHECK:       %[[COL2:.*]] = affine.apply #[[$TIMES4]](%[[NV]])
//  CHECK-NEXT:       dkernel.vector_store(%[[PROD0]], %{{.*}}, %{{.*}}, %[[PROD3]]), %[[Y]][%[[M2]], %[[COL2]]] : (f32, f32, f32, f32), memref<16x64xf32>
//   CHECK-NOT:       dloop.store
//       CHECK:   return %[[OUT]]

/// The whole lowering after the split: the rules map the split kernel as
/// any matmul (the split axis among its blocks) and leave the sum kernel as
/// it was born. Its knobs= reproduce the same IR (the diff above).
//       LOWER: memref.alloc() : memref<4x16x64xf32>
//       LOWER: dtile.kernel @silu_mul knobs<{{.*}}split_k = 4, split_workspace = true{{.*}}> ins(
//       LOWER:   dtile.tile blocks(%{{.*}} : 4 "k_s", %{{.*}} : 4 "m_o", %{{.*}} : 8 "n_o") threads(
//       LOWER: dtile.kernel @silu_mul_split_sum ins(
//       LOWER:   dtile.tile blocks(%{{.*}} : 1 "unit") threads(%{{.*}} : 16 "m", %{{.*}} : 16 "n_v") {
//       LOWER:     dloop.for %{{.*}} = 0 to 4 reduce "k_s" iter({{.*}}) unroll 4 {
//       LOWER:       dkernel.vector_load

/// At the Kernel level: two launches, the workspace an allocation of the
/// host function that it does not return (the runtime holds it).
//      KERNEL: dkernel.func @silu_mul(
//      KERNEL: dkernel.func @silu_mul_split_sum({{.*}}) outputs [2] grid [1, 1, 1] block [256, 1, 1]
//      KERNEL:   scf.for {{.*}} -> (f32, f32, f32, f32) {
//      KERNEL:     dkernel.vector_load %{{.*}} : memref<4x16x64xf32> -> f32, f32, f32, f32
//      KERNEL:   } {dkernel.unroll = 4 : i64}
//      KERNEL:   dkernel.vector_store({{.*}}), %{{.*}}[{{.*}}] : (f32, f32, f32, f32), memref<16x64xf32>
//      KERNEL: func.func @run_silu_mul
//      KERNEL:   memref.alloc() : memref<4x16x64xf32>
//      KERNEL:   dkernel.launch @silu_mul
//      KERNEL:   dkernel.launch @silu_mul_split_sum
/// In CUDA, a float4 read of the workspace per split, the 4 splits
/// unrolled, the 4 outputs one float4 store.
//       CUDA: silu_mul_split_sum(const float* __restrict__ in0, const float* __restrict__ in1, float* __restrict__ out0) {
//       CUDA:   #pragma unroll 4
//  CUDA-NEXT:   for (int i0 = 0; i0 < 4; i0 += 1) {
//       CUDA:     const float4 vl0 = *reinterpret_cast<const float4 *>(&in1[i0 * 1024 + v2 * 64 + [[C:v[0-9]+]]]);
//       CUDA:     const float [[X:v[0-9]+]] = vl0.x;
//       CUDA:     const float {{v[0-9]+}} = acc0 + [[X]];
//       CUDA:   *reinterpret_cast<float4 *>(&out0[v2 * 64 + {{v[0-9]+}}]) = make_float4(
func.func @run_silu_mul(%a: memref<16x512xf32>, %b: memref<512x64xf32>, %r: memref<16x64xf32>) -> memref<16x64xf32> {
  %alloc = memref.alloc() : memref<16x64xf32>
  // expected-remark @+1 {{split_matmul_k: (split_k, split_workspace) in {1*, (2, true), (4, true), (8, true)}}}
  dloop.kernel @silu_mul ins(%in0 = %a : memref<16x512xf32>, %in1 = %b : memref<512x64xf32>, %in2 = %r : memref<16x64xf32>) outs(%out0 = %alloc : memref<16x64xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %one = arith.constant 1.000000e+00 : f32
    dloop.for %i = 0 to 16 free "m" {
      dloop.for %j = 0 to 64 free "n" {
        %0 = dloop.for %k = 0 to 512 reduce "k" iter(%acc = %cst : f32) {
          %1 = dloop.load %in0[%i, %k] : memref<16x512xf32>
          %2 = dloop.load %in1[%k, %j] : memref<512x64xf32>
          %3 = arith.mulf %1, %2 : f32
          %4 = arith.addf %acc, %3 : f32
          dloop.yield %4 : f32
        }
        %n = arith.negf %0 : f32
        %e = math.exp %n : f32
        %d = arith.addf %e, %one : f32
        %s = arith.divf %0, %d : f32
        %res = dloop.load %in2[%i, %j] : memref<16x64xf32>
        %y = arith.mulf %s, %res : f32
        dloop.store %y, %out0[%i, %j] : memref<16x64xf32>
      }
    }
  }
  return %alloc : memref<16x64xf32>
}

/// An f16 output of an f32 sum: the atomic split would add the partial sums
/// in f16, the workspace keeps them in f32 and the sum kernel rounds once.
// CHECK-LABEL: func.func @run_f16_output
//       CHECK:   %[[OUT:.*]] = memref.alloc() : memref<16x64xf16>
//       CHECK:   %[[WS:.*]] = memref.alloc() : memref<2x16x64xf32>
//       CHECK:   dtile.kernel @f16_output knobs<BK = 32, split_k = 2, split_workspace = true> ins({{.*}}) outs(%[[W:[^ ]+]] = %[[WS]] : memref<2x16x64xf32>) {
//       CHECK:       dloop.store %{{.*}}, %[[W]][%{{.*}}, %{{.*}}, %{{.*}}] : memref<2x16x64xf32>
//       CHECK:   dtile.kernel @f16_output_split_sum ins(%[[P:[^ ]+]] = %[[WS]] : memref<2x16x64xf32>) outs(%[[Y:[^ ]+]] = %[[OUT]] : memref<16x64xf16>) {
//       CHECK:       %[[TOTAL:.*]]:4 = dloop.for %{{.*}} = 0 to 2 reduce "k_s" iter({{.*}}) unroll 2 {
//       CHECK:         dkernel.vector_load %[[P]][{{.*}}] : memref<2x16x64xf32> -> f32, f32, f32, f32
//       CHECK:       %[[ROUNDED0:.*]] = arith.truncf %[[TOTAL]]#0 : f32 to f16
//       CHECK:       %[[ROUNDED1:.*]] = arith.truncf %[[TOTAL]]#1 : f32 to f16
//       CHECK:       %[[ROUNDED2:.*]] = arith.truncf %[[TOTAL]]#2 : f32 to f16
//       CHECK:       %[[ROUNDED3:.*]] = arith.truncf %[[TOTAL]]#3 : f32 to f16
/// Four f16 outputs: one 8-byte store.
//       CHECK:       dkernel.vector_store(%[[ROUNDED0]], %[[ROUNDED1]], %[[ROUNDED2]], %[[ROUNDED3]]), %[[Y]][{{.*}}] : (f16, f16, f16, f16), memref<16x64xf16>
func.func @run_f16_output(%a: memref<16x512xf16>, %b: memref<512x64xf16>) -> memref<16x64xf16> {
  %alloc = memref.alloc() : memref<16x64xf16>
  // expected-remark @+1 {{split_matmul_k: (split_k, split_workspace) in {1*, (2, true), (4, true), (8, true)}}}
  dloop.kernel @f16_output ins(%in0 = %a : memref<16x512xf16>, %in1 = %b : memref<512x64xf16>) outs(%out0 = %alloc : memref<16x64xf16>) {
    %cst = arith.constant 0.000000e+00 : f32
    dloop.for %i = 0 to 16 free "m" {
      dloop.for %j = 0 to 64 free "n" {
        %0 = dloop.for %k = 0 to 512 reduce "k" iter(%acc = %cst : f32) {
          %1 = dloop.load %in0[%i, %k] : memref<16x512xf16>
          %2 = dloop.load %in1[%k, %j] : memref<512x64xf16>
          %x = arith.extf %1 : f16 to f32
          %y = arith.extf %2 : f16 to f32
          %3 = arith.mulf %x, %y : f32
          %4 = arith.addf %acc, %3 : f32
          dloop.yield %4 : f32
        }
        %r = arith.truncf %0 : f32 to f16
        dloop.store %r, %out0[%i, %j] : memref<16x64xf16>
      }
    }
  }
  return %alloc : memref<16x64xf16>
}

/// The same with a bf16 output, over 8 splits.
// CHECK-LABEL: func.func @run_bf16_output
//       CHECK:   %[[OUT:.*]] = memref.alloc() : memref<16x64xbf16>
//       CHECK:   %[[WS:.*]] = memref.alloc() : memref<8x16x64xf32>
//       CHECK:   dtile.kernel @bf16_output knobs<BK = 32, split_k = 8, split_workspace = true> ins({{.*}}) outs(%{{[^ ]+}} = %[[WS]] : memref<8x16x64xf32>) {
//       CHECK:   dtile.kernel @bf16_output_split_sum ins(%{{[^ ]+}} = %[[WS]] : memref<8x16x64xf32>) outs(%{{[^ ]+}} = %[[OUT]] : memref<16x64xbf16>) {
//       CHECK:       %[[TOTAL:.*]]:4 = dloop.for %{{.*}} = 0 to 8 reduce "k_s" iter({{.*}}) unroll 8 {
//       CHECK:         dkernel.vector_load %{{.*}} : memref<8x16x64xf32> -> f32, f32, f32, f32
//       CHECK:       arith.truncf %[[TOTAL]]#0 : f32 to bf16
//       CHECK:       dkernel.vector_store({{.*}}), %{{.*}}[{{.*}}] : (bf16, bf16, bf16, bf16), memref<16x64xbf16>
func.func @run_bf16_output(%a: memref<16x512xbf16>, %b: memref<512x64xbf16>) -> memref<16x64xbf16> {
  %alloc = memref.alloc() : memref<16x64xbf16>
  // expected-remark @+1 {{split_matmul_k: (split_k, split_workspace) in {1*, (2, true), (4, true), (8, true)}}}
  dloop.kernel @bf16_output ins(%in0 = %a : memref<16x512xbf16>, %in1 = %b : memref<512x64xbf16>) outs(%out0 = %alloc : memref<16x64xbf16>) {
    %cst = arith.constant 0.000000e+00 : f32
    dloop.for %i = 0 to 16 free "m" {
      dloop.for %j = 0 to 64 free "n" {
        %0 = dloop.for %k = 0 to 512 reduce "k" iter(%acc = %cst : f32) {
          %1 = dloop.load %in0[%i, %k] : memref<16x512xbf16>
          %2 = dloop.load %in1[%k, %j] : memref<512x64xbf16>
          %x = arith.extf %1 : bf16 to f32
          %y = arith.extf %2 : bf16 to f32
          %3 = arith.mulf %x, %y : f32
          %4 = arith.addf %acc, %3 : f32
          dloop.yield %4 : f32
        }
        %r = arith.truncf %0 : f32 to bf16
        dloop.store %r, %out0[%i, %j] : memref<16x64xbf16>
      }
    }
  }
  return %alloc : memref<16x64xbf16>
}

/// Rows of 30 columns hold no whole float4 run of the workspace: the sum
/// kernel keeps one column per thread, scalar reads and stores, the split
/// loop as it was.
// CHECK-LABEL: func.func @run_narrow
//       CHECK:   dtile.kernel @narrow_split_sum ins(%[[P:[^ ]+]] = %{{[^ ]+}} : memref<2x16x30xf32>) outs(%[[Y:[^ ]+]] = %{{[^ ]+}} : memref<16x30xf32>) {
//       CHECK:     dtile.tile blocks(%{{.*}} : 2 "m_n_o") threads(%[[I:.*]] : 256 "m_n_i") {
//       CHECK:       %[[TOTAL:.*]] = dloop.for %[[S:.*]] = 0 to 2 reduce "k_s" iter(%[[ACC:.*]] = %{{.*}} : f32) {
//   CHECK-NOT:         unroll
//       CHECK:         dloop.load %[[P]][%[[S]], {{.*}}] : memref<2x16x30xf32>
//       CHECK:       dloop.store %{{.*}}, %[[Y]][{{.*}}] : memref<16x30xf32>
//   CHECK-NOT:   vector_
func.func @run_narrow(%a: memref<16x512xf32>, %b: memref<512x30xf32>) -> memref<16x30xf32> {
  %alloc = memref.alloc() : memref<16x30xf32>
  // expected-remark @+1 {{split_matmul_k: (split_k, split_workspace) in {8*, 1, 2, (2, true), 4, (4, true), (8, true)}}}
  dloop.kernel @narrow ins(%in0 = %a : memref<16x512xf32>, %in1 = %b : memref<512x30xf32>) outs(%out0 = %alloc : memref<16x30xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    dloop.for %i = 0 to 16 free "m" {
      dloop.for %j = 0 to 30 free "n" {
        %0 = dloop.for %k = 0 to 512 reduce "k" iter(%acc = %cst : f32) {
          %1 = dloop.load %in0[%i, %k] : memref<16x512xf32>
          %2 = dloop.load %in1[%k, %j] : memref<512x30xf32>
          %3 = arith.mulf %1, %2 : f32
          %4 = arith.addf %acc, %3 : f32
          dloop.yield %4 : f32
        }
        dloop.store %0, %out0[%i, %j] : memref<16x30xf32>
      }
    }
  }
  return %alloc : memref<16x30xf32>
}

/// 37 rows of 72 columns: 666 runs of 4 columns, which no warp multiple up
/// to 256 deals evenly; 256 threads a block over the linearised runs, the
/// last block masked: its idle threads neither read nor store a run.
// CHECK-LABEL: func.func @run_masked
//       CHECK:   dtile.kernel @masked_split_sum ins(%[[P:[^ ]+]] = %{{[^ ]+}} : memref<2x37x72xf32>) outs(%[[Y:[^ ]+]] = %{{[^ ]+}} : memref<37x72xbf16>) {
//       CHECK:     dtile.tile blocks(%[[O:.*]] : 3 "m_n_v_o") threads(%[[I:.*]] : 256 "m_n_v_i") {
//       CHECK:       %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : index
//       CHECK:       dloop.for %{{.*}} = 0 to 2 reduce "k_s" iter({{.*}}) unroll 2 {
//       CHECK:         %[[LOADED:.*]]:4 = scf.if %[[IN]] -> (f32, f32, f32, f32) {
//       CHECK:           dkernel.vector_load %[[P]][{{.*}}] : memref<2x37x72xf32> -> f32, f32, f32, f32
//       CHECK:         } else {
//       CHECK:       scf.if %[[IN]] {
//       CHECK:         dkernel.vector_store({{.*}}), %[[Y]][{{.*}}] : (bf16, bf16, bf16, bf16), memref<37x72xbf16>
/// In CUDA the masked threads skip the float4 read (zeros) and the store.
//       CUDA: masked_split_sum(const float* __restrict__ in0, __nv_bfloat16* __restrict__ out0) {
//       CUDA:   const bool [[IN:v[0-9]+]] = (unsigned){{v[0-9]+}} < (unsigned)666;
//       CUDA:     if ([[IN]]) {
//  CUDA-NEXT:       const float4 vl0 = *reinterpret_cast<const float4 *>(&in0[
//       CUDA:   if ([[IN]]) {
//  CUDA-NEXT:     {
//  CUDA-NEXT:       alignas(8) const __nv_bfloat16 vs0[4] = {
//  CUDA-NEXT:       *reinterpret_cast<uint2 *>(&out0[
func.func @run_masked(%a: memref<37x512xbf16>, %b: memref<512x72xbf16>) -> memref<37x72xbf16> {
  %alloc = memref.alloc() : memref<37x72xbf16>
  // expected-remark @+1 {{split_matmul_k: (split_k, split_workspace) in {1*, (2, true), (4, true), (8, true)}}}
  dloop.kernel @masked ins(%in0 = %a : memref<37x512xbf16>, %in1 = %b : memref<512x72xbf16>) outs(%out0 = %alloc : memref<37x72xbf16>) {
    %cst = arith.constant 0.000000e+00 : f32
    dloop.for %i = 0 to 37 free "m" {
      dloop.for %j = 0 to 72 free "n" {
        %0 = dloop.for %k = 0 to 512 reduce "k" iter(%acc = %cst : f32) {
          %1 = dloop.load %in0[%i, %k] : memref<37x512xbf16>
          %2 = dloop.load %in1[%k, %j] : memref<512x72xbf16>
          %x = arith.extf %1 : bf16 to f32
          %y = arith.extf %2 : bf16 to f32
          %3 = arith.mulf %x, %y : f32
          %4 = arith.addf %acc, %3 : f32
          dloop.yield %4 : f32
        }
        %r = arith.truncf %0 : f32 to bf16
        dloop.store %r, %out0[%i, %j] : memref<37x72xbf16>
      }
    }
  }
  return %alloc : memref<37x72xbf16>
}

/// A sum the IR keeps in f16 is its own rounding: neither split applies,
/// and asking for one is an error.
// F16SUM: error: 'dtile.kernel' op no rule took knob "split_k" for this kernel
func.func @run_f16_sum(%a: memref<16x512xf16>, %b: memref<512x64xf16>) -> memref<16x64xf16> {
  %alloc = memref.alloc() : memref<16x64xf16>
  // expected-remark @+1 {{split_matmul_k: does not apply}}
  dloop.kernel @f16_sum ins(%in0 = %a : memref<16x512xf16>, %in1 = %b : memref<512x64xf16>) outs(%out0 = %alloc : memref<16x64xf16>) {
    %cst = arith.constant 0.000000e+00 : f16
    dloop.for %i = 0 to 16 free "m" {
      dloop.for %j = 0 to 64 free "n" {
        %0 = dloop.for %k = 0 to 512 reduce "k" iter(%acc = %cst : f16) {
          %1 = dloop.load %in0[%i, %k] : memref<16x512xf16>
          %2 = dloop.load %in1[%k, %j] : memref<512x64xf16>
          %3 = arith.mulf %1, %2 : f16
          %4 = arith.addf %acc, %3 : f16
          dloop.yield %4 : f16
        }
        dloop.store %0, %out0[%i, %j] : memref<16x64xf16>
      }
    }
  }
  return %alloc : memref<16x64xf16>
}
