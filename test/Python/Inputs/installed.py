"""Runs a layer with the deplodock package pip installed: prints where the
package came from and what the fake device computed."""
import pathlib
import sys

import numpy as np

import deplodock

print("package:", pathlib.Path(deplodock.__file__).parent)
layer = deplodock.compile_mlir(sys.argv[1], device="fake", workdir=sys.argv[2])
x = np.ones((1, 8, 32), np.float32)
y = layer.run_numpy(x, np.ones(32, np.float32))
print("result:", y.shape, y.dtype, "nan" if np.isnan(y).any() else "written")
