"""Finding our tools and lowering a case to CUDA with them.

    deplodock-opt CASE.mlir --deplodock-pipeline=target=sm_90 -o CASE.kernel.mlir
    deplodock-translate --emit-cuda CASE.kernel.mlir -o CASE.cu
    nvcc -arch=sm_90 -cubin -o CASE.cubin CASE.cu        (optional)
"""

from __future__ import annotations

import os
import pathlib
import re
import shutil
import subprocess
import time
from dataclasses import asdict, dataclass, field

TOOLS = ("deplodock-opt", "deplodock-translate", "deplodock-run",
         "deplodock-tune")


class ToolError(RuntimeError):
    """A tool the command needs is missing."""


@dataclass(frozen=True)
class Tools:
    bin_dir: pathlib.Path

    def path(self, name: str) -> pathlib.Path:
        return self.bin_dir / name

    def missing(self, names: tuple[str, ...] | list[str]) -> list[str]:
        return [n for n in names
                if not (self.path(n).is_file() and os.access(self.path(n), os.X_OK))]

    def require(self, names: tuple[str, ...] | list[str]) -> None:
        missing = self.missing(names)
        if missing:
            raise ToolError(
                f"missing tools in {self.bin_dir}: {', '.join(missing)} "
                "(build them, or point --bin-dir or DEPLODOCK_BIN at the bin "
                "folder of a build)")


def resolve_bin_dir(flag: str | None, default: pathlib.Path) -> pathlib.Path:
    """--bin-dir, else $DEPLODOCK_BIN, else `default`."""
    return pathlib.Path(flag or os.environ.get("DEPLODOCK_BIN")
                        or default).absolute()


def find_nvcc(flag: str | None = None) -> str | None:
    if flag:
        return flag
    found = shutil.which("nvcc")
    if found:
        return found
    default = pathlib.Path("/usr/local/cuda/bin/nvcc")
    return str(default) if default.exists() else None


@dataclass
class LowerResult:
    """How far a case got: status ok, or the stage that failed and why."""

    status: str  # ok | opt_fail | translate_fail | nvcc_fail | timeout
    seconds: float = 0.0
    kernels: int = 0
    error: str = ""
    stderr: str = ""
    commands: list[list[str]] = field(default_factory=list)
    # ptxas's "Potential Performance Loss" notes of a compile that worked
    # (e.g. "C7514: wgmma.mma_async instructions are serialized ..."): a
    # kernel that runs, slowly.
    warnings: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return asdict(self)


def first_error(stderr: str) -> str:
    """The first diagnostic line of a tool's stderr (or its first line)."""
    lines = [ln.strip() for ln in stderr.splitlines() if ln.strip()]
    for ln in lines:
        if "error" in ln.lower():
            return ln
    return lines[0] if lines else "(no message)"


_PERF_NOTE = re.compile(r"ptxas info\s*:\s*\((C\d+)\) Potential Performance "
                        r"Loss:\s*(.*?)(?: in the function '[^']*')?\s*$")


def performance_notes(stderr: str) -> list[str]:
    """ptxas's performance-loss notes in `stderr`, "CODE: what", once each."""
    notes: list[str] = []
    for line in stderr.splitlines():
        m = _PERF_NOTE.match(line.strip())
        if m:
            note = f"{m.group(1)}: {' '.join(m.group(2).split())}"
            if note not in notes:
                notes.append(note)
    return notes


def _run(cmd: list[str], timeout: float) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)


def lower_case(tools: Tools, mlir: pathlib.Path, out_dir: pathlib.Path,
               target: str = "sm_90", nvcc: str | None = None,
               timeout: float = 120.0) -> LowerResult:
    """Lowers `mlir` to CUDA (and a cubin when `nvcc` is given) in out_dir."""
    stem = mlir.name[:-len(".mlir")] if mlir.name.endswith(".mlir") else mlir.name
    kernel = out_dir / f"{stem}.kernel.mlir"
    cuda = out_dir / f"{stem}.cu"
    steps = [
        ("opt_fail", [str(tools.path("deplodock-opt")), str(mlir),
                      f"--deplodock-pipeline=target={target}", "-o", str(kernel)]),
        ("translate_fail", [str(tools.path("deplodock-translate")),
                            "--emit-cuda", str(kernel), "-o", str(cuda)]),
    ]
    if nvcc:
        steps.append(("nvcc_fail", [nvcc, f"-arch={target}", "-cubin", "-o",
                                    str(out_dir / f"{stem}.cubin"), str(cuda)]))
    result = LowerResult("ok")
    start = time.monotonic()
    for failure, cmd in steps:
        result.commands.append(cmd)
        try:
            proc = _run(cmd, timeout)
        except subprocess.TimeoutExpired:
            result.status = "timeout"
            result.error = f"{pathlib.Path(cmd[0]).name} ran over {timeout:g} s"
            break
        if proc.returncode != 0:
            result.status = failure
            # Diagnostics name files by their folder: keep only the names.
            stderr = proc.stderr.replace(f"{out_dir}/", "").replace(
                f"{mlir.parent}/", "")
            result.stderr = stderr[-4000:]
            result.error = first_error(stderr)
            break
        if failure == "nvcc_fail":
            result.warnings = performance_notes(proc.stderr)
    result.seconds = round(time.monotonic() - start, 3)
    if result.status == "ok":
        result.kernels = cuda.read_text().count("__global__")
    return result
