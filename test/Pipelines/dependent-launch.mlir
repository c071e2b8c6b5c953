// The kernel pipelines end with dkernel-dependent-launch on sm_90 and
// sm_90a: a BF16 matmul split over K through a workspace is two kernels,
// and each waits for the grids before it first, so the runtime may launch
// the sum kernel while the split kernel finishes. sm_80 has no
// programmatic dependent launch: nothing is added. The interpreter runs
// the kernels one after the other: the results are the reference's.
//
// RUN: deplodock-opt %s --lower-to-kernel=target=sm_90a | FileCheck %s --check-prefix=SM90A
// RUN: deplodock-opt %s --deplodock-pipeline=target=sm_90 | FileCheck %s --check-prefix=SM90
// RUN: deplodock-opt %s --lower-to-kernel=target=sm_80 | FileCheck %s --check-prefix=SM80
// RUN: deplodock-opt %s --lower-to-kernel=target=sm_90a | deplodock-translate --emit-cuda --cuda-manifest=%t.json -o %t.cu
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.json
// RUN: deplodock-run --interp %s --func=proj --pipeline=lower-to-tensor --compare="lower-to-kernel{target=sm_90a}" --rtol=8e-3 --print=none | FileCheck %s --check-prefix=SAME

// SM90A-LABEL: dkernel.func @proj_0_reduce(
//  SM90A-NEXT:   dkernel.wait_prior_grids
//  SM90A-NEXT:   dkernel.launch_dependents
// SM90A-LABEL: dkernel.func @proj_0_reduce_split_sum(
//  SM90A-NEXT:   dkernel.wait_prior_grids
//  SM90A-NEXT:   dkernel.launch_dependents
//       SM90A: dkernel.launch @proj_0_reduce(
//  SM90A-NEXT: dkernel.launch @proj_0_reduce_split_sum(

//     SM90: features = [clusters, cp_async, dependent_launch, mma_sync, tma]
//     SM90: dkernel.func @proj_0_reduce
// SM90-NEXT:   dkernel.wait_prior_grids

//     SM80: features = [cp_async, mma_sync]
// SM80-NOT: dkernel.wait_prior_grids
// SM80-NOT: dkernel.launch_dependents
//     SM80: func.func @proj

// MANIFEST: "early": true
// MANIFEST: "kernel": "proj_0_reduce"
// MANIFEST: "early": true
// MANIFEST: "kernel": "proj_0_reduce_split_sum"

// SAME: after {{.*}}lower-to-kernel{target=sm_90a}{{.*}}: PASS

func.func @proj(%x: tensor<32x1024xbf16>, %w: tensor<1024x512xbf16>) -> tensor<32x512xbf16> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<32x512xf32>
  %filled = linalg.fill ins(%zero : f32) outs(%init : tensor<32x512xf32>) -> tensor<32x512xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<32x1024xbf16>, tensor<1024x512xbf16>) outs(%filled : tensor<32x512xf32>) -> tensor<32x512xf32>
  %out = tensor.empty() : tensor<32x512xbf16>
  %rounded = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<32x512xf32>) outs(%out : tensor<32x512xbf16>) {
    ^bb0(%a: f32, %o: bf16):
      %r = arith.truncf %a : f32 to bf16
      linalg.yield %r : bf16
  } -> tensor<32x512xbf16>
  return %rounded : tensor<32x512xbf16>
}
