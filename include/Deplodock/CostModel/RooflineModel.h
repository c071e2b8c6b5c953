//===- RooflineModel.h - An analytic latency estimate of a kernel -*- C++ -*-//
//
// The cost model the tuner's model backend and prior use, and the
// `dkernel-estimate` pass reports. It reads a Kernel IR function the way a
// GPU would run it — FLOPs and memory accesses per thread (loop trip counts
// and branch fractions evaluated over the block's threads), 32-byte sectors
// per warp for global accesses (coalescing, broadcasts) and for private
// arrays an index of which is not constant after unrolling (local memory),
// bank wavefronts for shared ones, an occupancy from threads, shared memory and
// estimated registers, waves over the SMs — and bounds the time by the slowest
// of compute, L2, DRAM, shared-memory throughput and memory latency. It is an
// estimate for tests, priors and comparing strategies, never a measurement.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_COSTMODEL_ROOFLINEMODEL_H
#define DEPLODOCK_COSTMODEL_ROOFLINEMODEL_H

#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"

#include <string>
#include <vector>

namespace deplodock::costmodel {

/// The reference GPU of a target. Numbers from the vendor's whitepapers and
/// datasheets where they publish one; DeviceModel.cpp cites each, and
/// marks the assumptions.
struct DeviceModel {
  std::string target;
  std::string gpuName;
  int capability = 0;
  int numSMs = 0;
  double clockGHz = 0;
  /// FP32 operations per SM per clock (FMA counts two).
  double flopsPerSMPerClock = 0;
  /// Dense tensor-core operations per second of the whole GPU with 16-bit
  /// inputs (f16, bf16; TF32 runs at half that), in TFLOP/s, through the
  /// target's fastest MMA (wgmma on sm_90a, mma.sync before it), and the
  /// share of that rate mma.sync reaches.
  double tensorTflops = 0;
  double mmaSyncShare = 1;
  double dramGBs = 0;
  double l2GBs = 0;
  /// Most L2-to-SM bandwidth one SM can draw, bytes per clock.
  double l2BytesPerSMPerClock = 0;
  int64_t l2Bytes = 0;
  /// Shared-memory bandwidth per SM, bytes per clock (32 banks x 4 bytes).
  double sharedBytesPerSMPerClock = 128;
  int64_t sharedBytesPerSM = 0;
  int64_t maxSharedBytesPerBlock = 0;
  int64_t maxThreadsPerSM = 2048;
  int64_t maxBlocksPerSM = 32;
  int64_t registersPerSM = 65536;
  int64_t maxRegistersPerThread = 255;
  /// Latencies in clocks of a global access (L2 hit and DRAM mixed) and of
  /// a shared one; launch overhead in microseconds.
  double globalLatencyClocks = 0;
  double sharedLatencyClocks = 0;
  /// Clocks from issuing the asynchronous copy of a pipeline stage (TMA or
  /// cp.async) to the wait on it completing, under the load of a busy GPU.
  double copyLatencyClocks = 0;
  /// Clocks a block of a lock-step cluster waits each step for its peer's
  /// release of a slot (the arrival crossing to the other SM, the wait
  /// seeing it).
  double clusterReleaseClocks = 0;
  double launchUs = 0;
};

/// The reference GPU of `target` ("sm_80": A100 SXM4 80 GB, "sm_90": H100
/// SXM5 80 GB), or failure.
mlir::FailureOr<DeviceModel> getDeviceModel(llvm::StringRef target);

/// A global input the blocks read in slabs that several of them share (a
/// matmul's operand): the region each block reads, in launch order, and the
/// bytes of one region. Blocks reading a region in one wave share it in L2;
/// a later wave finds it there only while what the waves since read fits.
struct SharedRead {
  double regionBytes = 0;
  std::vector<uint32_t> regionOfBlock;
};

/// What a kernel does, counted from its Kernel IR.
struct KernelProfile {
  int64_t numBlocks = 0;
  int64_t threadsPerBlock = 0;
  int64_t sharedBytes = 0;
  /// Estimated registers per thread (before the occupancy cap).
  int64_t registers = 0;
  /// Per block: FP32-equivalent operations (an FMA is two, a special
  /// function four), 32-byte-sector bytes moved between L2 and the SM,
  /// bytes of shared-memory wavefronts (128 bytes each).
  double flopsPerBlock = 0;
  /// Per block: tensor-core operations of wgmma and of mma.sync, TF32 ones
  /// counted twice (they run at half the 16-bit rate).
  double wgmmaFlopsPerBlock = 0;
  double mmaSyncFlopsPerBlock = 0;
  double l2BytesPerBlock = 0;
  double sharedBytesPerBlock = 0;
  /// Per thread: global and shared loads that wait one after another (each
  /// load divided by the independent loads it can overlap with), and clocks
  /// of barriers and shuffles.
  double serialGlobalLoads = 0;
  double serialSharedLoads = 0;
  /// The shared loads, each waited for alone: where the thread's private
  /// arrays take every register it may have, none is left to keep another
  /// load in flight.
  double unoverlappedSharedLoads = 0;
  /// Per thread: whole latencies of asynchronous copies (TMA, cp.async)
  /// waited for. A K loop whose stages rotate through d slots waits one
  /// before its first step and then 1 / (d - 1) of one per step: d - 1
  /// stages are in flight while a step computes.
  double copyWaits = 0;
  /// Per thread: waits for the other block of a cluster to release a slot,
  /// on the mbarrier its remote arrival names (cluster_multicast's lock-step
  /// kernel, where every thread waits each step; a warp-specialised
  /// producer waits on a slot its consumers' arrivals do not name, ahead of
  /// them, and is not counted here).
  double clusterReleaseWaits = 0;
  double syncClocks = 0;
  /// Bytes of the kernel's buffers: what DRAM must move at least once.
  double uniqueBytes = 0;
  /// The inputs read in shared regions (of a megabyte or more, in grids of
  /// at most 16,384 blocks); the other buffers move once.
  std::vector<SharedRead> sharedReads;
};

/// Bytes DRAM moves for `p` when its blocks run `wave` at a time through an
/// L2 of `l2Bytes`: the shared reads region by region (see SharedRead), the
/// other buffers once.
double dramBytes(const KernelProfile &p, int64_t wave, int64_t l2Bytes);

/// Counts what `kernel` does.
KernelProfile profileKernel(dkernel::FuncOp kernel);

/// The estimate of one kernel on one device.
struct RooflineEstimate {
  /// False when the block cannot launch (too many threads, too much shared
  /// memory); `reason` says why and the times are zero.
  bool launchable = true;
  std::string reason;
  double us = 0;
  /// The bounds, in microseconds, the largest of which (plus the launch
  /// overhead) is `us`.
  double computeUs = 0;
  double tensorUs = 0;
  double l2Us = 0;
  double dramUs = 0;
  double sharedUs = 0;
  double latencyUs = 0;
  /// Resident blocks per SM, the fraction of the SM's warps they fill, and
  /// rounds of blocks the busiest SM runs.
  int64_t blocksPerSM = 0;
  double occupancy = 0;
  int64_t rounds = 0;
  /// "compute", "tensor", "l2", "dram", "shared" or "latency".
  std::string bound;
  /// Kernels summed in `us` (estimateKernels); the other fields are the
  /// slowest one's, which alone takes `slowestUs`.
  unsigned kernels = 1;
  double slowestUs = 0;

  /// One line: `dram-bound, 12.30 us, occupancy 50%, 4 blocks/SM, 2 rounds`,
  /// after `2 kernels, 15.10 us; the slowest ` for several.
  std::string describe() const;
};

/// Estimates `profile` on `device`.
RooflineEstimate estimateLatency(const KernelProfile &profile,
                                 const DeviceModel &device);

/// Estimates `kernels` launched one after another: each alone, with its own
/// launch overhead, summed. Not launchable when one of them is not (the
/// reason names it) or there is none.
RooflineEstimate estimateKernels(llvm::ArrayRef<dkernel::FuncOp> kernels,
                                 const DeviceModel &device);

/// The floor no variant of the kernel `profile` describes can beat on
/// `device`: its FLOPs at the peak rate of every SM (tensor-core ones at the
/// tensor-core peak), or its buffers moved
/// once at the full DRAM bandwidth, whichever is longer, plus the launch.
double rooflineFloorUs(const KernelProfile &profile, const DeviceModel &device);

} // namespace deplodock::costmodel

#endif // DEPLODOCK_COSTMODEL_ROOFLINEMODEL_H
