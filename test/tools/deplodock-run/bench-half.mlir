// REQUIRES: numpy
// Half-precision layers on the GPU path, with their inputs as the benchmark
// harness writes them: bf16 as uint16 bits, as int16 bits and as bf16-exact
// float32, f16 as float16. --bench reads them exactly as --interp does
// (runtime::readArgumentFile), so every encoding gives the same result, and
// that result is the interpreter's.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %numpy_python %S/Inputs/half-npy.py write %t

/// bf16, in each encoding.
// RUN: deplodock-run --bench %s --func=matmul_bf16 --fake-device --warmup-ms=0.1 --max-time-ms=1 --input=%t/x.bits.npy --input=%t/w.bits.npy --output-dir=%t/bits --bench-json=%t/bits.json | FileCheck %s --check-prefix=BF16
// RUN: deplodock-run --bench %s --func=matmul_bf16 --fake-device --warmup-ms=0.1 --max-time-ms=1 --input=%t/x.f32.npy --input=%t/w.f32.npy --output-dir=%t/f32 | FileCheck %s --check-prefix=BF16
// RUN: deplodock-run --bench %s --func=matmul_bf16 --fake-device --warmup-ms=0.1 --max-time-ms=1 --input=%t/x.i16.npy --input=%t/w.bits.npy --output-dir=%t/i16 | FileCheck %s --check-prefix=BF16
// BF16: @matmul_bf16 on Deplodock fake GPU
// BF16: reference: 1 output checked against the CPU interpreter
// BF16: function
// RUN: FileCheck %s --check-prefix=BF16-JSON < %t/bits.json
// BF16-JSON: "status": "ok",
// BF16-JSON: "total_us": {
// RUN: %numpy_python %S/Inputs/half-npy.py same %t/bits/result0.npy %t/f32/result0.npy | FileCheck %s --check-prefix=SAME
// RUN: %numpy_python %S/Inputs/half-npy.py same %t/bits/result0.npy %t/i16/result0.npy | FileCheck %s --check-prefix=SAME
// RUN: deplodock-run --interp %s --func=matmul_bf16 --pipeline=lower-to-tensor --print=none --input=%t/x.bits.npy --input=%t/w.bits.npy --output-dir=%t/interp-bf16
// RUN: %numpy_python %S/Inputs/half-npy.py same %t/bits/result0.npy %t/interp-bf16/result0.npy | FileCheck %s --check-prefix=SAME
// SAME: same

/// f16.
// RUN: deplodock-run --bench %s --func=matmul_f16 --fake-device --warmup-ms=0.1 --max-time-ms=1 --input=%t/x.f16.npy --input=%t/w.f16.npy --output-dir=%t/f16 | FileCheck %s --check-prefix=F16
// F16: @matmul_f16 on Deplodock fake GPU
// F16: reference: 1 output checked against the CPU interpreter
// RUN: deplodock-run --interp %s --func=matmul_f16 --pipeline=lower-to-tensor --print=none --input=%t/x.f16.npy --input=%t/w.f16.npy --output-dir=%t/interp-f16
// RUN: %numpy_python %S/Inputs/half-npy.py same %t/f16/result0.npy %t/interp-f16/result0.npy | FileCheck %s --check-prefix=SAME

/// Anything else says what the argument takes, in both modes.
// RUN: not deplodock-run --bench %s --func=matmul_bf16 --fake-device --input=%t/x.f16.npy --input=%t/w.bits.npy 2>&1 | FileCheck %s --check-prefix=WRONG-BF16
// RUN: not deplodock-run --interp %s --func=matmul_bf16 --input=%t/x.f16.npy --input=%t/w.bits.npy 2>&1 | FileCheck %s --check-prefix=WRONG-BF16
// WRONG-BF16: error: {{.*}}x.f16.npy holds tensor<1x8x32xf16> but argument #0 of @matmul_bf16 is {{memref|tensor}}<1x8x32xbf16> (a bf16 argument is read from uint16 or int16 .npy holding its bits, or from float32 rounded to bf16)
// RUN: not deplodock-run --bench %s --func=matmul_f16 --fake-device --input=%t/x.f32.npy --input=%t/w.f16.npy 2>&1 | FileCheck %s --check-prefix=WRONG-F16
// WRONG-F16: error: {{.*}}x.f32.npy holds tensor<1x8x32xf32> but argument #0 of @matmul_f16 is memref<1x8x32xf16> (an argument of f16 is read from float16 .npy)

func.func @matmul_bf16(%x: tensor<1x8x32xbf16>, %w: tensor<32x16xbf16>) -> tensor<1x8x16xbf16> {
  %flat = tensor.collapse_shape %x [[0, 1], [2]] : tensor<1x8x32xbf16> into tensor<8x32xbf16>
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<8x16xf32>
  %filled = linalg.fill ins(%zero : f32) outs(%init : tensor<8x16xf32>) -> tensor<8x16xf32>
  %mm = linalg.matmul ins(%flat, %w : tensor<8x32xbf16>, tensor<32x16xbf16>) outs(%filled : tensor<8x16xf32>) -> tensor<8x16xf32>
  %view = tensor.expand_shape %mm [[0, 1], [2]] output_shape [1, 8, 16] : tensor<8x16xf32> into tensor<1x8x16xf32>
  %init1 = tensor.empty() : tensor<1x8x16xbf16>
  %cast = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%view : tensor<1x8x16xf32>) outs(%init1 : tensor<1x8x16xbf16>) {
    ^bb0(%a: f32, %out: bf16):
      %t = arith.truncf %a : f32 to bf16
      linalg.yield %t : bf16
  } -> tensor<1x8x16xbf16>
  return %cast : tensor<1x8x16xbf16>
}

func.func @matmul_f16(%x: tensor<1x8x32xf16>, %w: tensor<32x16xf16>) -> tensor<1x8x16xf16> {
  %flat = tensor.collapse_shape %x [[0, 1], [2]] : tensor<1x8x32xf16> into tensor<8x32xf16>
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<8x16xf32>
  %filled = linalg.fill ins(%zero : f32) outs(%init : tensor<8x16xf32>) -> tensor<8x16xf32>
  %mm = linalg.matmul ins(%flat, %w : tensor<8x32xf16>, tensor<32x16xf16>) outs(%filled : tensor<8x16xf32>) -> tensor<8x16xf32>
  %view = tensor.expand_shape %mm [[0, 1], [2]] output_shape [1, 8, 16] : tensor<8x16xf32> into tensor<1x8x16xf32>
  %init1 = tensor.empty() : tensor<1x8x16xf16>
  %cast = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%view : tensor<1x8x16xf32>) outs(%init1 : tensor<1x8x16xf16>) {
    ^bb0(%a: f32, %out: f16):
      %t = arith.truncf %a : f32 to f16
      linalg.yield %t : f16
  } -> tensor<1x8x16xf16>
  return %cast : tensor<1x8x16xf16>
}
