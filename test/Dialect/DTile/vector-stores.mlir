// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-blockify-launch="knobs=matmul_0_reduce:BM=16,BN=64" --dtile-register-tile="knobs=FM=2,FN=8" --dtile-stage-inputs --dtile-permute-register-tile="knobs=permute=false" --dtile-vector-reads="knobs=vector_reads=true" --dtile-vector-stores=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=FORKS
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-blockify-launch="knobs=matmul_0_reduce:BM=16,BN=64" --dtile-register-tile="knobs=FM=2,FN=8" --dtile-stage-inputs --dtile-permute-register-tile="knobs=permute=false" --dtile-vector-reads="knobs=vector_reads=true" --dtile-vector-stores | FileCheck %s --check-prefix=DEFAULT
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-blockify-launch="knobs=matmul_0_reduce:BM=16,BN=64" --dtile-register-tile="knobs=FM=2,FN=8" --dtile-stage-inputs --dtile-permute-register-tile="knobs=permute=false" --dtile-vector-reads="knobs=vector_reads=true" --dtile-vector-stores="knobs=vector_stores=true" | FileCheck %s --check-prefix=APPLY
/// Refused: split-K's reducing stores (atomics), interleaved columns.
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-split-matmul-k="knobs=split_k=2" --dtile-blockify-launch="knobs=matmul_0_reduce:BM=16,BN=64" --dtile-register-tile="knobs=FM=2,FN=4" --dtile-stage-inputs --dtile-permute-register-tile="knobs=permute=false" --dtile-vector-stores=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=REFUSED
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-blockify-launch="knobs=matmul_0_reduce:BM=16,BN=64" --dtile-register-tile="knobs=FM=2,FN=4" --dtile-stage-inputs --dtile-permute-register-tile="knobs=permute=true" --dtile-vector-stores=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=REFUSED
// RUN: deplodock-opt %s --dtile-vector-stores=list-forks=true -split-input-file -verify-diagnostics | FileCheck %s
/// Lowered, emitted and interpreted.
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="target=sm_80 knobs=matmul_0_reduce:split_k=1,BM=16,BN=64,FM=2,FN=4,permute=false,vector_stores=true" --convert-dtile-to-dkernel | deplodock-translate --emit-cuda -o %t.stores80.cu
// RUN: FileCheck %s --check-prefix=CUDA < %t.stores80.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -cubin -o %t.stores80.cubin %t.stores80.cu %}
// RUN: deplodock-run --interp %S/Inputs/wide-matmul.mlir --pipeline=lower-to-tensor --compare="lower-to-kernel{knobs=BM=16,BN=128,FM=2,FN=8,permute=false,vector_reads=true,vector_stores=true}" --print=none | FileCheck %s --check-prefix=NUM

// FORKS: kernels.mlir:6:5: remark: @matmul_0_reduce: vector_stores: vector_stores in {false*, true}

// DEFAULT: vector_stores = false
// DEFAULT-NOT: dkernel.vector_store

/// Each row's two runs of four columns (4n, 4n + 32) are one float4 store
/// each, at the last store of the run; the rows' second pair follows.
// APPLY: vector_stores = true
// APPLY: dkernel.vector_store(%{{.*}}#0, %{{.*}}#1, %{{.*}}#2, %{{.*}}#3), %out0[%{{.*}}, %{{.*}}] : (f32, f32, f32, f32), memref<16x64xf32>
// APPLY: dkernel.vector_store(%{{.*}}#4, %{{.*}}#5, %{{.*}}#6, %{{.*}}#7)
// APPLY: dkernel.vector_store(%{{.*}}#8, %{{.*}}#9, %{{.*}}#10, %{{.*}}#11)
// APPLY: dkernel.vector_store(%{{.*}}#12, %{{.*}}#13, %{{.*}}#14, %{{.*}}#15)
// APPLY-NOT: dloop.store %{{.*}}, %out0
// APPLY: func.func @rowsum

// REFUSED: kernels.mlir:6:5: remark: @matmul_0_reduce: vector_stores: does not apply

// CUDA: *reinterpret_cast<float4 *>(&{{.*}}) = make_float4(

// NUM: PASS
// NUM-NOT: FAIL

// -----

/// Rows of 5 elements: the rows after the first start unaligned, so no
/// run of 2 or 4 forms.
// CHECK-LABEL: func.func @short_rows
//   CHECK-NOT:   dkernel.vector_store
func.func @short_rows(%arg0: memref<16x5xf32>) {
  // expected-remark @+1 {{vector_stores: does not apply}}
  dtile.kernel @short_rows outs(%y = %arg0 : memref<16x5xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%b : 1 "b") threads(%t : 16 "t") {
      dloop.store %zero, %y[%t, 0] : memref<16x5xf32>
      dloop.store %zero, %y[%t, 1] : memref<16x5xf32>
      dloop.store %zero, %y[%t, 2] : memref<16x5xf32>
      dloop.store %zero, %y[%t, 3] : memref<16x5xf32>
    }
  }
  return
}

// -----

/// Another write between the run's stores: moving the run to its last
/// store could reorder them, so nothing forms.
// CHECK-LABEL: func.func @interleaved
//   CHECK-NOT:   dkernel.vector_store
func.func @interleaved(%arg0: memref<16x8xf32>, %arg1: memref<16xf32>) {
  // expected-remark @+1 {{vector_stores: does not apply}}
  dtile.kernel @interleaved outs(%y = %arg0 : memref<16x8xf32>, %z = %arg1 : memref<16xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%b : 1 "b") threads(%t : 16 "t") {
      dloop.store %zero, %y[%t, 0] : memref<16x8xf32>
      dloop.store %zero, %z[%t] : memref<16xf32>
      dloop.store %zero, %y[%t, 1] : memref<16x8xf32>
      dloop.store %zero, %y[%t, 2] : memref<16x8xf32>
      dloop.store %zero, %z[%t] : memref<16xf32>
      dloop.store %zero, %y[%t, 3] : memref<16x8xf32>
    }
  }
  return
}
