// REQUIRES: numpy
// RUN: rm -rf %t && mkdir -p %t
// RUN: %numpy_python -c "import numpy as np; x = np.array([1.0, -2.5, 3.140625, 65280.0], np.float32); np.save('%t/bits.npy', (x.view(np.uint32) >> 16).astype(np.uint16)); np.save('%t/f32.npy', np.array([1.0, -2.5, 3.14159, 1e-3], np.float32))"
// RUN: deplodock-run --interp %s --pipeline=lower-to-tensor --input=%t/bits.npy --input=%t/f32.npy --output-dir=%t | FileCheck %s --check-prefix=VALUES
// RUN: %numpy_python -c "import numpy as np; a = np.load('%t/result0.npy'); print(a.dtype, a.tolist())" | FileCheck %s --check-prefix=NUMPY

/// NumPy has no bf16. An argument of bf16 reads the bits of its values from
/// a uint16 file (as ml_dtypes or torch's .view(torch.int16) give them), or
/// float32 values rounded to bf16 (3.14159 becomes 3.140625); a bf16 result
/// is written as float32, exactly. The sums round to bf16 too: 65280 + 0.001
/// is 65280.
// VALUES:      result #0: tensor<4xbf16>
// VALUES-NEXT: 2 -5 6.28125 65280
// NUMPY: float32 [2.0, -5.0, 6.28125, 65280.0]
func.func @bf16(%bits: tensor<4xbf16>, %values: tensor<4xbf16>) -> tensor<4xbf16> {
  %r = arith.addf %bits, %values : tensor<4xbf16>
  return %r : tensor<4xbf16>
}
