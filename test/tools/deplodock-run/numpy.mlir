// REQUIRES: numpy
// RUN: rm -rf %t && mkdir -p %t
// RUN: deplodock-run --interp %s --seed=2 --save-inputs=%t --output-dir=%t --print=none
// RUN: %numpy_python -c "import numpy as np, glob; [print(f.split('/')[-1], a.dtype, a.shape, a.tolist()) for f in sorted(glob.glob('%t/*.npy')) for a in [np.load(f)]]" | FileCheck %s

/// NumPy reads every file deplodock-run writes, with the right dtype and
/// shape: f16, f32, f64, bool, int8, int16, int32, int64 (index too), 0-d.
// CHECK: input0.npy float16 (3,)
// CHECK: input1.npy int8 (2, 2)
// CHECK: result0.npy float16 (3,) [{{.*}}]
// CHECK: result1.npy int8 (2, 2)
// CHECK: result2.npy int16 (2,) [-32768, 32767]
// CHECK: result3.npy float64 () 0.25
// CHECK: result4.npy bool (2,) [True, False]
// CHECK: result5.npy int64 (1,) [-9007199254740992]
// CHECK: result6.npy int64 () 42
func.func @types(%h: tensor<3xf16>, %b: tensor<2x2xi8>) -> (tensor<3xf16>, tensor<2x2xi8>, tensor<2xi16>, tensor<f64>, tensor<2xi1>, tensor<1xi64>, index) {
  %s = arith.constant dense<[-32768, 32767]> : tensor<2xi16>
  %d = arith.constant dense<0.25> : tensor<f64>
  %t = arith.constant dense<[true, false]> : tensor<2xi1>
  %l = arith.constant dense<-9007199254740992> : tensor<1xi64>
  %i = arith.constant 42 : index
  return %h, %b, %s, %d, %t, %l, %i : tensor<3xf16>, tensor<2x2xi8>, tensor<2xi16>, tensor<f64>, tensor<2xi1>, tensor<1xi64>, index
}
