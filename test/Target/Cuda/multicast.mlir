// RUN: deplodock-translate --emit-cuda %s | FileCheck %s
// RUN: deplodock-translate --emit-cuda %s -o %t.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -cubin -o %t.sm90a.cubin %t.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -ptx -o - %t.cu | FileCheck %s --check-prefix=PTX %}
// RUN: %if nvrtc %{ %nvrtc --gpu-architecture=sm_90a %t.cu %}
// RUN: sed -e 's/%%mask = arith.constant 3 : i16/%%mask = arith.index_cast %%c2 : index to i16/' %s > %t.computed.mlir
// RUN: deplodock-translate --emit-cuda %t.computed.mlir -o %t.computed.cu
// RUN: FileCheck %s --check-prefix=COMPUTED < %t.computed.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -cubin -o %t.computed.cubin %t.computed.cu %}

/// TMA multicast and cluster-scope mbarriers (sm_90a; plain sm_90 takes
/// the multicast with a performance advisory). The kernel of
/// test/Interpreter/Simt/multicast.mlir: rank 0 multicasts a slab of B to
/// both blocks of its cluster and arrives on rank 1's second mbarrier;
/// rank 1 releases its slab back to rank 0 the same way.
/// The mask is the last asm operand, 16 bits wide ("h"); the remote
/// arrival maps the local mbarrier address to the other block's with mapa.
// CHECK-LABEL: extern "C" __global__ void __launch_bounds__(64) __cluster_dims__(2, 1, 1)
//  CHECK-NEXT: multicast(const float* __restrict__ in0, const float* __restrict__ in1, const __grid_constant__ CUtensorMap desc0, float* __restrict__ out0) {
//       CHECK:     asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
//       CHECK:     asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, {%3, %4}], [%2], %5;\n" :: "r"((unsigned)__cvta_generic_to_shared(smem0)), "l"((unsigned long long)&desc0), "r"((unsigned)__cvta_generic_to_shared(&smem1[0])), "r"((int)0), "r"((int)[[ROW:v[0-9]+]]), "h"((unsigned short)3) : "memory");
//       CHECK:     asm volatile("{\n.reg .b32 remote;\nmapa.shared::cluster.u32 remote, %0, %1;\nmbarrier.arrive.shared::cluster.b64 _, [remote];\n}\n" :: "r"((unsigned)__cvta_generic_to_shared(&smem1[1])), "r"((unsigned)1) : "memory");

/// A mask computed at run time (an i16 value) is passed the same way.
// COMPUTED: const short [[MASK:v[0-9]+]] = (short)2;
// COMPUTED: multicast::cluster [%0], [%1, {%3, %4}], [%2], %5;\n" :: {{.*}}, "h"((unsigned short)[[MASK]]) : "memory");

// PTX: fence.mbarrier_init.release.cluster;
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%r{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%r{{[0-9]+}}], %rs{{[0-9]+}};
// PTX: mapa.shared::cluster.u32 remote, %r{{[0-9]+}}, %r{{[0-9]+}};
// PTX: mbarrier.arrive.shared::cluster.b64 _, [remote];
dkernel.func @multicast(%a: memref<4x16xf32>, %b: memref<32x64xf32>, %desc: !dkernel.tma_descriptor<16x64xf32, swizzle = 0>, %y: memref<4x64xf32>) outputs [3] grid [4, 1, 1] block [64, 1, 1] cluster [2, 1, 1] smem 4112 {
  dkernel.tma_descriptor %desc describes %b : !dkernel.tma_descriptor<16x64xf32, swizzle = 0>, memref<32x64xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %mask = arith.constant 3 : i16
  %peer = arith.constant 1 : index
  %fences = arith.constant 1 : index
  %early = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %slab = dkernel.alloc_shared offset 0 : memref<16x64xf32, #gpu.address_space<workgroup>>
  %mb = dkernel.alloc_shared offset 4096 : memref<2xi64, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x
  %bx = gpu.block_id x
  %rank = dkernel.cluster_block_rank
  %leader = arith.cmpi eq, %t, %c0 : index
  %first = arith.cmpi eq, %rank, %c0 : index
  %second = arith.cmpi ne, %rank, %c0 : index
  %issues = arith.andi %leader, %first : i1
  %releases = arith.andi %leader, %second : i1
  %cluster = arith.divui %bx, %c2 : index
  %row = arith.muli %cluster, %c16 : index
  // mb[0]: the slab is full; mb[1]: rank 1 may go on (rank 0 arrives
  // there), rank 0 may refill the slab (rank 1 arrives there).
  scf.if %leader {
    dkernel.mbarrier_init %mb[%c0], 1 : memref<2xi64, #gpu.address_space<workgroup>>
    dkernel.mbarrier_init %mb[%c1], 1 : memref<2xi64, #gpu.address_space<workgroup>>
    dkernel.fence_mbarrier_init
  }
  // Every block's mbarriers exist before any block multicasts into them.
  %fenced = arith.cmpi ne, %fences, %c0 : index
  scf.if %fenced {
    dkernel.cluster_barrier
  }
  scf.if %leader {
    dkernel.mbarrier_arrive_expect_tx %mb[%c0], 4096 : memref<2xi64, #gpu.address_space<workgroup>>
  }
  scf.if %issues {
    dkernel.tma_load %desc[%row, %c0] -> %slab, %mb[%c0] multicast %mask : !dkernel.tma_descriptor<16x64xf32, swizzle = 0>, memref<16x64xf32, #gpu.address_space<workgroup>>, memref<2xi64, #gpu.address_space<workgroup>>
  }
  // Rank 1 goes on once rank 0 lets it.
  scf.if %second {
    dkernel.mbarrier_wait %mb[%c1], %c0 : memref<2xi64, #gpu.address_space<workgroup>>
  }
  // Releasing the slab before reading it lets rank 0 refill it too soon.
  %soon = arith.cmpi ne, %early, %c0 : index
  %releases_soon = arith.andi %releases, %soon : i1
  scf.if %releases_soon {
    dkernel.mbarrier_arrive_cluster %mb[%c1], %c0 : memref<2xi64, #gpu.address_space<workgroup>>
  }
  dkernel.mbarrier_wait %mb[%c0], %c0 : memref<2xi64, #gpu.address_space<workgroup>>
  %sum1 = scf.for %k = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) {
    %av = memref.load %a[%bx, %k] : memref<4x16xf32>
    %bv = memref.load %slab[%k, %t] : memref<16x64xf32, #gpu.address_space<workgroup>>
    %p = arith.mulf %av, %bv : f32
    %next = arith.addf %acc, %p : f32
    scf.yield %next : f32
  }
  %late = arith.cmpi eq, %early, %c0 : index
  %releases_late = arith.andi %releases, %late : i1
  scf.if %releases_late {
    dkernel.mbarrier_arrive_cluster %mb[%c1], %c0 : memref<2xi64, #gpu.address_space<workgroup>>
  }
  scf.if %issues {
    dkernel.mbarrier_arrive_cluster %mb[%c1], %peer : memref<2xi64, #gpu.address_space<workgroup>>
  }
  // Round 2: rank 0 refills both slabs with the same box once rank 1
  // released its slab.
  scf.if %leader {
    dkernel.mbarrier_arrive_expect_tx %mb[%c0], 4096 : memref<2xi64, #gpu.address_space<workgroup>>
  }
  scf.if %first {
    dkernel.mbarrier_wait %mb[%c1], %c0 : memref<2xi64, #gpu.address_space<workgroup>>
  }
  scf.if %issues {
    dkernel.tma_load %desc[%row, %c0] -> %slab, %mb[%c0] multicast %mask : !dkernel.tma_descriptor<16x64xf32, swizzle = 0>, memref<16x64xf32, #gpu.address_space<workgroup>>, memref<2xi64, #gpu.address_space<workgroup>>
  }
  dkernel.mbarrier_wait %mb[%c0], %c1 : memref<2xi64, #gpu.address_space<workgroup>>
  %sum2 = scf.for %k = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) {
    %av = memref.load %a[%bx, %k] : memref<4x16xf32>
    %bv = memref.load %slab[%k, %t] : memref<16x64xf32, #gpu.address_space<workgroup>>
    %p = arith.mulf %av, %bv : f32
    %next = arith.addf %acc, %p : f32
    scf.yield %next : f32
  }
  %both = arith.addf %sum1, %sum2 : f32
  %mean = arith.mulf %both, %half : f32
  memref.store %mean, %y[%bx, %t] : memref<4x64xf32>
  dkernel.return
}
