"""deplodock.compile on a PyTorch module: export, import, lower, load, call.
Skipped without torch. On the fake device the call checks shapes, dtypes
and determinism, and the CPU interpreter the values; on a GPU (where torch
sees one) the kernels' own values against the module's.
"""

import pathlib
import shutil
import tempfile
import unittest

import numpy as np

import deplodock

try:
    import torch
except ImportError:
    torch = None


class MLP(torch.nn.Module if torch else object):
    """A layer with parameters, a matmul, a reduction and two results."""

    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(32, 16)
        self.scale = torch.nn.Parameter(torch.linspace(0.5, 1.5, 16))

    def forward(self, x):
        h = torch.relu(self.proj(x)) * self.scale
        return h, h.sum(dim=-1)


@unittest.skipIf(torch is None, "needs torch (the venv of scripts/setup.sh --torch)")
class TorchTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        torch.manual_seed(0)
        cls.work = pathlib.Path(tempfile.mkdtemp(prefix="deplodock-torch-"))
        cls.module = MLP().eval()
        cls.x = torch.randn(4, 32)
        cls.compiled = deplodock.compile(cls.module, (cls.x,), device="fake",
                                         workdir=cls.work / "fake")

    @classmethod
    def tearDownClass(cls):
        del cls.compiled
        shutil.rmtree(cls.work)

    def test_parameters_are_bound(self):
        # proj.weight, proj.bias and scale come first; the caller passes x.
        self.assertEqual(len(self.compiled.params), 3)
        self.assertEqual([b.shape for b in self.compiled.inputs], [(4, 32)])

    def test_call_on_the_fake_device(self):
        h, total = self.compiled(self.x)
        want_h, want_total = self.module(self.x)
        self.assertEqual((h.shape, h.dtype), (want_h.shape, torch.float32))
        self.assertEqual((total.shape, total.dtype), (want_total.shape, torch.float32))
        self.assertFalse(torch.isnan(h).any() or torch.isnan(total).any())
        again = self.compiled(self.x.clone())
        self.assertTrue(torch.equal(again[0], h) and torch.equal(again[1], total))
        with self.assertRaisesRegex(ValueError, "input #0 .* must be f32 \\[4, 32\\]"):
            self.compiled(self.x[:2])

    def test_interpreter_matches_pytorch(self):
        h, total = self.compiled.run_interpreter(self.x.numpy())
        with torch.no_grad():
            want_h, want_total = self.module(self.x)
        np.testing.assert_allclose(h, want_h.numpy(), rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(total, want_total.numpy(), rtol=1e-4, atol=1e-5)

    @unittest.skipIf(torch is None or not torch.cuda.is_available(), "needs a GPU")
    def test_gpu_matches_pytorch(self):
        compiled = deplodock.compile(self.module, (self.x,), workdir=self.work / "gpu")
        x = self.x.cuda()
        h, total = compiled(x)
        torch.cuda.current_stream().synchronize()
        with torch.no_grad():
            want_h, want_total = self.module(self.x)
        torch.testing.assert_close(h.cpu(), want_h, rtol=1e-4, atol=1e-5)
        torch.testing.assert_close(total.cpu(), want_total, rtol=1e-4, atol=1e-5)


if __name__ == "__main__":
    unittest.main()
