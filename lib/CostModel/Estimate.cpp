//===- Estimate.cpp - A kernel's latency from its profile and a device ----===//

#include "Deplodock/CostModel/RooflineModel.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::costmodel;

std::string RooflineEstimate::describe() const {
  if (!launchable)
    return "cannot launch: " + reason;
  std::string text;
  llvm::raw_string_ostream os(text);
  if (kernels > 1)
    os << llvm::format("%u kernels, %.2f us; the slowest ", kernels, us);
  os << bound << "-bound, "
     << llvm::format("%.2f us, occupancy %.0f%%, %lld blocks/SM, %lld "
                     "round%s",
                     kernels > 1 ? slowestUs : us, occupancy * 100,
                     static_cast<long long>(blocksPerSM),
                     static_cast<long long>(rounds), rounds == 1 ? "" : "s");
  return text;
}

RooflineEstimate costmodel::estimateLatency(const KernelProfile &p,
                                            const DeviceModel &d) {
  RooflineEstimate e;
  int64_t threads = p.threadsPerBlock;
  if (threads < 1 || threads > 1024 || p.numBlocks < 1) {
    e.launchable = false;
    e.reason = "block of " + std::to_string(threads) + " threads";
    return e;
  }
  if (p.sharedBytes > d.maxSharedBytesPerBlock) {
    e.launchable = false;
    e.reason = std::to_string(p.sharedBytes) +
               " bytes of shared memory, over the block limit of " +
               std::to_string(d.maxSharedBytesPerBlock);
    return e;
  }
  int64_t warps = llvm::divideCeil(threads, 32);
  double laneUse = double(threads) / double(warps * 32);
  // Registers: the compiler caps them so that one block fits, and spills
  // what does not fit.
  int64_t registerCap = std::min<int64_t>(
      d.maxRegistersPerThread, d.registersPerSM / (warps * 32) / 8 * 8);
  int64_t registers = std::min(p.registers, registerCap);
  double spill =
      p.registers > registerCap
          ? double(p.registers) / double(std::max<int64_t>(registerCap, 1))
          : 1.0;
  // Resident blocks: threads, blocks, shared memory (1 KB per block is
  // reserved by the system on sm_80 and later) and registers.
  int64_t perSM = std::min(d.maxBlocksPerSM, d.maxThreadsPerSM / (warps * 32));
  if (p.sharedBytes > 0)
    perSM = std::min(perSM, d.sharedBytesPerSM / (p.sharedBytes + 1024));
  perSM = std::min(perSM, d.registersPerSM /
                              std::max<int64_t>(registers * warps * 32, 1));
  if (perSM < 1) {
    e.launchable = false;
    e.reason = "no block fits on an SM";
    return e;
  }
  int64_t busiest = llvm::divideCeil(p.numBlocks, d.numSMs);
  int64_t concurrent = std::min(busiest, perSM);
  e.blocksPerSM = perSM;
  e.rounds = llvm::divideCeil(busiest, perSM);
  int64_t activeWarps = concurrent * warps;
  e.occupancy = double(activeWarps * 32) / double(d.maxThreadsPerSM);
  double activeSMs = double(std::min<int64_t>(p.numBlocks, d.numSMs));
  double clock = d.clockGHz * 1e9;
  double rounds = double(e.rounds);
  double work = rounds * double(concurrent);

  // Compute: a few warps per SM keep the FP32 pipes busy; idle lanes of a
  // partial warp are lost.
  double issue = std::min(1.0, double(activeWarps) / 8.0);
  e.computeUs = work * p.flopsPerBlock /
                (d.flopsPerSMPerClock * laneUse * issue * clock) * spill * 1e6;
  // Tensor cores: one warpgroup keeps them busy; mma.sync reaches its share
  // of the rate.
  double tensorIssue = std::min(1.0, double(activeWarps) / 4.0);
  double tensorPerSM = d.tensorTflops * 1e12 / double(d.numSMs);
  double tensorFlops =
      p.wgmmaFlopsPerBlock + p.mmaSyncFlopsPerBlock / d.mmaSyncShare;
  e.tensorUs = tensorFlops > 0 ? work * tensorFlops /
                                     (tensorPerSM * tensorIssue) * spill * 1e6
                               : 0;
  // L2: the SM's share of the L2 bandwidth, up to what one SM can draw.
  double l2PerSM =
      std::min(d.l2BytesPerSMPerClock * clock, d.l2GBs * 1e9 / activeSMs);
  e.l2Us = work * p.l2BytesPerBlock / l2PerSM * 1e6;
  // DRAM: every buffer once, but the regions of shared reads that a later
  // wave reads after the L2 let them go; few busy SMs cannot draw all of
  // it (one SM at most three times its share).
  double dram = std::min(d.dramGBs, activeSMs * 3 * d.dramGBs / d.numSMs);
  e.dramUs =
      dramBytes(p, concurrent * d.numSMs, d.l2Bytes) / (dram * 1e9) * 1e6;
  e.sharedUs =
      work * p.sharedBytesPerBlock / (d.sharedBytesPerSMPerClock * clock) * 1e6;
  // Latency: the warps of a round run side by side, each thread's accesses
  // one after another (as far as they do not overlap). A thread whose
  // private arrays exceed its registers (nvcc spills) has none left to keep
  // shared loads in flight: each is waited for alone.
  // Measured (H200): FP32 attention at head dim 128 with a whole row a
  // thread, staging K and V, took 4.1-4.3x the estimate with overlapped
  // loads where head dim 64 (no spill) took 1.8-2.1x; unstaged (s32) both
  // took 2.6-2.7x, so global loads keep their overlap.
  double sharedLoads = p.registers > registerCap ? p.unoverlappedSharedLoads
                                                 : p.serialSharedLoads;
  double serial = p.serialGlobalLoads * d.globalLatencyClocks +
                  sharedLoads * d.sharedLatencyClocks +
                  p.copyWaits * d.copyLatencyClocks +
                  p.clusterReleaseWaits * d.clusterReleaseClocks + p.syncClocks;
  e.latencyUs = rounds * serial / clock * spill * 1e6;

  std::pair<double, const char *> bounds[] = {
      {e.computeUs, "compute"}, {e.tensorUs, "tensor"},
      {e.l2Us, "l2"},           {e.dramUs, "dram"},
      {e.sharedUs, "shared"},   {e.latencyUs, "latency"}};
  auto worst = llvm::max_element(
      bounds, [](const auto &a, const auto &b) { return a.first < b.first; });
  e.bound = worst->second;
  e.us = worst->first + d.launchUs;
  e.slowestUs = e.us;
  return e;
}

RooflineEstimate costmodel::estimateKernels(ArrayRef<dkernel::FuncOp> kernels,
                                            const DeviceModel &d) {
  RooflineEstimate slowest;
  if (kernels.empty()) {
    slowest.launchable = false;
    slowest.reason = "no kernel to launch";
    return slowest;
  }
  double totalUs = 0;
  for (dkernel::FuncOp kernel : kernels) {
    RooflineEstimate e = estimateLatency(profileKernel(kernel), d);
    if (!e.launchable) {
      if (kernels.size() > 1)
        e.reason = "@" + kernel.getSymName().str() + ": " + e.reason;
      return e;
    }
    totalUs += e.us;
    if (e.us >= slowest.slowestUs)
      slowest = std::move(e);
  }
  slowest.us = totalUs;
  slowest.kernels = kernels.size();
  return slowest;
}

double costmodel::rooflineFloorUs(const KernelProfile &p,
                                  const DeviceModel &d) {
  // Every FLOP at the peak rate of all SMs, every buffer once at the full
  // DRAM bandwidth: no variant of the kernel can beat this.
  double clock = d.clockGHz * 1e9;
  double flops = p.flopsPerBlock * double(p.numBlocks);
  double computeUs = flops / (d.flopsPerSMPerClock * d.numSMs * clock) * 1e6;
  double tensorFlops =
      (p.wgmmaFlopsPerBlock + p.mmaSyncFlopsPerBlock) * double(p.numBlocks);
  double tensorUs =
      d.tensorTflops > 0 ? tensorFlops / (d.tensorTflops * 1e6) : 0;
  double dramUs = p.uniqueBytes / (d.dramGBs * 1e9) * 1e6;
  return std::max({computeUs, tensorUs, dramUs}) + d.launchUs;
}
