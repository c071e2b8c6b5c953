"""Deplodock-MLIR from Python: compile a PyTorch module (or an MLIR layer)
to CUDA kernels and call them on tensors, through the C runtime API.

    layer = deplodock.compile(model, (x,))        # import -> lower -> load
    y = layer(x)                                  # CUDA tensors in and out

    layer = deplodock.compile_mlir("layer.mlir", device="fake")
    y = layer.run_numpy(x)                        # NumPy, on the fake device

    layer = deplodock.Device().load("layer.json", "layer.cu")
    layer.launch([x_ptr, w_ptr, y_ptr], stream)   # device pointers

The tools and library come from $DEPLODOCK_PREFIX (see Toolchain).
"""

from ._compile import CompiledLayer, compile, compile_mlir
from ._errors import DeplodockError, ToolError, UnsupportedError
from ._runtime import Binding, Device, Layer, read_manifest, version
from ._toolchain import Toolchain

__all__ = [
    "Binding", "CompiledLayer", "DeplodockError", "Device", "Layer", "ToolError",
    "Toolchain", "UnsupportedError", "compile", "compile_mlir", "read_manifest",
    "version",
]
