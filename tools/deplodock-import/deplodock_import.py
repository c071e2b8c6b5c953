"""deplodock-import: a PyTorch module to a Deplodock layer.

    deplodock-import FILE.py NAME --input 1x16x64xf32 [-o layer.mlir]
    deplodock-import --pt2 program.pt2 [-o layer.mlir]

Exports the module (NAME is an nn.Module class or a factory returning one,
called with the --arg KEY=VALUE keyword arguments) with torch.export on
example inputs, imports it with torch-mlir as linalg on tensors and writes
layer.mlir. The module's parameters become leading function arguments, each
named by a `deplodock.name` argument attribute and saved as
layer.data/<name>.npy; with --keep-params they stay inside as the
`dense_resource` constants torch-mlir makes of them. Buffers (RoPE tables,
masks) stay constants. layer.args lists one --input=FILE per argument,
relative to the layer's directory: a response file for
`deplodock-run --interp layer.mlir @layer.args` run there.

--reference also writes the example inputs (layer.data/input<i>.npy) and
PyTorch's own outputs on them (layer.data/expected<i>.npy), which
`compare-npy.py` checks deplodock-run's results against.

Exit status: 0 on success, 1 when export or import fails, 2 on bad usage.
"""

import argparse
import importlib.util
import json
import pathlib
import re
import sys

DTYPES = {
    "bf16": "bfloat16",
    "f16": "float16",
    "f32": "float32",
    "f64": "float64",
    "i1": "bool",
    "i8": "int8",
    "i16": "int16",
    "i32": "int32",
    "i64": "int64",
}


class UsageError(Exception):
    """A mistake in the command line or the named files (exit status 2)."""


class InputSpec:
    """SHAPExDTYPE[:LOW:HIGH], e.g. 1x16x64xf32 or 1x16xi64:0:96."""

    def __init__(self, text):
        m = re.fullmatch(r"((?:\d+x)*)(\w+?)(?::(-?[\d.e+-]+):(-?[\d.e+-]+))?", text)
        if not m or m.group(2) not in DTYPES:
            raise UsageError(
                f"--input '{text}': expected SHAPExDTYPE[:LOW:HIGH] with DTYPE "
                f"one of {', '.join(DTYPES)} (e.g. 1x16x64xf32, 1x16xi64:0:96)")
        self.shape = [int(d) for d in m.group(1).split("x") if d]
        self.dtype = DTYPES[m.group(2)]
        self.range = None
        if m.group(3) is not None:
            lo, hi = float(m.group(3)), float(m.group(4))
            if not lo < hi:
                raise UsageError(f"--input '{text}': LOW must be below HIGH")
            self.range = (lo, hi)

    def sample(self, torch, gen):
        dtype = getattr(torch, self.dtype)
        if dtype == torch.bool:
            return torch.randint(0, 2, self.shape, generator=gen).bool()
        if dtype.is_floating_point:
            if self.range is None:
                return torch.randn(self.shape, generator=gen).to(dtype)
            lo, hi = self.range
            return (lo + (hi - lo) * torch.rand(self.shape, generator=gen)).to(dtype)
        lo, hi = self.range or (0, 8)
        return torch.randint(int(lo), int(hi), self.shape, generator=gen, dtype=dtype)


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="deplodock-import",
        description="Export a PyTorch module with torch.export and torch-mlir "
        "into a Deplodock layer (linalg on tensors).")
    p.add_argument("file", nargs="?", help="Python file defining the module")
    p.add_argument("name", nargs="?", help="nn.Module class or factory in FILE")
    p.add_argument("--pt2", help="a torch.export program saved with torch.export.save "
                   "(instead of FILE NAME)")
    p.add_argument("--input", action="append", default=[], metavar="SPEC",
                   help="an example input, SHAPExDTYPE[:LOW:HIGH] (one per "
                   "forward argument, in order; integers default to [0, 8))")
    p.add_argument("--arg", action="append", default=[], metavar="KEY=VALUE",
                   help="keyword argument of the factory (a string)")
    p.add_argument("-o", "--output", default="layer.mlir", help="the .mlir to write")
    p.add_argument("--func", default=None,
                   help="the function's name (default: NAME, or 'main')")
    p.add_argument("--keep-params", action="store_true",
                   help="keep parameters as dense_resource constants")
    p.add_argument("--reference", action="store_true",
                   help="write the inputs and PyTorch's outputs as .npy")
    p.add_argument("--seed", type=int, default=0, help="seed of the inputs")
    args = p.parse_args(argv)
    if args.pt2 and (args.file or args.name):
        raise UsageError("give either FILE NAME or --pt2, not both")
    if not args.pt2 and not (args.file and args.name):
        raise UsageError("expected FILE NAME (or --pt2 PROGRAM)")
    if not args.output.endswith(".mlir"):
        raise UsageError(f"-o '{args.output}': the output must end in .mlir")
    args.inputs = [InputSpec(s) for s in args.input]
    kwargs = {}
    for kv in args.arg:
        key, eq, value = kv.partition("=")
        if not eq or not key.isidentifier():
            raise UsageError(f"--arg '{kv}': expected KEY=VALUE")
        kwargs[key] = value
    args.kwargs = kwargs
    if args.func is not None and not re.fullmatch(r"[A-Za-z_][\w$.]*", args.func):
        raise UsageError(f"--func '{args.func}' is not a valid symbol name")
    return args


def load_module(torch, path, name, kwargs):
    """The nn.Module NAME of the Python file PATH (called when a factory)."""
    file = pathlib.Path(path)
    spec = importlib.util.spec_from_file_location(file.stem, file)
    source = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(file.parent.resolve()))
    spec.loader.exec_module(source)
    if not hasattr(source, name):
        raise UsageError(f"{path} defines no '{name}'")
    obj = getattr(source, name)
    if not callable(obj):
        raise UsageError(f"'{name}' in {path} is neither a module class nor a factory")
    module = obj(**kwargs)
    if not isinstance(module, torch.nn.Module):
        raise UsageError(f"'{name}' in {path} returned a {type(module).__name__}, "
                         "not a torch.nn.Module")
    return module.eval()


def lifted(torch, module, names):
    """A module with no state of its own whose forward takes the parameters
    `names` of `module` first, then the module's inputs."""

    class Lifted(torch.nn.Module):
        def __init__(self):
            super().__init__()
            # Kept out of the registered submodules, so that torch.export
            # sees no parameters but the arguments.
            self.__dict__["inner"] = module

        def forward(self, *args):
            state = dict(zip(names, args[: len(names)]))
            return torch.func.functional_call(self.inner, state, args[len(names):],
                                              strict=False)

    return Lifted()


def npy_name(param):
    """A file name for a parameter's dotted path."""
    return re.sub(r"[^\w.-]", "_", param) + ".npy"


def to_numpy(torch, t):
    """A tensor as NumPy; bfloat16 (which NumPy lacks) as its raw bits in
    uint16, the encoding deplodock-run reads for bf16 arguments."""
    t = t.detach()
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).numpy().view("uint16")
    return t.numpy()


def run(args):
    source = args.pt2 or args.file
    if not pathlib.Path(source).is_file():
        raise UsageError(f"{source}: no such file")
    try:
        import numpy as np
        import torch
        from torch_mlir import fx, ir
        from torch_mlir.compiler_utils import OutputType
    except ImportError as e:
        raise RuntimeError(f"{e}; run scripts/setup.sh --torch to make the "
                           "importer's environment") from e

    if args.pt2:
        program = torch.export.load(args.pt2)
        module = program.module()
        saved = program.example_inputs[0] if program.example_inputs else None
        if args.inputs:
            inputs = None
        elif saved is not None:
            inputs = list(saved)
        else:
            raise UsageError(f"{args.pt2} keeps no example inputs; give --input")
        default_func = "main"
    else:
        module = load_module(torch, args.file, args.name, args.kwargs)
        inputs = None
        default_func = re.sub(r"\W", "_", args.name)
    if inputs is None:
        if not args.inputs:
            raise UsageError("give one --input per argument of forward")
        gen = torch.Generator().manual_seed(args.seed)
        inputs = [spec.sample(torch, gen) for spec in args.inputs]
    func = args.func or default_func

    params = [] if args.keep_params else list(module.named_parameters())
    names = [n for n, _ in params]
    exported_module = lifted(torch, module, names) if names else module
    example = tuple(p.detach() for _, p in params) + tuple(inputs)
    with torch.no_grad():
        expected = module(*inputs)
        program = torch.export.export(exported_module, example, strict=False)
        mlir = fx.export_and_import(program, output_type=OutputType.LINALG_ON_TENSORS,
                                    func_name=func)
    leftover = sorted({op for op in re.findall(r"\btorch\.[\w.]+", str(mlir))
                       if not op.startswith("torch.assume")})
    if leftover:
        raise RuntimeError("torch-mlir left ops it could not lower to linalg: "
                           + ", ".join(leftover))

    out = pathlib.Path(args.output)
    data = out.with_suffix(".data")
    data.mkdir(parents=True, exist_ok=True)
    arg_names = names + [f"input{i}" for i in range(len(inputs))]
    with mlir.context:
        for op in mlir.body.operations:
            if (op.operation.name == "func.func"
                    and ir.StringAttr(op.attributes["sym_name"]).value == func):
                op.attributes["arg_attrs"] = ir.ArrayAttr.get([
                    ir.DictAttr.get({"deplodock.name": ir.StringAttr.get(n)})
                    for n in arg_names])
    out.write_text(str(mlir))

    files = []
    for name, p in params:
        files.append(data / npy_name(name))
        np.save(files[-1], to_numpy(torch, p))
    for i, x in enumerate(inputs):
        files.append(data / f"input{i}.npy")
        if args.reference:
            np.save(files[-1], to_numpy(torch, x))
    outputs = expected if isinstance(expected, (tuple, list)) else [expected]
    if args.reference:
        for i, y in enumerate(outputs):
            np.save(data / f"expected{i}.npy", to_numpy(torch, y))
    # Relative to the layer's directory, so that it moves as one piece.
    (out.with_suffix(".args")).write_text(
        "".join(f"--input={f.relative_to(out.parent)}\n" for f in files))
    (data / "manifest.json").write_text(json.dumps({
        "func": func,
        "arguments": [{"name": n, "file": f.name, "kind": "parameter" if i < len(names)
                       else "input"} for i, (n, f) in enumerate(zip(arg_names, files))],
        "results": len(outputs),
    }, indent=2) + "\n")
    print(f"wrote {out}: @{func} with {len(names)} parameter and {len(inputs)} "
          f"input arguments, {len(outputs)} results")


def main(argv=None):
    try:
        args = parse_args(sys.argv[1:] if argv is None else argv)
        run(args)
    except UsageError as e:
        print(f"deplodock-import: error: {e}", file=sys.stderr)
        return 2
    except Exception as e:  # torch.export and torch-mlir raise many kinds.
        print(f"deplodock-import: error: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
