#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#map2 = affine_map<(d0, d1, d2) -> (d2)>
#map3 = affine_map<(d0, d1) -> (d1)>
#map4 = affine_map<(d0, d1) -> (d0, d1)>
#map5 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map6 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#map7 = affine_map<(d0, d1, d2, d3) -> ()>
#map8 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map9 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @gpt2(%arg0: tensor<32xf32> {deplodock.name = "ln_1.weight"}, %arg1: tensor<32xf32> {deplodock.name = "ln_1.bias"}, %arg2: tensor<96x32xf32> {deplodock.name = "c_attn.weight"}, %arg3: tensor<96xf32> {deplodock.name = "c_attn.bias"}, %arg4: tensor<32x32xf32> {deplodock.name = "c_proj.weight"}, %arg5: tensor<32xf32> {deplodock.name = "c_proj.bias"}, %arg6: tensor<32xf32> {deplodock.name = "ln_2.weight"}, %arg7: tensor<32xf32> {deplodock.name = "ln_2.bias"}, %arg8: tensor<128x32xf32> {deplodock.name = "c_fc.weight"}, %arg9: tensor<128xf32> {deplodock.name = "c_fc.bias"}, %arg10: tensor<32x128xf32> {deplodock.name = "mlp_proj.weight"}, %arg11: tensor<32xf32> {deplodock.name = "mlp_proj.bias"}, %arg12: tensor<1x8x32xf32> {deplodock.name = "input0"}) -> tensor<1x8x32xf32> {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f64
    %cst_0 = arith.constant 0.000000e+00 : f32
    %c0_i8 = arith.constant 0 : i8
    %true = arith.constant true
    %cst_1 = arith.constant 0xFF800000 : f32
    %c3_i64 = arith.constant 3 : i64
    %cst_2 = arith.constant 4.471500e-02 : f32
    %cst_3 = arith.constant 7.977240e-01 : f32
    %cst_4 = arith.constant 1.000000e+00 : f32
    %cst_5 = arith.constant 5.000000e-01 : f32
    %cst_6 = arith.constant dense<0xFF800000> : tensor<f32>
    %cst_7 = arith.constant 2.8284271247461903 : f64
    %cst_8 = arith.constant 1.000000e-05 : f64
    %cst_9 = arith.constant 3.200000e+01 : f64
    %cst_10 = arith.constant 3.200000e+01 : f32
    %cst_11 = arith.constant dense_resource<torch_tensor_8_8_torch.uint8> : tensor<8x8xi8>
    %0 = tensor.empty() : tensor<1x8x32xf64>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg12 : tensor<1x8x32xf32>) outs(%0 : tensor<1x8x32xf64>) {
    ^bb0(%in: f32, %out: f64):
      %86 = arith.extf %in : f32 to f64
      linalg.yield %86 : f64
    } -> tensor<1x8x32xf64>
    %2 = tensor.empty() : tensor<1x8x1xf64>
    %3 = linalg.fill ins(%cst : f64) outs(%2 : tensor<1x8x1xf64>) -> tensor<1x8x1xf64>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%1 : tensor<1x8x32xf64>) outs(%3 : tensor<1x8x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %86 = arith.addf %in, %out : f64
      linalg.yield %86 : f64
    } -> tensor<1x8x1xf64>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%4 : tensor<1x8x1xf64>) outs(%2 : tensor<1x8x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %86 = arith.divf %in, %cst_9 : f64
      linalg.yield %86 : f64
    } -> tensor<1x8x1xf64>
    %6 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%1, %5 : tensor<1x8x32xf64>, tensor<1x8x1xf64>) outs(%0 : tensor<1x8x32xf64>) {
    ^bb0(%in: f64, %in_37: f64, %out: f64):
      %86 = arith.subf %in, %in_37 : f64
      linalg.yield %86 : f64
    } -> tensor<1x8x32xf64>
    %7 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6, %6 : tensor<1x8x32xf64>, tensor<1x8x32xf64>) outs(%0 : tensor<1x8x32xf64>) {
    ^bb0(%in: f64, %in_37: f64, %out: f64):
      %86 = arith.mulf %in, %in_37 : f64
      linalg.yield %86 : f64
    } -> tensor<1x8x32xf64>
    %8 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%7 : tensor<1x8x32xf64>) outs(%3 : tensor<1x8x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %86 = arith.addf %in, %out : f64
      linalg.yield %86 : f64
    } -> tensor<1x8x1xf64>
    %9 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%8 : tensor<1x8x1xf64>) outs(%2 : tensor<1x8x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %86 = arith.divf %in, %cst_9 : f64
      linalg.yield %86 : f64
    } -> tensor<1x8x1xf64>
    %10 = tensor.empty() : tensor<1x8x1xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%9 : tensor<1x8x1xf64>) outs(%10 : tensor<1x8x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %86 = arith.truncf %in : f64 to f32
      linalg.yield %86 : f32
    } -> tensor<1x8x1xf32>
    %12 = linalg.fill ins(%cst_0 : f32) outs(%10 : tensor<1x8x1xf32>) -> tensor<1x8x1xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg12 : tensor<1x8x32xf32>) outs(%12 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %86 = arith.addf %in, %out : f32
      linalg.yield %86 : f32
    } -> tensor<1x8x1xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%13 : tensor<1x8x1xf32>) outs(%10 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %86 = arith.divf %in, %cst_10 : f32
      linalg.yield %86 : f32
    } -> tensor<1x8x1xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%11 : tensor<1x8x1xf32>) outs(%10 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %86 = arith.truncf %cst_8 : f64 to f32
      %87 = arith.addf %in, %86 : f32
      linalg.yield %87 : f32
    } -> tensor<1x8x1xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%15 : tensor<1x8x1xf32>) outs(%10 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %86 = math.rsqrt %in : f32
      linalg.yield %86 : f32
    } -> tensor<1x8x1xf32>
    %17 = tensor.empty() : tensor<1x8x32xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg12, %14 : tensor<1x8x32xf32>, tensor<1x8x1xf32>) outs(%17 : tensor<1x8x32xf32>) {
    ^bb0(%in: f32, %in_37: f32, %out: f32):
      %86 = arith.subf %in, %in_37 : f32
      linalg.yield %86 : f32
    } -> tensor<1x8x32xf32>
    %19 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%18, %16 : tensor<1x8x32xf32>, tensor<1x8x1xf32>) outs(%17 : tensor<1x8x32xf32>) {
    ^bb0(%in: f32, %in_37: f32, %out: f32):
      %86 = arith.mulf %in, %in_37 : f32
      linalg.yield %86 : f32
    } -> tensor<1x8x32xf32>
    %20 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%19, %arg0 : tensor<1x8x32xf32>, tensor<32xf32>) outs(%17 : tensor<1x8x32xf32>) {
    ^bb0(%in: f32, %in_37: f32, %out: f32):
      %86 = arith.mulf %in, %in_37 : f32
      linalg.yield %86 : f32
    } -> tensor<1x8x32xf32>
    %21 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%20, %arg1 : tensor<1x8x32xf32>, tensor<32xf32>) outs(%17 : tensor<1x8x32xf32>) {
    ^bb0(%in: f32, %in_37: f32, %out: f32):
      %86 = arith.addf %in, %in_37 : f32
      linalg.yield %86 : f32
    } -> tensor<1x8x32xf32>
    %collapsed = tensor.collapse_shape %21 [[0, 1], [2]] : tensor<1x8x32xf32> into tensor<8x32xf32>
    %22 = tensor.empty() : tensor<32x96xf32>
    %transposed = linalg.transpose ins(%arg2 : tensor<96x32xf32>) outs(%22 : tensor<32x96xf32>) permutation = [1, 0] 
    %23 = tensor.empty() : tensor<8x96xf32>
    %24 = linalg.fill ins(%cst_0 : f32) outs(%23 : tensor<8x96xf32>) -> tensor<8x96xf32>
    %25 = linalg.matmul ins(%collapsed, %transposed : tensor<8x32xf32>, tensor<32x96xf32>) outs(%24 : tensor<8x96xf32>) -> tensor<8x96xf32>
    %26 = linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel"]} ins(%arg3 : tensor<96xf32>) outs(%23 : tensor<8x96xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<8x96xf32>
    %27 = linalg.generic {indexing_maps = [#map4, #map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%25, %26 : tensor<8x96xf32>, tensor<8x96xf32>) outs(%23 : tensor<8x96xf32>) {
    ^bb0(%in: f32, %in_37: f32, %out: f32):
      %86 = arith.addf %in, %in_37 : f32
      linalg.yield %86 : f32
    } -> tensor<8x96xf32>
    %expanded = tensor.expand_shape %27 [[0, 1], [2]] output_shape [1, 8, 96] : tensor<8x96xf32> into tensor<1x8x96xf32>
    %extracted_slice = tensor.extract_slice %expanded[0, 0, 0] [1, 8, 32] [1, 1, 1] : tensor<1x8x96xf32> to tensor<1x8x32xf32>
    %extracted_slice_12 = tensor.extract_slice %expanded[0, 0, 32] [1, 8, 32] [1, 1, 1] : tensor<1x8x96xf32> to tensor<1x8x32xf32>
    %extracted_slice_13 = tensor.extract_slice %expanded[0, 0, 64] [1, 8, 32] [1, 1, 1] : tensor<1x8x96xf32> to tensor<1x8x32xf32>
    %expanded_14 = tensor.expand_shape %extracted_slice [[0], [1], [2, 3]] output_shape [1, 8, 4, 8] : tensor<1x8x32xf32> into tensor<1x8x4x8xf32>
    %28 = tensor.empty() : tensor<1x4x8x8xf32>
    %transposed_15 = linalg.transpose ins(%expanded_14 : tensor<1x8x4x8xf32>) outs(%28 : tensor<1x4x8x8xf32>) permutation = [0, 2, 1, 3] 
    %expanded_16 = tensor.expand_shape %extracted_slice_12 [[0], [1], [2, 3]] output_shape [1, 8, 4, 8] : tensor<1x8x32xf32> into tensor<1x8x4x8xf32>
    %expanded_17 = tensor.expand_shape %extracted_slice_13 [[0], [1], [2, 3]] output_shape [1, 8, 4, 8] : tensor<1x8x32xf32> into tensor<1x8x4x8xf32>
    %transposed_18 = linalg.transpose ins(%expanded_17 : tensor<1x8x4x8xf32>) outs(%28 : tensor<1x4x8x8xf32>) permutation = [0, 2, 1, 3] 
    %transposed_19 = linalg.transpose ins(%expanded_16 : tensor<1x8x4x8xf32>) outs(%28 : tensor<1x4x8x8xf32>) permutation = [0, 2, 3, 1] 
    %collapsed_20 = tensor.collapse_shape %transposed_15 [[0, 1], [2], [3]] : tensor<1x4x8x8xf32> into tensor<4x8x8xf32>
    %collapsed_21 = tensor.collapse_shape %transposed_19 [[0, 1], [2], [3]] : tensor<1x4x8x8xf32> into tensor<4x8x8xf32>
    %29 = tensor.empty() : tensor<4x8x8xf32>
    %30 = linalg.fill ins(%cst_0 : f32) outs(%29 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %31 = linalg.batch_matmul ins(%collapsed_20, %collapsed_21 : tensor<4x8x8xf32>, tensor<4x8x8xf32>) outs(%30 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %expanded_22 = tensor.expand_shape %31 [[0, 1], [2], [3]] output_shape [1, 4, 8, 8] : tensor<4x8x8xf32> into tensor<1x4x8x8xf32>
    %32 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_22 : tensor<1x4x8x8xf32>) outs(%28 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %86 = arith.truncf %cst_7 : f64 to f32
      %87 = arith.divf %in, %86 : f32
      linalg.yield %87 : f32
    } -> tensor<1x4x8x8xf32>
    %33 = tensor.empty() : tensor<8x8xi1>
    %34 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%cst_11 : tensor<8x8xi8>) outs(%33 : tensor<8x8xi1>) {
    ^bb0(%in: i8, %out: i1):
      %86 = arith.cmpi ne, %in, %c0_i8 : i8
      linalg.yield %86 : i1
    } -> tensor<8x8xi1>
    %35 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%34 : tensor<8x8xi1>) outs(%33 : tensor<8x8xi1>) {
    ^bb0(%in: i1, %out: i1):
      %86 = arith.xori %in, %true : i1
      linalg.yield %86 : i1
    } -> tensor<8x8xi1>
    %36 = linalg.generic {indexing_maps = [#map6, #map7, #map5, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%35, %cst_6, %32 : tensor<8x8xi1>, tensor<f32>, tensor<1x4x8x8xf32>) outs(%28 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: i1, %in_37: f32, %in_38: f32, %out: f32):
      %86 = arith.select %in, %in_37, %in_38 : f32
      linalg.yield %86 : f32
    } -> tensor<1x4x8x8xf32>
    %37 = tensor.empty() : tensor<1x4x8xi64>
    %38 = linalg.fill ins(%c0_i64 : i64) outs(%37 : tensor<1x4x8xi64>) -> tensor<1x4x8xi64>
    %39 = tensor.empty() : tensor<1x4x8xf32>
    %40 = linalg.fill ins(%cst_1 : f32) outs(%39 : tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
    %41:2 = linalg.generic {indexing_maps = [#map5, #map8, #map8], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%36 : tensor<1x4x8x8xf32>) outs(%40, %38 : tensor<1x4x8xf32>, tensor<1x4x8xi64>) {
    ^bb0(%in: f32, %out: f32, %out_37: i64):
      %86 = linalg.index 3 : index
      %87 = arith.index_cast %86 : index to i64
      %88 = arith.maximumf %in, %out : f32
      %89 = arith.cmpf ogt, %in, %out : f32
      %90 = arith.select %89, %87, %out_37 : i64
      linalg.yield %88, %90 : f32, i64
    } -> (tensor<1x4x8xf32>, tensor<1x4x8xi64>)
    %expanded_23 = tensor.expand_shape %41#0 [[0], [1], [2, 3]] output_shape [1, 4, 8, 1] : tensor<1x4x8xf32> into tensor<1x4x8x1xf32>
    %42 = linalg.generic {indexing_maps = [#map5, #map9, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%36, %expanded_23 : tensor<1x4x8x8xf32>, tensor<1x4x8x1xf32>) outs(%28 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %in_37: f32, %out: f32):
      %86 = arith.subf %in, %in_37 : f32
      linalg.yield %86 : f32
    } -> tensor<1x4x8x8xf32>
    %43 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%42 : tensor<1x4x8x8xf32>) outs(%28 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %86 = math.exp %in : f32
      linalg.yield %86 : f32
    } -> tensor<1x4x8x8xf32>
    %44 = tensor.empty() : tensor<1x4x8x1xf32>
    %45 = linalg.fill ins(%cst_0 : f32) outs(%44 : tensor<1x4x8x1xf32>) -> tensor<1x4x8x1xf32>
    %46 = linalg.generic {indexing_maps = [#map5, #map9], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%43 : tensor<1x4x8x8xf32>) outs(%45 : tensor<1x4x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %86 = arith.addf %in, %out : f32
      linalg.yield %86 : f32
    } -> tensor<1x4x8x1xf32>
    %47 = linalg.generic {indexing_maps = [#map5, #map9, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%43, %46 : tensor<1x4x8x8xf32>, tensor<1x4x8x1xf32>) outs(%28 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %in_37: f32, %out: f32):
      %86 = arith.divf %in, %in_37 : f32
      linalg.yield %86 : f32
    } -> tensor<1x4x8x8xf32>
    %collapsed_24 = tensor.collapse_shape %47 [[0, 1], [2], [3]] : tensor<1x4x8x8xf32> into tensor<4x8x8xf32>
    %collapsed_25 = tensor.collapse_shape %transposed_18 [[0, 1], [2], [3]] : tensor<1x4x8x8xf32> into tensor<4x8x8xf32>
    %48 = linalg.batch_matmul ins(%collapsed_24, %collapsed_25 : tensor<4x8x8xf32>, tensor<4x8x8xf32>) outs(%30 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %expanded_26 = tensor.expand_shape %48 [[0, 1], [2], [3]] output_shape [1, 4, 8, 8] : tensor<4x8x8xf32> into tensor<1x4x8x8xf32>
    %49 = tensor.empty() : tensor<1x8x4x8xf32>
    %transposed_27 = linalg.transpose ins(%expanded_26 : tensor<1x4x8x8xf32>) outs(%49 : tensor<1x8x4x8xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_28 = tensor.collapse_shape %transposed_27 [[0, 1], [2, 3]] : tensor<1x8x4x8xf32> into tensor<8x32xf32>
    %50 = tensor.empty() : tensor<32x32xf32>
    %transposed_29 = linalg.transpose ins(%arg4 : tensor<32x32xf32>) outs(%50 : tensor<32x32xf32>) permutation = [1, 0] 
    %51 = tensor.empty() : tensor<8x32xf32>
    %52 = linalg.fill ins(%cst_0 : f32) outs(%51 : tensor<8x32xf32>) -> tensor<8x32xf32>
    %53 = linalg.matmul ins(%collapsed_28, %transposed_29 : tensor<8x32xf32>, tensor<32x32xf32>) outs(%52 : tensor<8x32xf32>) -> tensor<8x32xf32>
    %54 = linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel"]} ins(%arg5 : tensor<32xf32>) outs(%51 : tensor<8x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<8x32xf32>
    %55 = linalg.generic {indexing_maps = [#map4, #map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%53, %54 : tensor<8x32xf32>, tensor<8x32xf32>) outs(%51 : tensor<8x32xf32>) {
    ^bb0(%in: f32, %in_37: f32, %out: f32):
      %86 = arith.addf %in, %in_37 : f32
      linalg.yield %86 : f32
    } -> tensor<8x32xf32>
    %expanded_30 = tensor.expand_shape %55 [[0, 1], [2]] output_shape [1, 8, 32] : tensor<8x32xf32> into tensor<1x8x32xf32>
    %56 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg12, %expanded_30 : tensor<1x8x32xf32>, tensor<1x8x32xf32>) outs(%17 : tensor<1x8x32xf32>) {
    ^bb0(%in: f32, %in_37: f32, %out: f32):
      %86 = arith.addf %in, %in_37 : f32
      linalg.yield %86 : f32
    } -> tensor<1x8x32xf32>
    %57 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%56 : tensor<1x8x32xf32>) outs(%0 : tensor<1x8x32xf64>) {
    ^bb0(%in: f32, %out: f64):
      %86 = arith.extf %in : f32 to f64
      linalg.yield %86 : f64
    } -> tensor<1x8x32xf64>
    %58 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%57 : tensor<1x8x32xf64>) outs(%3 : tensor<1x8x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %86 = arith.addf %in, %out : f64
      linalg.yield %86 : f64
    } -> tensor<1x8x1xf64>
    %59 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%58 : tensor<1x8x1xf64>) outs(%2 : tensor<1x8x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %86 = arith.divf %in, %cst_9 : f64
      linalg.yield %86 : f64
    } -> tensor<1x8x1xf64>
    %60 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%57, %59 : tensor<1x8x32xf64>, tensor<1x8x1xf64>) outs(%0 : tensor<1x8x32xf64>) {
    ^bb0(%in: f64, %in_37: f64, %out: f64):
      %86 = arith.subf %in, %in_37 : f64
      linalg.yield %86 : f64
    } -> tensor<1x8x32xf64>
    %61 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%60, %60 : tensor<1x8x32xf64>, tensor<1x8x32xf64>) outs(%0 : tensor<1x8x32xf64>) {
    ^bb0(%in: f64, %in_37: f64, %out: f64):
      %86 = arith.mulf %in, %in_37 : f64
      linalg.yield %86 : f64
    } -> tensor<1x8x32xf64>
    %62 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%61 : tensor<1x8x32xf64>) outs(%3 : tensor<1x8x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %86 = arith.addf %in, %out : f64
      linalg.yield %86 : f64
    } -> tensor<1x8x1xf64>
    %63 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%62 : tensor<1x8x1xf64>) outs(%2 : tensor<1x8x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %86 = arith.divf %in, %cst_9 : f64
      linalg.yield %86 : f64
    } -> tensor<1x8x1xf64>
    %64 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%63 : tensor<1x8x1xf64>) outs(%10 : tensor<1x8x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %86 = arith.truncf %in : f64 to f32
      linalg.yield %86 : f32
    } -> tensor<1x8x1xf32>
    %65 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%56 : tensor<1x8x32xf32>) outs(%12 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %86 = arith.addf %in, %out : f32
      linalg.yield %86 : f32
    } -> tensor<1x8x1xf32>
    %66 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%65 : tensor<1x8x1xf32>) outs(%10 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %86 = arith.divf %in, %cst_10 : f32
      linalg.yield %86 : f32
    } -> tensor<1x8x1xf32>
    %67 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%64 : tensor<1x8x1xf32>) outs(%10 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %86 = arith.truncf %cst_8 : f64 to f32
      %87 = arith.addf %in, %86 : f32
      linalg.yield %87 : f32
    } -> tensor<1x8x1xf32>
    %68 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%67 : tensor<1x8x1xf32>) outs(%10 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %86 = math.rsqrt %in : f32
      linalg.yield %86 : f32
    } -> tensor<1x8x1xf32>
    %69 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%56, %66 : tensor<1x8x32xf32>, tensor<1x8x1xf32>) outs(%17 : tensor<1x8x32xf32>) {
    ^bb0(%in: f32, %in_37: f32, %out: f32):
      %86 = arith.subf %in, %in_37 : f32
      linalg.yield %86 : f32
    } -> tensor<1x8x32xf32>
    %70 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%69, %68 : tensor<1x8x32xf32>, tensor<1x8x1xf32>) outs(%17 : tensor<1x8x32xf32>) {
    ^bb0(%in: f32, %in_37: f32, %out: f32):
      %86 = arith.mulf %in, %in_37 : f32
      linalg.yield %86 : f32
    } -> tensor<1x8x32xf32>
    %71 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%70, %arg6 : tensor<1x8x32xf32>, tensor<32xf32>) outs(%17 : tensor<1x8x32xf32>) {
    ^bb0(%in: f32, %in_37: f32, %out: f32):
      %86 = arith.mulf %in, %in_37 : f32
      linalg.yield %86 : f32
    } -> tensor<1x8x32xf32>
    %72 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%71, %arg7 : tensor<1x8x32xf32>, tensor<32xf32>) outs(%17 : tensor<1x8x32xf32>) {
    ^bb0(%in: f32, %in_37: f32, %out: f32):
      %86 = arith.addf %in, %in_37 : f32
      linalg.yield %86 : f32
    } -> tensor<1x8x32xf32>
    %collapsed_31 = tensor.collapse_shape %72 [[0, 1], [2]] : tensor<1x8x32xf32> into tensor<8x32xf32>
    %73 = tensor.empty() : tensor<32x128xf32>
    %transposed_32 = linalg.transpose ins(%arg8 : tensor<128x32xf32>) outs(%73 : tensor<32x128xf32>) permutation = [1, 0] 
    %74 = tensor.empty() : tensor<8x128xf32>
    %75 = linalg.fill ins(%cst_0 : f32) outs(%74 : tensor<8x128xf32>) -> tensor<8x128xf32>
    %76 = linalg.matmul ins(%collapsed_31, %transposed_32 : tensor<8x32xf32>, tensor<32x128xf32>) outs(%75 : tensor<8x128xf32>) -> tensor<8x128xf32>
    %77 = linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel"]} ins(%arg9 : tensor<128xf32>) outs(%74 : tensor<8x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<8x128xf32>
    %78 = linalg.generic {indexing_maps = [#map4, #map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%76, %77 : tensor<8x128xf32>, tensor<8x128xf32>) outs(%74 : tensor<8x128xf32>) {
    ^bb0(%in: f32, %in_37: f32, %out: f32):
      %86 = arith.addf %in, %in_37 : f32
      linalg.yield %86 : f32
    } -> tensor<8x128xf32>
    %expanded_33 = tensor.expand_shape %78 [[0, 1], [2]] output_shape [1, 8, 128] : tensor<8x128xf32> into tensor<1x8x128xf32>
    %79 = tensor.empty() : tensor<1x8x128xf32>
    %80 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_33 : tensor<1x8x128xf32>) outs(%79 : tensor<1x8x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %86 = math.fpowi %in, %c3_i64 : f32, i64
      %87 = arith.mulf %86, %cst_2 : f32
      %88 = arith.addf %in, %87 : f32
      %89 = arith.mulf %88, %cst_3 : f32
      %90 = math.tanh %89 : f32
      %91 = arith.addf %90, %cst_4 : f32
      %92 = arith.mulf %91, %cst_5 : f32
      %93 = arith.mulf %in, %92 : f32
      linalg.yield %93 : f32
    } -> tensor<1x8x128xf32>
    %collapsed_34 = tensor.collapse_shape %80 [[0, 1], [2]] : tensor<1x8x128xf32> into tensor<8x128xf32>
    %81 = tensor.empty() : tensor<128x32xf32>
    %transposed_35 = linalg.transpose ins(%arg10 : tensor<32x128xf32>) outs(%81 : tensor<128x32xf32>) permutation = [1, 0] 
    %82 = linalg.matmul ins(%collapsed_34, %transposed_35 : tensor<8x128xf32>, tensor<128x32xf32>) outs(%52 : tensor<8x32xf32>) -> tensor<8x32xf32>
    %83 = linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel"]} ins(%arg11 : tensor<32xf32>) outs(%51 : tensor<8x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<8x32xf32>
    %84 = linalg.generic {indexing_maps = [#map4, #map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%82, %83 : tensor<8x32xf32>, tensor<8x32xf32>) outs(%51 : tensor<8x32xf32>) {
    ^bb0(%in: f32, %in_37: f32, %out: f32):
      %86 = arith.addf %in, %in_37 : f32
      linalg.yield %86 : f32
    } -> tensor<8x32xf32>
    %expanded_36 = tensor.expand_shape %84 [[0, 1], [2]] output_shape [1, 8, 32] : tensor<8x32xf32> into tensor<1x8x32xf32>
    %85 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%56, %expanded_36 : tensor<1x8x32xf32>, tensor<1x8x32xf32>) outs(%17 : tensor<1x8x32xf32>) {
    ^bb0(%in: f32, %in_37: f32, %out: f32):
      %86 = arith.addf %in, %in_37 : f32
      linalg.yield %86 : f32
    } -> tensor<1x8x32xf32>
    return %85 : tensor<1x8x32xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_8_8_torch.uint8: "0x0100000001000000000000000101000000000000010101000000000001010101000000000101010101000000010101010101000001010101010101000101010101010101"
    }
  }
#-}
