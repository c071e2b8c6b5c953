// REQUIRES: numpy
// A maxnumf reduction ignores NaNs (as np.fmax does), at every level: it is
// a maxnum reduction, not max (which propagates them).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %numpy_python -c "import numpy as np; np.save('%t/x.npy', np.array([[1, np.nan, 3], [-1, -2, np.nan], [np.nan, np.nan, np.nan]], np.float32))"
// RUN: deplodock-run --interp %s --pipeline=lower-to-tensor --compare=lower-to-tile,convert-dtile-to-dkernel --atol=0 --rtol=0 --input=%t/x.npy --output-dir=%t --print=none | FileCheck %s --check-prefix=KERNELS
// RUN: %numpy_python -c "import numpy as np; x = np.load('%t/x.npy'); r = np.load('%t/result0.npy'); e = np.fmax.reduce(x, axis=1, initial=-np.inf); print('PASS' if np.array_equal(r, e) else 'FAIL', e, r)" | FileCheck %s

/// Row maxima ignoring NaNs: [3, -1, -inf] (the fill), not [nan, nan, nan],
/// from the tensor reference and, exactly, from the kernels.
// CHECK: PASS
// KERNELS: compare result #0 after 'lower-to-tile,convert-dtile-to-dkernel': max abs error 0, max rel error 0: PASS
func.func @rowmax(%x: tensor<3x3xf32>) -> tensor<3xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<3xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<3x3xf32>) outs(%f : tensor<3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maxnumf %o, %a : f32
    linalg.yield %m : f32
  } -> tensor<3xf32>
  return %r : tensor<3xf32>
}
