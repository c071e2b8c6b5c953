// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="target=sm_90 knobs=matmul_0_reduce:async_copy=false,tma=true,pad=false,split_k=1,stages=3" | FileCheck %s --check-prefix=D3
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="target=sm_90 knobs=matmul_0_reduce:async_copy=false,tma=true,pad=false,split_k=1,stages=4" | FileCheck %s --check-prefix=D4
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="target=sm_90 knobs=matmul_0_reduce:async_copy=false,tma=true,pad=false,split_k=1" | FileCheck %s --check-prefix=D2
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="target=sm_90 list-forks knobs=matmul_0_reduce:async_copy=false,tma=true,pad=false,split_k=1" --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=FORKS
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="target=sm_90 list-forks knobs=matmul_0_reduce:split_k=1" --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=CPASYNC
// RUN: not deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="target=sm_90 knobs=matmul_0_reduce:split_k=1,stages=3" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=CPASYNC-KNOB
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="target=sm_90 list-forks knobs=matmul_0_reduce:async_copy=false,tma=true,pad=false,BK=64" --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=FEW
// RUN: not deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="target=sm_90 knobs=matmul_0_reduce:async_copy=false,tma=true,pad=false,BK=64,stages=4" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=FEW-KNOB
// RUN: deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="target=sm_90 knobs=matmul_0_reduce:async_copy=false,tma=true,pad=false,split_k=1,stages=5" | FileCheck %s --check-prefix=D5
// RUN: not deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="target=sm_90 knobs=matmul_0_reduce:async_copy=false,tma=true,pad=false,split_k=1,stages=9" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=RANGE9
// RUN: not deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="target=sm_90 knobs=matmul_0_reduce:async_copy=false,tma=true,pad=false,split_k=1,stages=2" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: %python %S/../../Examples/Inputs/half_matmul.py bf16 256 512 256 > %t.k512.mlir
// RUN: %python %S/../../Examples/Inputs/half_matmul.py bf16 128 256 128 > %t.k256.mlir
// RUN: deplodock-opt %t.k512.mlir --lower-to-tile="target=sm_90a list-forks knobs=wgmma=true,warpgroups=2,wgmma_n=256" --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=DEEP
// RUN: deplodock-opt %t.k256.mlir --lower-to-tile="target=sm_90a list-forks" --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=SHORT
// RUN: deplodock-opt %t.k256.mlir --lower-to-tile="target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,stages=3,wgmma_wait=1" | FileCheck %s --check-prefix=BEHIND
// RUN: deplodock-opt %t.k256.mlir --lower-to-tile="target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,stages=3" | FileCheck %s --check-prefix=WAIT0
// RUN: deplodock-opt %t.k256.mlir --lower-to-tile="target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,stages=3,refill_late=true" | FileCheck %s --check-prefix=LATE
// RUN: not deplodock-opt %t.k256.mlir --lower-to-tile="target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,stages=3,wgmma_wait=1,refill_late=true" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=LATE-BEHIND
// RUN: not deplodock-opt %t.k256.mlir --lower-to-tile="target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,pipeline=false,refill_late=true" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=LATE-OFF
// RUN: not deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="target=sm_90 knobs=matmul_0_reduce:async_copy=false,tma=true,pad=false,split_k=1,stages=3,refill_late=true" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=LATE-SIMT
// RUN: not deplodock-opt %t.k256.mlir --lower-to-tile="target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,wgmma_wait=1" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=BEHIND-DEPTH
// RUN: not deplodock-opt %t.k256.mlir --lower-to-tile="target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,stages=5,refill_late=true" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=LATE-AHEAD
// RUN: not deplodock-opt %t.k256.mlir --lower-to-tile="target=sm_90a knobs=wgmma=true,warpgroups=1,wgmma_n=32,stages=3,wgmma_wait=1,pipeline=false" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=BEHIND-OFF
// RUN: not deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="target=sm_90 knobs=matmul_0_reduce:async_copy=false,tma=true,pad=false,split_k=1,stages=3,wgmma_wait=1" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=BEHIND-SIMT
// RUN: not deplodock-opt %S/Inputs/kernels.mlir --dtile-lower="target=sm_90 knobs=matmul_0_reduce:wgmma_wait=2" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=BEHIND-RANGE
// RUN: deplodock-opt %s -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=PARSE

/// Three deep (TMA stages, four chunks): chunks 0 and 1 are staged into
/// slots 0 and 1 before the loop, both sets are carried, iteration k waits
/// for chunk k's slabs alone, then stages chunk k + 2 into slot
/// (k + 2) mod 3 while k < 2, and the sets move up by one.
// D3: #[[$MAP:.*]] = affine_map<(d0) -> (d0 - ((d0 + 2) floordiv 3) * 3 + 2)>
// D3-LABEL: func.func @matmul
//       D3:   knobs<{{.*}} pipeline = true, {{.*}} stages = 3, swizzle = 0, tma = true
//   D3-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   D3-DAG:   %[[C1:.*]] = arith.constant 1 : index
//   D3-DAG:   %[[C2:.*]] = arith.constant 2 : index
//       D3:     %[[A0:.*]] = dtile.stage %[[A:.*]][%{{.*}} * 4, 0] box [4, 32] buffers 3 slot %[[C0]] transport tma
//  D3-NEXT:     %[[B0:.*]] = dtile.stage %[[B:.*]][0, %{{.*}} * 8] box [32, 8] buffers 3 slot %[[C0]] transport tma
//  D3-NEXT:     %[[A1:.*]] = dtile.stage %[[A]][%{{.*}} * 4, 32] box [4, 32] buffers 3 slot %[[C1]] transport tma
//  D3-NEXT:     %[[B1:.*]] = dtile.stage %[[B]][32, %{{.*}} * 8] box [32, 8] buffers 3 slot %[[C1]] transport tma
//  D3-NEXT:     dloop.for %[[K:.*]] = 0 to 4 reduce "r0_o" iter(%{{.*}} = %{{.*}} : f32, %[[AS:.*]] = %[[A0]] : {{.*}}, %[[BS:.*]] = %[[B0]] : {{.*}}, %[[AT:.*]] = %[[A1]] : {{.*}}, %[[BT:.*]] = %[[B1]] : {{.*}})
//  D3-NEXT:       dtile.async_wait keep 0 for %[[AS]], %[[BS]] :
//  D3-NEXT:       %[[MORE:.*]] = arith.cmpi ult, %[[K]], %[[C2]] : index
//  D3-NEXT:       %[[NEXT:.*]]:2 = scf.if %[[MORE]]
//  D3-NEXT:         %[[SLOT:.*]] = affine.apply #[[$MAP]](%[[K]])
//  D3-NEXT:         dtile.stage %[[A]][%{{.*}} * 4, %[[K]] * 32 + 64] box [4, 32] buffers 3 slot %[[SLOT]] transport tma
//  D3-NEXT:         dtile.stage %[[B]][%[[K]] * 32 + 64, %{{.*}} * 8] box [32, 8] buffers 3 slot %[[SLOT]] transport tma
//       D3:       } else {
//  D3-NEXT:         scf.yield %[[AS]], %[[BS]]
//       D3:       dloop.load %[[AS]]
//  D3-NEXT:       dloop.load %[[BS]]
//       D3:       dloop.yield %{{.*}}, %[[AT]], %[[BT]], %[[NEXT]]#0, %[[NEXT]]#1 :

/// Four deep: chunks 0 .. 2 ahead of the loop, chunk k + 3 staged while
/// k < 1.
// D4: #[[$MAP4:.*]] = affine_map<(d0) -> (d0 - ((d0 + 3) floordiv 4) * 4 + 3)>
// D4-LABEL: func.func @matmul
//       D4:   stages = 4
//       D4:     dtile.stage %{{.*}}[%{{.*}} * 4, 64] box [4, 32] buffers 4 slot %[[C2:[^ ]*]] transport tma
//  D4-NEXT:     dtile.stage %{{.*}}[64, %{{.*}} * 8] box [32, 8] buffers 4 slot %[[C2]] transport tma
//  D4-NEXT:     dloop.for %[[K:.*]] = 0 to 4 reduce "r0_o" iter(%{{.*}} = %{{.*}} : f32, %[[AS:.*]] = %{{.*}} : {{.*}}, %[[BS:.*]] = %{{.*}} : {{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
//  D4-NEXT:       dtile.async_wait keep 0 for %[[AS]], %[[BS]] :
//  D4-NEXT:       arith.cmpi ult, %[[K]], %c1 : index
//       D4:         affine.apply #[[$MAP4]](%[[K]])
//  D4-NEXT:         dtile.stage %{{.*}}[%{{.*}} * 4, %[[K]] * 32 + 96] box [4, 32] buffers 4

/// Unset, the depth is 2 as before: two slots, a wait for every stage.
// D2-LABEL: func.func @matmul
//   D2-NOT:   stages =
//       D2:     dloop.for
//  D2-NEXT:       dtile.async_wait keep 0{{$}}
//       D2:         dtile.stage {{.*}} buffers 2 slot

/// Every stage travels by TMA and the loop has four chunks: depths 3 to 5
/// are offered after 2 (5: all four staged before the loop); with
/// cp.async only 2; with two chunks 2 and 3, and 4 is refused.
// FORKS: kernels.mlir:6:5: remark: @matmul_0_reduce: pipeline_k_outer: (pipeline, stages) in {true*, false, (true, 3), (true, 4), (true, 5)}
// CPASYNC: kernels.mlir:6:5: remark: @matmul_0_reduce: pipeline_k_outer: pipeline in {true*, false}
// CPASYNC-KNOB: kernels.mlir:6:5: error: 'dtile.kernel' op no rule took knob "stages" for this kernel
// FEW: kernels.mlir:6:5: remark: @matmul_0_reduce: pipeline_k_outer: (pipeline, stages) in {true*, false, (true, 3)}
// FEW-KNOB: kernels.mlir:6:5: error: 'dtile.kernel' op knobs stages=4 are not a legal option of pipeline_k_outer: (pipeline, stages) in {true*, false, (true, 3)}
// RANGE: error: bad knobs option '{{.*}}stages=2': knob 'stages' must be in [3, 8], got 2
// RANGE9: error: bad knobs option '{{.*}}stages=9': knob 'stages' must be in [3, 8], got 9

/// Five deep over four chunks: all four staged into slots 0 .. 3 before the
/// loop, which waits for each chunk's slabs in turn and stages nothing.
// D5-LABEL: func.func @matmul
//       D5:   stages = 5
//       D5:     dtile.stage %{{.*}}[%{{.*}} * 4, 96] box [4, 32] buffers 5 slot %[[C3:[^ ]*]] transport tma
//  D5-NEXT:     dtile.stage %{{.*}}[96, %{{.*}} * 8] box [32, 8] buffers 5 slot %[[C3]] transport tma
//  D5-NEXT:     dloop.for %[[K:.*]] = 0 to 4 reduce "r0_o" iter(%{{.*}} = %{{.*}} : f32, %[[AS:.*]] = %{{.*}} : {{.*}}, %[[BS:.*]] = %{{.*}} : {{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
//  D5-NEXT:       dtile.async_wait keep 0 for %[[AS]], %[[BS]] :
//   D5-NOT:       dtile.stage
//       D5:       dloop.yield
//   D5-NOT:     dtile.stage
//       D5:   return

/// A wgmma tile of 128 x 256 bf16 (48 KB a chunk) fits four slots in
/// 227 KB. (The shared-memory limit on the depth is not reached by a legal
/// wgmma tile on sm_90a: 256 x 256, 64 KB a chunk and three slots, needs
/// more registers than 512 threads have.) Eight chunks of warpgroup MMA or
/// more, and four, take the deepest depth by default, each step retiring
/// its own wgmma group (wgmma_wait = 1 keeps the loop from being unrolled,
/// which lost on the H200) and refilling after its wgmma commit
/// (refill_late, faster on the H200). On warpgroup MMA each depth is followed by its
/// refill_late form (the refill after the step's wgmma commit), and each
/// depth of 3 or more by its wgmma_wait = 1 form. As no option sets every
/// knob, the listing names them all and shows "-" for a knob an option
/// leaves unset. Four chunks (SHORT) also take depth 5, all staged before
/// the loop, without a refill_late form (nothing to refill), never by
/// default (unmeasured); the heuristic stays at 4.
// DEEP: remark: @matmul_0_reduce: pipeline_k_outer: (pipeline, refill_late, stages, wgmma_wait) in {(true, true, 4, -)*, (false, -, -, -), (true, -, -, -), (true, true, -, -), (true, -, 3, -), (true, true, 3, -), (true, -, 3, 1), (true, -, 4, -), (true, -, 4, 1)}
// SHORT: remark: @matmul_0_reduce: pipeline_k_outer: (pipeline, refill_late, stages, wgmma_wait) in {(true, true, 4, -)*, (false, -, -, -), (true, -, -, -), (true, true, -, -), (true, -, 3, -), (true, true, 3, -), (true, -, 3, 1), (true, -, 4, -), (true, -, 4, 1), (true, -, 5, -), (true, -, 5, 1)}
// LATE-AHEAD: error: 'dtile.kernel' op knob refill_late=true: at stages=5 every chunk of @matmul_0_reduce is staged before its loop, which refills nothing

/// wgmma_wait = 1, three deep on a 64 x 256 x 128 bf16 wgmma loop (four
/// chunks): iteration k waits for chunk k's slabs, issues its wgmma group
/// on the accumulators the previous step left in flight, waits with
/// wait_group 1 (chunk k - 1's group retires) and only then refills the
/// slot that group read with chunk k + 2; the loop yields the unwaited
/// accumulators and a wait_group 0 after it makes them readable for the
/// epilogue. Without the knob the step still waits for its own group.
/// The loop carrying groups in flight is never unrolled (mark_unroll: nvcc
/// unrolling it gave wrong sums on the H200), the wait-0 loop is.
// BEHIND-LABEL: func.func @matmul
//       BEHIND:   stages = 3, {{.*}}unroll = 1, {{.*}}wgmma_wait = 1
//       BEHIND:   %[[LOOP:.*]]:20 = dloop.for %[[K:.*]] = 0 to 4 reduce "r0_o" iter(%[[ACC:[^ ]*]] = %{{.*}} : f32,{{.*}}) {{{$}}
//  BEHIND-NEXT:     dtile.async_wait keep 0 for %[[AS:[^,]*]], %[[BS:[^ ]*]] :
//  BEHIND-NEXT:     %[[MORE:.*]] = arith.cmpi ult, %[[K]], %c2 : index
//       BEHIND:     dkernel.wgmma_fence
//       BEHIND:     dkernel.wgmma_mma_async %{{.*}}, %{{.*}}, [%[[ACC]],
// BEHIND-COUNT-2:     dkernel.wgmma_mma_async
//       BEHIND:     %[[DLAST:.*]]:16 = dkernel.wgmma_mma_async
//  BEHIND-NEXT:     dkernel.wgmma_commit_group
//  BEHIND-NEXT:     dkernel.wgmma_wait_group 1{{$}}
//  BEHIND-NEXT:     %[[NEXT:.*]]:2 = scf.if %[[MORE]]
//       BEHIND:       dtile.stage {{.*}} buffers 3 slot
//       BEHIND:     dloop.yield %[[DLAST]]#0, {{.*}}, %[[DLAST]]#15, %{{.*}}, %{{.*}}, %[[NEXT]]#0, %[[NEXT]]#1 :
//       BEHIND:   %[[READY:.*]]:16 = dkernel.wgmma_wait_group 0 [%[[LOOP]]#0, {{.*}}, %[[LOOP]]#15]
//       BEHIND:   arith.truncf %[[READY]]#0
// WAIT0-LABEL: func.func @matmul
//   WAIT0-NOT:   wgmma_wait =
//       WAIT0:   dloop.for {{.*}} unroll 4 {
//       WAIT0:     dkernel.wgmma_commit_group
//  WAIT0-NEXT:     dkernel.wgmma_wait_group 0 [
//   WAIT0-NOT:   dkernel.wgmma_wait_group 1

/// refill_late: the wait-0 step refills the slot the previous step read
/// after its own wgmma commit (that group retired before this step), so the
/// tensor cores start before the refill.
// LATE-LABEL: func.func @matmul
//       LATE:   refill_late = true
//       LATE:   dloop.for {{.*}} unroll 4 {
//  LATE-NEXT:     dtile.async_wait keep 0 for
//  LATE-NEXT:     %[[MORE:.*]] = arith.cmpi ult
//   LATE-NOT:     dtile.stage
//       LATE:     dkernel.wgmma_fence
//       LATE:     dkernel.wgmma_commit_group
//  LATE-NEXT:     scf.if %[[MORE]]
//       LATE:       dtile.stage {{.*}} buffers 3 slot
//       LATE:     dkernel.wgmma_wait_group 0 [
//   LATE-NOT:   dkernel.wgmma_wait_group 1

/// Refusals: two slots (stages unset), no pipeline, no wgmma loop, a count
/// other than 1.
// BEHIND-DEPTH: error: 'dtile.kernel' op knob wgmma_wait=1: pipeline_k_outer cannot take @matmul_0_reduce: wgmma_wait=1 refills a slot only after wait_group 1 retires the group that read it, which leaves stages - 2 chunks in flight while one computes: it needs stages=3 or more
// BEHIND-OFF: error: 'dtile.kernel' op knob wgmma_wait=1 needs pipeline=true
// LATE-BEHIND: error: 'dtile.kernel' op knob refill_late=true is for wait-free steps; wgmma_wait=1 already refills after its wait
// LATE-OFF: error: 'dtile.kernel' op knob refill_late=true needs pipeline=true
// LATE-SIMT: kernels.mlir:6:5: error: 'dtile.kernel' op knob refill_late=true: pipeline_k_outer cannot take @matmul_0_reduce: it needs every pipelined chunk loop to be a warpgroup MMA loop (wgmma=true) with one wgmma group a step
// BEHIND-SIMT: kernels.mlir:6:5: error: 'dtile.kernel' op knob wgmma_wait=1: pipeline_k_outer cannot take @matmul_0_reduce: wgmma_wait=1 needs every pipelined chunk loop to be a warpgroup MMA loop (wgmma=true) with one wgmma group a step
// BEHIND-RANGE: error: bad knobs option '{{.*}}wgmma_wait=2': knob 'wgmma_wait' must be in [1, 1], got 2

/// A wait may name the slabs it covers, with keep 0 only.
// PARSE-LABEL: func.func @named
//       PARSE:   dtile.async_wait keep 0 for %{{.*}} : memref<16x32xf32, #gpu.address_space<workgroup>>
func.func @named(%arg0: memref<16x64xf32>, %arg1: memref<16xf32>) {
  dtile.kernel @named ins(%x = %arg0 : memref<16x64xf32>) outs(%y = %arg1 : memref<16xf32>) {
    %c0 = arith.constant 0 : index
    dtile.tile blocks(%b : 1 "b") threads(%t : 16 "t") {
      %s = dtile.stage %x[0, 0] box [16, 32] buffers 2 slot %c0 transport tma : memref<16x64xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
      dtile.async_wait keep 0 for %s : memref<16x32xf32, #gpu.address_space<workgroup>>
      %v = dloop.load %s[%t, %c0] : memref<16x32xf32, #gpu.address_space<workgroup>>
      dloop.store %v, %y[%t] : memref<16xf32>
    }
  }
  return
}

// -----

func.func @named_keep(%arg0: memref<16x64xf32>, %arg1: memref<16xf32>) {
  dtile.kernel @named_keep ins(%x = %arg0 : memref<16x64xf32>) outs(%y = %arg1 : memref<16xf32>) {
    %c0 = arith.constant 0 : index
    dtile.tile blocks(%b : 1 "b") threads(%t : 16 "t") {
      %s = dtile.stage %x[0, 0] box [16, 32] buffers 2 slot %c0 transport tma : memref<16x64xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
      // expected-error @+1 {{naming slabs needs keep 0}}
      dtile.async_wait keep 1 for %s : memref<16x32xf32, #gpu.address_space<workgroup>>
      %v = dloop.load %s[%t, %c0] : memref<16x32xf32, #gpu.address_space<workgroup>>
      dloop.store %v, %y[%t] : memref<16xf32>
    }
  }
  return
}
