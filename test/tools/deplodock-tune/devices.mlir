// Several GPUs: one bench worker each, measuring a batch of variants in
// parallel into one database (alike GPUs share a context). Here two fake
// devices: the variants alternate between them, and every one is recorded.
// RUN: rm -rf %t && mkdir -p %t
// RUN: deplodock-tune %s --backend=cuda --fake-device --devices=0,1 --db=%t/tune.db --max-variants=7 -v 2> %t/two.err | FileCheck %s --check-prefix=TABLE
// RUN: FileCheck %s --check-prefix=TWO < %t/two.err
// RUN: %python -c "import sqlite3; c = sqlite3.connect('%t/tune.db'); print('contexts', c.execute('SELECT count(*) FROM context').fetchone()[0], 'variants', c.execute('SELECT count(*) FROM perf').fetchone()[0])" | FileCheck %s --check-prefix=DB
/// The same on one device measures the same variants (batches do not change
/// what the search proposes on this tree... only where it runs).
// RUN: deplodock-tune %s --backend=cuda --fake-device --no-db --max-variants=7 -v 2>&1 | FileCheck %s --check-prefix=ONE

func.func @small(%a: tensor<8x16xf32>, %b: tensor<16x8xf32>) -> tensor<8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<8x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<8x8xf32>) -> tensor<8x8xf32>
  %c = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x8xf32>) outs(%init : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %c : tensor<8x8xf32>
}

// TWO: [small_0_reduce] 1/7 {{.*}}, GPU #0
// TWO: [small_0_reduce] 2/7 {{.*}}, GPU #0
// TWO: [small_0_reduce] 3/7 {{.*}}, GPU #1
// TWO: [small_0_reduce] 4/7 {{.*}}, GPU #0
// TWO: [small_0_reduce] 5/7 {{.*}}, GPU #1
// TABLE: small_0_reduce 10.00 10.00 1.00x 7
// DB: contexts 1 variants 7
// ONE-NOT: GPU #
// ONE: [1/1] small_0_reduce: 7 variants
