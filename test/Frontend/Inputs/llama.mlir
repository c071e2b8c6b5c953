#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#map2 = affine_map<(d0, d1, d2) -> (d2)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#map5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#map6 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#map7 = affine_map<(d0) -> (d0)>
#map8 = affine_map<(d0, d1) -> (0, d1)>
#map9 = affine_map<(d0, d1) -> (d0, 0)>
#map10 = affine_map<(d0, d1) -> (d0, d1)>
#map11 = affine_map<(d0, d1) -> ()>
#map12 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map13 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @llama(%arg0: tensor<32xf32> {deplodock.name = "input_norm.weight"}, %arg1: tensor<32x32xf32> {deplodock.name = "attn.q_proj.weight"}, %arg2: tensor<16x32xf32> {deplodock.name = "attn.k_proj.weight"}, %arg3: tensor<16x32xf32> {deplodock.name = "attn.v_proj.weight"}, %arg4: tensor<32x32xf32> {deplodock.name = "attn.o_proj.weight"}, %arg5: tensor<32xf32> {deplodock.name = "post_norm.weight"}, %arg6: tensor<64x32xf32> {deplodock.name = "mlp.gate_proj.weight"}, %arg7: tensor<64x32xf32> {deplodock.name = "mlp.up_proj.weight"}, %arg8: tensor<32x64xf32> {deplodock.name = "mlp.down_proj.weight"}, %arg9: tensor<1x8x32xf32> {deplodock.name = "input0"}) -> tensor<1x8x32xf32> {
    %c0_i64 = arith.constant 0 : i64
    %c2_i64 = arith.constant 2 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %true = arith.constant true
    %cst_1 = arith.constant 1.000000e+00 : f32
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<1x4x8x8xf32>
    %cst_3 = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_4 = arith.constant dense<0xFF800000> : tensor<f32>
    %cst_5 = arith.constant dense<true> : tensor<8x8xi1>
    %cst_6 = arith.constant 0xFFF0000000000000 : f64
    %cst_7 = arith.constant 0.59460355750136051 : f64
    %cst_8 = arith.constant dense_resource<torch_tensor_8_8_torch.float32_1> : tensor<8x8xf32>
    %cst_9 = arith.constant dense_resource<torch_tensor_8_8_torch.float32> : tensor<8x8xf32>
    %cst_10 = arith.constant 9.9999999999999995E-7 : f64
    %cst_11 = arith.constant 3.200000e+01 : f32
    %0 = tensor.empty() : tensor<1x8x32xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg9 : tensor<1x8x32xf32>) outs(%0 : tensor<1x8x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %89 = math.fpowi %in, %c2_i64 : f32, i64
      linalg.yield %89 : f32
    } -> tensor<1x8x32xf32>
    %2 = tensor.empty() : tensor<1x8x1xf32>
    %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<1x8x1xf32>) -> tensor<1x8x1xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%1 : tensor<1x8x32xf32>) outs(%3 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %89 = arith.addf %in, %out : f32
      linalg.yield %89 : f32
    } -> tensor<1x8x1xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%4 : tensor<1x8x1xf32>) outs(%2 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %89 = arith.divf %in, %cst_11 : f32
      linalg.yield %89 : f32
    } -> tensor<1x8x1xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%5 : tensor<1x8x1xf32>) outs(%2 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %89 = arith.truncf %cst_10 : f64 to f32
      %90 = arith.addf %in, %89 : f32
      linalg.yield %90 : f32
    } -> tensor<1x8x1xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6 : tensor<1x8x1xf32>) outs(%2 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %89 = math.rsqrt %in : f32
      linalg.yield %89 : f32
    } -> tensor<1x8x1xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg9, %7 : tensor<1x8x32xf32>, tensor<1x8x1xf32>) outs(%0 : tensor<1x8x32xf32>) {
    ^bb0(%in: f32, %in_46: f32, %out: f32):
      %89 = arith.mulf %in, %in_46 : f32
      linalg.yield %89 : f32
    } -> tensor<1x8x32xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%8, %arg0 : tensor<1x8x32xf32>, tensor<32xf32>) outs(%0 : tensor<1x8x32xf32>) {
    ^bb0(%in: f32, %in_46: f32, %out: f32):
      %89 = arith.mulf %in, %in_46 : f32
      linalg.yield %89 : f32
    } -> tensor<1x8x32xf32>
    %10 = tensor.empty() : tensor<32x32xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<32x32xf32>) outs(%10 : tensor<32x32xf32>) permutation = [1, 0] 
    %collapsed = tensor.collapse_shape %9 [[0, 1], [2]] : tensor<1x8x32xf32> into tensor<8x32xf32>
    %11 = tensor.empty() : tensor<8x32xf32>
    %12 = linalg.fill ins(%cst : f32) outs(%11 : tensor<8x32xf32>) -> tensor<8x32xf32>
    %13 = linalg.matmul ins(%collapsed, %transposed : tensor<8x32xf32>, tensor<32x32xf32>) outs(%12 : tensor<8x32xf32>) -> tensor<8x32xf32>
    %expanded = tensor.expand_shape %13 [[0, 1], [2, 3]] output_shape [1, 8, 4, 8] : tensor<8x32xf32> into tensor<1x8x4x8xf32>
    %14 = tensor.empty() : tensor<1x4x8x8xf32>
    %transposed_12 = linalg.transpose ins(%expanded : tensor<1x8x4x8xf32>) outs(%14 : tensor<1x4x8x8xf32>) permutation = [0, 2, 1, 3] 
    %15 = tensor.empty() : tensor<32x16xf32>
    %transposed_13 = linalg.transpose ins(%arg2 : tensor<16x32xf32>) outs(%15 : tensor<32x16xf32>) permutation = [1, 0] 
    %16 = tensor.empty() : tensor<8x16xf32>
    %17 = linalg.fill ins(%cst : f32) outs(%16 : tensor<8x16xf32>) -> tensor<8x16xf32>
    %18 = linalg.matmul ins(%collapsed, %transposed_13 : tensor<8x32xf32>, tensor<32x16xf32>) outs(%17 : tensor<8x16xf32>) -> tensor<8x16xf32>
    %expanded_14 = tensor.expand_shape %18 [[0, 1], [2, 3]] output_shape [1, 8, 2, 8] : tensor<8x16xf32> into tensor<1x8x2x8xf32>
    %19 = tensor.empty() : tensor<1x2x8x8xf32>
    %transposed_15 = linalg.transpose ins(%expanded_14 : tensor<1x8x2x8xf32>) outs(%19 : tensor<1x2x8x8xf32>) permutation = [0, 2, 1, 3] 
    %transposed_16 = linalg.transpose ins(%arg3 : tensor<16x32xf32>) outs(%15 : tensor<32x16xf32>) permutation = [1, 0] 
    %20 = linalg.matmul ins(%collapsed, %transposed_16 : tensor<8x32xf32>, tensor<32x16xf32>) outs(%17 : tensor<8x16xf32>) -> tensor<8x16xf32>
    %expanded_17 = tensor.expand_shape %20 [[0, 1], [2, 3]] output_shape [1, 8, 2, 8] : tensor<8x16xf32> into tensor<1x8x2x8xf32>
    %transposed_18 = linalg.transpose ins(%expanded_17 : tensor<1x8x2x8xf32>) outs(%19 : tensor<1x2x8x8xf32>) permutation = [0, 2, 1, 3] 
    %21 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_12, %cst_9 : tensor<1x4x8x8xf32>, tensor<8x8xf32>) outs(%14 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %in_46: f32, %out: f32):
      %89 = arith.mulf %in, %in_46 : f32
      linalg.yield %89 : f32
    } -> tensor<1x4x8x8xf32>
    %extracted_slice = tensor.extract_slice %transposed_12[0, 0, 0, 0] [1, 4, 8, 4] [1, 1, 1, 1] : tensor<1x4x8x8xf32> to tensor<1x4x8x4xf32>
    %extracted_slice_19 = tensor.extract_slice %transposed_12[0, 0, 0, 4] [1, 4, 8, 4] [1, 1, 1, 1] : tensor<1x4x8x8xf32> to tensor<1x4x8x4xf32>
    %22 = tensor.empty() : tensor<1x4x8x4xf32>
    %23 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice_19 : tensor<1x4x8x4xf32>) outs(%22 : tensor<1x4x8x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %89 = arith.negf %in : f32
      linalg.yield %89 : f32
    } -> tensor<1x4x8x4xf32>
    %concat = tensor.concat dim(3) %23, %extracted_slice : (tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32>) -> tensor<1x4x8x8xf32>
    %24 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%concat, %cst_8 : tensor<1x4x8x8xf32>, tensor<8x8xf32>) outs(%14 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %in_46: f32, %out: f32):
      %89 = arith.mulf %in, %in_46 : f32
      linalg.yield %89 : f32
    } -> tensor<1x4x8x8xf32>
    %25 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%21, %24 : tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) outs(%14 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %in_46: f32, %out: f32):
      %89 = arith.addf %in, %in_46 : f32
      linalg.yield %89 : f32
    } -> tensor<1x4x8x8xf32>
    %26 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_15, %cst_9 : tensor<1x2x8x8xf32>, tensor<8x8xf32>) outs(%19 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_46: f32, %out: f32):
      %89 = arith.mulf %in, %in_46 : f32
      linalg.yield %89 : f32
    } -> tensor<1x2x8x8xf32>
    %extracted_slice_20 = tensor.extract_slice %transposed_15[0, 0, 0, 0] [1, 2, 8, 4] [1, 1, 1, 1] : tensor<1x2x8x8xf32> to tensor<1x2x8x4xf32>
    %extracted_slice_21 = tensor.extract_slice %transposed_15[0, 0, 0, 4] [1, 2, 8, 4] [1, 1, 1, 1] : tensor<1x2x8x8xf32> to tensor<1x2x8x4xf32>
    %27 = tensor.empty() : tensor<1x2x8x4xf32>
    %28 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice_21 : tensor<1x2x8x4xf32>) outs(%27 : tensor<1x2x8x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %89 = arith.negf %in : f32
      linalg.yield %89 : f32
    } -> tensor<1x2x8x4xf32>
    %concat_22 = tensor.concat dim(3) %28, %extracted_slice_20 : (tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>) -> tensor<1x2x8x8xf32>
    %29 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%concat_22, %cst_8 : tensor<1x2x8x8xf32>, tensor<8x8xf32>) outs(%19 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_46: f32, %out: f32):
      %89 = arith.mulf %in, %in_46 : f32
      linalg.yield %89 : f32
    } -> tensor<1x2x8x8xf32>
    %30 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%26, %29 : tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) outs(%19 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_46: f32, %out: f32):
      %89 = arith.addf %in, %in_46 : f32
      linalg.yield %89 : f32
    } -> tensor<1x2x8x8xf32>
    %31 = tensor.empty() : tensor<1x2x2x8x8xf32>
    %32 = linalg.generic {indexing_maps = [#map5, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%30 : tensor<1x2x8x8xf32>) outs(%31 : tensor<1x2x2x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x2x2x8x8xf32>
    %collapsed_23 = tensor.collapse_shape %32 [[0], [1, 2], [3], [4]] : tensor<1x2x2x8x8xf32> into tensor<1x4x8x8xf32>
    %33 = linalg.generic {indexing_maps = [#map5, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%transposed_18 : tensor<1x2x8x8xf32>) outs(%31 : tensor<1x2x2x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x2x2x8x8xf32>
    %34 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%25 : tensor<1x4x8x8xf32>) outs(%14 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %89 = arith.truncf %cst_7 : f64 to f32
      %90 = arith.mulf %in, %89 : f32
      linalg.yield %90 : f32
    } -> tensor<1x4x8x8xf32>
    %35 = tensor.empty() : tensor<8xi64>
    %36 = linalg.generic {indexing_maps = [#map7], iterator_types = ["parallel"]} outs(%35 : tensor<8xi64>) {
    ^bb0(%out: i64):
      %89 = linalg.index 0 : index
      %90 = arith.index_cast %89 : index to i64
      linalg.yield %90 : i64
    } -> tensor<8xi64>
    %expanded_24 = tensor.expand_shape %36 [[0, 1]] output_shape [1, 8] : tensor<8xi64> into tensor<1x8xi64>
    %expanded_25 = tensor.expand_shape %36 [[0, 1]] output_shape [8, 1] : tensor<8xi64> into tensor<8x1xi64>
    %37 = tensor.empty() : tensor<8x8xi64>
    %38 = linalg.generic {indexing_maps = [#map8, #map9, #map10], iterator_types = ["parallel", "parallel"]} ins(%expanded_24, %expanded_25 : tensor<1x8xi64>, tensor<8x1xi64>) outs(%37 : tensor<8x8xi64>) {
    ^bb0(%in: i64, %in_46: i64, %out: i64):
      %89 = arith.subi %in, %in_46 : i64
      linalg.yield %89 : i64
    } -> tensor<8x8xi64>
    %39 = tensor.empty() : tensor<8x8xi1>
    %40 = linalg.generic {indexing_maps = [#map10, #map10], iterator_types = ["parallel", "parallel"]} ins(%38 : tensor<8x8xi64>) outs(%39 : tensor<8x8xi1>) {
    ^bb0(%in: i64, %out: i1):
      %89 = arith.cmpi sle, %in, %c0_i64 : i64
      linalg.yield %89 : i1
    } -> tensor<8x8xi1>
    %41 = linalg.generic {indexing_maps = [#map10, #map10, #map10], iterator_types = ["parallel", "parallel"]} ins(%40, %cst_5 : tensor<8x8xi1>, tensor<8x8xi1>) outs(%39 : tensor<8x8xi1>) {
    ^bb0(%in: i1, %in_46: i1, %out: i1):
      %89 = arith.andi %in, %in_46 : i1
      linalg.yield %89 : i1
    } -> tensor<8x8xi1>
    %42 = tensor.empty() : tensor<8x8xf32>
    %43 = linalg.generic {indexing_maps = [#map10, #map11, #map11, #map10], iterator_types = ["parallel", "parallel"]} ins(%41, %cst_3, %cst_4 : tensor<8x8xi1>, tensor<f32>, tensor<f32>) outs(%42 : tensor<8x8xf32>) {
    ^bb0(%in: i1, %in_46: f32, %in_47: f32, %out: f32):
      %89 = arith.select %in, %in_46, %in_47 : f32
      linalg.yield %89 : f32
    } -> tensor<8x8xf32>
    %transposed_26 = linalg.transpose ins(%collapsed_23 : tensor<1x4x8x8xf32>) outs(%14 : tensor<1x4x8x8xf32>) permutation = [0, 1, 3, 2] 
    %44 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_26 : tensor<1x4x8x8xf32>) outs(%14 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %89 = arith.truncf %cst_7 : f64 to f32
      %90 = arith.mulf %in, %89 : f32
      linalg.yield %90 : f32
    } -> tensor<1x4x8x8xf32>
    %collapsed_27 = tensor.collapse_shape %34 [[0, 1], [2], [3]] : tensor<1x4x8x8xf32> into tensor<4x8x8xf32>
    %collapsed_28 = tensor.collapse_shape %44 [[0, 1], [2], [3]] : tensor<1x4x8x8xf32> into tensor<4x8x8xf32>
    %45 = tensor.empty() : tensor<4x8x8xf32>
    %46 = linalg.fill ins(%cst : f32) outs(%45 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %47 = linalg.batch_matmul ins(%collapsed_27, %collapsed_28 : tensor<4x8x8xf32>, tensor<4x8x8xf32>) outs(%46 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %expanded_29 = tensor.expand_shape %47 [[0, 1], [2], [3]] output_shape [1, 4, 8, 8] : tensor<4x8x8xf32> into tensor<1x4x8x8xf32>
    %48 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_29, %43 : tensor<1x4x8x8xf32>, tensor<8x8xf32>) outs(%14 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %in_46: f32, %out: f32):
      %89 = arith.addf %in, %in_46 : f32
      linalg.yield %89 : f32
    } -> tensor<1x4x8x8xf32>
    %49 = tensor.empty() : tensor<1x4x8xi64>
    %50 = linalg.fill ins(%c0_i64 : i64) outs(%49 : tensor<1x4x8xi64>) -> tensor<1x4x8xi64>
    %51 = tensor.empty() : tensor<1x4x8xf32>
    %52 = linalg.fill ins(%cst_0 : f32) outs(%51 : tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
    %53:2 = linalg.generic {indexing_maps = [#map3, #map12, #map12], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%48 : tensor<1x4x8x8xf32>) outs(%52, %50 : tensor<1x4x8xf32>, tensor<1x4x8xi64>) {
    ^bb0(%in: f32, %out: f32, %out_46: i64):
      %89 = linalg.index 3 : index
      %90 = arith.index_cast %89 : index to i64
      %91 = arith.maximumf %in, %out : f32
      %92 = arith.cmpf ogt, %in, %out : f32
      %93 = arith.select %92, %90, %out_46 : i64
      linalg.yield %91, %93 : f32, i64
    } -> (tensor<1x4x8xf32>, tensor<1x4x8xi64>)
    %expanded_30 = tensor.expand_shape %53#0 [[0], [1], [2, 3]] output_shape [1, 4, 8, 1] : tensor<1x4x8xf32> into tensor<1x4x8x1xf32>
    %54 = linalg.generic {indexing_maps = [#map3, #map13, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%48, %expanded_30 : tensor<1x4x8x8xf32>, tensor<1x4x8x1xf32>) outs(%14 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %in_46: f32, %out: f32):
      %89 = arith.subf %in, %in_46 : f32
      linalg.yield %89 : f32
    } -> tensor<1x4x8x8xf32>
    %55 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%54 : tensor<1x4x8x8xf32>) outs(%14 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %89 = math.exp %in : f32
      linalg.yield %89 : f32
    } -> tensor<1x4x8x8xf32>
    %56 = tensor.empty() : tensor<1x4x8x1xf32>
    %57 = linalg.fill ins(%cst : f32) outs(%56 : tensor<1x4x8x1xf32>) -> tensor<1x4x8x1xf32>
    %58 = linalg.generic {indexing_maps = [#map3, #map13], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%55 : tensor<1x4x8x8xf32>) outs(%57 : tensor<1x4x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %89 = arith.addf %in, %out : f32
      linalg.yield %89 : f32
    } -> tensor<1x4x8x1xf32>
    %59 = linalg.generic {indexing_maps = [#map3, #map13, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%55, %58 : tensor<1x4x8x8xf32>, tensor<1x4x8x1xf32>) outs(%14 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %in_46: f32, %out: f32):
      %89 = arith.divf %in, %in_46 : f32
      linalg.yield %89 : f32
    } -> tensor<1x4x8x8xf32>
    %60 = tensor.empty() : tensor<1x4x8x8xi1>
    %61 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%48 : tensor<1x4x8x8xf32>) outs(%60 : tensor<1x4x8x8xi1>) {
    ^bb0(%in: f32, %out: i1):
      %89 = arith.extf %in : f32 to f64
      %90 = arith.cmpf oeq, %89, %cst_6 : f64
      linalg.yield %90 : i1
    } -> tensor<1x4x8x8xi1>
    %62 = tensor.empty() : tensor<1x4x8x1xi1>
    %63 = linalg.fill ins(%true : i1) outs(%62 : tensor<1x4x8x1xi1>) -> tensor<1x4x8x1xi1>
    %64 = linalg.generic {indexing_maps = [#map3, #map13], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%61 : tensor<1x4x8x8xi1>) outs(%63 : tensor<1x4x8x1xi1>) {
    ^bb0(%in: i1, %out: i1):
      %89 = arith.andi %in, %out : i1
      linalg.yield %89 : i1
    } -> tensor<1x4x8x1xi1>
    %65 = linalg.generic {indexing_maps = [#map13, #map3, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%64, %cst_2, %59 : tensor<1x4x8x1xi1>, tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) outs(%14 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: i1, %in_46: f32, %in_47: f32, %out: f32):
      %89 = arith.select %in, %in_46, %in_47 : f32
      linalg.yield %89 : f32
    } -> tensor<1x4x8x8xf32>
    %collapsed_31 = tensor.collapse_shape %65 [[0, 1], [2], [3]] : tensor<1x4x8x8xf32> into tensor<4x8x8xf32>
    %collapsed_32 = tensor.collapse_shape %33 [[0, 1, 2], [3], [4]] : tensor<1x2x2x8x8xf32> into tensor<4x8x8xf32>
    %66 = linalg.batch_matmul ins(%collapsed_31, %collapsed_32 : tensor<4x8x8xf32>, tensor<4x8x8xf32>) outs(%46 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %expanded_33 = tensor.expand_shape %66 [[0, 1], [2], [3]] output_shape [1, 4, 8, 8] : tensor<4x8x8xf32> into tensor<1x4x8x8xf32>
    %67 = tensor.empty() : tensor<1x8x4x8xf32>
    %transposed_34 = linalg.transpose ins(%expanded_33 : tensor<1x4x8x8xf32>) outs(%67 : tensor<1x8x4x8xf32>) permutation = [0, 2, 1, 3] 
    %transposed_35 = linalg.transpose ins(%arg4 : tensor<32x32xf32>) outs(%10 : tensor<32x32xf32>) permutation = [1, 0] 
    %collapsed_36 = tensor.collapse_shape %transposed_34 [[0, 1], [2, 3]] : tensor<1x8x4x8xf32> into tensor<8x32xf32>
    %68 = linalg.matmul ins(%collapsed_36, %transposed_35 : tensor<8x32xf32>, tensor<32x32xf32>) outs(%12 : tensor<8x32xf32>) -> tensor<8x32xf32>
    %expanded_37 = tensor.expand_shape %68 [[0, 1], [2]] output_shape [1, 8, 32] : tensor<8x32xf32> into tensor<1x8x32xf32>
    %69 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg9, %expanded_37 : tensor<1x8x32xf32>, tensor<1x8x32xf32>) outs(%0 : tensor<1x8x32xf32>) {
    ^bb0(%in: f32, %in_46: f32, %out: f32):
      %89 = arith.addf %in, %in_46 : f32
      linalg.yield %89 : f32
    } -> tensor<1x8x32xf32>
    %70 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%69 : tensor<1x8x32xf32>) outs(%0 : tensor<1x8x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %89 = math.fpowi %in, %c2_i64 : f32, i64
      linalg.yield %89 : f32
    } -> tensor<1x8x32xf32>
    %71 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%70 : tensor<1x8x32xf32>) outs(%3 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %89 = arith.addf %in, %out : f32
      linalg.yield %89 : f32
    } -> tensor<1x8x1xf32>
    %72 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%71 : tensor<1x8x1xf32>) outs(%2 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %89 = arith.divf %in, %cst_11 : f32
      linalg.yield %89 : f32
    } -> tensor<1x8x1xf32>
    %73 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%72 : tensor<1x8x1xf32>) outs(%2 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %89 = arith.truncf %cst_10 : f64 to f32
      %90 = arith.addf %in, %89 : f32
      linalg.yield %90 : f32
    } -> tensor<1x8x1xf32>
    %74 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%73 : tensor<1x8x1xf32>) outs(%2 : tensor<1x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %89 = math.rsqrt %in : f32
      linalg.yield %89 : f32
    } -> tensor<1x8x1xf32>
    %75 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%69, %74 : tensor<1x8x32xf32>, tensor<1x8x1xf32>) outs(%0 : tensor<1x8x32xf32>) {
    ^bb0(%in: f32, %in_46: f32, %out: f32):
      %89 = arith.mulf %in, %in_46 : f32
      linalg.yield %89 : f32
    } -> tensor<1x8x32xf32>
    %76 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%75, %arg5 : tensor<1x8x32xf32>, tensor<32xf32>) outs(%0 : tensor<1x8x32xf32>) {
    ^bb0(%in: f32, %in_46: f32, %out: f32):
      %89 = arith.mulf %in, %in_46 : f32
      linalg.yield %89 : f32
    } -> tensor<1x8x32xf32>
    %77 = tensor.empty() : tensor<32x64xf32>
    %transposed_38 = linalg.transpose ins(%arg6 : tensor<64x32xf32>) outs(%77 : tensor<32x64xf32>) permutation = [1, 0] 
    %collapsed_39 = tensor.collapse_shape %76 [[0, 1], [2]] : tensor<1x8x32xf32> into tensor<8x32xf32>
    %78 = tensor.empty() : tensor<8x64xf32>
    %79 = linalg.fill ins(%cst : f32) outs(%78 : tensor<8x64xf32>) -> tensor<8x64xf32>
    %80 = linalg.matmul ins(%collapsed_39, %transposed_38 : tensor<8x32xf32>, tensor<32x64xf32>) outs(%79 : tensor<8x64xf32>) -> tensor<8x64xf32>
    %expanded_40 = tensor.expand_shape %80 [[0, 1], [2]] output_shape [1, 8, 64] : tensor<8x64xf32> into tensor<1x8x64xf32>
    %81 = tensor.empty() : tensor<1x8x64xf32>
    %82 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_40 : tensor<1x8x64xf32>) outs(%81 : tensor<1x8x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %89 = arith.negf %in : f32
      %90 = math.exp %89 : f32
      %91 = arith.addf %90, %cst_1 : f32
      %92 = arith.divf %cst_1, %91 : f32
      linalg.yield %92 : f32
    } -> tensor<1x8x64xf32>
    %83 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_40, %82 : tensor<1x8x64xf32>, tensor<1x8x64xf32>) outs(%81 : tensor<1x8x64xf32>) {
    ^bb0(%in: f32, %in_46: f32, %out: f32):
      %89 = arith.mulf %in, %in_46 : f32
      linalg.yield %89 : f32
    } -> tensor<1x8x64xf32>
    %transposed_41 = linalg.transpose ins(%arg7 : tensor<64x32xf32>) outs(%77 : tensor<32x64xf32>) permutation = [1, 0] 
    %84 = linalg.matmul ins(%collapsed_39, %transposed_41 : tensor<8x32xf32>, tensor<32x64xf32>) outs(%79 : tensor<8x64xf32>) -> tensor<8x64xf32>
    %expanded_42 = tensor.expand_shape %84 [[0, 1], [2]] output_shape [1, 8, 64] : tensor<8x64xf32> into tensor<1x8x64xf32>
    %85 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%83, %expanded_42 : tensor<1x8x64xf32>, tensor<1x8x64xf32>) outs(%81 : tensor<1x8x64xf32>) {
    ^bb0(%in: f32, %in_46: f32, %out: f32):
      %89 = arith.mulf %in, %in_46 : f32
      linalg.yield %89 : f32
    } -> tensor<1x8x64xf32>
    %86 = tensor.empty() : tensor<64x32xf32>
    %transposed_43 = linalg.transpose ins(%arg8 : tensor<32x64xf32>) outs(%86 : tensor<64x32xf32>) permutation = [1, 0] 
    %collapsed_44 = tensor.collapse_shape %85 [[0, 1], [2]] : tensor<1x8x64xf32> into tensor<8x64xf32>
    %87 = linalg.matmul ins(%collapsed_44, %transposed_43 : tensor<8x64xf32>, tensor<64x32xf32>) outs(%12 : tensor<8x32xf32>) -> tensor<8x32xf32>
    %expanded_45 = tensor.expand_shape %87 [[0, 1], [2]] output_shape [1, 8, 32] : tensor<8x32xf32> into tensor<1x8x32xf32>
    %88 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%69, %expanded_45 : tensor<1x8x32xf32>, tensor<1x8x32xf32>) outs(%0 : tensor<1x8x32xf32>) {
    ^bb0(%in: f32, %in_46: f32, %out: f32):
      %89 = arith.addf %in, %in_46 : f32
      linalg.yield %89 : f32
    } -> tensor<1x8x32xf32>
    return %88 : tensor<1x8x32xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_8_8_torch.float32_1: "0x040000000000000000000000000000000000000000000000000000000000000000000000A46A573F7775CC3D57D6233C6E12833AA46A573F7775CC3D57D6233C6E12833AB7C7683FF96F4B3E3ED4A33C6912033BB7C7683FF96F4B3E3ED4A33C6912033BC381103E6D4E973E1FB9F53C939B443BC381103E6D4E973E1FB9F53C939B443BCFBD41BFD861C73EDBCB233D5812833BCFBD41BFD861C73EDBCB233D5812833B107C75BF4477F53EF4B64C3DDED6A33B107C75BF4477F53EF4B64C3DDED6A33B8C0F8FBE698C103FD19C753D599BC43B8C0F8FBE698C103FD19C753D599BC43B4630283F73EB243F323E8F3DC75FE53B4630283F73EB243F323E8F3DC75FE53B",
      torch_tensor_8_8_torch.float32: "0x040000000000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F41510A3F98B87E3FB9FC7F3FF8FF7F3F41510A3F98B87E3FB9FC7F3FF8FF7F3F3311D5BEA5E57A3FE5F27F3FDFFF7F3F3311D5BEA5E57A3FE5F27F3FDFFF7F3F26707DBFEF90743F83E27F3FB5FF7F3F26707DBFEF90743F83E27F3FB5FF7F3F305527BFA7CA6B3F94CB7F3F7AFF7F3F305527BFA7CA6B3F94CB7F3F7AFF7F3F2C3C913E40A9603F19AE7F3F2EFF7F3F2C3C913E40A9603F19AE7F3F2EFF7F3FB8CD753F3249533F128A7F3FD2FE7F3FB8CD753F3249533F128A7F3FD2FE7F3FBDFF403FB3CC433F815F7F3F65FE7F3FBDFF403FB3CC433F815F7F3F65FE7F3F"
    }
  }
#-}
