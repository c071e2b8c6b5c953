// RUN: deplodock-opt %s --convert-to-dtensor --canonicalize -split-input-file | FileCheck %s
// RUN: deplodock-opt %s --split-input-file --lower-to-loop -o /dev/null
// RUN: deplodock-opt %s --split-input-file --convert-to-dtensor --convert-dtensor-to-dloop -o /dev/null

/// What torch-mlir emits, imported: softmax's max comes with an argmax
/// result nobody reads, which is dropped.
// CHECK-LABEL: func.func @max_unused_argmax
//       CHECK:   %[[M:.*]] = dtensor.reduce max %{{.*}} axes [1] : tensor<2x8xf32> -> tensor<2xf32>
//   CHECK-NOT:   i64
//       CHECK:   return %[[M]]
func.func @max_unused_argmax(%x: tensor<2x8xf32>) -> tensor<2xf32> {
  %c0 = arith.constant 0 : i64
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<2xi64>
  %f0 = linalg.fill ins(%c0 : i64) outs(%e0 : tensor<2xi64>) -> tensor<2xi64>
  %e1 = tensor.empty() : tensor<2xf32>
  %f1 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<2xf32>) -> tensor<2xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<2x8xf32>) outs(%f1, %f0 : tensor<2xf32>, tensor<2xi64>) {
  ^bb0(%in: f32, %m: f32, %k: i64):
    %i = linalg.index 1 : index
    %c = arith.index_cast %i : index to i64
    %m2 = arith.maximumf %in, %m : f32
    %gt = arith.cmpf ogt, %in, %m : f32
    %k2 = arith.select %gt, %c, %k : i64
    linalg.yield %m2, %k2 : f32, i64
  } -> (tensor<2xf32>, tensor<2xi64>)
  return %r#0 : tensor<2xf32>
}

// -----

/// argmin with a non-strict comparison (`acc >= v`, the last index reaching
/// the minimum): the indices where v equals the minimum, -1 elsewhere,
/// reduced with max as i32 and extended to i64.
// CHECK-LABEL: func.func @last_argmin
//       CHECK:   %[[M:.*]] = dtensor.reduce min %[[X:.*]] axes [1] : tensor<2x8xf32> -> tensor<2xf32>
//       CHECK:   %[[MB:.*]] = dtensor.index_map %[[M]][(d0, d1) -> (d0)] : (tensor<2xf32>) -> tensor<2x8xf32>
//       CHECK:   %[[H:.*]] = dtensor.elementwise (%[[V:.*]] = %[[X]] : tensor<2x8xf32>, %[[W:.*]] = %[[MB]] : tensor<2x8xf32>, %[[K:.*]] = %{{.*}} : tensor<2x8xi64>) -> tensor<2x8xi32>
//   CHECK-DAG:     %[[NEVER:.*]] = arith.constant -1 : i32
//   CHECK-DAG:     %[[EQ:.*]] = arith.cmpf oeq, %[[V]], %[[W]] : f32
//   CHECK-DAG:     %[[K32:.*]] = arith.trunci %[[K]] : i64 to i32
//       CHECK:     arith.select %[[EQ]], %[[K32]], %[[NEVER]] : i32
//       CHECK:   %[[R:.*]] = dtensor.reduce max %[[H]] axes [1] : tensor<2x8xi32> -> tensor<2xi32>
//       CHECK:   dtensor.elementwise (%[[A:.*]] = %[[R]] : tensor<2xi32>) -> tensor<2xi64>
//       CHECK:     arith.extsi %[[A]] : i32 to i64
func.func @last_argmin(%x: tensor<2x8xf32>) -> tensor<2xi64> {
  %c0 = arith.constant 0 : i64
  %inf = arith.constant 0x7F800000 : f32
  %e0 = tensor.empty() : tensor<2xi64>
  %f0 = linalg.fill ins(%c0 : i64) outs(%e0 : tensor<2xi64>) -> tensor<2xi64>
  %e1 = tensor.empty() : tensor<2xf32>
  %f1 = linalg.fill ins(%inf : f32) outs(%e1 : tensor<2xf32>) -> tensor<2xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<2x8xf32>) outs(%f1, %f0 : tensor<2xf32>, tensor<2xi64>) {
  ^bb0(%in: f32, %m: f32, %k: i64):
    %i = linalg.index 1 : index
    %c = arith.index_cast %i : index to i64
    %m2 = arith.minimumf %in, %m : f32
    %ge = arith.cmpf oge, %m, %in : f32
    %k2 = arith.select %ge, %c, %k : i64
    linalg.yield %m2, %k2 : f32, i64
  } -> (tensor<2xf32>, tensor<2xi64>)
  return %r#1 : tensor<2xi64>
}

// -----

/// Two reductions of one generic, both read: one reduce each.
// CHECK-LABEL: func.func @sum_and_max
//   CHECK-DAG:   %[[S:.*]] = dtensor.reduce add %{{.*}} axes [1] : tensor<4x8xf32> -> tensor<4xf32>
//   CHECK-DAG:   %[[M:.*]] = dtensor.reduce max %{{.*}} axes [1] : tensor<4x8xf32> -> tensor<4xf32>
//       CHECK:   return %[[S]], %[[M]]
func.func @sum_and_max(%x: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<4xf32>
  %i0 = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %i1 = linalg.fill ins(%ninf : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%i0, %i1 : tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%a: f32, %s: f32, %m: f32):
    %s2 = arith.addf %a, %s : f32
    %m2 = arith.maximumf %a, %m : f32
    linalg.yield %s2, %m2 : f32, f32
  } -> (tensor<4xf32>, tensor<4xf32>)
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

/// SDPA's "is the whole row masked" is an `and` over i1: reduced
/// sign-extended to i32 (true is -1, so and is max) and read back as the
/// low bit.
// CHECK-LABEL: func.func @all_masked
//       CHECK:   dtensor.elementwise (%[[B:.*]] = %{{.*}} : tensor<4x8xi1>) -> tensor<4x8xi32>
//       CHECK:     arith.extsi %[[B]] : i1 to i32
//       CHECK:   %[[R:.*]] = dtensor.reduce max %{{.*}} axes [1] : tensor<4x8xi32> -> tensor<4xi32>
//       CHECK:   dtensor.elementwise (%[[A:.*]] = %[[R]] : tensor<4xi32>) -> tensor<4xi1>
//       CHECK:     arith.andi %[[A]], %{{.*}} : i32
//       CHECK:     arith.cmpi ne
func.func @all_masked(%x: tensor<4x8xf32>) -> tensor<4xi1> {
  %true = arith.constant true
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<4x8xi1>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xi1>) {
  ^bb0(%a: f32, %o: i1):
    %c = arith.cmpf oeq, %a, %ninf : f32
    linalg.yield %c : i1
  } -> tensor<4x8xi1>
  %e1 = tensor.empty() : tensor<4xi1>
  %f = linalg.fill ins(%true : i1) outs(%e1 : tensor<4xi1>) -> tensor<4xi1>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%m : tensor<4x8xi1>) outs(%f : tensor<4xi1>) {
  ^bb0(%a: i1, %acc: i1):
    %and = arith.andi %a, %acc : i1
    linalg.yield %and : i1
  } -> tensor<4xi1>
  return %r : tensor<4xi1>
}

// -----

/// x.pow(2) arrives as math.fpowi: a multiplication.
// CHECK-LABEL: func.func @square
//       CHECK:   dtensor.elementwise (%[[A:.*]] = %{{.*}} : tensor<4xf32>) -> tensor<4xf32>
//  CHECK-NEXT:     %[[P:.*]] = arith.mulf %[[A]], %[[A]] : f32
//  CHECK-NEXT:     dtensor.yield %[[P]] : f32
func.func @square(%x: tensor<4xf32>) -> tensor<4xf32> {
  %two = arith.constant 2 : i64
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %p = math.fpowi %a, %two : f32, i64
    linalg.yield %p : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

/// An embedding lookup: tensor.extract at a computed row is a gather whose
/// index tensors are the body's index computations (the asserts on the ids
/// are dropped: the gather clamps instead).
// CHECK-LABEL: func.func @embedding
//  CHECK-SAME:   (%[[T:.*]]: tensor<10x4xf32>, %[[IDS:.*]]: tensor<3xi64>)
//       CHECK:   %[[ROW:.*]] = dtensor.elementwise (%[[I:.*]] = %{{.*}} : tensor<3x4xi64>) -> tensor<3x4xindex>
//  CHECK-NEXT:     arith.index_cast %[[I]] : i64 to index
//       CHECK:   %[[COL:.*]] = dtensor.index_map %{{.*}}[(d0, d1) -> (d1)] : (tensor<4xindex>) -> tensor<3x4xindex>
//       CHECK:   %[[G:.*]] = dtensor.gather %[[T]][%[[ROW]], %[[COL]]] : tensor<10x4xf32>[tensor<3x4xindex>, tensor<3x4xindex>] -> tensor<3x4xf32>
//       CHECK:   return %[[G]]
func.func @embedding(%t: tensor<10x4xf32>, %ids: tensor<3xi64>) -> tensor<3x4xf32> {
  %c10 = arith.constant 10 : index
  %e = tensor.empty() : tensor<3x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<3xi64>) outs(%e : tensor<3x4xf32>) {
  ^bb0(%in: i64, %out: f32):
    %row = arith.index_cast %in : i64 to index
    %col = linalg.index 1 : index
    %ok = arith.cmpi slt, %row, %c10 : index
    cf.assert %ok, "index must be smaller than dim size"
    %v = tensor.extract %t[%row, %col] : tensor<10x4xf32>
    linalg.yield %v : f32
  } -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

// -----

/// tensor.insert of a constant at constant indices: that coordinate reads
/// the scalar, every other the destination.
// CHECK-LABEL: func.func @insert_constant
//       CHECK:   %[[S:.*]] = arith.constant dense<2.500000e+00> : tensor<f32>
//       CHECK:   dtensor.index_map %[[S]][(d0, d1) -> ()] if [(d0, d1) : (d0 - 1 == 0, d1 - 2 == 0)], %{{.*}}[(d0, d1) -> (d0, d1)] : (tensor<f32>, tensor<3x4xf32>) -> tensor<3x4xf32>
func.func @insert_constant(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %v = arith.constant 2.5 : f32
  %i = arith.constant 1 : index
  %j = arith.constant 2 : index
  %r = tensor.insert %v into %x[%i, %j] : tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

// -----

/// tensor.insert of an element of another tensor.
// CHECK-LABEL: func.func @insert_extracted
//  CHECK-SAME:   (%[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<2x2xf32>)
//       CHECK:   %[[S:.*]] = dtensor.index_map %[[Y]][() -> (1, 0)] : (tensor<2x2xf32>) -> tensor<f32>
//       CHECK:   dtensor.index_map %[[S]][(d0) -> ()] if [(d0) : (d0 - 3 == 0)], %[[X]][(d0) -> (d0)] : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
func.func @insert_extracted(%x: tensor<4xf32>, %y: tensor<2x2xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %v = tensor.extract %y[%c1, %c0] : tensor<2x2xf32>
  %r = tensor.insert %v into %x[%c3] : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

/// Lowered TOSA pads with an element of a constant tensor.
// CHECK-LABEL: func.func @pad_extracted_value
//       CHECK:   dtensor.index_map %{{.*}}[(d0) -> (d0 - 1)] if [(d0) : (d0 - 1 >= 0, -d0 + 3 >= 0)] : (tensor<3xf32>) -> tensor<5xf32> padding -2.000000e+00
func.func @pad_extracted_value(%x: tensor<3xf32>) -> tensor<5xf32> {
  %p = arith.constant dense<-2.0> : tensor<1xf32>
  %c0 = arith.constant 0 : index
  %v = tensor.extract %p[%c0] : tensor<1xf32>
  %r = tensor.pad %x low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %v : f32
  } : tensor<3xf32> to tensor<5xf32>
  return %r : tensor<5xf32>
}

// -----

/// Collapsing a zero-size dimension reads nothing (no stride divides by it).
// CHECK-LABEL: func.func @collapse_empty
//       CHECK:   dtensor.index_map %{{.*}}[(d0) -> (0, 0)] : (tensor<0x4xf32>) -> tensor<0xf32>
func.func @collapse_empty(%x: tensor<0x4xf32>) -> tensor<0xf32> {
  %r = tensor.collapse_shape %x [[0, 1]] : tensor<0x4xf32> into tensor<0xf32>
  return %r : tensor<0xf32>
}
