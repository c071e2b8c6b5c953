// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-blockify-launch="knobs=matmul_0_reduce:BM=16,BN=64" --dtile-register-tile="knobs=FM=2,FN=4" --dtile-stage-inputs --dtile-permute-register-tile="knobs=permute=false" --dtile-vector-reads=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=FORKS
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-blockify-launch="knobs=matmul_0_reduce:BM=16,BN=64" --dtile-register-tile="knobs=FM=2,FN=4" --dtile-stage-inputs --dtile-permute-register-tile="knobs=permute=false" --dtile-vector-reads | FileCheck %s --check-prefix=DEFAULT
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-blockify-launch="knobs=matmul_0_reduce:BM=16,BN=64" --dtile-register-tile="knobs=FM=2,FN=4" --dtile-stage-inputs --dtile-permute-register-tile="knobs=permute=false" --dtile-vector-reads="knobs=vector_reads=true" | FileCheck %s --check-prefix=FN4
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-blockify-launch="knobs=matmul_0_reduce:BM=16,BN=64" --dtile-register-tile="knobs=FM=2,FN=8" --dtile-stage-inputs --dtile-permute-register-tile="knobs=permute=false" --dtile-vector-reads="knobs=vector_reads=true" | FileCheck %s --check-prefix=FN8
/// Refused: the columns interleaved (permute), B not staged, one column a
/// thread.
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-blockify-launch="knobs=matmul_0_reduce:BM=16,BN=64" --dtile-register-tile="knobs=FM=2,FN=4" --dtile-stage-inputs --dtile-permute-register-tile="knobs=permute=true" --dtile-vector-reads=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=REFUSED
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-blockify-launch="knobs=matmul_0_reduce:BM=16,BN=64" --dtile-register-tile="knobs=FM=2,FN=4" --dtile-stage-inputs="knobs=stage=[0]" --dtile-permute-register-tile --dtile-vector-reads=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=REFUSED
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-blockify-launch="knobs=matmul_0_reduce:BM=16,BN=64" --dtile-register-tile="knobs=FM=2,FN=1" --dtile-stage-inputs --dtile-permute-register-tile --dtile-vector-reads=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=REFUSED
// RUN: not deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="knobs=matmul_0_reduce:BM=16,BN=64,FM=2,FN=4,permute=true,vector_reads=true" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=NOT-TAKEN
/// Through the whole pipeline: pad_smem keeps the read slab's rows whole
/// vectors, the lowering reads the rotated slab's slot, the CUDA is a float4
/// read and the interpreter agrees with the Loop IR.
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="target=sm_80 knobs=matmul_0_reduce:split_k=1,BM=16,BN=64,FM=2,FN=8,permute=false,vector_reads=true" --convert-dtile-to-dkernel | FileCheck %s --check-prefix=KERNEL
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="target=sm_80 knobs=matmul_0_reduce:split_k=1,BM=16,BN=64,FM=2,FN=8,permute=false,vector_reads=true" --convert-dtile-to-dkernel | deplodock-translate --emit-cuda -o %t.reads80.cu
// RUN: FileCheck %s --check-prefix=CUDA < %t.reads80.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -cubin -o %t.reads80.cubin %t.reads80.cu %}
// RUN: deplodock-run --interp %S/Inputs/wide-matmul.mlir --pipeline=lower-to-tensor --compare="lower-to-kernel{knobs=BM=16,BN=128,FM=2,FN=8,permute=false,vector_reads=true}" --print=none | FileCheck %s --check-prefix=NUM
/// f16 and bf16 operands on the SIMT path: runs of 8 halves (16 bytes), the
/// epilogue's too; the dtype's tolerances.
// RUN: %python %S/../../Examples/Inputs/half_matmul.py f16 64 2048 64 > %t.f16.mlir
// RUN: %python %S/../../Examples/Inputs/half_matmul.py bf16 64 2048 64 > %t.bf16.mlir
// RUN: deplodock-opt %t.f16.mlir --lower-to-tile="knobs=tensor_cores=false,BM=16,BN=64,FM=2,FN=8,vector_reads=true,vector_stores=true" | FileCheck %s --check-prefix=HALF
// RUN: deplodock-run --interp %t.f16.mlir --pipeline=lower-to-tensor --compare="lower-to-kernel{knobs=tensor_cores=false,BM=16,BN=64,FM=2,FN=8,vector_reads=true,vector_stores=true}" --rtol=1e-3 --print=none | FileCheck %s --check-prefix=NUM
// RUN: deplodock-run --interp %t.bf16.mlir --pipeline=lower-to-tensor --compare="lower-to-kernel{knobs=tensor_cores=false,BM=16,BN=64,FM=2,FN=8,vector_reads=true,vector_stores=true}" --rtol=8e-3 --print=none | FileCheck %s --check-prefix=NUM
/// Where the rule declines the IR is left exactly as it was.
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-blockify-launch="knobs=matmul_0_reduce:BM=16,BN=64" --dtile-register-tile="knobs=FM=2,FN=4" --dtile-stage-inputs --dtile-permute-register-tile --dtile-vector-reads > %t.once.mlir
// RUN: deplodock-opt %t.once.mlir --dtile-vector-reads | diff %t.once.mlir -

// FORKS: kernels.mlir:6:5: remark: @matmul_0_reduce: vector_reads: vector_reads in {true*, false}
// FORKS: kernels.mlir:25:5: remark: @rowsum_0_reduce: vector_reads: does not apply

/// The default reads as vectors (measured faster on the H200).
// DEFAULT: knobs<BK = 32, BM = 16, BN = 64, FM = 2, FN = 4, permute = false, stage = [0, 1], vector_reads = true>
// DEFAULT: dkernel.vector_load

/// FN = 4: thread n's four adjacent columns of B's slab are one float4; A's
/// rows (a column of its slab) stay scalar.
//   FN4-DAG: #[[COL:.*]] = affine_map<(d0) -> (d0 * 4)>
//       FN4: vector_reads = true
//       FN4: threads(%[[MI:.*]] : 8 "d0_i", %[[NI:.*]] : 16 "d1_i")
//       FN4: %[[BS:.*]] = dtile.stage %{{.*}} box [32, 64]
//       FN4: dloop.load %{{.*}}[%[[MI]] * 2, %[[KI:[a-z0-9_]+]]]
//       FN4: dloop.load %{{.*}}[%[[MI]] * 2 + 1, %[[KI]]]
//  FN4-NEXT: %[[C:.*]] = affine.apply #[[COL]](%[[NI]])
//  FN4-NEXT: dkernel.vector_load %[[BS]][%[[KI]], %[[C]]] : memref<32x64xf32, #gpu.address_space<workgroup>> -> f32, f32, f32, f32
//   FN4-NOT: dloop.load %[[BS]]
//       FN4: dloop.store %{{.*}}#1, %{{.*}}[%{{.*}} * 16 + %[[MI]] * 2, %{{.*}} * 64 + %[[NI]] * 4 + 1]

/// FN = 8: the columns dealt in runs of 4 (4 x 4 sub-tiles), 4n and
/// 4n + 32 for 8 column threads; the stores follow.
//   FN8-DAG: #[[LO:.*]] = affine_map<(d0) -> (d0 * 4)>
//   FN8-DAG: #[[HI:.*]] = affine_map<(d0) -> (d0 * 4 + 32)>
//       FN8: threads(%{{.*}} : 8 "d0_i", %[[NI:.*]] : 8 "d1_i")
//       FN8: affine.apply #[[LO]](%[[NI]])
//  FN8-NEXT: dkernel.vector_load
//  FN8-NEXT: affine.apply #[[HI]](%[[NI]])
//  FN8-NEXT: dkernel.vector_load
//       FN8: dloop.store %{{.*}}#4, %{{.*}}[%{{.*}}, %{{.*}} * 64 + %[[NI]] * 4 + 32]

// REFUSED: kernels.mlir:6:5: remark: @matmul_0_reduce: vector_reads: does not apply

// NOT-TAKEN: kernels.mlir:6:5: error: 'dtile.kernel' op no rule took knob "vector_reads" for this kernel

/// The slot of the rotated slab comes first; the run stays 4 elements.
// KERNEL: dkernel.func @matmul_0_reduce
// KERNEL: dkernel.vector_load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : memref<2x32x64xf32, #gpu.address_space<workgroup>> -> f32, f32, f32, f32

// CUDA: const float4 vl{{[0-9]+}} = *reinterpret_cast<const float4 *>(&

// HALF: dkernel.vector_load %{{.*}} : memref<32x64xf16, #gpu.address_space<workgroup>> -> f16, f16, f16, f16, f16, f16, f16, f16
// HALF: dkernel.vector_store({{.*}}), %out0[{{.*}}] : (f16, f16, f16, f16, f16, f16, f16, f16), memref<1x64x64xf16>

// NUM: PASS
// NUM-NOT: FAIL
