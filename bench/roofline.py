"""Roofline floors: the least time a case can take on a given GPU.

    floor = max(matmul FLOPs / matrix peak,
                other FLOPs / FP32 peak,
                minimum bytes / memory bandwidth)

The matrix peak is the tensor-core rate for BF16 and FP16 cases and the
plain FP32 rate for FP32 cases (the harness disables TF32, so neither
PyTorch nor we may use tensor cores there). Elementwise and reduction work
always runs on the FP32 units. Each term alone is a lower bound, so their
maximum is one too; no kernel can be much faster than the floor.

All device numbers live in DEVICES below, each with its source. Bandwidths
and the tensor-core rates are measurements (a large device-to-device copy
counting bytes read and written; an 8192^3 BF16 matrix product on random
data), which are what a kernel can reach in practice; the FP32 rate is the
datasheet's, as nothing measured it yet.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Rate:
    """A throughput (bytes/s or FLOP/s) and where the number comes from."""

    value: float
    source: str


@dataclass(frozen=True)
class DeviceSpec:
    """The ceilings of one GPU model."""

    key: str
    name: str
    # Substrings of torch.cuda.get_device_name() that identify the model.
    match: tuple[str, ...]
    bandwidth: Rate
    fp32: Rate
    # Dense matrix (tensor-core) rate per half or 8-bit dtype.
    matrix: dict[str, Rate] = field(default_factory=dict)

    def matrix_rate(self, dtype: str) -> Rate:
        """The rate of matmul-shaped work in `dtype` (FP32: no tensor cores)."""
        return self.matrix.get(dtype, self.fp32)

    def to_json(self) -> dict:
        rates = {"bandwidth_Bps": self.bandwidth, "fp32_flops": self.fp32}
        rates.update({f"{d}_matrix_flops": r for d, r in self.matrix.items()})
        return {"key": self.key, "name": self.name,
                "rates": {k: {"value": r.value, "source": r.source}
                          for k, r in rates.items()}}


_H100_FP32 = Rate(67e12, "NVIDIA H100 SXM5 datasheet: 67 TFLOP/s FP32 "
                  "(non-tensor-core)")
_H100_BF16 = Rate(798e12, "measured on the project's lent H100 (2026-11-13): "
                  "8192^3 BF16 torch.matmul on random data, 798 TFLOP/s "
                  "(docs/GPU.md: about 800)")
_H200_BF16 = Rate(788e12, "measured on the project's lent H200 (2026-10-28): "
                  "8192^3 BF16 torch.matmul on random data, 788 TFLOP/s "
                  "(769-798 on 2026-11-04)")
_SAME_AS_BF16 = ("; FP16 not measured: taken equal to BF16, as the datasheet "
                 "gives both the same dense rate")
_TWICE_BF16 = ("; FP8 not measured: taken as twice BF16, the datasheet's ratio "
               "of the dense rates (1979 against 989 TFLOP/s on the H100 SXM)")


def _fp8(bf16: Rate) -> Rate:
    return Rate(2 * bf16.value, bf16.source + _TWICE_BF16)

DEVICES: dict[str, DeviceSpec] = {
    d.key: d for d in (
        DeviceSpec(
            "h100", "NVIDIA H100 80GB HBM3", ("H100",),
            bandwidth=Rate(3.0e12, "measured on the project's lent H100 "
                           "(2026-11-13): device-to-device copy, bytes read + "
                           "written, about 3.0 TB/s (docs/GPU.md)"),
            fp32=_H100_FP32,
            matrix={"bf16": _H100_BF16,
                    "fp16": Rate(_H100_BF16.value,
                                 _H100_BF16.source + _SAME_AS_BF16),
                    "fp8": _fp8(_H100_BF16)}),
        DeviceSpec(
            "h200", "NVIDIA H200", ("H200",),
            bandwidth=Rate(4.3e12, "measured on the project's lent H200 "
                           "(2026-10-28 and 2026-11-04): device-to-device copy, "
                           "bytes read + written, about 4.3 TB/s (docs/GPU.md)"),
            fp32=Rate(67e12, "NVIDIA H200 SXM datasheet: 67 TFLOP/s FP32 "
                      "(non-tensor-core; the same SM as the H100)"),
            matrix={"bf16": _H200_BF16,
                    "fp16": Rate(_H200_BF16.value,
                                 _H200_BF16.source + _SAME_AS_BF16),
                    "fp8": _fp8(_H200_BF16)}),
    )
}


def find_device(gpu_name: str) -> DeviceSpec | None:
    """The spec whose pattern occurs in `gpu_name`, or None."""
    for spec in DEVICES.values():
        if any(p.lower() in gpu_name.lower() for p in spec.match):
            return spec
    return None


@dataclass(frozen=True)
class Floor:
    """A case's roofline floor and which ceiling sets it."""

    us: float
    bound: str  # 'memory', 'matrix' or 'fp32'
    terms_us: dict[str, float]


def floor(mma_flops: int, other_flops: int, min_bytes: int, dtype: str,
          device: DeviceSpec) -> Floor:
    terms = {
        "memory": min_bytes / device.bandwidth.value * 1e6,
        "matrix": mma_flops / device.matrix_rate(dtype).value * 1e6,
        "fp32": other_flops / device.fp32.value * 1e6,
    }
    bound = max(terms, key=lambda k: terms[k])
    return Floor(terms[bound], bound, terms)
