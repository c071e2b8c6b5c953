"""Where the Deplodock tools and runtime library are.

A prefix holds bin/ (deplodock-opt, deplodock-translate, deplodock-tune),
lib/ (libDeplodockRuntimeC.so) and libexec/deplodock/ (the PyTorch
importer): an install prefix (cmake --install) or a build directory.
$DEPLODOCK_PREFIX names it; else it is the one whose bin/ holds the
deplodock-opt on PATH.
"""

import os
import pathlib
import shutil
import subprocess
import sys

from ._errors import DeplodockError, ToolError

LIBRARY = "libDeplodockRuntimeC.so"


class Toolchain:
    """The tools and library of one Deplodock prefix."""

    def __init__(self, prefix=None):
        prefix = prefix or os.environ.get("DEPLODOCK_PREFIX")
        if prefix is None:
            opt = shutil.which("deplodock-opt")
            if opt is None:
                raise DeplodockError(
                    "cannot find Deplodock: set DEPLODOCK_PREFIX to its install "
                    "prefix or build directory, or put its bin/ on PATH")
            prefix = pathlib.Path(opt).resolve().parent.parent
        self.prefix = pathlib.Path(prefix)

    def tool(self, name):
        """The path of tool `name` (deplodock-opt...)."""
        path = self.prefix / "bin" / name
        if not path.is_file():
            raise DeplodockError(f"no {name} in {self.prefix / 'bin'} (is "
                                 f"DEPLODOCK_PREFIX a Deplodock prefix or build directory?)")
        return path

    def library(self):
        """The C runtime library ($DEPLODOCK_RUNTIME_LIBRARY overrides)."""
        path = os.environ.get("DEPLODOCK_RUNTIME_LIBRARY")
        path = pathlib.Path(path) if path else self.prefix / "lib" / LIBRARY
        if not path.is_file():
            raise DeplodockError(f"no {LIBRARY} at {path}")
        return path

    def importer(self):
        """The command that runs the PyTorch importer: this interpreter when it
        has torch-mlir, else the importer's own venv (scripts/setup.sh --torch,
        or $DEPLODOCK_VENV)."""
        here = self.prefix / "libexec" / "deplodock"
        script = here / "deplodock_import.py"
        if not script.is_file():
            raise DeplodockError(f"no PyTorch importer at {script}")
        try:
            import torch_mlir.fx  # noqa: F401
            return [sys.executable, str(script)]
        except ImportError:
            return [str(here / "deplodock-import")]

    def run(self, command, cwd=None, env=None):
        """Runs `command` (a tool name or a full command line, then its
        arguments); raises ToolError with its stderr when it fails."""
        if isinstance(command[0], str) and not os.sep in command[0]:
            command = [str(self.tool(command[0]))] + list(command[1:])
        command = [str(c) for c in command]
        environment = dict(os.environ)
        environment.update(env or {})
        result = subprocess.run(command, cwd=cwd, env=environment,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if result.returncode != 0:
            raise ToolError(command, result.returncode, result.stderr)
        return result
