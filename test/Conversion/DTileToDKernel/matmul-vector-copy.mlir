// RUN: deplodock-opt %s -convert-dtile-to-dkernel | FileCheck %s
// RUN: deplodock-opt %s -convert-dtile-to-dkernel | deplodock-translate --emit-cuda | FileCheck %s --check-prefix=CUDA
// RUN: deplodock-opt %s -convert-dtile-to-dkernel | deplodock-translate --emit-cuda -o %t.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -cubin -o %t.sm80.cubin %t.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -cubin -o %t.sm90.cubin %t.cu %}
/// The interpreter runs the Tile IR and the Kernel IR against the loop.
// RUN: deplodock-run --interp %s --func=loop --compare-func=run_matmul_vector --print=none | FileCheck %s --check-prefix=INTERP
// RUN: deplodock-opt %s -convert-dtile-to-dkernel -o %t.kernel.mlir
// RUN: deplodock-run --interp %t.kernel.mlir --func=loop --compare-func=run_matmul_vector --print=none | FileCheck %s --check-prefix=INTERP

/// A synchronous matmul whose stages travel as `vector`: A's 16x32 slab is
/// 128 runs of 4 floats (16 bytes), B's 32x16 slab too, so each of the
/// first 128 threads copies one run of each with one 128-bit load and
/// store, then the block synchronises once for both stages.
// CHECK-LABEL: dkernel.func @matmul_vector
//  CHECK-SAME:   (%[[A:.*]]: memref<128x256xf32>, %[[B:.*]]: memref<256x64xf32>, %{{.*}}: memref<128x64xf32>)
//       CHECK:   %[[AS:.*]] = dkernel.alloc_shared offset 0 : memref<16x32xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[BS:.*]] = dkernel.alloc_shared offset 2048 : memref<32x16xf32, #gpu.address_space<workgroup>>
//       CHECK:   scf.for
//       CHECK:     dkernel.vector_copy %[[A]][%{{.*}}, %{{.*}}], %[[AS]][%{{.*}}, %{{.*}}], 16 : memref<128x256xf32>, memref<16x32xf32, #gpu.address_space<workgroup>>
//   CHECK-NOT:     gpu.barrier
//       CHECK:     dkernel.vector_copy %[[B]][%{{.*}}, %{{.*}}], %[[BS]][%{{.*}}, %{{.*}}], 16 : memref<256x64xf32>, memref<32x16xf32, #gpu.address_space<workgroup>>
//       CHECK:     gpu.barrier
//   CHECK-NOT:   dkernel.cp_async

// INTERP: compare result #0 @run_matmul_vector: {{.*}}: PASS

// CUDA-LABEL: matmul_vector(const float* __restrict__ in0, const float* __restrict__ in1, float* __restrict__ out0) {
//       CUDA:   *reinterpret_cast<uint4 *>(&{{.*}}) = *reinterpret_cast<const uint4 *>(&in0[{{.*}}]);
//       CUDA:   *reinterpret_cast<uint4 *>(&{{.*}}) = *reinterpret_cast<const uint4 *>(&in1[{{.*}}]);
//       CUDA:   __syncthreads();


func.func @loop(%arg0: memref<128x256xf32>, %arg1: memref<256x64xf32>) -> memref<128x64xf32> {
  %out = memref.alloc() : memref<128x64xf32>
  dloop.kernel @matmul ins(%a = %arg0 : memref<128x256xf32>, %b = %arg1 : memref<256x64xf32>) outs(%c = %out : memref<128x64xf32>) {
    %zero = arith.constant 0.0 : f32
    dloop.for %m = 0 to 128 free "m" {
      dloop.for %n = 0 to 64 free "n" {
        %s = dloop.for %k = 0 to 256 reduce "k" iter(%acc = %zero : f32) {
          %av = dloop.load %a[%m, %k] : memref<128x256xf32>
          %bv = dloop.load %b[%k, %n] : memref<256x64xf32>
          %p = arith.mulf %av, %bv : f32
          %next = arith.addf %acc, %p : f32
          dloop.yield %next : f32
        }
        dloop.store %s, %c[%m, %n] : memref<128x64xf32>
      }
    }
  }
  return %out : memref<128x64xf32>
}

func.func @run_matmul_vector(%arg0: memref<128x256xf32>, %arg1: memref<256x64xf32>) -> memref<128x64xf32> {
  %out = memref.alloc() : memref<128x64xf32>
  dtile.kernel @matmul_vector knobs<BK = 32, BM = 16, BN = 16, async_copy = false, stage = [0, 1], vector_copy = true> ins(%a = %arg0 : memref<128x256xf32>, %b = %arg1 : memref<256x64xf32>) outs(%c = %out : memref<128x64xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%mo : 8 "m_o", %no : 4 "n_o") threads(%mi : 16 "m_i", %ni : 16 "n_i") {
      %res = dloop.for %ko = 0 to 8 reduce "k_o" iter(%acc = %zero : f32) {
        %as = dtile.stage %a[%mo * 16, %ko * 32] box [16, 32] transport vector : memref<128x256xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
        %bs = dtile.stage %b[%ko * 32, %no * 16] box [32, 16] transport vector : memref<256x64xf32> -> memref<32x16xf32, #gpu.address_space<workgroup>>
        %part = dloop.for %ki = 0 to 32 reduce "k_i" iter(%acc2 = %acc : f32) {
          %av = dloop.load %as[%mi, %ki] : memref<16x32xf32, #gpu.address_space<workgroup>>
          %bv = dloop.load %bs[%ki, %ni] : memref<32x16xf32, #gpu.address_space<workgroup>>
          %prod = arith.mulf %av, %bv : f32
          %sum = arith.addf %acc2, %prod : f32
          dloop.yield %sum : f32
        }
        dloop.yield %part : f32
      }
      dloop.store %res, %c[%mo * 16 + %mi, %no * 16 + %ni] : memref<128x64xf32>
    }
  }
  return %out : memref<128x64xf32>
}
