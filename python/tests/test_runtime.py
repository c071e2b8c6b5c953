"""The package without torch: compiling an MLIR layer, reading its
manifest, running it on the fake device with NumPy buffers and on the CPU
interpreter, and every error it reports.

Needs $DEPLODOCK_PREFIX (a build directory or install prefix) and NumPy.
"""

import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import unittest

import numpy as np

import deplodock

DATA = pathlib.Path(__file__).parent / "data"


def rmsnorm(x, w):
    """The NumPy reference of data/rmsnorm.mlir."""
    mean = np.mean(x.astype(np.float64) ** 2, axis=-1, keepdims=True)
    return (x / np.sqrt(mean + 1e-6) * w).astype(np.float32)


class RuntimeTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = pathlib.Path(tempfile.mkdtemp(prefix="deplodock-test-"))
        cls.compiled = deplodock.compile_mlir(DATA / "rmsnorm.mlir", device="fake",
                                              workdir=cls.work / "rmsnorm")
        rng = np.random.default_rng(0)
        cls.x = rng.standard_normal((1, 8, 32)).astype(np.float32)
        cls.w = rng.standard_normal(32).astype(np.float32)

    @classmethod
    def tearDownClass(cls):
        del cls.compiled
        shutil.rmtree(cls.work)

    def test_version(self):
        self.assertTrue(deplodock.version().startswith("Deplodock "))

    def test_manifest(self):
        manifest = deplodock.read_manifest(self.compiled.files["manifest"])
        self.assertEqual(manifest["function"], "rmsnorm")
        self.assertEqual([b["role"] for b in manifest["buffers"]],
                         ["input", "input", "output"])
        self.assertEqual(manifest["num_arguments"], 2)
        self.assertTrue(manifest["launches"])
        layer = self.compiled.layer
        self.assertEqual(layer.function, "rmsnorm")
        self.assertEqual([(b.name, b.dtype, b.shape, b.is_output) for b in layer.bindings],
                         [("arg0", "f32", (1, 8, 32), False), ("arg1", "f32", (32,), False),
                          ("alloc0", "f32", (1, 8, 32), True)])
        self.assertEqual(layer.results, [2])

    def test_bad_manifests(self):
        bad = self.work / "bad.json"
        bad.write_text('{"format": "other"}')
        with self.assertRaisesRegex(deplodock.DeplodockError, "is not a layer manifest"):
            deplodock.read_manifest(bad)
        bad.write_text('{"format": "deplodock-layer", "version": 7}')
        with self.assertRaisesRegex(deplodock.DeplodockError, "manifest version 7"):
            deplodock.read_manifest(bad)
        bad.write_text("{")
        with self.assertRaisesRegex(deplodock.DeplodockError, "cannot read manifest"):
            deplodock.read_manifest(bad)
        # The runtime's own check, with its status.
        device = deplodock.Device("fake")
        with self.assertRaises(deplodock.DeplodockError) as caught:
            device.load({"format": "deplodock-layer", "version": 1}, b"")
        self.assertEqual(caught.exception.status, "DEPLODOCK_ERROR_INVALID_MANIFEST")
        self.assertIn("expected a string at manifest.function", str(caught.exception))

    def test_fake_device_with_numpy(self):
        y = self.compiled.run_numpy(self.x, self.w)
        self.assertEqual((y.shape, y.dtype), ((1, 8, 32), np.float32))
        # The fake kernels write every element; the same inputs give the
        # same outputs, other inputs others; the inputs stay as they were.
        self.assertFalse(np.isnan(y).any())
        x, w = self.x.copy(), self.w.copy()
        np.testing.assert_array_equal(self.compiled.run_numpy(x, w), y)
        np.testing.assert_array_equal(x, self.x)
        np.testing.assert_array_equal(w, self.w)
        x[0, 0, 0] += 1
        self.assertFalse(np.array_equal(self.compiled.run_numpy(x, w), y))

    def test_interpreter_computes_the_layer(self):
        y = self.compiled.run_interpreter(self.x, self.w)
        np.testing.assert_allclose(y, rmsnorm(self.x, self.w), rtol=1e-5, atol=1e-6)

    def test_bad_inputs(self):
        with self.assertRaisesRegex(ValueError, "rmsnorm takes 2 inputs, got 1"):
            self.compiled.run_numpy(self.x)
        with self.assertRaisesRegex(ValueError, r"input #1 \(arg1\) of rmsnorm must be "
                                    r"f32 \[32\], got f64 \[32\]"):
            self.compiled.run_numpy(self.x, self.w.astype(np.float64))
        with self.assertRaisesRegex(ValueError, r"must be f32 \[1, 8, 32\], got f32 \[8, 32\]"):
            self.compiled.run_numpy(self.x[0], self.w)

    def test_code_errors(self):
        device = deplodock.Device("fake")
        manifest = self.compiled.files["manifest"]
        with self.assertRaises(deplodock.DeplodockError) as caught:
            device.load(manifest, b"extern \"C\" __global__ void other() {}")
        self.assertEqual(caught.exception.status, "DEPLODOCK_ERROR_COMPILE")
        self.assertIn("looking up kernel 'rmsnorm_0_reduce' failed", str(caught.exception))
        with self.assertRaises(deplodock.DeplodockError) as caught:
            device.load(manifest, self.work / "missing.cu")
        self.assertEqual(caught.exception.status, "DEPLODOCK_ERROR_IO")

    def test_tool_errors(self):
        broken = self.work / "broken.mlir"
        broken.write_text("func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
                          "  return %y : tensor<4xf32>\n}\n")
        with self.assertRaises(deplodock.ToolError) as caught:
            deplodock.compile_mlir(broken, device="fake", workdir=self.work / "broken")
        self.assertIn("deplodock-opt failed (exit 1)", str(caught.exception))
        self.assertIn("broken.mlir:2:", str(caught.exception))
        with self.assertRaisesRegex(deplodock.DeplodockError, "no such file"):
            deplodock.compile_mlir(self.work / "none.mlir", device="fake")

    def test_tuned(self):
        tuned = deplodock.compile_mlir(DATA / "rmsnorm.mlir", device="fake", tune=True,
                                       workdir=self.work / "tuned")
        self.assertTrue((self.work / "tuned" / "tune.db").is_file())
        y = tuned.run_interpreter(self.x, self.w)
        np.testing.assert_allclose(y, rmsnorm(self.x, self.w), rtol=1e-5, atol=1e-6)

    def test_no_gpu_is_an_error(self):
        # Run apart: the driver is looked up once per process.
        code = ("import deplodock\n"
                "try:\n"
                "    deplodock.Device('cuda')\n"
                "except deplodock.DeplodockError as e:\n"
                "    print(e.status, e)\n")
        env = dict(os.environ, DEPLODOCK_CUDA_DRIVER="/nonexistent/libcuda.so.1")
        out = subprocess.run([sys.executable, "-c", code], env=env, text=True,
                             stdout=subprocess.PIPE, check=True).stdout
        self.assertIn("DEPLODOCK_ERROR_NO_DEVICE no CUDA driver", out)

    def test_compile_needs_torch(self):
        try:
            import torch  # noqa: F401
            self.skipTest("torch is installed")
        except ImportError:
            pass
        with self.assertRaisesRegex(deplodock.UnsupportedError, "need torch"):
            deplodock.compile(object(), ())

    def test_toolchain_errors(self):
        with self.assertRaisesRegex(deplodock.DeplodockError, "no deplodock-opt in"):
            deplodock.Toolchain(self.work).tool("deplodock-opt")


if __name__ == "__main__":
    unittest.main()
