// REQUIRES: numpy
// RUN: rm -rf %t && mkdir -p %t
// RUN: %numpy_python -c "import numpy as np; np.save('%t/bits.npy', np.array([0x38, 0xc0, 0x7e, 0x01], np.uint8)); np.save('%t/f32.npy', np.array([1.0, 0.3, 100.0, -1e-3], np.float32)); np.save('%t/i8.npy', np.array([0x38, -0x40, 0x7e, 0x01], np.int8))"
// RUN: deplodock-run --interp %s --func=add --pipeline=lower-to-tensor --input=%t/bits.npy --input=%t/f32.npy --output-dir=%t | FileCheck %s --check-prefix=VALUES
// RUN: %numpy_python -c "import numpy as np; a = np.load('%t/result0.npy'); print(a.dtype, a.tolist())" | FileCheck %s --check-prefix=NUMPY
// RUN: deplodock-run --interp %s --func=add --pipeline=lower-to-tensor --input=%t/i8.npy --input=%t/f32.npy | FileCheck %s --check-prefix=VALUES
// RUN: deplodock-run --bench %s --func=add --fake-device --warmup-ms=0.1 --max-time-ms=1 --input=%t/bits.npy --input=%t/f32.npy | FileCheck %s --check-prefix=BENCH
// RUN: not deplodock-run --interp %s --func=add --pipeline=lower-to-tensor --input=%t/bits.npy --input=%t/bits.npy --input=%t/bits.npy 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: %numpy_python -c "import numpy as np; np.save('%t/f16.npy', np.zeros(4, np.float16))"
// RUN: not deplodock-run --interp %s --func=add --pipeline=lower-to-tensor --input=%t/f16.npy --input=%t/f32.npy 2>&1 | FileCheck %s --check-prefix=WRONG

/// NumPy has no 8-bit floats. An f8E4M3FN argument reads the bits of its
/// values from a uint8 or int8 file (as torch's .view(torch.uint8) gives
/// them: 0x38 is 1, 0xc0 is -2, 0x7e is 448, 0x01 is 2^-9), or float32 values
/// rounded to the type (0.3 becomes 0.3125, 100 is 96, -0.001 is -0.001953125,
/// the smallest subnormal). Each sum rounds to e4m3fn too (448 + 96 = 544 is
/// past 464, so NaN); a result is written as float32, exactly.
// VALUES:      result #0: tensor<4xf8E4M3FN>
// VALUES-NEXT: 2 -1.75 nan 0
// NUMPY: float32 [2.0, -1.75, nan, 0.0]
// BENCH: @add on Deplodock fake GPU
// BENCH: reference: 1 output checked against the CPU interpreter
// COUNT: @add takes 2 arguments, got 3 --input files
// WRONG: holds tensor<4xf16> but argument #0 of @add is tensor<4xf8E4M3FN> (an argument of f8E4M3FN is read from uint8 or int8 .npy holding its bits, or from float32 rounded to f8E4M3FN)
func.func @add(%bits: tensor<4xf8E4M3FN>, %values: tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  %r = arith.addf %bits, %values : tensor<4xf8E4M3FN>
  return %r : tensor<4xf8E4M3FN>
}
