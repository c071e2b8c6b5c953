//===- DeviceModel.cpp - The reference GPUs the cost model assumes --------===//

#include "Deplodock/CostModel/RooflineModel.h"

#include "Deplodock/Dialect/Common/GpuTarget.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::costmodel;

FailureOr<DeviceModel> costmodel::getDeviceModel(StringRef target) {
  // The target's limits and SM count are the one description of the GPU
  // (GpuTargets.td); this file adds only its speeds.
  const GpuTargetSpec *spec = lookupGpuTarget(target);
  if (!spec)
    return failure();
  DeviceModel d;
  d.target = target.str();
  d.capability = spec->capability;
  d.numSMs = spec->smCount;
  d.maxSharedBytesPerBlock = spec->smemPerBlock;
  d.sharedBytesPerSM = spec->smemPerSM;
  d.maxThreadsPerSM = spec->threadsPerSM;
  d.maxBlocksPerSM = spec->blocksPerSM;
  d.registersPerSM = spec->registersPerSM;
  d.l2Bytes = spec->l2Bytes;
  d.maxRegistersPerThread = spec->registersPerThread;
  // 32 banks of 4 bytes, 128 bytes per clock of shared memory per SM (CUDA
  // C Programming Guide, "Shared Memory" of 5.x and later).
  //
  // Assumptions, not published figures: a global access costs ~400 clocks
  // (L2 hits ~200-300, DRAM ~500-600 in public micro-benchmarks), a shared
  // one ~30; a launch costs ~2 us of event-timed GPU time; one SM draws at
  // most 64 bytes per clock from L2.
  d.sharedBytesPerSMPerClock = 128;
  d.globalLatencyClocks = 400;
  d.sharedLatencyClocks = 30;
  d.launchUs = 2.0;
  d.l2BytesPerSMPerClock = 64;
  // Also assumed: a pipeline stage's asynchronous copy (TMA or cp.async)
  // lands ~2000 clocks (~1 us) after it is issued on a GPU busy with the
  // other blocks' copies; the BF16 matmuls measured on an H200
  // (docs/Tuner/Driver.md) wait about that long per K step when one stage
  // is in flight, with wgmma and TMA as with mma.sync and cp.async.
  d.copyLatencyClocks = 2000;
  // Measured: clusters of two whose every thread waits each K step for the
  // peer block's release of the slot it refills took 0.58-0.79 us a step
  // longer than the same kernels alone (five BF16 GEMMs on an H200 at the
  // late refill, bench/results/forks-h200-2026-11-28.md; ~0.8 us at the top
  // of the step, forks-h200-2026-11-27c.md): ~1400 clocks. (Each remote
  // arrival then carried a cluster-scope release, a GPU-wide MEMBAR; to be
  // measured again with the CTA-scope arrivals emitted since.)
  d.clusterReleaseClocks = 1400;
  // The speeds are the reference part's: sm_90a is the H100 of sm_90.
  StringRef part = spec->referenceGpu;
  if (part == "NVIDIA A100-SXM4-80GB") {
    // NVIDIA A100 Tensor Core GPU Architecture whitepaper (2020) and the A100
    // datasheet, SXM4 80 GB: 1410 MHz boost, 64 FP32 lanes per SM (19.5
    // TFLOPS over 108 SMs), 2039 GB/s HBM2e, 40 MB L2. L2 bandwidth: the
    // whitepaper gives 2.3x V100's; ~5 TB/s is assumed.
    d.gpuName = "NVIDIA A100-SXM4-80GB (roofline model)";
    d.clockGHz = 1.41;
    d.flopsPerSMPerClock = 128;
    // 312 TFLOPS dense FP16/BF16 tensor cores, through mma.sync.
    d.tensorTflops = 312;
    d.mmaSyncShare = 1;
    d.dramGBs = 2039;
    d.l2GBs = 5000;
    return d;
  }
  if (part == "NVIDIA H100-SXM5-80GB") {
    // NVIDIA H100 Tensor Core GPU Architecture whitepaper (2022) and the H100
    // datasheet, SXM5 80 GB: 1980 MHz boost, 128 FP32 lanes per SM (67
    // TFLOPS over 132 SMs), 3.35 TB/s HBM3, 50 MB L2. L2 bandwidth is not
    // published; ~8 TB/s is assumed.
    d.gpuName = "NVIDIA H100-SXM5-80GB (roofline model)";
    d.clockGHz = 1.98;
    d.flopsPerSMPerClock = 256;
    // 989.4 TFLOPS dense FP16/BF16 tensor cores, through wgmma. mma.sync
    // reaches about 60% of that on Hopper in public micro-benchmarks (an
    // assumption, not a published figure).
    d.tensorTflops = 989.4;
    d.mmaSyncShare = 0.6;
    d.dramGBs = 3350;
    d.l2GBs = 8000;
    return d;
  }
  return failure();
}
