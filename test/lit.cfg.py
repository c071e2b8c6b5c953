# lit configuration for the Deplodock regression tests.
import os

import lit.formats
from lit.llvm import llvm_config

config.name = "DEPLODOCK"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.deplodock_obj_root, "test")
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]

# Every FileCheck variable is scoped to its CHECK-LABEL block, and every
# --check-prefix given must be used.
config.environment["FILECHECK_OPTS"] = (
    "-enable-var-scope --allow-unused-prefixes=false")

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
tools = ["deplodock-bench-worker", "deplodock-opt", "deplodock-run",
         "deplodock-translate", "deplodock-tune"]
llvm_config.add_tool_substitutions(
    tools, [config.deplodock_tools_dir, config.llvm_tools_dir])
config.substitutions.append(("%deplodock_src_root", config.deplodock_src_root))
config.substitutions.append(("%deplodock_obj_root", config.deplodock_obj_root))

if config.nvcc:
    config.available_features.add("nvcc")
    config.substitutions.append(("%nvcc", config.nvcc))

    # NVRTC from the same toolkit, as the runtime compiles: `%nvrtc OPTIONS
    # FILE.cu`, with the toolkit headers (cuda_fp16.h) on the include path.
    import glob
    import sys

    cuda_root = os.path.dirname(os.path.dirname(os.path.realpath(config.nvcc)))
    nvrtc_libs = sorted(glob.glob(os.path.join(cuda_root, "lib64", "libnvrtc.so*")))
    if nvrtc_libs:
        config.available_features.add("nvrtc")
        script = os.path.join(config.test_source_root, "Target", "Cuda", "Inputs",
                              "nvrtc-compile.py")
        config.substitutions.append(
            ("%nvrtc", "%s %s %s -I%s" % (sys.executable, script, nvrtc_libs[0],
                                          os.path.join(cuda_root, "include"))))

# Debian's python3 with numpy (python3-numpy, installed by scripts/setup.sh)
# checks the examples against an independent NumPy reference.
import subprocess

config.substitutions.append(("%python", "python3"))
if os.path.exists("/usr/bin/python3") and subprocess.call(
        ["/usr/bin/python3", "-c", "import numpy"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) == 0:
    config.available_features.add("numpy")
    config.substitutions.append(("%numpy_python", "/usr/bin/python3"))

# What the bench worker finds on this machine: NVRTC (for --fake-nvrtc, which
# compiles for real without a GPU) and a CUDA device (tests that run
# kernels). Asked of the worker itself, so that the features mean what the
# runtime sees, whatever the toolkit lit knows about.
worker = os.path.join(config.deplodock_tools_dir, "deplodock-bench-worker")


def worker_succeeds(*args):
    try:
        return subprocess.call([worker, *args], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, timeout=120) == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


if worker_succeeds("--fake-device", "--fake-nvrtc", "--device-info"):
    config.available_features.add("runtime-nvrtc")
if worker_succeeds("--device-info"):
    config.available_features.add("cuda-device")

config.substitutions.append(
    ("%frames", "%s %s" % (
        "python3", os.path.join(config.test_source_root, "tools",
                                "deplodock-bench-worker", "Inputs",
                                "frames.py"))))
