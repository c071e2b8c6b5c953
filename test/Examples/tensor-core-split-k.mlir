// RUN: %python %S/Inputs/half_matmul.py f16 37 1000 72 > %t.f16.mlir
// RUN: %python %S/Inputs/half_matmul.py bf16 37 1000 72 > %t.bf16.mlir
// RUN: deplodock-run --interp %t.f16.mlir --pipeline=lower-to-tensor --rtol=1e-3 --print=none --compare="lower-to-kernel{target=sm_80 knobs=tensor_cores=true,WM=16,WN=8,warps=1,mma_k=32,mma_split_k=4}" --compare="lower-to-kernel{target=sm_80 knobs=tensor_cores=true,WM=32,WN=32,warps=4,mma_k=32,mma_pad=true,mma_split_k=2}" --compare="lower-to-kernel{target=sm_80 knobs=tensor_cores=true,WM=16,WN=8,warps=2,mma_k=64,mma_swizzle=true,mma_split_k=4,double_buffer=false}" | FileCheck %s --check-prefix=MMA
// RUN: deplodock-run --interp %t.bf16.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90 knobs=tensor_cores=true,WM=16,WN=8,warps=1,mma_k=32,mma_split_k=8}" --compare="lower-to-kernel{target=sm_90 knobs=tensor_cores=true,WM=32,WN=16,warps=2,mma_k=32,mma_split_k=2}" --compare="lower-to-kernel{target=sm_90 knobs=tensor_cores=true,WM=64,WN=32,warps=1,mma_k=32,mma_split_k=2,double_buffer=false}" | FileCheck %s --check-prefix=MMA
// RUN: %python %S/Inputs/half_matmul.py bf16 100 1000 136 > %t.wgmma.bf16.mlir
// RUN: %python %S/Inputs/half_matmul.py f16 100 1000 136 > %t.wgmma.f16.mlir
// RUN: deplodock-run --interp %t.wgmma.bf16.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=64,wgmma_split_k=2}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=128,wgmma_split_k=4,double_buffer=false}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,wgmma_split_k=4}" | FileCheck %s --check-prefix=MMA
// RUN: deplodock-run --interp %t.wgmma.f16.mlir --pipeline=lower-to-tensor --rtol=1e-3 --print=none --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=64,wgmma_split_k=4}" --compare="lower-to-kernel{target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=128,wgmma_split_k=2}" | FileCheck %s --check-prefix=MMA
// RUN: %python %deplodock_src_root/examples/generate.py --small matmul_add --dims S=37,H=256 --dtype f16 > %t.add.mlir
// RUN: %python %deplodock_src_root/examples/generate.py --small silu_mul_matmul --dims S=37,I=512 --dtype bf16 > %t.silu.mlir
// RUN: deplodock-opt %t.add.mlir --lower-to-kernel=target=sm_80 | FileCheck %s --check-prefix=ADD
// RUN: deplodock-run --interp %t.add.mlir --pipeline=lower-to-tensor --rtol=1e-3 --print=none --compare="lower-to-kernel{target=sm_80}" | FileCheck %s --check-prefix=EPILOGUE
// RUN: deplodock-opt %t.silu.mlir --lower-to-kernel=target=sm_90 | FileCheck %s --check-prefix=SILU
// RUN: deplodock-run --interp %t.silu.mlir --pipeline=lower-to-tensor --rtol=8e-3 --print=none --compare="lower-to-kernel{target=sm_90}" | FileCheck %s --check-prefix=EPILOGUE
// RUN: %python %S/Inputs/half_matmul.py bf16 32 18944 3584 > %t.qwen.down.s32.mlir
// RUN: %python %S/Inputs/half_matmul.py bf16 32 3584 3584 > %t.qwen.q.s32.mlir
// RUN: %python %S/Inputs/half_matmul.py bf16 32 2048 2048 > %t.tinyllama.q.s32.mlir
// RUN: %python %S/Inputs/half_matmul.py bf16 128 18944 3584 > %t.qwen.down.s128.mlir
// RUN: %python %S/Inputs/half_matmul.py bf16 512 3584 18944 > %t.qwen.gate.s512.mlir
// RUN: deplodock-opt %t.qwen.down.s32.mlir --lower-to-kernel=target=sm_90 | FileCheck %s --check-prefix=QWENDOWN32
// RUN: deplodock-opt %t.qwen.down.s32.mlir --lower-to-kernel=target=sm_90a | FileCheck %s --check-prefix=QWENDOWN32A
// RUN: deplodock-opt %t.qwen.q.s32.mlir --lower-to-kernel=target=sm_90 | FileCheck %s --check-prefix=QWENQ32
// RUN: deplodock-opt %t.tinyllama.q.s32.mlir --lower-to-kernel=target=sm_90 | FileCheck %s --check-prefix=TINYQ32
// RUN: deplodock-opt %t.qwen.down.s128.mlir --lower-to-kernel=target=sm_90a | FileCheck %s --check-prefix=QWENDOWN128
// RUN: deplodock-opt %t.qwen.gate.s512.mlir --lower-to-kernel=target=sm_90a | FileCheck %s --check-prefix=QWENGATE512
// RUN: deplodock-opt %t.qwen.down.s32.mlir --lower-to-kernel=target=sm_90 | deplodock-translate --emit-cuda -o %t.mma.cu
// RUN: deplodock-opt %t.qwen.down.s128.mlir --lower-to-kernel=target=sm_90a | deplodock-translate --emit-cuda -o %t.wgmma.cu
// RUN: FileCheck %s --check-prefix=CUDA < %t.wgmma.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -cubin -o %t.mma.cubin %t.mma.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -cubin -o %t.wgmma.cubin %t.wgmma.cu %}

/// Split K on the tensor cores (mma_split_k, wgmma_split_k): each split
/// block runs its share of the K steps on mma.sync or wgmma and stores its
/// f32 partial tile to a workspace; a second kernel sums the splits in
/// order and rounds once. On the SIMT interpreter, within the dtype's
/// tolerance, at shapes no tile divides (M 37 or 100, N 72 or 136, K 1000:
/// the last K chunk of the last split zero-filled), with and without
/// double buffering.
// MMA-COUNT-2: compare result #0 after 'lower-to-kernel{{.*}}_split_k={{[0-9]+}}{{.*}}': {{.*}}: PASS

/// The epilogue runs once, in the sum kernel: the residual of matmul_add
/// (split 2 by default on sm_80: 37 x 256 outputs in 32 x 16 tiles leave
/// the SMs short of warps) and the rounding after SiLU(gate) * up.
// ADD: dkernel.func @matmul_add_0_reduce({{.*}}) outputs [2] grid [{{.*}}] {{.*}}mma_split_k = 2
// ADD: dkernel.func @matmul_add_0_reduce_split_sum(
// SILU: dkernel.func @silu_mul_matmul_1_reduce({{.*}}mma_split_k = 4
// SILU: dkernel.func @silu_mul_matmul_1_reduce_split_sum(
// EPILOGUE: compare result #0 after 'lower-to-kernel{{.*}}: PASS

/// On sm_90 (no wgmma) the benchmark's small-M layers split by default on
/// mma.sync, so that their blocks give every SM one and 4 warps: Qwen's
/// down projection at 32
/// tokens (32 x 18944 . 18944 x 3584: 112 blocks of one warp become 896,
/// 74 steps of 32 each, where before each walked all of K), its q
/// projection (32 x 3584 x 3584, 14 steps each), TinyLlama's q projection
/// (32 x 2048 x 2048: 64 blocks into 16 splits of 4 steps), Qwen's down
/// projection at 128 tokens on wgmma (the 128 x 256 tile's 14 blocks into
/// 8 splits of 37 chunks); the gate projection at 512 tokens fills the
/// SMs unsplit, in 128 x 192 tiles (three full waves of 132), launched
/// down the 4 tile rows of each column first (tile_order: its 136 MB
/// weight outgrows the L2).
// QWENDOWN32: dkernel.func @matmul_0_reduce({{.*}}) outputs [2] grid [112, 1, 8] block [32, 1, 1] {{.*}}WM = 32, WN = 32, {{.*}}mma_k = 32, {{.*}}mma_split_k = 8, {{.*}}warps = 1>
// QWENDOWN32: dkernel.func @matmul_0_reduce_split_sum(
// QWENDOWN32: memref.alloc() : memref<8x32x3584xf32>
/// On sm_90a the 32-token layers run on wgmma instead (64-row boxes, TMA
/// zero-filling the rows past 32), split as the 64 x 256 tile's 14 blocks
/// leave the SMs short.
// QWENDOWN32A: dkernel.func @matmul_0_reduce({{.*}}) outputs [2] grid [14, 1, 8] block [128, 1, 1] {{.*}}warpgroups = 1, wgmma = true, wgmma_n = 256, wgmma_split_k = 8>
// QWENDOWN32A: dkernel.func @matmul_0_reduce_split_sum(
// QWENQ32: dkernel.func @matmul_0_reduce({{.*}}) outputs [2] grid [112, 1, 8] {{.*}}mma_split_k = 8
// TINYQ32: dkernel.func @matmul_0_reduce({{.*}}) outputs [2] grid [64, 1, 16] {{.*}}mma_split_k = 16
// QWENDOWN128: dkernel.func @matmul_0_reduce({{.*}}) outputs [2] grid [14, 1, 8] block [256, 1, 1] {{.*}}warpgroups = 2, wgmma = true, wgmma_n = 256, wgmma_split_k = 8>
// QWENDOWN128: dkernel.func @matmul_0_reduce_split_sum(
// QWENGATE512: dkernel.func @matmul_0_reduce({{.*}}) outputs [2] grid [396, 1, 1] block [256, 1, 1] {{.*}}tile_group = 4, {{.*}}warpgroups = 2, wgmma = true, wgmma_n = 192>
// QWENGATE512-NOT: split

/// The CUDA of the wgmma split kernel (TMA copies, wgmma, f32 stores to
/// the workspace) and its sum kernel: 128 threads a block, each summing 4
/// adjacent columns of the 128 x 3584 output, one float4 read of the
/// workspace per split (the 8 splits unrolled, split 0 first), and the 4
/// bf16 results stored in one 8-byte store.
// CUDA: __global__ void __launch_bounds__(256)
// CUDA-NEXT: matmul_0_reduce(const __nv_bfloat16* __restrict__ in0, const __nv_bfloat16* __restrict__ in1, float* __restrict__ out0,
// CUDA: cp.async.bulk.tensor
// CUDA: wgmma.mma_async
// CUDA: __global__ void __launch_bounds__(128)
// CUDA-NEXT: matmul_0_reduce_split_sum(const float* __restrict__ in0, __nv_bfloat16* __restrict__ out0)
// CUDA:        #pragma unroll 8
// CUDA-NEXT:   for (int i0 = 0; i0 < 8; i0 += 1) {
// CUDA-NEXT:     const int [[O:v[0-9]+]] = v1 * 512;
// CUDA-NEXT:     const int [[T:v[0-9]+]] = v2 * 4;
// CUDA-NEXT:     const int [[C:v[0-9]+]] = [[O]] + [[T]];
// CUDA-NEXT:     const float4 vl0 = *reinterpret_cast<const float4 *>(&in0[i0 * 458752 + v0 * 3584 + [[C]]]);
// CUDA-NEXT:     const float [[X:v[0-9]+]] = vl0.x;
// CUDA-NEXT:     const float {{v[0-9]+}} = vl0.y;
// CUDA-NEXT:     const float {{v[0-9]+}} = vl0.z;
// CUDA-NEXT:     const float {{v[0-9]+}} = vl0.w;
// CUDA-NEXT:     const float {{v[0-9]+}} = acc0 + [[X]];
// CUDA-NOT:    in0[
// CUDA:          alignas(8) const __nv_bfloat16 vs0[4] = {
// CUDA-NEXT:     *reinterpret_cast<uint2 *>(&out0[v0 * 3584 + {{v[0-9]+}}]) = *reinterpret_cast<const uint2 *>(vs0);
// CUDA-NEXT:   }
// CUDA-NEXT: }
