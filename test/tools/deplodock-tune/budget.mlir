// One variant budget for the whole layer (--total-variants): every kernel
// gets at least its default, the rest goes where the time is (the default's
// latency above the roofline floor, times the kernel's instances). One line
// per kernel, then the table. A kernel equal to a tuned one up to extents
// starts from the winner (warm start).
// RUN: rm -rf %t && mkdir -p %t
// RUN: deplodock-tune %s --db=%t/tune.db --total-variants=12 --json 2> %t/budget.err > %t/budget.json
// RUN: FileCheck %s --check-prefix=LINES < %t/budget.err
// RUN: %python -c "import json; ks = json.load(open('%t/budget.json'))['kernels']; b = [k['budget'] for k in ks]; print(sum(b), sum(k['measured'] for k in ks) <= 12, min(b) >= 1, b[0] > b[2] and b[1] > b[2])" | FileCheck %s --check-prefix=SHARES
/// Warm starts: the second matmul (other extents, same family) tries the
/// first one's winner first; without warm starts it does not. Seed 11 makes
/// a first search whose six variants beat the default, so that there is a
/// winner to start from.
// RUN: deplodock-tune %s --db=%t/warm.db --max-variants=6 --seed=11 2>&1 | FileCheck %s --check-prefix=WARM
// RUN: deplodock-tune %s --db=%t/cold.db --max-variants=6 --seed=11 --no-warm-start 2>&1 | FileCheck %s --check-prefix=COLD
/// The default, measured before any search, counts against random's budget
/// as against mcts's.
// RUN: deplodock-tune %s --no-db --search=random --max-variants=4 --patience=0 2>&1 | FileCheck %s --check-prefix=RANDOM

func.func @layer(%a: tensor<16x64xf32>, %b: tensor<64x32xf32>, %c: tensor<32x64xf32>, %d: tensor<64x64xf32>, %x: tensor<64xf32>) -> (tensor<16x32xf32>, tensor<32x64xf32>, tensor<64xf32>) {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<16x32xf32>
  %i1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %m1 = linalg.matmul ins(%a, %b : tensor<16x64xf32>, tensor<64x32xf32>) outs(%i1 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %e2 = tensor.empty() : tensor<32x64xf32>
  %i2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<32x64xf32>) -> tensor<32x64xf32>
  %m2 = linalg.matmul ins(%c, %d : tensor<32x64xf32>, tensor<64x64xf32>) outs(%i2 : tensor<32x64xf32>) -> tensor<32x64xf32>
  %e3 = tensor.empty() : tensor<64xf32>
  %s = linalg.add ins(%x, %x : tensor<64xf32>, tensor<64xf32>) outs(%e3 : tensor<64xf32>) -> tensor<64xf32>
  return %m1, %m2, %s : tensor<16x32xf32>, tensor<32x64xf32>, tensor<64xf32>
}

// LINES: [1/3] layer_0_reduce: {{[0-9]+}} variants
// LINES: [2/3] layer_1_reduce: {{[0-9]+}} variants
// LINES: [3/3] layer_2_pointwise: {{[0-9]+}} variants
// SHARES: 12 True True True

// WARM: [1/3] layer_0_reduce: 6 variants,
// WARM: [2/3] layer_1_reduce: 6 variants (1 warm starts)
// COLD-NOT: warm start

// RANDOM: [1/3] layer_0_reduce: 4 variants,
// RANDOM: [2/3] layer_1_reduce: 4 variants (1 warm starts),
