// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="knobs=matmul_0_reduce:split_k=1,BM=16,BN=64,FM=2,FN=4,permute=false,vector_reads=false,reg_double=true" | FileCheck %s --check-prefix=SCALAR
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="knobs=matmul_0_reduce:split_k=1,BM=16,BN=64,FM=2,FN=8,permute=false,vector_reads=true,reg_double=true" | FileCheck %s --check-prefix=VECTOR
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="knobs=matmul_0_reduce:split_k=1,BM=16,BN=64,FM=2,FN=4,permute=false,vector_reads=false" | FileCheck %s --check-prefix=SKIP
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="knobs=matmul_0_reduce:split_k=1,BM=16,BN=64,FM=2,FN=4" | FileCheck %s --check-prefix=DEFAULT
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-cooperative-reduce="knobs=rowsum_0_reduce:threads=1;gemv_0_reduce:threads=1" --dtile-blockify-launch --dtile-chunk-reduce --dtile-register-tile --dtile-stage-inputs --dtile-double-buffer --dtile-async-copy --dtile-pipeline-k-outer --dtile-register-double-buffer=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=FORKS
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-tileify --dtile-chunk-matmul-k --dtile-blockify-launch --dtile-register-tile --dtile-stage-inputs="knobs=matmul_0_reduce:stage=[]" --dtile-register-double-buffer=list-forks=true --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=NO-SLAB
// RUN: not deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="knobs=matmul_0_reduce:stage=[],reg_double=true" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=ILLEGAL
// RUN: deplodock-opt %s --dtile-register-double-buffer="list-forks=true knobs=reg_double=true" -split-input-file -verify-diagnostics | FileCheck %s
/// Where the rule declines (on every kernel, once it has run) the IR is
/// left exactly as it was.
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="knobs=matmul_0_reduce:split_k=1,BM=16,BN=64,FM=2,FN=4,permute=false,reg_double=true" > %t.once.mlir
// RUN: deplodock-opt %t.once.mlir --dtile-register-double-buffer | diff %t.once.mlir -
/// The Kernel lowering and the CUDA of a pipelined loop.
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="target=sm_80 knobs=matmul_0_reduce:split_k=1,BM=16,BN=64,FM=2,FN=8,permute=false,vector_reads=true,reg_double=true,unroll=4" --convert-dtile-to-dkernel | deplodock-translate --emit-cuda -o %t.reg80.cu
// RUN: FileCheck %s --check-prefix=CUDA < %t.reg80.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -cubin -o %t.reg80.cubin %t.reg80.cu %}
/// Bit-identical to the loop that loads each step's fragments itself, with
/// scalar and vector reads, on the SIMT interpreter.
// RUN: rm -rf %t.ref && mkdir -p %t.ref/scalar %t.ref/vector
// RUN: deplodock-run --interp %S/Inputs/wide-matmul.mlir --pipeline="lower-to-kernel{knobs=BM=16,BN=128,FM=2,FN=4,permute=false,vector_reads=false,reg_double=false}" --output-dir=%t.ref/scalar --print=none
// RUN: deplodock-run --interp %S/Inputs/wide-matmul.mlir --pipeline="lower-to-kernel{knobs=BM=16,BN=128,FM=2,FN=4,permute=false,vector_reads=false,reg_double=true}" --expect=%t.ref/scalar/result0.npy --rtol=0 --atol=0 --print=none | FileCheck %s --check-prefix=EXACT
// RUN: deplodock-run --interp %S/Inputs/wide-matmul.mlir --pipeline="lower-to-kernel{knobs=BM=16,BN=128,FM=2,FN=8,permute=false,vector_reads=true,reg_double=false}" --output-dir=%t.ref/vector --print=none
// RUN: deplodock-run --interp %S/Inputs/wide-matmul.mlir --pipeline="lower-to-kernel{knobs=BM=16,BN=128,FM=2,FN=8,permute=false,vector_reads=true,reg_double=true}" --expect=%t.ref/vector/result0.npy --rtol=0 --atol=0 --print=none | FileCheck %s --check-prefix=EXACT
/// The fork sampled with the others on the matmul families, at the Kernel
/// level; the CUDA of the variants that took it carries fragments into
/// the inner loop (`float accN = vM;`, which no other variant writes).
// RUN: rm -rf %t.var && mkdir -p %t.var/matmul %t.var/matmul_add %t.var/silu_mul_matmul
// RUN: %python %deplodock_src_root/examples/generate.py --small matmul > %t.var/matmul.mlir
// RUN: %python %deplodock_src_root/examples/generate.py --small matmul_add > %t.var/matmul_add.mlir
// RUN: %python %deplodock_src_root/examples/generate.py --small silu_mul_matmul > %t.var/silu_mul_matmul.mlir
// RUN: deplodock-run --interp %t.var/matmul.mlir --pipeline=lower-to-tensor --check-variants=200 --seed=11 --target=sm_80 --variant-pipeline=convert-dtile-to-dkernel --variant-cuda-dir=%t.var/matmul --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %t.var/matmul_add.mlir --pipeline=lower-to-tensor --check-variants=200 --seed=11 --target=sm_90 --variant-pipeline=convert-dtile-to-dkernel --variant-cuda-dir=%t.var/matmul_add --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: deplodock-run --interp %t.var/silu_mul_matmul.mlir --pipeline=lower-to-tensor --check-variants=100 --seed=11 --target=sm_80 --variant-pipeline=convert-dtile-to-dkernel --variant-cuda-dir=%t.var/silu_mul_matmul --print=none | FileCheck %s --check-prefix=VARIANTS
// RUN: grep -rlE "^ +float acc[0-9]+ = v[0-9]+;" %t.var/matmul | wc -l | FileCheck %s --check-prefix=TAKEN
// RUN: grep -rlE "^ +float acc[0-9]+ = v[0-9]+;" %t.var/matmul_add | wc -l | FileCheck %s --check-prefix=TAKEN
// RUN: grep -rlE "^ +float acc[0-9]+ = v[0-9]+;" %t.var/silu_mul_matmul | wc -l | FileCheck %s --check-prefix=TAKEN

/// Step 0's fragments load before the inner loop; step k loads those of
/// step (k + 1) mod 32 first, then multiplies the carried ones.
// SCALAR-LABEL: func.func @matmul
//       SCALAR:   reg_double = true
//       SCALAR:       %[[A0:.*]] = dloop.load %[[AS:.*]][%[[MI:.*]] * 2, 0] : memref<16x32xf32
//  SCALAR-NEXT:       %[[A1:.*]] = dloop.load %[[AS]][%[[MI]] * 2 + 1, 0]
//  SCALAR-NEXT:       %[[B0:.*]] = dloop.load %[[BS:.*]][0, %[[NI:.*]] * 4] : memref<32x64xf32
//  SCALAR-NEXT:       %[[B1:.*]] = dloop.load %[[BS]][0, %[[NI]] * 4 + 1]
//  SCALAR-NEXT:       %[[B2:.*]] = dloop.load %[[BS]][0, %[[NI]] * 4 + 2]
//  SCALAR-NEXT:       %[[B3:.*]] = dloop.load %[[BS]][0, %[[NI]] * 4 + 3]
//  SCALAR-NEXT:       dloop.for %[[K:.*]] = 0 to 32 reduce "r0_i" iter({{.*}}, %[[FA0:[^ ]+]] = %[[A0]] : f32, %[[FA1:[^ ]+]] = %[[A1]] : f32, %[[FB0:[^ ]+]] = %[[B0]] : f32, %[[FB1:[^ ]+]] = %[[B1]] : f32, %[[FB2:[^ ]+]] = %[[B2]] : f32, %[[FB3:[^ ]+]] = %[[B3]] : f32)
//  SCALAR-NEXT:         %[[NA0:.*]] = dloop.load %[[AS]][%[[MI]] * 2, %[[K]] - ((%[[K]] + 1) floordiv 32) * 32 + 1]
//  SCALAR-NEXT:         %[[NA1:.*]] = dloop.load %[[AS]][%[[MI]] * 2 + 1, %[[K]] - ((%[[K]] + 1) floordiv 32) * 32 + 1]
//  SCALAR-NEXT:         %[[NB0:.*]] = dloop.load %[[BS]][%[[K]] - ((%[[K]] + 1) floordiv 32) * 32 + 1, %[[NI]] * 4]
//  SCALAR-NEXT:         %[[NB1:.*]] = dloop.load %[[BS]][%[[K]] - ((%[[K]] + 1) floordiv 32) * 32 + 1, %[[NI]] * 4 + 1]
//  SCALAR-NEXT:         %[[NB2:.*]] = dloop.load %[[BS]][%[[K]] - ((%[[K]] + 1) floordiv 32) * 32 + 1, %[[NI]] * 4 + 2]
//  SCALAR-NEXT:         %[[NB3:.*]] = dloop.load %[[BS]][%[[K]] - ((%[[K]] + 1) floordiv 32) * 32 + 1, %[[NI]] * 4 + 3]
//  SCALAR-NEXT:         arith.mulf %[[FA0]], %[[FB0]]
//  SCALAR-NEXT:         arith.mulf %[[FA0]], %[[FB1]]
//   SCALAR-NOT:         dloop.load
//       SCALAR:         arith.mulf %[[FA1]], %[[FB3]]
//   SCALAR-NOT:         dloop.load
//       SCALAR:         dloop.yield {{.*}}, %[[NA0]], %[[NA1]], %[[NB0]], %[[NB1]], %[[NB2]], %[[NB3]] :
// SCALAR-LABEL: func.func @rowsum

/// The float4 reads of B move ahead like the scalar ones, each of their
/// four values carried.
// VECTOR-LABEL: func.func @matmul
//       VECTOR:   reg_double = true
//       VECTOR:       %[[A0:.*]] = dloop.load %[[AS:.*]][%{{.*}} * 2, 0]
//  VECTOR-NEXT:       %[[A1:.*]] = dloop.load %[[AS]][%{{.*}} * 2 + 1, 0]
//  VECTOR-NEXT:       %[[B0:.*]]:4 = dkernel.vector_load %[[BS:.*]][%[[C0:.*]], %[[N0:.*]]] :
//  VECTOR-NEXT:       %[[B1:.*]]:4 = dkernel.vector_load %[[BS]][%[[C0]], %[[N1:.*]]] :
//  VECTOR-NEXT:       dloop.for %[[K:.*]] = 0 to 32 reduce "r0_i" iter({{.*}}, %[[FA0:[^ ]+]] = %[[A0]] : f32, %{{[^ ]+}} = %[[A1]] : f32, %[[FB0:[^ ]+]] = %[[B0]]#0 : f32, {{.*}} = %[[B1]]#3 : f32)
//  VECTOR-NEXT:         %[[NEXT:.*]] = affine.apply #{{.*}}(%[[K]])
//  VECTOR-NEXT:         dloop.load %[[AS]]
//  VECTOR-NEXT:         dloop.load %[[AS]]
//  VECTOR-NEXT:         %[[NB0:.*]]:4 = dkernel.vector_load %[[BS]][%[[NEXT]], %[[N0]]]
//  VECTOR-NEXT:         %[[NB1:.*]]:4 = dkernel.vector_load %[[BS]][%[[NEXT]], %[[N1]]]
//  VECTOR-NEXT:         arith.mulf %[[FA0]], %[[FB0]]
//   VECTOR-NOT:         vector_load
//       VECTOR:         dloop.yield {{.*}}, %[[NB0]]#0, %[[NB0]]#1, %[[NB0]]#2, %[[NB0]]#3, %[[NB1]]#0, %[[NB1]]#1, %[[NB1]]#2, %[[NB1]]#3 :

/// Skipped (the default where the slab reads stay scalar) the loop is as it
/// was: each step loads its own fragments.
// SKIP-LABEL: func.func @matmul
//       SKIP:   reg_double = false
//       SKIP:       dloop.for %[[K:.*]] = 0 to 32 reduce "r0_i" iter(%{{[^ ]+}} = %{{[^ ]+}} : f32, %{{[^ ]+}} = %{{[^ ]+}} : f32, %{{[^ ]+}} = %{{[^ ]+}} : f32, %{{[^ ]+}} = %{{[^ ]+}} : f32, %{{[^ ]+}} = %{{[^ ]+}} : f32, %{{[^ ]+}} = %{{[^ ]+}} : f32, %{{[^ ]+}} = %{{[^ ]+}} : f32, %{{[^ ]+}} = %{{[^ ]+}} : f32)
//  SKIP-NEXT:         dloop.load %{{.*}}[%{{.*}} * 2, %[[K]]]

/// The default behind vector reads (columns kept, read as vectors) applies.
// DEFAULT: permute = false, pipeline = true, reg_double = true,{{.*}} vector_reads = true
// DEFAULT: dkernel.vector_load
// DEFAULT: dloop.for %{{.*}} = 0 to 32 reduce "r0_i"

// FORKS: kernels.mlir:6:5: remark: @matmul_0_reduce: register_double_buffer: reg_double in {false*, true}
// FORKS: kernels.mlir:25:5: remark: @rowsum_0_reduce: register_double_buffer: does not apply: no inner reduce loop reads a shared slab
// FORKS: kernels.mlir:58:5: remark: @gemv_0_reduce: register_double_buffer: reg_double in {false*, true}

// NO-SLAB: kernels.mlir:6:5: remark: @matmul_0_reduce: register_double_buffer: does not apply: no inner reduce loop reads a shared slab

// ILLEGAL: kernels.mlir:6:5: error: 'dtile.kernel' op no rule took knob "reg_double" for this kernel

// CUDA: float acc{{[0-9]+}} = v{{[0-9]+}};
// CUDA: #pragma unroll 4
// CUDA-NEXT: for (int [[K:i[0-9]+]] = 0; [[K]] < 32; [[K]] += 1) {
// CUDA-NEXT:   const int [[K1:v[0-9]+]] = [[K]] + 1;
// CUDA:        float4 [[NB:vl[0-9]+]] = *reinterpret_cast<const float4 *>(&smem1[
// CUDA-NEXT:   const float [[X:v[0-9]+]] = [[NB]].x;
// CUDA:        const float {{v[0-9]+}} = acc{{[0-9]+}} * acc{{[0-9]+}};
// CUDA:        acc{{[0-9]+}} = [[X]];

// EXACT: max abs error 0, max rel error 0: PASS

// VARIANTS: checked, 0 failed
// TAKEN: {{^[1-9][0-9]*$}}

// -----

/// One K step: nothing to load ahead.
func.func @one_step(%arg0: memref<16x32xf32>, %arg1: memref<16xf32>) {
  // expected-remark @+1 {{register_double_buffer: does not apply: the K loop "k_i" runs once: there is no next step to load ahead}}
  dtile.kernel @one_step ins(%x = %arg0 : memref<16x32xf32>) outs(%y = %arg1 : memref<16xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%b : 1 "b") threads(%t : 16 "t") {
      %r = dloop.for %ko = 0 to 32 reduce "k_o" iter(%acc = %zero : f32) {
        %s = dtile.stage %x[0, %ko] box [16, 1] : memref<16x32xf32> -> memref<16x1xf32, #gpu.address_space<workgroup>>
        %p = dloop.for %ki = 0 to 1 reduce "k_i" iter(%a = %acc : f32) {
          %v = dloop.load %s[%t, %ki] : memref<16x1xf32, #gpu.address_space<workgroup>>
          %n = arith.addf %a, %v : f32
          dloop.yield %n : f32
        }
        dloop.yield %p : f32
      }
      dloop.store %r, %y[%t] : memref<16xf32>
    }
  }
  return
}

// -----

/// A partial step guards its reads.
func.func @guarded(%arg0: memref<16x32xf32>, %arg1: memref<16xf32>) {
  // expected-remark @+1 {{register_double_buffer: does not apply: the K loop "k_i" guards some accesses (a partial step)}}
  dtile.kernel @guarded ins(%x = %arg0 : memref<16x32xf32>) outs(%y = %arg1 : memref<16xf32>) {
    %zero = arith.constant 0.0 : f32
    %c20 = arith.constant 20 : index
    dtile.tile blocks(%b : 1 "b") threads(%t : 16 "t") {
      %s = dtile.stage %x[0, 0] box [16, 32] : memref<16x32xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
      %p = dloop.for %ki = 0 to 32 reduce "k_i" iter(%a = %zero : f32) {
        %in = arith.cmpi ult, %ki, %c20 : index
        %v = scf.if %in -> (f32) {
          %l = dloop.load %s[%t, %ki] : memref<16x32xf32, #gpu.address_space<workgroup>>
          scf.yield %l : f32
        } else {
          scf.yield %zero : f32
        }
        %w = dloop.load %s[%t, 0] : memref<16x32xf32, #gpu.address_space<workgroup>>
        %m = arith.mulf %v, %w : f32
        %n = arith.addf %a, %m : f32
        dloop.yield %n : f32
      }
      dloop.store %p, %y[%t] : memref<16xf32>
    }
  }
  return
}

// -----

/// A read whose index is a carried value cannot be issued a step early.
func.func @carried_index(%arg0: memref<16x32xf32>, %arg1: memref<16xf32>) {
  // expected-remark @+1 {{register_double_buffer: does not apply: the K loop "k_i" indexes a slab read with a carried or loaded value}}
  dtile.kernel @carried_index ins(%x = %arg0 : memref<16x32xf32>) outs(%y = %arg1 : memref<16xf32>) {
    %zero = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    dtile.tile blocks(%b : 1 "b") threads(%t : 16 "t") {
      %s = dtile.stage %x[0, 0] box [16, 32] : memref<16x32xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
      %p:2 = dloop.for %ki = 0 to 32 reduce "k_i" iter(%a = %zero : f32, %j = %c0 : index) {
        %v = dloop.load %s[%t, %j] : memref<16x32xf32, #gpu.address_space<workgroup>>
        %n = arith.addf %a, %v : f32
        dloop.yield %n, %ki : f32, index
      }
      dloop.store %p#0, %y[%t] : memref<16xf32>
    }
  }
  return
}

// -----

/// A loop that writes memory keeps its reads where they are.
func.func @writes(%arg0: memref<16x32xf32>, %arg1: memref<16xf32>) {
  // expected-remark @+1 {{register_double_buffer: does not apply: the K loop "k_i" writes memory}}
  dtile.kernel @writes ins(%x = %arg0 : memref<16x32xf32>) outs(%y = %arg1 : memref<16xf32>) {
    dtile.tile blocks(%b : 1 "b") threads(%t : 16 "t") {
      %s = dtile.stage %x[0, 0] box [16, 32] : memref<16x32xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
      dloop.for %ki = 0 to 32 reduce "k_i" {
        %v = dloop.load %s[%t, %ki] : memref<16x32xf32, #gpu.address_space<workgroup>>
        dloop.store add %v, %y[%t] : memref<16xf32>
      }
    }
  }
  return
}

// -----

/// A step loop whose bound is dynamic (causal_bound's scf.for).
func.func @dynamic(%arg0: memref<16x32xf32>, %arg1: memref<16xf32>) {
  // expected-remark @+1 {{register_double_buffer: does not apply: a loop reading slabs has a dynamic trip count}}
  dtile.kernel @dynamic ins(%x = %arg0 : memref<16x32xf32>) outs(%y = %arg1 : memref<16xf32>) {
    %zero = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    dtile.tile blocks(%b : 2 "b") threads(%t : 16 "t") {
      %s = dtile.stage %x[0, 0] box [16, 32] : memref<16x32xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
      %end = affine.apply affine_map<(d0) -> (d0 * 16 + 16)>(%b)
      %p = scf.for %ki = %c0 to %end step %c1 iter_args(%a = %zero) -> (f32) {
        %v = dloop.load %s[%t, %ki] : memref<16x32xf32, #gpu.address_space<workgroup>>
        %n = arith.addf %a, %v : f32
        scf.yield %n : f32
      }
      dloop.store %p, %y[%t] : memref<16xf32>
    }
  }
  return
}

// -----

/// A loop over several K steps of a slab takes the knob.
// CHECK-LABEL: func.func @applies
//       CHECK:   knobs<reg_double = true>
//       CHECK:     %[[V0:.*]] = dloop.load %[[S:.*]][%[[T:.*]], 0]
//       CHECK:     dloop.for %[[K:.*]] = 0 to 32 reduce "k_i" iter(%[[A:.*]] = %{{.*}} : f32, %[[V:.*]] = %[[V0]] : f32)
//  CHECK-NEXT:       %[[N:.*]] = dloop.load %[[S]][%[[T]], %[[K]] - ((%[[K]] + 1) floordiv 32) * 32 + 1]
//  CHECK-NEXT:       %[[SUM:.*]] = arith.addf %[[A]], %[[V]] : f32
//  CHECK-NEXT:       dloop.yield %[[SUM]], %[[N]] : f32, f32
func.func @applies(%arg0: memref<16x32xf32>, %arg1: memref<16xf32>) {
  // expected-remark @+1 {{register_double_buffer: reg_double in {false*, true}}}
  dtile.kernel @applies ins(%x = %arg0 : memref<16x32xf32>) outs(%y = %arg1 : memref<16xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%b : 1 "b") threads(%t : 16 "t") {
      %s = dtile.stage %x[0, 0] box [16, 32] : memref<16x32xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
      %p = dloop.for %ki = 0 to 32 reduce "k_i" iter(%a = %zero : f32) {
        %v = dloop.load %s[%t, %ki] : memref<16x32xf32, #gpu.address_space<workgroup>>
        %n = arith.addf %a, %v : f32
        dloop.yield %n : f32
      }
      dloop.store %p, %y[%t] : memref<16xf32>
    }
  }
  return
}
