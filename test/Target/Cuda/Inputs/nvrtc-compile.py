#!/usr/bin/env python3
"""Compiles CUDA files with NVRTC, as the runtime does; no GPU needed.

usage: nvrtc-compile.py LIBNVRTC [NVRTC OPTIONS...] FILE.cu [FILE.cu...]

Options start with '-'; the other arguments are files, each compiled on its
own. Prints the compile log of every file that has one and exits with 0 when
all compiled, else 1. NVRTC has no cuda.h and no C library headers, so this
catches what nvcc accepts but the runtime cannot compile.
"""

import ctypes
import sys


def compile_file(lib, options, path):
    with open(path, "rb") as f:
        source = f.read()
    program = ctypes.c_void_p()
    status = lib.nvrtcCreateProgram(ctypes.byref(program), source,
                                    path.encode(), 0, None, None)
    if status != 0:
        sys.stdout.write(f"{path}: nvrtcCreateProgram failed: {status}\n")
        return False
    array = (ctypes.c_char_p * len(options))(*options)
    status = lib.nvrtcCompileProgram(program, len(options), array)
    size = ctypes.c_size_t()
    lib.nvrtcGetProgramLogSize(program, ctypes.byref(size))
    log = ctypes.create_string_buffer(size.value)
    lib.nvrtcGetProgramLog(program, log)
    sys.stdout.write(log.value.decode(errors="replace"))
    lib.nvrtcDestroyProgram(ctypes.byref(program))
    if status != 0:
        sys.stdout.write(f"{path}: NVRTC status {status}\n")
    return status == 0


def main():
    args = sys.argv[2:]
    options = [a.encode() for a in args if a.startswith("-")]
    files = [a for a in args if not a.startswith("-")]
    if len(sys.argv) < 3 or not files:
        sys.exit(__doc__)
    lib = ctypes.CDLL(sys.argv[1])
    ok = [compile_file(lib, options, path) for path in files]
    sys.exit(0 if all(ok) else 1)


if __name__ == "__main__":
    main()
