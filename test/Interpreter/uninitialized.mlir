// RUN: deplodock-run --interp %s --func=forgets_odd --seed=1 | FileCheck %s --check-prefix=ODD
// RUN: deplodock-run --interp %s --func=forgets_odd --seed=1 --print=summary | FileCheck %s --check-prefix=SUMMARY
// RUN: deplodock-run --interp %s --func=unzeroed_sum --seed=1 | FileCheck %s --check-prefix=SUM
// RUN: deplodock-run --interp %s --func=poison_ints | FileCheck %s --check-prefix=INTS
// RUN: deplodock-run --interp %s --func=empty_tensor --seed=1 | FileCheck %s --check-prefix=EMPTY

/// Fresh buffers hold NaN, so a kernel that stores only the even elements
/// leaves NaNs where it forgot to; the summary counts them.
// ODD:      result #0: tensor<2x4xf32>
// ODD-NEXT: {{[-0-9.e]+}} nan {{[-0-9.e]+}} nan
// ODD-NEXT: {{[-0-9.e]+}} nan {{[-0-9.e]+}} nan
// SUMMARY: result #0: tensor<2x4xf32> min {{.*}} max {{.*}} mean {{[-0-9.e]+}} nan 4
func.func @forgets_odd(%arg: memref<2x4xf32>) -> memref<2x4xf32> {
  %out = memref.alloc() : memref<2x4xf32>
  dloop.kernel @forgets_odd ins(%x = %arg : memref<2x4xf32>) outs(%y = %out : memref<2x4xf32>) {
    dloop.for %i = 0 to 2 free "i" {
      dloop.for %j = 0 to 2 free "j" {
        %v = dloop.load %x[%i, %j * 2] : memref<2x4xf32>
        dloop.store %v, %y[%i, %j * 2] : memref<2x4xf32>
      }
    }
  }
  return %out : memref<2x4xf32>
}

/// A reducing store into a buffer nobody zeroed: every sum is NaN.
// SUM:      result #0: tensor<2xf32>
// SUM-NEXT: nan nan
func.func @unzeroed_sum(%arg: memref<2x4xf32>) -> memref<2xf32> {
  %out = memref.alloc() : memref<2xf32>
  dloop.kernel @unzeroed_sum ins(%x = %arg : memref<2x4xf32>) outs(%y = %out : memref<2xf32>) {
    dloop.for %i = 0 to 2 free "i" {
      dloop.for %j = 0 to 4 reduce "j" {
        %v = dloop.load %x[%i, %j] : memref<2x4xf32>
        dloop.store add %v, %y[%i] : memref<2xf32>
      }
    }
  }
  return %out : memref<2xf32>
}

/// Integers have no NaN: unwritten ones read 0xDEADBEEF, wrapped to their
/// width (i1 reads true).
// INTS:      result #0: tensor<2xi32>
// INTS-NEXT: -559038737 -559038737
// INTS-NEXT: result #1: tensor<2xi64>
// INTS-NEXT: 3735928559 3735928559
// INTS-NEXT: result #2: tensor<2xi8>
// INTS-NEXT: -17 -17
// INTS-NEXT: result #3: tensor<2xi1>
// INTS-NEXT: 1 1
func.func @poison_ints() -> (memref<2xi32>, memref<2xi64>, memref<2xi8>, memref<2xi1>) {
  %a = memref.alloc() : memref<2xi32>
  %b = memref.alloc() : memref<2xi64>
  %c = memref.alloc() : memref<2xi8>
  %d = memref.alloc() : memref<2xi1>
  return %a, %b, %c, %d : memref<2xi32>, memref<2xi64>, memref<2xi8>, memref<2xi1>
}

/// At the tensor level the same holds for tensor.empty.
// EMPTY:      result #0: tensor<3xf32>
// EMPTY-NEXT: nan nan nan
func.func @empty_tensor(%x: tensor<3xf32>) -> tensor<3xf32> {
  %e = tensor.empty() : tensor<3xf32>
  return %e : tensor<3xf32>
}
