// A split through an f32 workspace lowers to two kernels, and the tuner times
// a variant as one launch: its search leaves those options out (they stay
// available by knobs) rather than spend measurements on variants it cannot
// time. The lowering offers them; 80 uniform samples of the tuner's tree
// split K in several ways, never through the workspace.
// RUN: rm -rf %t && mkdir -p %t
// RUN: deplodock-opt %s --lower-to-tile="knobs=mm_0_reduce:split_k=4,split_workspace=true" | FileCheck %s --check-prefix=OFFERED
// OFFERED: dtile.kernel @mm_0_reduce knobs<{{.*}}split_k = 4, split_workspace = true
// OFFERED: dtile.kernel @mm_0_reduce_split_sum
// RUN: deplodock-tune %s --no-db --search=random --max-variants=80 --patience=0 --quiet --record-table=%t/t.json > /dev/null
// RUN: FileCheck %s --check-prefix=TUNED < %t/t.json
// TUNED-NOT: split_workspace
// TUNED: split_k=2,
// TUNED-NOT: split_workspace
func.func @mm(%a: tensor<16x1024xf32>, %b: tensor<1024x32xf32>) -> tensor<16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<16x32xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<16x32xf32>) -> tensor<16x32xf32>
  %c = linalg.matmul ins(%a, %b : tensor<16x1024xf32>, tensor<1024x32xf32>) outs(%init : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %c : tensor<16x32xf32>
}
