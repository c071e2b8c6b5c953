// RUN: %python %S/../Examples/Inputs/half_matmul.py bf16 512 2048 2048 > %t.bf16.mlir
// RUN: deplodock-opt %t.bf16.mlir "--deplodock-pipeline=target=sm_90a knobs=matmul_0_reduce:double_buffer=true,pipeline=true,swizzle=128,unroll=4,warpgroups=2,wgmma=true,wgmma_n=256" --dkernel-estimate -o /dev/null 2>&1 | FileCheck %s --check-prefix=TWO
// RUN: deplodock-opt %t.bf16.mlir "--deplodock-pipeline=target=sm_90a knobs=matmul_0_reduce:double_buffer=true,pipeline=true,stages=4,swizzle=128,unroll=4,warpgroups=2,wgmma=true,wgmma_n=256" --dkernel-estimate -o /dev/null 2>&1 | FileCheck %s --check-prefix=FOUR
// RUN: deplodock-opt %t.bf16.mlir "--deplodock-pipeline=target=sm_90 knobs=matmul_0_reduce:WM=32,WN=32,async_copy=true,double_buffer=true,mma_k=32,mma_pad=false,mma_swizzle=true,pipeline=true,tensor_cores=true,unroll=4,warps=8" --dkernel-estimate -o /dev/null 2>&1 | FileCheck %s --check-prefix=MMA
// RUN: %python %S/../Examples/Inputs/half_matmul.py bf16 4096 4096 4096 > %t.big.mlir
// RUN: deplodock-opt %t.big.mlir --deplodock-pipeline=target=sm_90a --dkernel-estimate -o /dev/null > %t.rounds 2>&1
// RUN: deplodock-opt %t.big.mlir "--deplodock-pipeline=target=sm_90a knobs=persistent=true" --dkernel-estimate -o /dev/null >> %t.rounds 2>&1
// RUN: FileCheck %s --check-prefix=PERSISTENT < %t.rounds
// RUN: %python %S/../Examples/Inputs/half_matmul.py bf16 512 3584 18944 > %t.tail.mlir
// RUN: deplodock-opt %t.tail.mlir --deplodock-pipeline=target=sm_90a --dkernel-estimate -o /dev/null > %t.tail 2>&1
// RUN: deplodock-opt %t.tail.mlir "--deplodock-pipeline=target=sm_90a knobs=persistent=true" --dkernel-estimate -o /dev/null >> %t.tail 2>&1
// RUN: FileCheck %s --check-prefix=TAIL < %t.tail
// RUN: deplodock-opt %t.big.mlir "--deplodock-pipeline=target=sm_90a knobs=warp_specialize=true" --dkernel-estimate -o /dev/null >> %t.rounds 2>&1
// RUN: FileCheck %s --check-prefix=ROLES < %t.rounds
// RUN: deplodock-opt %s --dkernel-estimate=target=sm_80 -o /dev/null 2>&1 | FileCheck %s --check-prefix=A100
// RUN: not deplodock-opt %s --dkernel-estimate=target=sm_75 -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: deplodock-opt %s --dkernel-estimate=target=sm_90 | FileCheck %s --check-prefix=SAME

/// The roofline model's estimate of each kernel, as a remark. The wgmma
/// matmul (512 x 2048 x 2048 in bf16, 128 x 256 tiles: 32 blocks, 32 K
/// steps of 64) with two slots per stage waits a whole TMA latency each K
/// step: latency-bound, above its tensor-core time. With four slots three
/// stages are in flight and the tensor cores decide.
// TWO: remark: estimate of @matmul_0_reduce: latency-bound, {{.*}}; compute {{[0-9.]+}}, tensor {{[1-9][0-9.]*}}, l2
// FOUR: remark: estimate of @matmul_0_reduce: tensor-bound, {{.*}}; compute {{[0-9.]+}}, tensor {{[1-9][0-9.]*}}, l2

/// A persistent grid (132 blocks looping over 512 tiles) runs in one round,
/// but each block waits out the K pipeline of every tile it takes: the
/// latency chain of the launch's four rounds, not of one tile.
// PERSISTENT: estimate of @matmul_0_reduce: {{.*}}, 4 rounds; {{.*}} latency [[LAT:[0-9]+]].{{[0-9]+}} us
// PERSISTENT: estimate of @matmul_0_reduce: {{.*}}, 1 round; {{.*}} latency [[LAT]].{{[0-9]+}} us

/// Where the tiles do not divide among the blocks (296 tiles of 128 x 256
/// on 132 blocks) the persistent grid's blocks 0-31 take three tiles and
/// the others two: the kernel ends with the busiest block, so its tensor and
/// L2 time is that of the plain grid's three rounds, not of the middle
/// block's two trips.
// TAIL: estimate of @matmul_0_reduce: {{.*}}, 3 rounds; compute {{[0-9.]+}}, tensor [[TC:[0-9.]+]], l2 [[L2:[0-9.]+]],
// TAIL: estimate of @matmul_0_reduce: {{.*}}, 1 round; compute {{[0-9.]+}}, tensor [[TC]], l2 [[L2]],

/// A warp-specialised block moves the same TMA boxes through L2, issued by
/// one thread of its producer warpgroup: a branch nested in the role branch
/// is taken by a share of the threads that reach it.
// ROLES: estimate of @matmul_0_reduce: {{.*}}, 4 rounds; {{.*}} l2 [[L2:[0-9]+]].{{[0-9]+}},
// ROLES: estimate of @matmul_0_reduce: {{.*}}, 1 round;
// ROLES: estimate of @matmul_0_reduce: {{.*}}, 4 rounds; {{.*}} l2 [[L2]].{{[0-9]+}},

/// mma.sync fed by cp.async on sm_90 counts tensor-core work too.
// MMA: remark: estimate of @matmul_0_reduce: {{[a-z0-9]+}}-bound, {{.*}}; compute {{[0-9.]+}}, tensor {{[1-9][0-9.]*}}, l2

/// Kernel IR written by hand; the target option picks the reference GPU
/// (the module names none); a block that cannot launch says why; the IR is
/// unchanged.
// A100: remark: estimate of @scale: dram-bound, {{[0-9.]+}} us, occupancy 100%
// A100: remark: estimate of @too_big: cannot launch: 200000 bytes of shared memory, over the block limit of 166912
// UNKNOWN: error: unknown target 'sm_75'; expected sm_80, sm_90 or sm_90a
// SAME: dkernel.func @scale
// SAME: dkernel.func @too_big
dkernel.func @scale(%in: memref<1048576xf32>, %out: memref<1048576xf32>) outputs [1] grid [4096, 1, 1] block [256, 1, 1] smem 0 {
  %c256 = arith.constant 256 : index
  %bid = gpu.block_id x
  %tid = gpu.thread_id x
  %base = arith.muli %bid, %c256 : index
  %i = arith.addi %base, %tid : index
  %v = memref.load %in[%i] : memref<1048576xf32>
  %w = arith.mulf %v, %v : f32
  memref.store %w, %out[%i] : memref<1048576xf32>
  dkernel.return
}
dkernel.func @too_big(%out: memref<256xf32>) outputs [0] grid [1, 1, 1] block [256, 1, 1] smem 200000 {
  %tid = gpu.thread_id x
  %zero = arith.constant 0.0 : f32
  memref.store %zero, %out[%tid] : memref<256xf32>
  dkernel.return
}
