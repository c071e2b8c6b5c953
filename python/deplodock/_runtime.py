"""The C runtime API (include/Deplodock/Runtime.h) through ctypes."""

import ctypes
import dataclasses
import json
import pathlib

import numpy as np

from ._errors import DeplodockError, UnsupportedError
from ._toolchain import Toolchain

MANIFEST_FORMAT = "deplodock-layer"
MANIFEST_VERSION = 1

STATUS = {
    0: "DEPLODOCK_SUCCESS",
    1: "DEPLODOCK_ERROR_INVALID_ARGUMENT",
    2: "DEPLODOCK_ERROR_IO",
    3: "DEPLODOCK_ERROR_INVALID_MANIFEST",
    4: "DEPLODOCK_ERROR_NO_DEVICE",
    5: "DEPLODOCK_ERROR_COMPILE",
    6: "DEPLODOCK_ERROR_LAUNCH",
}

# NumPy holds bf16 as its raw 16 bits.
NUMPY_DTYPES = {
    "f16": np.float16, "bf16": np.uint16, "f32": np.float32, "f64": np.float64,
    "i1": np.bool_, "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
}


def read_manifest(path):
    """The manifest deplodock-translate --cuda-manifest wrote, as a dict;
    raises DeplodockError on a file of another format or version."""
    try:
        manifest = json.loads(pathlib.Path(path).read_text())
    except (OSError, ValueError) as e:
        raise DeplodockError(f"cannot read manifest {path}: {e}") from e
    if not isinstance(manifest, dict) or manifest.get("format") != MANIFEST_FORMAT:
        raise DeplodockError(f"{path} is not a layer manifest (written by "
                             "deplodock-translate --cuda-manifest)")
    if manifest.get("version") != MANIFEST_VERSION:
        raise DeplodockError(f"{path}: manifest version {manifest.get('version')}; "
                             f"this package reads version {MANIFEST_VERSION}")
    return manifest


class _Binding(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("dtype", ctypes.c_char_p),
                ("isOutput", ctypes.c_int), ("rank", ctypes.c_size_t),
                ("shape", ctypes.POINTER(ctypes.c_int64)), ("bytes", ctypes.c_uint64)]


_libraries = {}


def _library(path):
    """The runtime library at `path`, loaded once, with its prototypes."""
    path = str(path)
    if path in _libraries:
        return _libraries[path]
    lib = ctypes.CDLL(path)
    P = ctypes.c_void_p
    prototypes = {
        "deplodockVersion": (ctypes.c_char_p, []),
        "deplodockLastError": (ctypes.c_char_p, []),
        "deplodockDeviceCreate": (ctypes.c_int, [ctypes.c_int, ctypes.c_char_p,
                                                 ctypes.POINTER(P)]),
        "deplodockFakeDeviceCreate": (ctypes.c_int, [ctypes.POINTER(P)]),
        "deplodockDeviceIsFake": (ctypes.c_int, [P]),
        "deplodockDeviceDestroy": (None, [P]),
        "deplodockLayerLoad": (ctypes.c_int, [P, ctypes.c_char_p, ctypes.c_size_t,
                                              ctypes.c_char_p, ctypes.c_size_t,
                                              ctypes.POINTER(P)]),
        "deplodockLayerDestroy": (None, [P]),
        "deplodockLayerFunction": (ctypes.c_char_p, [P]),
        "deplodockLayerNumBindings": (ctypes.c_size_t, [P]),
        "deplodockLayerGetBinding": (ctypes.c_int, [P, ctypes.c_size_t,
                                                    ctypes.POINTER(_Binding)]),
        "deplodockLayerNumResults": (ctypes.c_size_t, [P]),
        "deplodockLayerGetResult": (ctypes.c_int, [P, ctypes.c_size_t,
                                                   ctypes.POINTER(ctypes.c_size_t)]),
        "deplodockLayerLaunch": (ctypes.c_int, [P, P, ctypes.POINTER(ctypes.c_uint64),
                                                ctypes.c_size_t]),
    }
    for name, (restype, argtypes) in prototypes.items():
        function = getattr(lib, name)
        function.restype = restype
        function.argtypes = argtypes
    _libraries[path] = lib
    return lib


def _check(lib, status):
    if status != 0:
        raise DeplodockError(lib.deplodockLastError().decode(),
                             STATUS.get(status, f"status {status}"))


@dataclasses.dataclass(frozen=True)
class Binding:
    """A buffer a launch takes: an input (an argument of the layer's
    function) or an output (a buffer it returns)."""
    name: str
    dtype: str
    shape: tuple
    is_output: bool
    nbytes: int


def _bytes(value):
    """A manifest or code argument as bytes: a path (str or Path) is read;
    bytes and JSON-able dicts are taken as they are."""
    if isinstance(value, dict):
        return json.dumps(value).encode()
    if isinstance(value, (bytes, bytearray)):
        return bytes(value)
    try:
        return pathlib.Path(value).read_bytes()
    except OSError as e:
        raise DeplodockError(f"cannot read {value}: {e}", "DEPLODOCK_ERROR_IO") from e


class Device:
    """A GPU (`kind="cuda"`, the default) or the runtime's fake device
    (`kind="fake"`: host memory, no GPU; its kernels write a deterministic
    pattern computed from their inputs, not results)."""

    def __init__(self, kind="cuda", ordinal=0, cache_dir=None, toolchain=None):
        if kind not in ("cuda", "fake"):
            raise ValueError(f"device kind {kind!r}: expected 'cuda' or 'fake'")
        self._lib = _library((toolchain or Toolchain()).library())
        handle = ctypes.c_void_p()
        if kind == "fake":
            status = self._lib.deplodockFakeDeviceCreate(ctypes.byref(handle))
        else:
            status = self._lib.deplodockDeviceCreate(
                ordinal, cache_dir.encode() if cache_dir else None, ctypes.byref(handle))
        _check(self._lib, status)
        self._handle = handle
        self.kind = kind

    @property
    def fake(self):
        return self.kind == "fake"

    def load(self, manifest, code):
        """The layer of `manifest` (a path, bytes or dict) and `code` (CUDA
        source or a cubin: a path or bytes)."""
        return Layer(self, _bytes(manifest), _bytes(code))

    def close(self):
        if self._handle:
            self._lib.deplodockDeviceDestroy(self._handle)
            self._handle = None

    def __del__(self):
        if getattr(self, "_handle", None):
            self.close()


class Layer:
    """A loaded layer: launch it with one buffer per binding, inputs first."""

    def __init__(self, device, manifest, code):
        self.device = device
        lib = self._lib = device._lib
        handle = ctypes.c_void_p()
        _check(lib, lib.deplodockLayerLoad(device._handle, manifest, len(manifest), code,
                                           len(code), ctypes.byref(handle)))
        self._handle = handle
        self.function = lib.deplodockLayerFunction(handle).decode()
        self.bindings = []
        for i in range(lib.deplodockLayerNumBindings(handle)):
            b = _Binding()
            _check(lib, lib.deplodockLayerGetBinding(handle, i, ctypes.byref(b)))
            self.bindings.append(Binding(b.name.decode(), b.dtype.decode(),
                                         tuple(b.shape[d] for d in range(b.rank)),
                                         bool(b.isOutput), b.bytes))
        self.results = []
        for i in range(lib.deplodockLayerNumResults(handle)):
            index = ctypes.c_size_t()
            _check(lib, lib.deplodockLayerGetResult(handle, i, ctypes.byref(index)))
            self.results.append(index.value)

    @property
    def inputs(self):
        return [b for b in self.bindings if not b.is_output]

    @property
    def outputs(self):
        return [b for b in self.bindings if b.is_output]

    def launch(self, pointers, stream=None):
        """Enqueues the kernels on `stream` (a CUstream as an int; None is
        the default stream) with `pointers`, one device address per binding.
        On the fake device the addresses are host addresses and the launch is
        done on return."""
        array = (ctypes.c_uint64 * len(pointers))(*pointers)
        _check(self._lib, self._lib.deplodockLayerLaunch(
            self._handle, ctypes.c_void_p(stream or 0), array, len(pointers)))

    def check_inputs(self, inputs, shape_of, dtype_of, bound=0):
        """Raises ValueError unless `inputs` match the input bindings after
        the first `bound` (the parameters a compiled layer passes itself)."""
        expected = self.inputs[bound:]
        if len(inputs) != len(expected):
            raise ValueError(f"{self.function} takes {len(expected)} inputs, "
                             f"got {len(inputs)}")
        for i, (x, b) in enumerate(zip(inputs, expected)):
            if tuple(shape_of(x)) != b.shape or dtype_of(x) != b.dtype:
                raise ValueError(f"input #{i} ({b.name}) of {self.function} must be "
                                 f"{b.dtype} {list(b.shape)}, got {dtype_of(x)} "
                                 f"{list(shape_of(x))}")

    def run_numpy(self, *inputs, bound=0):
        """Runs the layer on NumPy arrays (on the fake device, whose device
        memory is host memory) and returns its results as arrays: one, or a
        tuple. Errors number the inputs after the first `bound`."""
        if not self.device.fake:
            raise UnsupportedError("run_numpy runs on the fake device only; on a GPU "
                                   "call a compiled layer with torch CUDA tensors, or "
                                   "launch() with device pointers")
        numpy_name = {np.dtype(t): n for n, t in NUMPY_DTYPES.items()}
        inputs = [np.ascontiguousarray(x) for x in inputs]
        self.check_inputs(inputs[bound:], lambda x: x.shape,
                          lambda x: numpy_name.get(x.dtype, str(x.dtype)), bound)
        outputs = [np.empty(b.shape, NUMPY_DTYPES[b.dtype]) for b in self.outputs]
        self.launch([a.ctypes.data for a in inputs + outputs])
        buffers = inputs + outputs
        results = tuple(buffers[i] for i in self.results)
        return results[0] if len(results) == 1 else results

    def close(self):
        if self._handle:
            self._lib.deplodockLayerDestroy(self._handle)
            self._handle = None

    def __del__(self):
        if getattr(self, "_handle", None):
            self.close()


def version(toolchain=None):
    """The runtime library's version string."""
    return _library((toolchain or Toolchain()).library()).deplodockVersion().decode()
