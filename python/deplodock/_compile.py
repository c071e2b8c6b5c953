"""From a PyTorch module or an MLIR layer to loaded kernels.

compile: torch.export -> the importer (torch-mlir: linalg on tensors, the
parameters as leading arguments) -> compile_mlir. compile_mlir:
(deplodock-tune) -> deplodock-opt --deplodock-pipeline -> deplodock-translate
--emit-cuda --cuda-manifest -> the runtime. Every intermediate file stays in
the work directory.
"""

import json
import pathlib
import tempfile

import numpy as np

from ._errors import DeplodockError, UnsupportedError
from ._runtime import Device, read_manifest
from ._toolchain import Toolchain

TORCH_DTYPES = {
    "f16": "float16", "bf16": "bfloat16", "f32": "float32", "f64": "float64",
    "i1": "bool", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
}


def _torch():
    try:
        import torch
    except ImportError as e:
        raise UnsupportedError("calling a layer on tensors and deplodock.compile need "
                               "torch (pip install torch, or the venv of "
                               "scripts/setup.sh --torch)") from e
    return torch


class CompiledLayer:
    """Kernels compiled from a layer, loaded on a device, with the layer's
    parameters bound: call it with the remaining inputs."""

    def __init__(self, layer, files, params=()):
        self.layer = layer
        self.files = files
        self.params = list(params)
        self._device_params = None

    @property
    def inputs(self):
        """The bindings the caller passes (after the parameters)."""
        return self.layer.inputs[len(self.params):]

    def __call__(self, *inputs):
        """Runs the kernels on torch tensors: CUDA tensors on a GPU, on the
        current stream (no synchronisation: the outputs are ready for the
        kernels queued after), CPU tensors on the fake device. Returns the
        layer's result, or a tuple of them."""
        torch = _torch()
        layer = self.layer
        if inputs:
            device = inputs[0].device
        else:
            device = torch.device("cpu" if layer.device.fake else "cuda")
        want = "cpu" if layer.device.fake else "cuda"
        for i, x in enumerate(inputs):
            if x.device.type != want:
                raise ValueError(f"input #{i} is on {x.device}; this layer runs on "
                                 f"{'the fake device (CPU tensors)' if layer.device.fake else 'the GPU (CUDA tensors)'}")
        if self._device_params is None or self._device_params[0] != device:
            self._device_params = (device, [torch.as_tensor(p).to(device).contiguous()
                                            for p in self.params])
        name = {getattr(torch, t): n for n, t in TORCH_DTYPES.items()}
        layer.check_inputs(inputs, lambda x: x.shape,
                           lambda x: name.get(x.dtype, str(x.dtype)), len(self.params))
        args = self._device_params[1] + [x.contiguous() for x in inputs]
        outputs = [torch.empty(b.shape, dtype=getattr(torch, TORCH_DTYPES[b.dtype]),
                               device=device) for b in layer.outputs]
        buffers = args + outputs
        stream = None
        if not layer.device.fake:
            stream = torch.cuda.current_stream(device).cuda_stream
        layer.launch([t.data_ptr() for t in buffers], stream)
        results = tuple(buffers[i] for i in layer.results)
        return results[0] if len(results) == 1 else results

    def run_numpy(self, *inputs):
        """Runs on NumPy arrays on the fake device (see Layer.run_numpy)."""
        return self.layer.run_numpy(*self.params, *inputs, bound=len(self.params))

    def run_interpreter(self, *inputs, toolchain=None):
        """Runs the compiled Kernel IR on the CPU reference interpreter
        (deplodock-run --interp, thread by thread) on NumPy arrays: the
        values the GPU must compute, checkable without one. Returns one array
        or a tuple."""
        tools = toolchain or Toolchain()
        with tempfile.TemporaryDirectory(prefix="deplodock-interp-") as tmp:
            files = []
            for i, x in enumerate([*self.params, *inputs]):
                files.append(pathlib.Path(tmp) / f"input{i}.npy")
                np.save(files[-1], np.ascontiguousarray(x))
            tools.run(["deplodock-run", "--interp", self.files["kernel_ir"],
                       "--func", self.layer.function, "--print=none",
                       f"--output-dir={tmp}/out"] + [f"--input={f}" for f in files])
            results = tuple(np.load(pathlib.Path(tmp) / "out" / f"result{i}.npy")
                            for i in range(len(self.layer.results)))
        return results[0] if len(results) == 1 else results


def _workdir(workdir):
    if workdir is None:
        return pathlib.Path(tempfile.mkdtemp(prefix="deplodock-"))
    path = pathlib.Path(workdir)
    path.mkdir(parents=True, exist_ok=True)
    return path


def compile_mlir(layer, *, target="sm_90", tune=False, tune_backend="model",
                 tune_db=None, device="cuda", workdir=None, toolchain=None, params=()):
    """Compiles the MLIR layer in file `layer` (linalg, tosa, tensor or
    dtensor on tensors; one function) and loads it on `device` ("cuda",
    "fake" or a Device). With `tune`, deplodock-tune first records the best
    variant of every kernel (`tune_backend`: "model", the roofline estimate;
    "cuda", measured on the GPU, on the fake device's worker when `device` is
    "fake") in `tune_db` (default: one in the work directory), and the
    lowering replays them. `params` are bound to the function's leading
    arguments."""
    tools = toolchain or Toolchain()
    work = _workdir(workdir)
    source = pathlib.Path(layer)
    if not source.is_file():
        raise DeplodockError(f"{source}: no such file")
    pipeline = f"target={target}"
    if tune:
        db = pathlib.Path(tune_db) if tune_db else work / "tune.db"
        env = {"DEPLODOCK_FAKE_DEVICE": "1"} if device == "fake" else None
        tools.run(["deplodock-tune", source, f"--backend={tune_backend}",
                   f"--target={target}", f"--db={db}", "--quiet"], env=env)
        pipeline += f" tune-db={db}"
    kernel_ir = work / "layer.kernel.mlir"
    tools.run(["deplodock-opt", source, f"--deplodock-pipeline={pipeline}",
               "-o", kernel_ir])
    cuda, manifest = work / "layer.cu", work / "layer.json"
    tools.run(["deplodock-translate", "--emit-cuda", f"--cuda-manifest={manifest}",
               kernel_ir, "-o", cuda])
    read_manifest(manifest)
    if not isinstance(device, Device):
        device = Device(device, toolchain=tools)
    files = {"layer": source, "kernel_ir": kernel_ir, "cuda": cuda, "manifest": manifest}
    return CompiledLayer(device.load(manifest, cuda), files, params)


def compile(module, example_inputs, *, workdir=None, toolchain=None, **options):
    """Compiles a torch.nn.Module for inputs like `example_inputs` (a tuple
    of tensors): torch.export, the importer (torch-mlir), then compile_mlir
    with `options`. The module's parameters are taken as they are now and
    bound to the compiled layer."""
    torch = _torch()
    tools = toolchain or Toolchain()
    work = _workdir(workdir)
    example = tuple(x.detach().cpu() for x in example_inputs)
    with torch.no_grad():
        program = torch.export.export(module.eval(), example, strict=False)
    torch.export.save(program, str(work / "module.pt2"))
    mlir = work / "layer.mlir"
    tools.run(tools.importer() + ["--pt2", work / "module.pt2", "-o", mlir])
    arguments = json.loads((work / "layer.data" / "manifest.json").read_text())["arguments"]
    params = [np.load(work / "layer.data" / a["file"]) for a in arguments
              if a["kind"] == "parameter"]
    return compile_mlir(mlir, workdir=work, toolchain=tools, params=params, **options)
