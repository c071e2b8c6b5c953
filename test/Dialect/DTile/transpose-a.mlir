// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-blockify-launch="knobs=matmul_0_reduce:BM=16,BN=64" --dtile-register-tile="knobs=FM=4,FN=4" --dtile-stage-inputs --dtile-permute-register-tile="knobs=permute=true" --dtile-transpose-a=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=FORKS
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-blockify-launch="knobs=matmul_0_reduce:BM=16,BN=64" --dtile-register-tile="knobs=FM=4,FN=4" --dtile-stage-inputs --dtile-permute-register-tile="knobs=permute=true" --dtile-transpose-a | FileCheck %s --check-prefix=DEFAULT
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-blockify-launch="knobs=matmul_0_reduce:BM=16,BN=64" --dtile-register-tile="knobs=FM=8,FN=4" --dtile-stage-inputs --dtile-permute-register-tile="knobs=permute=true" --dtile-transpose-a=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=FORKS8
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-blockify-launch="knobs=matmul_0_reduce:BM=16,BN=64" --dtile-register-tile="knobs=FM=8,FN=4" --dtile-stage-inputs --dtile-permute-register-tile="knobs=permute=true" --dtile-transpose-a | FileCheck %s --check-prefix=DEFAULT8
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-blockify-launch="knobs=matmul_0_reduce:BM=16,BN=64" --dtile-register-tile="knobs=FM=4,FN=4" --dtile-stage-inputs --dtile-permute-register-tile="knobs=permute=true" --dtile-transpose-a="knobs=transpose_a=true" | FileCheck %s --check-prefix=APPLY
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-blockify-launch="knobs=matmul_0_reduce:BM=16,BN=64" --dtile-register-tile="knobs=FM=4,FN=4" --dtile-stage-inputs --dtile-permute-register-tile="knobs=permute=true" --dtile-transpose-a="knobs=transpose_a=true" --dtile-vector-reads=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=VFORKS
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-blockify-launch="knobs=matmul_0_reduce:BM=16,BN=64" --dtile-register-tile="knobs=FM=4,FN=4" --dtile-stage-inputs --dtile-permute-register-tile="knobs=permute=true" --dtile-transpose-a="knobs=transpose_a=true" --dtile-vector-reads="knobs=vector_reads=true" | FileCheck %s --check-prefix=VECTOR
/// Refused, with list-forks saying why: only B staged (a thread reads a
/// row of it), nothing staged, f16 elements (the SIMT path of a half
/// matmul); asking for it anyway is an error.
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-blockify-launch="knobs=matmul_0_reduce:BM=16,BN=64" --dtile-register-tile="knobs=FM=4,FN=4" --dtile-stage-inputs="knobs=stage=[1]" --dtile-transpose-a=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=ONLY-B
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-blockify-launch="knobs=matmul_0_reduce:BM=16,BN=64" --dtile-register-tile="knobs=FM=4,FN=4" --dtile-stage-inputs="knobs=stage=[]" --dtile-transpose-a=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=NONE
// RUN: %python %S/../../Examples/Inputs/half_matmul.py f16 64 256 64 > %t.f16.mlir
// RUN: deplodock-opt %t.f16.mlir --lower-to-tile="list-forks knobs=tensor_cores=false,BM=16,BN=64,FM=2,FN=8" --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=HALF
// RUN: not deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="knobs=matmul_0_reduce:BM=16,BN=64,FM=4,FN=4,stage=[1],transpose_a=true" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=NOT-TAKEN
/// Through the whole pipeline: pad_smem pads the transposed rows against
/// the scattered write (by a whole float4 where vector_reads reads them),
/// async_copy copies it 4 bytes at a time, TMA and vector copies take B
/// alone.
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="target=sm_80 knobs=matmul_0_reduce:split_k=1,BM=16,BN=64,FM=4,FN=4,transpose_a=true,vector_reads=false" | FileCheck %s --check-prefix=PAD1
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="target=sm_80 knobs=matmul_0_reduce:split_k=1,BM=16,BN=64,FM=4,FN=4,transpose_a=true,vector_reads=true" | FileCheck %s --check-prefix=PAD4
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="target=sm_90 knobs=matmul_0_reduce:split_k=1,BM=16,BN=64,FM=4,FN=4,transpose_a=true,async_copy=false,tma=true,vector_reads=false" | FileCheck %s --check-prefix=TMA
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="target=sm_90 knobs=matmul_0_reduce:split_k=1,BM=16,BN=64,FM=4,FN=4,transpose_a=true,async_copy=false,vector_copy=true,vector_reads=false" | FileCheck %s --check-prefix=VCOPY
/// The Kernel lowering scatters the copy and reads a float4; the CUDA
/// compiles.
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="target=sm_80 knobs=matmul_0_reduce:split_k=1,BM=16,BN=64,FM=4,FN=4,transpose_a=true,vector_reads=true" --convert-dtile-to-dkernel > %t.kernel.mlir
// RUN: FileCheck %s --check-prefix=KERNEL < %t.kernel.mlir
// RUN: deplodock-translate --emit-cuda %t.kernel.mlir -o %t.t80.cu
// RUN: FileCheck %s --check-prefix=CUDA < %t.t80.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -cubin -o %t.t80.cubin %t.t80.cu %}
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="target=sm_80 knobs=matmul_0_reduce:split_k=1,BM=16,BN=64,FM=4,FN=4,transpose_a=true,async_copy=false,vector_reads=false" --convert-dtile-to-dkernel | FileCheck %s --check-prefix=SYNC
/// The numbers: the interpreter agrees with the reference at the Tile and
/// the Kernel level, on a masked row tile (40 rows), with each transport B
/// can take, float4 reads with B's columns permuted or dealt, register
/// double buffering and vector stores; on the odd shapes no tile divides
/// (split-K sums in another order: K's tolerance, as odd-shapes.mlir); and
/// on a seeded sample of the fork tree, written out as CUDA.
// RUN: deplodock-run --interp %S/Inputs/tall-matmul.mlir --pipeline=lower-to-tensor --target=sm_90 --compare="lower-to-tile{knobs=BM=32,BN=64,FM=4,FN=4,transpose_a=true,vector_reads=true}" --compare="lower-to-kernel{knobs=BM=32,BN=64,FM=4,FN=4,transpose_a=true}" --compare="lower-to-kernel{knobs=BM=32,BN=64,FM=4,FN=4,transpose_a=true,vector_reads=true}" --compare="lower-to-kernel{knobs=BM=32,BN=64,FM=4,FN=4,transpose_a=true,vector_reads=true,async_copy=false,tma=true}" --compare="lower-to-kernel{knobs=BM=32,BN=64,FM=4,FN=4,transpose_a=true,vector_reads=true,async_copy=false,vector_copy=true}" --compare="lower-to-kernel{knobs=BM=32,BN=64,FM=4,FN=4,transpose_a=true,vector_reads=true,permute=false,vector_stores=true,reg_double=true}" --compare="lower-to-kernel{knobs=BM=16,BN=64,FM=2,FN=8,transpose_a=true,vector_reads=true,permute=false,async_copy=false,double_buffer=false}" --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %S/../../Examples/Inputs/odd-shapes.mlir --func=odd_matmul --pipeline=lower-to-tensor --atol=2e-4 --target=sm_80 --compare="lower-to-kernel{knobs=transpose_a=true}" --compare="lower-to-kernel{knobs=BM=64,BN=128,FM=8,FN=8,transpose_a=true,vector_reads=true}" --compare="lower-to-kernel{knobs=BM=37,BN=64,FM=1,FN=4,transpose_a=true,async_copy=false}" --print=none | FileCheck %s --check-prefix=NUM
// RUN: rm -rf %t.cuda && mkdir -p %t.cuda
// RUN: deplodock-run --interp %S/Inputs/tall-matmul.mlir --pipeline=lower-to-tensor --check-variants=40 --seed=11 --target=sm_90 --variant-pipeline=convert-dtile-to-dkernel --variant-cuda-dir=%t.cuda --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: %if nvrtc %{ %nvrtc --gpu-architecture=sm_90 %t.cuda/*.cu %}
/// Where the rule declines the IR is left exactly as it was.
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-blockify-launch="knobs=matmul_0_reduce:BM=16,BN=64" --dtile-register-tile="knobs=FM=4,FN=4" --dtile-stage-inputs="knobs=stage=[1]" --dtile-transpose-a > %t.once.mlir
// RUN: deplodock-opt %t.once.mlir --dtile-transpose-a | diff %t.once.mlir -

// FORKS: kernels.mlir:6:5: remark: @matmul_0_reduce: transpose_a: transpose_a in {false*, true}
// FORKS: kernels.mlir:25:5: remark: @rowsum_0_reduce: transpose_a: does not apply: no input is staged in shared memory

/// The default keeps A's slab as it is where a thread holds four rows of A,
/// and transposes it where it holds eight (measured on the H200: FM = 8
/// GEMMs faster transposed, FM = 4 ones slower).
// DEFAULT: knobs<BK = 32, BM = 16, BN = 64, FM = 4, FN = 4, permute = true, stage = [0, 1], transpose_a = false>
// DEFAULT-NOT: transpose
// FORKS8: kernels.mlir:6:5: remark: @matmul_0_reduce: transpose_a: transpose_a in {true*, false}
// DEFAULT8: knobs<BK = 32, BM = 16, BN = 64, FM = 8, FN = 4, permute = true, stage = [0, 1], transpose_a = true>
// DEFAULT8: dtile.stage {{.*}} transpose

/// A's box [16, 32] is held as a [32, 16] slab and read at [k, 4m + i]:
/// a thread's four rows are adjacent; B is untouched.
//       APPLY: transpose_a = true
//       APPLY: threads(%[[MI:.*]] : 4 "d0_i", %[[NI:.*]] : 16 "d1_i")
//       APPLY: %[[AS:.*]] = dtile.stage %in0[%{{.*}} * 16, %{{.*}} * 32] box [16, 32] transpose : memref<16x128xf32> -> memref<32x16xf32, #gpu.address_space<workgroup>>
//       APPLY: %[[BS:.*]] = dtile.stage %in1[%{{.*}}] box [32, 64] : memref<128x64xf32> -> memref<32x64xf32, #gpu.address_space<workgroup>>
//       APPLY: dloop.load %[[AS]][%[[KI:[a-z0-9_]+]], %[[MI]] * 4]
//  APPLY-NEXT: dloop.load %[[AS]][%[[KI]], %[[MI]] * 4 + 1]
//  APPLY-NEXT: dloop.load %[[AS]][%[[KI]], %[[MI]] * 4 + 2]
//  APPLY-NEXT: dloop.load %[[AS]][%[[KI]], %[[MI]] * 4 + 3]
//  APPLY-NEXT: dloop.load %[[BS]][%[[KI]], %[[NI]]]

/// vector_reads is offered although permute interleaved B's columns: A's
/// rows form a run; B's reads stay scalar.
// VFORKS: remark: @matmul_0_reduce: vector_reads: vector_reads in {true*, false}
//      VECTOR: permute = true, stage = [0, 1], transpose_a = true, vector_reads = true
//      VECTOR: %[[AS:.*]] = dtile.stage %in0{{.*}} transpose
//      VECTOR: dkernel.vector_load %[[AS]][%{{.*}}, %{{.*}}] : memref<32x16xf32, #gpu.address_space<workgroup>> -> f32, f32, f32, f32
// VECTOR-NOT: dloop.load %[[AS]]
//      VECTOR: dloop.load %{{.*}}[%{{.*}}, %{{.*}} + 48] : memref<32x64xf32

// ONLY-B: remark: @matmul_0_reduce: transpose_a: does not apply: no staged slab can be held transposed (input 1: a thread does not read a slab column: its innermost index names a thread coordinate, or the one before it none)
// NONE: remark: @matmul_0_reduce: transpose_a: does not apply: no input is staged in shared memory
// HALF: remark: @matmul_0_reduce: transpose_a: does not apply: no staged slab can be held transposed (input 0: its elements are 16-bit; a transposed slab is copied one element at a time, which cp.async can do for 4-byte elements only)
// NOT-TAKEN: error: 'dtile.kernel' op no rule took knob "transpose_a" for this kernel

/// Without vector reads an odd pad (17-word rows) makes the write
/// conflict-free; with them the rows stay whole float4s (20 words: a
/// 4-way write instead of 16-way, see BankConflictsTest).
// PAD1: dtile.stage %in0[{{.*}}] box [16, 32] transpose pad [0, 1] buffers 2 slot %{{.*}} transport cp_async : memref<16x128xf32> -> memref<32x16xf32
// PAD4: dtile.stage %in0[{{.*}}] box [16, 32] transpose pad [0, 4] buffers 2 slot %{{.*}} transport cp_async : memref<16x128xf32> -> memref<32x16xf32
// TMA: tma = true, transpose_a = true
// TMA: dtile.stage %in0[{{.*}}] box [16, 32] transpose pad [0, 1] buffers 2 slot %{{.*}} : memref<16x128xf32>
// TMA: dtile.stage %in1[{{.*}}] box [32, 64] buffers 2 slot %{{.*}} transport tma : memref<128x64xf32>
// VCOPY: dtile.stage %in0[{{.*}}] box [16, 32] transpose pad [0, 1] buffers 2 slot %{{.*}} : memref<16x128xf32>
// VCOPY: dtile.stage %in1[{{.*}}] box [32, 64] buffers 2 slot %{{.*}} transport vector : memref<128x64xf32>

/// Thread e of the copy reads source element (e / 32, e mod 32) and writes
/// it at slab (e mod 32, e / 32), 4 bytes a cp.async, into 2 x 32 x 20.
//      KERNEL: %[[A:.*]] = dkernel.alloc_shared offset 0 : memref<2x32x20xf32, #gpu.address_space<workgroup>>
//      KERNEL: scf.for %[[E:.*]] = %thread_id_x to %c512 step %c64 {
// KERNEL-NEXT:   %[[K:.*]] = arith.remui %[[E]], %c32
// KERNEL-NEXT:   %[[M:.*]] = arith.divui %[[E]], %c32
// KERNEL-NEXT:   dkernel.cp_async %arg0[%[[M]], %[[K]]], %[[A]][%c0, %[[K]], %[[M]]], 4 :
//      KERNEL: dkernel.vector_load %[[A]][%{{.*}}, %{{.*}}, %{{.*}}] : memref<2x32x20xf32, #gpu.address_space<workgroup>> -> f32, f32, f32, f32
//        CUDA: float4
//        SYNC: %[[A:.*]] = dkernel.alloc_shared offset 0 : memref<2x32x17xf32
//        SYNC: %[[K:.*]] = arith.remui %{{.*}}, %c32
//   SYNC-NEXT: %[[M:.*]] = arith.divui %{{.*}}, %c32
//   SYNC-NEXT: %[[SK:.*]] = arith.addi %{{.*}}, %[[K]]
//   SYNC-NEXT: %[[V:.*]] = memref.load %arg0[%[[M]], %[[SK]]] : memref<16x128xf32>
//   SYNC-NEXT: memref.store %[[V]], %[[A]][%{{.*}}, %[[K]], %[[M]]] : memref<2x32x17xf32

// NUM-NOT: FAIL
// NUM: PASS
// VARIANTS: variants of @tall_0_reduce: 40 (seeded sample) checked, 0 failed
