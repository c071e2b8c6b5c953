#!/usr/bin/env python3
"""Compiles a CUDA file with NVRTC, as the runtime does; no GPU needed.

usage: nvrtc-compile.py LIBNVRTC [NVRTC OPTIONS...] FILE.cu

Prints the compile log and exits with NVRTC's status (0 on success). NVRTC
has no cuda.h and no C library headers, so this catches what nvcc accepts but
the runtime cannot compile.
"""

import ctypes
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    lib = ctypes.CDLL(sys.argv[1])
    options = [o.encode() for o in sys.argv[2:-1]]
    path = sys.argv[-1]
    with open(path, "rb") as f:
        source = f.read()
    program = ctypes.c_void_p()
    status = lib.nvrtcCreateProgram(ctypes.byref(program), source,
                                    path.encode(), 0, None, None)
    if status != 0:
        sys.exit(f"nvrtcCreateProgram failed: {status}")
    array = (ctypes.c_char_p * len(options))(*options)
    status = lib.nvrtcCompileProgram(program, len(options), array)
    size = ctypes.c_size_t()
    lib.nvrtcGetProgramLogSize(program, ctypes.byref(size))
    log = ctypes.create_string_buffer(size.value)
    lib.nvrtcGetProgramLog(program, log)
    sys.stdout.write(log.value.decode(errors="replace"))
    lib.nvrtcDestroyProgram(ctypes.byref(program))
    sys.exit(status)


if __name__ == "__main__":
    main()
