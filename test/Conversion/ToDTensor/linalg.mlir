// RUN: deplodock-opt %s --convert-to-dtensor --canonicalize -split-input-file | FileCheck %s

/// A matmul is two broadcasting index maps, a multiply and a reduce-add; a
/// zero-filled init is the identity of the add and disappears.
// CHECK-LABEL: func.func @matmul
//  CHECK-SAME:   (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8x3xf32>)
//   CHECK-DAG:   %[[AB:.*]] = dtensor.index_map %[[A]][(d0, d1, d2) -> (d0, d2)] : (tensor<4x8xf32>) -> tensor<4x3x8xf32>
//   CHECK-DAG:   %[[BB:.*]] = dtensor.index_map %[[B]][(d0, d1, d2) -> (d2, d1)] : (tensor<8x3xf32>) -> tensor<4x3x8xf32>
//       CHECK:   %[[P:.*]] = dtensor.elementwise (%[[X:.*]] = %[[AB]] : tensor<4x3x8xf32>, %[[Y:.*]] = %[[BB]] : tensor<4x3x8xf32>) -> tensor<4x3x8xf32>
//       CHECK:     arith.mulf %[[X]], %[[Y]] : f32
//       CHECK:   %[[S:.*]] = dtensor.reduce add %[[P]] axes [2] : tensor<4x3x8xf32> -> tensor<4x3xf32>
//   CHECK-NOT:   dtensor.elementwise
//       CHECK:   return %[[S]]
func.func @matmul(%a: tensor<4x8xf32>, %b: tensor<8x3xf32>) -> tensor<4x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x3xf32>) outs(%f : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %m : tensor<4x3xf32>
}

// -----

/// A batch matmul into an init that is not the identity keeps the add.
// CHECK-LABEL: func.func @batch_matmul_init
//       CHECK:   %[[INIT:.*]] = dtensor.elementwise () -> tensor<2x4x3xf32>
//       CHECK:     arith.constant 1.000000e+00 : f32
//       CHECK:   dtensor.index_map %{{.*}}[(d0, d1, d2, d3) -> (d0, d1, d3)] : (tensor<2x4x8xf32>) -> tensor<2x4x3x8xf32>
//       CHECK:   dtensor.index_map %{{.*}}[(d0, d1, d2, d3) -> (d0, d3, d2)] : (tensor<2x8x3xf32>) -> tensor<2x4x3x8xf32>
//       CHECK:   %[[S:.*]] = dtensor.reduce add %{{.*}} axes [3] : tensor<2x4x3x8xf32> -> tensor<2x4x3xf32>
//       CHECK:   dtensor.elementwise (%[[I:.*]] = %[[INIT]] : tensor<2x4x3xf32>, %[[R:.*]] = %[[S]] : tensor<2x4x3xf32>)
//       CHECK:     arith.addf %[[I]], %[[R]] : f32
func.func @batch_matmul_init(%a: tensor<2x4x8xf32>, %b: tensor<2x8x3xf32>) -> tensor<2x4x3xf32> {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<2x4x3xf32>
  %f = linalg.fill ins(%one : f32) outs(%e : tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  %m = linalg.batch_matmul ins(%a, %b : tensor<2x4x8xf32>, tensor<2x8x3xf32>) outs(%f : tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  return %m : tensor<2x4x3xf32>
}

// -----

/// Transpose then broadcast compose into one index map with the exact
/// coordinates: output (i, j, k) reads x[k, i].
// CHECK-LABEL: func.func @transpose_broadcast
//  CHECK-NEXT:   %[[R:.*]] = dtensor.index_map %{{.*}}[(d0, d1, d2) -> (d2, d0)] : (tensor<4x8xf32>) -> tensor<8x3x4xf32>
//  CHECK-NEXT:   return %[[R]]
func.func @transpose_broadcast(%x: tensor<4x8xf32>) -> tensor<8x3x4xf32> {
  %e = tensor.empty() : tensor<8x4xf32>
  %t = linalg.transpose ins(%x : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<8x3x4xf32>
  %b = linalg.broadcast ins(%t : tensor<8x4xf32>) outs(%e2 : tensor<8x3x4xf32>) dimensions = [1]
  return %b : tensor<8x3x4xf32>
}

// -----

/// linalg.reduce with a -inf init is a plain max reduction.
// CHECK-LABEL: func.func @reduce_max
//  CHECK-NEXT:   %[[R:.*]] = dtensor.reduce max %{{.*}} axes [1] : tensor<4x8xf32> -> tensor<4xf32>
//  CHECK-NEXT:   return %[[R]]
func.func @reduce_max(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.reduce ins(%x : tensor<4x8xf32>) outs(%f : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  return %r : tensor<4xf32>
}

// -----

/// A keepdim reduction writes through a map with a constant 0.
// CHECK-LABEL: func.func @sum_keepdim
//       CHECK:   %[[S:.*]] = dtensor.reduce add %{{.*}} axes [2] : tensor<1x4x8xf32> -> tensor<1x4xf32>
//       CHECK:   dtensor.index_map %[[S]][(d0, d1, d2) -> (d0, d1)] : (tensor<1x4xf32>) -> tensor<1x4x1xf32>
func.func @sum_keepdim(%x: tensor<1x4x8xf32>) -> tensor<1x4x1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x1xf32>) -> tensor<1x4x1xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<1x4x8xf32>) outs(%f : tensor<1x4x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1x4x1xf32>
  return %r : tensor<1x4x1xf32>
}

// -----

/// Softmax decomposes into a NaN-ignoring max (maxnumf from a NaN fill),
/// subtract-exp, sum and divide.
// CHECK-LABEL: func.func @softmax
//       CHECK:   dtensor.reduce maxnum %{{.*}} axes [1]
//       CHECK:   math.exp
//       CHECK:   dtensor.reduce add %{{.*}} axes [1]
//       CHECK:   arith.divf
func.func @softmax(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

/// linalg.map and elementwise generics keep their scalar body.
// CHECK-LABEL: func.func @map_exp
//  CHECK-NEXT:   %[[R:.*]] = dtensor.elementwise (%[[X:.*]] = %{{.*}} : tensor<4xf32>) -> tensor<4xf32>
//  CHECK-NEXT:     %[[E:.*]] = math.exp %[[X]] : f32
//  CHECK-NEXT:     dtensor.yield %[[E]] : f32
func.func @map_exp(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.map { math.exp } ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>)
  return %r : tensor<4xf32>
}

// -----

/// A generic writing through a transposed output map computes over its
/// domain, then lays the result out.
// CHECK-LABEL: func.func @transposed_output
//       CHECK:   %[[N:.*]] = dtensor.elementwise (%{{.*}} = %{{.*}} : tensor<4x8xf32>) -> tensor<4x8xf32>
//       CHECK:     arith.negf
//       CHECK:   dtensor.index_map %[[N]][(d0, d1) -> (d1, d0)] : (tensor<4x8xf32>) -> tensor<8x4xf32>
func.func @transposed_output(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %e = tensor.empty() : tensor<8x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// -----

/// A causal mask compares coordinates: it becomes a predicated index map
/// of constants, not code on indices.
// CHECK-LABEL: func.func @causal_mask
//       CHECK:   %[[T:.*]] = arith.constant dense<true> : tensor<i1>
//       CHECK:   %[[M:.*]] = dtensor.index_map %[[T]][(d0, d1) -> ()] if [(d0, d1) : (d1 - d0 - 1 >= 0)] : (tensor<i1>) -> tensor<4x4xi1> padding false
//       CHECK:   dtensor.elementwise (%[[X:.*]] = %{{.*}} : tensor<4x4xf32>, %[[F:.*]] = %[[M]] : tensor<4x4xi1>)
//       CHECK:     arith.select %[[F]], %{{.*}}, %[[X]] : f32
func.func @causal_mask(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %e = tensor.empty() : tensor<4x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %future = arith.cmpi sgt, %j, %i : index
    %ninf = arith.constant 0xFF800000 : f32
    %m = arith.select %future, %ninf, %a : f32
    linalg.yield %m : f32
  } -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

/// Other uses of a coordinate read it from an iota constant.
// CHECK-LABEL: func.func @iota
//       CHECK:   %[[C:.*]] = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xindex>
//       CHECK:   %[[J:.*]] = dtensor.index_map %[[C]][(d0, d1) -> (d1)] : (tensor<8xindex>) -> tensor<4x8xindex>
//       CHECK:   dtensor.elementwise (%{{.*}} = %{{.*}} : tensor<4x8xf32>, %[[I:.*]] = %[[J]] : tensor<4x8xindex>)
//       CHECK:     arith.index_cast %[[I]] : index to i32
func.func @iota(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %jf = arith.sitofp %ji : i32 to f32
    %s = arith.addf %a, %jf : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

/// Scalar operands and constants defined outside the body are cloned in.
// CHECK-LABEL: func.func @scalar_operand
//       CHECK:   dtensor.elementwise (%[[X:.*]] = %{{.*}} : tensor<4xf32>) -> tensor<4xf32>
//   CHECK-DAG:     %[[C2:.*]] = arith.constant 2.000000e+00 : f32
//   CHECK-DAG:     %[[C3:.*]] = arith.constant 3.000000e+00 : f32
//       CHECK:     arith.mulf %[[X]], %[[C2]] : f32
//       CHECK:     arith.addf %{{.*}}, %[[C3]] : f32
func.func @scalar_operand(%x: tensor<4xf32>) -> tensor<4xf32> {
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %two : tensor<4xf32>, f32) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %t: f32, %o: f32):
    %m = arith.mulf %a, %t : f32
    %s = arith.addf %m, %three : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

/// minnumf ignores NaNs, so the reduction is minnum, not min (which
/// propagates them). A fill of -inf is not minnum's identity (NaN): it is
/// folded in with the body's own minnumf.
// CHECK-LABEL: func.func @minnumf_reduction
//       CHECK:   %[[FILL:.*]] = dtensor.elementwise () -> tensor<3xf32>
//       CHECK:   %[[MIN:.*]] = dtensor.reduce minnum %{{.*}} axes [1] : tensor<3x4xf32> -> tensor<3xf32>
//       CHECK:   dtensor.elementwise (%[[A:.*]] = %[[FILL]] : tensor<3xf32>, %[[B:.*]] = %[[MIN]] : tensor<3xf32>)
//       CHECK:     arith.minnumf %[[A]], %[[B]] : f32
func.func @minnumf_reduction(%x: tensor<3x4xf32>) -> tensor<3xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<3xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<3x4xf32>) outs(%f : tensor<3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.minnumf %o, %a : f32
    linalg.yield %m : f32
  } -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

/// A NaN fill is maxnum's identity (upstream softmax starts so): the
/// reduction alone is the result.
// CHECK-LABEL: func.func @maxnumf_nan_init
//       CHECK:   %[[MAX:.*]] = dtensor.reduce maxnum %{{.*}} axes [1] : tensor<3x4xf32> -> tensor<3xf32>
//       CHECK:   return %[[MAX]]
func.func @maxnumf_nan_init(%x: tensor<3x4xf32>) -> tensor<3xf32> {
  %nan = arith.constant 0x7FC00000 : f32
  %e = tensor.empty() : tensor<3xf32>
  %f = linalg.fill ins(%nan : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<3x4xf32>) outs(%f : tensor<3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maxnumf %o, %a : f32
    linalg.yield %m : f32
  } -> tensor<3xf32>
  return %r : tensor<3xf32>
}
