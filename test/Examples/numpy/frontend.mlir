// REQUIRES: numpy
// RUN: rm -rf %t && mkdir -p %t
// RUN: deplodock-run --interp %s --func=pad --pipeline=lower-to-loop --seed=4 --save-inputs=%t/pad --output-dir=%t/pad --print=none
// RUN: %numpy_python %S/frontend.py pad %t/pad | FileCheck %s
// RUN: deplodock-run --interp %s --func=insert --pipeline=lower-to-loop --seed=4 --save-inputs=%t/insert --output-dir=%t/insert --print=none
// RUN: %numpy_python %S/frontend.py insert %t/insert | FileCheck %s
// RUN: deplodock-run --interp %s --func=insert_reduced --pipeline=lower-to-loop --seed=4 --save-inputs=%t/insert_reduced --output-dir=%t/insert_reduced --print=none
// RUN: %numpy_python %S/frontend.py insert_reduced %t/insert_reduced | FileCheck %s
// RUN: deplodock-run --interp %s --func=extract --pipeline=lower-to-loop --seed=4 --save-inputs=%t/extract --output-dir=%t/extract --print=none
// RUN: %numpy_python %S/frontend.py extract %t/extract | FileCheck %s
// RUN: deplodock-run --interp %s --func=slices --pipeline=lower-to-loop --seed=4 --save-inputs=%t/slices --output-dir=%t/slices --print=none
// RUN: %numpy_python %S/frontend.py slices %t/slices | FileCheck %s
// RUN: deplodock-run --interp %s --func=concat --pipeline=lower-to-loop --seed=4 --save-inputs=%t/concat --output-dir=%t/concat --print=none
// RUN: %numpy_python %S/frontend.py concat %t/concat | FileCheck %s
// RUN: deplodock-run --interp %s --func=reshape --pipeline=lower-to-loop --seed=4 --save-inputs=%t/reshape --output-dir=%t/reshape --print=none
// RUN: %numpy_python %S/frontend.py reshape %t/reshape | FileCheck %s
// RUN: deplodock-run --interp %s --func=generic_maps --pipeline=lower-to-loop --seed=4 --save-inputs=%t/generic_maps --output-dir=%t/generic_maps --print=none
// RUN: %numpy_python %S/frontend.py generic_maps %t/generic_maps | FileCheck %s
// RUN: deplodock-run --interp %s --func=max_into_arg --pipeline=lower-to-loop --seed=4 --save-inputs=%t/max_into_arg --output-dir=%t/max_into_arg --print=none
// RUN: %numpy_python %S/frontend.py max_into_arg %t/max_into_arg | FileCheck %s
// RUN: deplodock-run --interp %s --func=permuted_reduce --pipeline=lower-to-loop --seed=4 --save-inputs=%t/permuted_reduce --output-dir=%t/permuted_reduce --print=none
// RUN: %numpy_python %S/frontend.py permuted_reduce %t/permuted_reduce | FileCheck %s
// RUN: deplodock-run --interp %s --func=split_reduce --pipeline=lower-to-loop --seed=4 --save-inputs=%t/split_reduce --output-dir=%t/split_reduce --print=none
// RUN: %numpy_python %S/frontend.py split_reduce %t/split_reduce | FileCheck %s
// RUN: deplodock-run --interp %s --func=accumulate --pipeline=lower-to-loop --seed=4 --save-inputs=%t/accumulate --output-dir=%t/accumulate --print=none
// RUN: %numpy_python %S/frontend.py accumulate %t/accumulate | FileCheck %s
// RUN: deplodock-run --interp %s --func=conv1d --pipeline=lower-to-loop --seed=4 --save-inputs=%t/conv1d --output-dir=%t/conv1d --print=none
// RUN: %numpy_python %S/frontend.py conv1d %t/conv1d | FileCheck %s
// RUN: deplodock-run --interp %s --func=bcast_const --pipeline=lower-to-loop --seed=4 --save-inputs=%t/bcast_const --output-dir=%t/bcast_const --print=none
// RUN: %numpy_python %S/frontend.py bcast_const %t/bcast_const | FileCheck %s
// RUN: deplodock-run --interp %s --func=matmul_bias --pipeline=lower-to-loop --seed=4 --save-inputs=%t/matmul_bias --output-dir=%t/matmul_bias --print=none
// RUN: %numpy_python %S/frontend.py matmul_bias %t/matmul_bias | FileCheck %s
// RUN: deplodock-run --interp %s --func=bmm_t --pipeline=lower-to-loop --seed=4 --save-inputs=%t/bmm_t --output-dir=%t/bmm_t --print=none
// RUN: %numpy_python %S/frontend.py bmm_t %t/bmm_t | FileCheck %s
// RUN: deplodock-run --interp %s --func=named --pipeline=lower-to-loop --seed=4 --save-inputs=%t/named --output-dir=%t/named --print=none
// RUN: %numpy_python %S/frontend.py named %t/named | FileCheck %s
// RUN: deplodock-run --interp %s --func=tensor_arith --pipeline=lower-to-loop --seed=4 --save-inputs=%t/tensor_arith --output-dir=%t/tensor_arith --print=none
// RUN: %numpy_python %S/frontend.py tensor_arith %t/tensor_arith | FileCheck %s
// RUN: deplodock-run --interp %s --func=masks --pipeline=lower-to-loop --seed=4 --save-inputs=%t/masks --output-dir=%t/masks --print=none
// RUN: %numpy_python %S/frontend.py masks %t/masks | FileCheck %s

/// Small layers built from what the importer takes (tensor layout ops,
/// linalg.generic with every kind of indexing map, reductions into inits that
/// are and are not the identity, named ops, arith on tensors, masks from
/// linalg.index), lowered to fused kernels and checked against frontend.py,
/// which says in NumPy what each computes.
// CHECK-NOT: FAIL
// CHECK:     result #0: {{.*}}: PASS
// CHECK-NOT: FAIL

func.func @pad(%x: tensor<2x3xf32>) -> tensor<5x4xf32> {
  %c = arith.constant 7.5 : f32
  %p = tensor.pad %x low[1, 0] high[2, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c : f32
  } : tensor<2x3xf32> to tensor<5x4xf32>
  return %p : tensor<5x4xf32>
}

func.func @insert(%x: tensor<2x3xf32>, %d: tensor<4x5xf32>) -> tensor<4x5xf32> {
  %r = tensor.insert_slice %x into %d[1, 2] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<4x5xf32>
  return %r : tensor<4x5xf32>
}

func.func @insert_reduced(%x: tensor<3xf32>, %d: tensor<4x5xf32>) -> tensor<4x5xf32> {
  %r = tensor.insert_slice %x into %d[2, 1] [1, 3] [1, 1] : tensor<3xf32> into tensor<4x5xf32>
  return %r : tensor<4x5xf32>
}

func.func @extract(%x: tensor<4x6xf32>) -> (tensor<2x3xf32>, tensor<3xf32>) {
  %a = tensor.extract_slice %x[1, 0] [2, 3] [2, 2] : tensor<4x6xf32> to tensor<2x3xf32>
  %b = tensor.extract_slice %x[2, 1] [1, 3] [1, 2] : tensor<4x6xf32> to tensor<3xf32>
  return %a, %b : tensor<2x3xf32>, tensor<3xf32>
}

func.func @slices(%x: tensor<3x4x5xf32>) -> (tensor<3x5xf32>, tensor<2x1x2xf32>, tensor<1x4xf32>) {
  %a = tensor.extract_slice %x[0, 2, 0] [3, 1, 5] [1, 1, 1] : tensor<3x4x5xf32> to tensor<3x5xf32>
  %b = tensor.extract_slice %x[1, 3, 1] [2, 1, 2] [1, 1, 3] : tensor<3x4x5xf32> to tensor<2x1x2xf32>
  %c = tensor.extract_slice %x[2, 0, 4] [1, 4, 1] [1, 1, 1] : tensor<3x4x5xf32> to tensor<1x4xf32>
  return %a, %b, %c : tensor<3x5xf32>, tensor<2x1x2xf32>, tensor<1x4xf32>
}

func.func @concat(%a: tensor<1x3xf32>, %b: tensor<2x3xf32>, %c: tensor<3x3xf32>) -> tensor<6x3xf32> {
  %r = tensor.concat dim(0) %a, %b, %c : (tensor<1x3xf32>, tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<6x3xf32>
  return %r : tensor<6x3xf32>
}

func.func @reshape(%x: tensor<2x3x4xf32>) -> (tensor<6x4xf32>, tensor<2x12xf32>, tensor<3x2x2x2xf32>) {
  %a = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  %b = tensor.collapse_shape %x [[0], [1, 2]] : tensor<2x3x4xf32> into tensor<2x12xf32>
  %f = tensor.collapse_shape %x [[0, 1, 2]] : tensor<2x3x4xf32> into tensor<24xf32>
  %c = tensor.expand_shape %f [[0, 1, 2, 3]] output_shape [3, 2, 2, 2] : tensor<24xf32> into tensor<3x2x2x2xf32>
  return %a, %b, %c : tensor<6x4xf32>, tensor<2x12xf32>, tensor<3x2x2x2xf32>
}

func.func @generic_maps(%x: tensor<3x4xf32>, %y: tensor<4xf32>) -> (tensor<4x3xf32>, tensor<3x1xf32>, tensor<1x4xf32>) {
  %e = tensor.empty() : tensor<4x3xf32>
  // The output written transposed; coordinates read through linalg.index.
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<3x4xf32>, tensor<4xf32>) outs(%e : tensor<4x3xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %s = arith.addi %i, %j : index
    %si = arith.index_cast %s : index to i32
    %sf = arith.sitofp %si : i32 to f32
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %m, %sf : f32
    linalg.yield %r : f32
  } -> tensor<4x3xf32>
  // Keepdim max over columns into an init of -inf; a sum over rows into an
  // init of ones (not the identity: added).
  %ninf = arith.constant 0xFF800000 : f32
  %e2 = tensor.empty() : tensor<3x1xf32>
  %f2 = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<3x1xf32>) -> tensor<3x1xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<3x4xf32>) outs(%f2 : tensor<3x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<3x1xf32>
  %one = arith.constant 1.0 : f32
  %e3 = tensor.empty() : tensor<1x4xf32>
  %f3 = linalg.fill ins(%one : f32) outs(%e3 : tensor<1x4xf32>) -> tensor<1x4xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (0, d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<3x4xf32>) outs(%f3 : tensor<1x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %sq = arith.mulf %a, %a : f32
    %r = arith.addf %o, %sq : f32
    linalg.yield %r : f32
  } -> tensor<1x4xf32>
  return %t, %mx, %sm : tensor<4x3xf32>, tensor<3x1xf32>, tensor<1x4xf32>
}

func.func @max_into_arg(%x: tensor<3x4xf32>, %init: tensor<3xf32>) -> tensor<3xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<3x4xf32>) outs(%init : tensor<3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %o, %a : f32
    linalg.yield %r : f32
  } -> tensor<3xf32>
  return %r : tensor<3xf32>
}

func.func @permuted_reduce(%x: tensor<2x3x4xf32>) -> tensor<3x2xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x2xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<3x2xf32>) -> tensor<3x2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<2x3x4xf32>) outs(%f : tensor<3x2xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}

func.func @split_reduce(%x: tensor<2x3x4xf32>) -> tensor<3xf32> {
  %z = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<3xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1)>], iterator_types = ["reduction", "parallel", "reduction"]} ins(%x : tensor<2x3x4xf32>) outs(%f : tensor<3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<3xf32>
  return %r : tensor<3xf32>
}

func.func @accumulate(%x: tensor<2x3xf32>, %acc: tensor<2x3xf32>, %acc2: tensor<3x2xf32>) -> (tensor<2x3xf32>, tensor<3x2xf32>) {
  %c = arith.constant 2.0 : f32
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]} ins(%x, %c : tensor<2x3xf32>, f32) outs(%acc, %acc2 : tensor<2x3xf32>, tensor<3x2xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32, %o2: f32):
    %m = arith.mulf %a, %s : f32
    %r = arith.addf %o, %m : f32
    %q = arith.subf %o2, %a : f32
    linalg.yield %r, %q : f32, f32
  } -> (tensor<2x3xf32>, tensor<3x2xf32>)
  return %r#0, %r#1 : tensor<2x3xf32>, tensor<3x2xf32>
}

func.func @conv1d(%x: tensor<10xf32>, %w: tensor<3xf32>) -> (tensor<8xf32>, tensor<4xf32>, tensor<8xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 + d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x, %w : tensor<10xf32>, tensor<3xf32>) outs(%f : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %o, %m : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %e2 = tensor.empty() : tensor<4xf32>
  %f2 = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
  %win = tensor.empty() : tensor<2xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 * 2 + d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%c, %win : tensor<8xf32>, tensor<2xf32>) outs(%f2 : tensor<4xf32>) {
  ^bb0(%a: f32, %unused: f32, %o: f32):
    %r = arith.maximumf %o, %a : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %e3 = tensor.empty() : tensor<8xf32>
  %relu = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0 floordiv 2)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%c, %p : tensor<8xf32>, tensor<4xf32>) outs(%e3 : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %b, %a : f32
    %z0 = arith.constant 0.0 : f32
    %r = arith.maximumf %d, %z0 : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %c, %p, %relu : tensor<8xf32>, tensor<4xf32>, tensor<8xf32>
}

func.func @bcast_const(%x: tensor<1x4xf32>, %y: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %e = tensor.empty() : tensor<3x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<1x4xf32>, tensor<3x4xf32>) outs(%e : tensor<3x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.divf %b, %a : f32
    linalg.yield %r : f32
  } -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

func.func @matmul_bias(%a: tensor<3x5xf32>, %b: tensor<5x2xf32>, %c: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<3x5xf32>, tensor<5x2xf32>) outs(%c : tensor<3x2xf32>) -> tensor<3x2xf32>
  return %m : tensor<3x2xf32>
}

func.func @bmm_t(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<5x2x3xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3x5xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  %m = linalg.batch_matmul ins(%a, %b : tensor<2x3x4xf32>, tensor<2x4x5xf32>) outs(%f : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  %e2 = tensor.empty() : tensor<5x2x3xf32>
  %t = linalg.transpose ins(%m : tensor<2x3x5xf32>) outs(%e2 : tensor<5x2x3xf32>) permutation = [2, 0, 1]
  return %t : tensor<5x2x3xf32>
}

func.func @named(%x: tensor<2x3x4xf32>, %v: tensor<3xf32>) -> (tensor<2x4xf32>, tensor<4x2x3xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %r = linalg.reduce ins(%x : tensor<2x3x4xf32>) outs(%f : tensor<2x4xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %s = arith.addf %in, %init : f32
      linalg.yield %s : f32
    }
  %e2 = tensor.empty() : tensor<4x2x3xf32>
  %t = linalg.transpose ins(%x : tensor<2x3x4xf32>) outs(%e2 : tensor<4x2x3xf32>) permutation = [2, 0, 1]
  %e3 = tensor.empty() : tensor<2x3x4xf32>
  %b = linalg.broadcast ins(%v : tensor<3xf32>) outs(%e3 : tensor<2x3x4xf32>) dimensions = [0, 2]
  %e4 = tensor.empty() : tensor<2x3x4xf32>
  %m = linalg.map ins(%x, %b : tensor<2x3x4xf32>, tensor<2x3x4xf32>) outs(%e4 : tensor<2x3x4xf32>)
    (%p: f32, %q: f32, %o: f32) {
      %d = arith.subf %p, %q : f32
      linalg.yield %d : f32
    }
  return %r, %t, %b, %m : tensor<2x4xf32>, tensor<4x2x3xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>
}

func.func @tensor_arith(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xi1>, tensor<2x3xf32>) {
  %w = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %h = arith.constant dense<0.5> : tensor<2x3xf32>
  %a = arith.mulf %x, %w : tensor<2x3xf32>
  %b = arith.addf %a, %h : tensor<2x3xf32>
  %c = arith.cmpf olt, %x, %y : tensor<2x3xf32>
  %d = arith.select %c, %x, %y : tensor<2x3xi1>, tensor<2x3xf32>
  %e = math.exp %d : tensor<2x3xf32>
  return %b, %c, %e : tensor<2x3xf32>, tensor<2x3xi1>, tensor<2x3xf32>
}

func.func @masks(%x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %e = tensor.empty() : tensor<4x4xf32>
  // ne is not one affine constraint: the coordinates are read from iotas.
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ne = arith.cmpi ne, %i, %j : index
    %z = arith.constant 0.0 : f32
    %r = arith.select %ne, %v, %z : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  // A band: j - i in [-1, 1] as two comparisons combined.
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c1 = arith.constant 1 : index
    %ip = arith.addi %i, %c1 : index
    %jp = arith.addi %j, %c1 : index
    %lo = arith.cmpi sle, %j, %ip : index
    %hi = arith.cmpi sle, %i, %jp : index
    %in = arith.andi %lo, %hi : i1
    %z = arith.constant 0.0 : f32
    %r = arith.select %in, %v, %z : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  // 2i - j >= 0 with an equality and a product.
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c2 = arith.constant 2 : index
    %ti = arith.muli %i, %c2 : index
    %ge = arith.cmpi sge, %ti, %j : index
    %eq = arith.cmpi eq, %i, %j : index
    %z = arith.constant 0.0 : f32
    %big = arith.constant 100.0 : f32
    %r0 = arith.select %ge, %v, %z : f32
    %r = arith.select %eq, %big, %r0 : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  return %a, %b, %c : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}
