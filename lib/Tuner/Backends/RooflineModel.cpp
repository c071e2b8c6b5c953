//===- RooflineModel.cpp - An analytic latency estimate of a kernel -------===//
//
// Counting runs over the Kernel IR once, carrying how often (on average per
// thread) the current op runs. Index arithmetic is evaluated concretely: for
// a thread id, with block ids at the middle of the grid and induction
// variables at the middle iteration of their loop. That gives trip counts of
// loops whose bounds depend on the thread (cooperative copies), the fraction
// of threads that take a branch (`tid < 16`), and the addresses a warp's 32
// lanes touch: how many 32-byte sectors a global access needs and how many
// wavefronts a shared one needs (bank conflicts). Values it cannot evaluate
// (loaded data) fall back to the benign assumption: a coalesced access, a
// branch always taken, one trip.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Tuner/RooflineModel.h"

#include "Deplodock/Dialect/Common/AffineBounds.h"
#include "Deplodock/Dialect/Common/GpuTarget.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::tuner;

//===----------------------------------------------------------------------===//
// Devices
//===----------------------------------------------------------------------===//

FailureOr<DeviceModel> tuner::getDeviceModel(StringRef target) {
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
    d.dramGBs = 2039;
    d.l2GBs = 5000;
    d.l2Bytes = 40 << 20;
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
    d.dramGBs = 3350;
    d.l2GBs = 8000;
    d.l2Bytes = 50 << 20;
    return d;
  }
  return failure();
}

//===----------------------------------------------------------------------===//
// Evaluating index arithmetic
//===----------------------------------------------------------------------===//

namespace {

/// Evaluates index and i1 values of a kernel for one thread of the block.
class IndexEvaluator {
public:
  explicit IndexEvaluator(dkernel::FuncOp kernel) {
    for (auto [i, extent] : llvm::enumerate(kernel.getGrid()))
      if (i < 3)
        grid[i] = extent;
    for (auto [i, extent] : llvm::enumerate(kernel.getBlock()))
      if (i < 3)
        block[i] = extent;
  }

  /// Evaluates for thread `tid` (linear, on x) from now on.
  void setThread(int64_t tid) {
    thread = tid;
    cache.clear();
  }

  std::optional<int64_t> eval(Value value) {
    auto it = cache.find(value);
    if (it != cache.end())
      return it->second;
    std::optional<int64_t> result = compute(value);
    cache[value] = result;
    return result;
  }

  /// The trip count of `loop` for the current thread.
  std::optional<int64_t> tripCount(scf::ForOp loop) {
    std::optional<int64_t> lb = eval(loop.getLowerBound());
    std::optional<int64_t> ub = eval(loop.getUpperBound());
    std::optional<int64_t> step = eval(loop.getStep());
    if (!lb || !ub || !step || *step <= 0)
      return std::nullopt;
    return *ub <= *lb ? 0 : llvm::divideCeil(*ub - *lb, *step);
  }

private:
  std::optional<int64_t> compute(Value value) {
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      // The induction variable at the middle iteration; iteration arguments
      // and parameters are data.
      auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
      if (!loop || arg != loop.getInductionVar())
        return std::nullopt;
      std::optional<int64_t> trips = tripCount(loop);
      std::optional<int64_t> lb = eval(loop.getLowerBound());
      std::optional<int64_t> step = eval(loop.getStep());
      if (!trips || !lb || !step)
        return std::nullopt;
      return *lb + *step * (std::max<int64_t>(*trips, 1) - 1) / 2;
    }
    Operation *op = value.getDefiningOp();
    auto operand = [&](unsigned i) { return eval(op->getOperand(i)); };
    auto binary = [&](auto fn) -> std::optional<int64_t> {
      std::optional<int64_t> a = operand(0), b = operand(1);
      if (!a || !b)
        return std::nullopt;
      return fn(*a, *b);
    };
    using Result = std::optional<int64_t>;
    return llvm::TypeSwitch<Operation *, Result>(op)
        .Case([&](arith::ConstantOp c) -> Result {
          if (auto attr = dyn_cast<IntegerAttr>(c.getValue()))
            return attr.getValue().getSExtValue();
          return std::nullopt;
        })
        .Case([&](arith::AddIOp) {
          return binary([](int64_t a, int64_t b) -> Result { return a + b; });
        })
        .Case([&](arith::SubIOp) {
          return binary([](int64_t a, int64_t b) -> Result { return a - b; });
        })
        .Case([&](arith::MulIOp) {
          return binary([](int64_t a, int64_t b) -> Result { return a * b; });
        })
        .Case<arith::DivUIOp, arith::DivSIOp>([&](auto) {
          return binary([](int64_t a, int64_t b) -> Result {
            return b ? Result(a / b) : std::nullopt;
          });
        })
        .Case<arith::RemUIOp, arith::RemSIOp>([&](auto) {
          return binary([](int64_t a, int64_t b) -> Result {
            return b ? Result(a % b) : std::nullopt;
          });
        })
        .Case([&](arith::FloorDivSIOp) {
          return binary([](int64_t a, int64_t b) -> Result {
            return b ? Result(llvm::divideFloorSigned(a, b)) : std::nullopt;
          });
        })
        .Case([&](arith::CeilDivSIOp) {
          return binary([](int64_t a, int64_t b) -> Result {
            return b ? Result(llvm::divideCeilSigned(a, b)) : std::nullopt;
          });
        })
        .Case<arith::MaxSIOp, arith::MaxUIOp>([&](auto) {
          return binary(
              [](int64_t a, int64_t b) -> Result { return std::max(a, b); });
        })
        .Case<arith::MinSIOp, arith::MinUIOp>([&](auto) {
          return binary(
              [](int64_t a, int64_t b) -> Result { return std::min(a, b); });
        })
        .Case([&](arith::AndIOp) {
          return binary([](int64_t a, int64_t b) -> Result { return a & b; });
        })
        .Case([&](arith::OrIOp) {
          return binary([](int64_t a, int64_t b) -> Result { return a | b; });
        })
        .Case([&](arith::XOrIOp) {
          return binary([](int64_t a, int64_t b) -> Result { return a ^ b; });
        })
        .Case([&](arith::ShLIOp) {
          return binary([](int64_t a, int64_t b) -> Result {
            return b >= 0 && b < 63 ? Result(a << b) : std::nullopt;
          });
        })
        .Case<arith::ShRUIOp, arith::ShRSIOp>([&](auto) {
          return binary([](int64_t a, int64_t b) -> Result {
            return b >= 0 && b < 63 ? Result(a >> b) : std::nullopt;
          });
        })
        .Case<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
              arith::ExtUIOp, arith::TruncIOp>([&](auto) { return operand(0); })
        .Case([&](arith::CmpIOp cmp) -> Result {
          std::optional<int64_t> a = operand(0), b = operand(1);
          if (!a || !b)
            return std::nullopt;
          switch (cmp.getPredicate()) {
          case arith::CmpIPredicate::eq:
            return *a == *b;
          case arith::CmpIPredicate::ne:
            return *a != *b;
          case arith::CmpIPredicate::slt:
          case arith::CmpIPredicate::ult:
            return *a < *b;
          case arith::CmpIPredicate::sle:
          case arith::CmpIPredicate::ule:
            return *a <= *b;
          case arith::CmpIPredicate::sgt:
          case arith::CmpIPredicate::ugt:
            return *a > *b;
          case arith::CmpIPredicate::sge:
          case arith::CmpIPredicate::uge:
            return *a >= *b;
          }
          return std::nullopt;
        })
        .Case([&](arith::SelectOp select) -> Result {
          std::optional<int64_t> cond = operand(0);
          if (!cond)
            return std::nullopt;
          return *cond ? operand(1) : operand(2);
        })
        .Case([&](gpu::ThreadIdOp id) -> Result {
          return id.getDimension() == gpu::Dimension::x ? thread : 0;
        })
        .Case([&](gpu::BlockIdOp id) -> Result {
          return grid[static_cast<unsigned>(id.getDimension())] / 2;
        })
        .Case([&](gpu::BlockDimOp dim) -> Result {
          return block[static_cast<unsigned>(dim.getDimension())];
        })
        .Case([&](gpu::GridDimOp dim) -> Result {
          return grid[static_cast<unsigned>(dim.getDimension())];
        })
        .Case([&](affine::AffineApplyOp apply) -> Result {
          SmallVector<int64_t> operands;
          for (Value v : apply.getMapOperands()) {
            std::optional<int64_t> x = eval(v);
            if (!x)
              return std::nullopt;
            operands.push_back(*x);
          }
          AffineMap map = apply.getAffineMap();
          return evaluateAffineExpr(map.getResult(0), operands,
                                    map.getNumDims());
        })
        .Default([](Operation *) { return std::nullopt; });
  }

  int64_t grid[3] = {1, 1, 1};
  int64_t block[3] = {1, 1, 1};
  int64_t thread = 0;
  llvm::DenseMap<Value, std::optional<int64_t>> cache;
};

//===----------------------------------------------------------------------===//
// Counting
//===----------------------------------------------------------------------===//

/// Where a memref lives.
enum class Space { Global, Shared, Local };

Space spaceOf(Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  if (auto space =
          dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace())) {
    if (space.getValue() == gpu::AddressSpace::Workgroup)
      return Space::Shared;
    if (space.getValue() == gpu::AddressSpace::Private)
      return Space::Local;
  }
  if (memref.getDefiningOp<memref::AllocaOp>())
    return Space::Local;
  return Space::Global;
}

/// FP32-equivalent operations of a scalar op, 0 for anything else.
double flopsOf(Operation *op) {
  return llvm::TypeSwitch<Operation *, double>(op)
      .Case<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::NegFOp,
            arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
            arith::MinNumFOp, arith::CmpFOp, math::AbsFOp>(
          [](auto) { return 1.0; })
      .Case<math::FmaOp>([](auto) { return 2.0; })
      // Division and special functions run on the SFU, a quarter of the
      // FP32 rate.
      .Case<arith::DivFOp, arith::RemFOp, math::ExpOp, math::Exp2Op,
            math::LogOp, math::Log2Op, math::Log1pOp, math::SqrtOp,
            math::RsqrtOp, math::TanhOp, math::ErfOp, math::SinOp, math::CosOp,
            math::PowFOp>([](auto) { return 4.0; })
      .Default([](Operation *) { return 0.0; });
}

class Profiler {
public:
  explicit Profiler(dkernel::FuncOp kernel) : kernel(kernel), eval(kernel) {
    profile.threadsPerBlock = std::max<int64_t>(kernel.getNumThreads(), 1);
    profile.numBlocks = 1;
    for (int64_t extent : kernel.getGrid())
      profile.numBlocks *= extent;
    profile.sharedBytes = kernel.getSmem();
    warpsPerBlock = llvm::divideCeil(profile.threadsPerBlock, 32);
    lanes = std::min<int64_t>(profile.threadsPerBlock, 32);
    // Sample at most 256 threads of the block for averages.
    threadStride = std::max<int64_t>(profile.threadsPerBlock / 256, 1);
  }

  KernelProfile run() {
    for (Type type : kernel.getArgumentTypes())
      if (auto memref = dyn_cast<MemRefType>(type))
        profile.uniqueBytes +=
            double(memref.getNumElements()) * bytesOf(memref.getElementType());
    Block &body = kernel.getBody().front();
    walk(body, 1.0, overlapOf(body, 1));
    profile.registers = 24 + localWords;
    return profile;
  }

private:
  static double bytesOf(Type type) {
    return std::max<double>(type.getIntOrFloatBitWidth() / 8.0, 1.0);
  }

  /// The average over the block's threads of `fn(thread)`; `fallback` when
  /// it cannot be evaluated.
  template <typename Fn> double average(Fn fn, double fallback) {
    double sum = 0;
    int64_t count = 0;
    for (int64_t t = 0; t < profile.threadsPerBlock; t += threadStride) {
      eval.setThread(t);
      std::optional<double> v = fn();
      if (!v)
        return fallback;
      sum += *v;
      ++count;
    }
    return count ? sum / count : fallback;
  }

  /// Byte addresses `indices` of `memref` take for the lanes of the first
  /// warp, or none when one cannot be evaluated.
  std::optional<SmallVector<int64_t>> warpAddresses(Value memref,
                                                    ValueRange indices) {
    auto type = cast<MemRefType>(memref.getType());
    SmallVector<int64_t> strides(type.getRank(), 1);
    for (int64_t i = type.getRank() - 2; i >= 0; --i)
      strides[i] = strides[i + 1] * type.getDimSize(i + 1);
    int64_t elementBytes = static_cast<int64_t>(bytesOf(type.getElementType()));
    SmallVector<int64_t> addresses;
    for (int64_t lane = 0; lane < lanes; ++lane) {
      eval.setThread(lane);
      int64_t linear = 0;
      for (auto [index, stride] : llvm::zip(indices, strides)) {
        std::optional<int64_t> x = eval.eval(index);
        if (!x)
          return std::nullopt;
        linear += *x * stride;
      }
      addresses.push_back(linear * elementBytes);
    }
    return addresses;
  }

  /// 32-byte sectors one warp's access of `bytes` per lane needs.
  double sectors(Value memref, ValueRange indices, int64_t bytes) {
    std::optional<SmallVector<int64_t>> addresses =
        warpAddresses(memref, indices);
    if (!addresses) // Assume a coalesced access.
      return std::max<double>(llvm::divideCeil(lanes * bytes, 32), 1);
    llvm::DenseSet<int64_t> seen;
    for (int64_t address : *addresses)
      for (int64_t s = address / 32; s <= (address + bytes - 1) / 32; ++s)
        seen.insert(s);
    return seen.size();
  }

  /// Shared-memory wavefronts of one warp's access of `bytes` per lane: the
  /// most distinct 4-byte words any bank serves.
  double wavefronts(Value memref, ValueRange indices, int64_t bytes) {
    std::optional<SmallVector<int64_t>> addresses =
        warpAddresses(memref, indices);
    if (!addresses)
      return std::max<double>(llvm::divideCeil(lanes * bytes, 128), 1);
    llvm::DenseSet<int64_t> words[32];
    for (int64_t address : *addresses)
      for (int64_t w = address / 4; w <= (address + bytes - 1) / 4; ++w)
        words[llvm::mod(w, int64_t(32))].insert(w);
    size_t most = 1;
    for (const auto &bank : words)
      most = std::max<size_t>(most, bank.size());
    // Wide accesses are split into 128-byte transactions in any case.
    return std::max<double>(most, double(llvm::divideCeil(lanes * bytes, 128)));
  }

  /// Counts a memory access run `count` times per thread.
  void access(Value memref, ValueRange indices, int64_t bytes, double count,
              bool isLoad, double overlap, double globalWeight = 1) {
    switch (spaceOf(memref)) {
    case Space::Global:
      profile.l2BytesPerBlock += count * warpsPerBlock *
                                 sectors(memref, indices, bytes) * 32 *
                                 globalWeight;
      if (isLoad)
        profile.serialGlobalLoads += count / overlap;
      break;
    case Space::Shared:
      profile.sharedBytesPerBlock +=
          count * warpsPerBlock * wavefronts(memref, indices, bytes) * 128;
      if (isLoad)
        profile.serialSharedLoads += count / overlap;
      break;
    case Space::Local:
      // A private array stays in registers only while every index is a
      // constant once loops are unrolled; else nvcc puts it in local
      // memory, each access a round trip through the cache hierarchy
      // (interleaved per lane: a warp's access is coalesced).
      if (llvm::all_of(indices,
                       [&](Value index) { return constantAfterUnroll(index); }))
        break;
      profile.l2BytesPerBlock +=
          count * warpsPerBlock *
          std::max<double>(llvm::divideCeil(lanes * bytes, 32), 1) * 32;
      if (isLoad)
        profile.serialGlobalLoads += count / overlap;
      break;
    }
  }

  /// Whether `value` is a constant once the loops the CUDA compiler unrolls
  /// completely are: built from constants and their induction variables.
  bool constantAfterUnroll(Value value) {
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
      if (!loop || arg != loop.getInductionVar())
        return false;
      double trips = averageTrips(loop);
      auto unroll = loop->getAttrOfType<IntegerAttr>("dkernel.unroll");
      bool full =
          unrolledFully(loop, trips) || (unroll && trips == std::floor(trips) &&
                                         double(unroll.getInt()) >= trips);
      return full && constantAfterUnroll(loop.getLowerBound()) &&
             constantAfterUnroll(loop.getUpperBound()) &&
             constantAfterUnroll(loop.getStep());
    }
    Operation *def = value.getDefiningOp();
    if (!def || !isMemoryEffectFree(def) || def->getNumRegions() != 0 ||
        isa<gpu::ThreadIdOp, gpu::BlockIdOp>(def))
      return false;
    return llvm::all_of(def->getOperands(), [&](Value operand) {
      return constantAfterUnroll(operand);
    });
  }

  /// The trip count of `loop` averaged over the block's threads (1 when it
  /// cannot be evaluated).
  double averageTrips(scf::ForOp loop) {
    auto [it, fresh] = trips.try_emplace(loop, 1.0);
    if (fresh)
      it->second = average(
          [&]() -> std::optional<double> {
            std::optional<int64_t> n = eval.tripCount(loop);
            return n ? std::optional<double>(*n) : std::nullopt;
          },
          1.0);
    return it->second;
  }

  /// Whether the CUDA compiler unrolls `loop` completely: a short loop with
  /// a known trip count and no unroll hint of its own.
  bool unrolledFully(scf::ForOp loop, double trips) {
    return !loop->hasAttr("dkernel.unroll") && trips <= 8 &&
           trips == std::floor(trips);
  }

  /// Loads issued back to back in one pass over `block`: its own, those of
  /// fully unrolled loops in it (every iteration), and of its branches.
  double loadsIn(Block &block) {
    double loads = 0;
    for (Operation &op : block) {
      if (isa<memref::LoadOp>(op)) {
        loads += 1;
      } else if (auto loop = dyn_cast<scf::ForOp>(op)) {
        double trips = averageTrips(loop);
        if (unrolledFully(loop, trips))
          loads += trips * loadsIn(*loop.getBody());
      } else if (auto branch = dyn_cast<scf::IfOp>(op)) {
        loads += loadsIn(branch.getThenRegion().front());
      }
    }
    return loads;
  }

  /// Independent loads each load of `block` overlaps with: the loads issued
  /// together in one pass, times the unroll factor, at most 16.
  double overlapOf(Block &block, int64_t unroll) {
    return std::clamp<double>(std::max(loadsIn(block), 1.0) * unroll, 1, 16);
  }

  void walk(Block &block, double count, double overlap) {
    for (Operation &op : block) {
      if (auto loop = dyn_cast<scf::ForOp>(op)) {
        double trips = averageTrips(loop);
        int64_t unroll = 1;
        if (auto attr = loop->getAttrOfType<IntegerAttr>("dkernel.unroll"))
          unroll = std::max<int64_t>(attr.getInt(), 1);
        // An unrolled short loop is straight-line code of its parent.
        double inner = unrolledFully(loop, trips)
                           ? overlap
                           : overlapOf(*loop.getBody(), unroll);
        walk(*loop.getBody(), count * trips, inner);
        continue;
      }
      if (auto branch = dyn_cast<scf::IfOp>(op)) {
        bool hasElse = !branch.getElseRegion().empty();
        double taken = average(
            [&]() -> std::optional<double> {
              std::optional<int64_t> c = eval.eval(branch.getCondition());
              return c ? std::optional<double>(*c != 0) : std::nullopt;
            },
            hasElse ? 0.5 : 1.0);
        walk(branch.getThenRegion().front(), count * taken, overlap);
        if (hasElse)
          walk(branch.getElseRegion().front(), count * (1 - taken), overlap);
        continue;
      }
      llvm::TypeSwitch<Operation *>(&op)
          .Case([&](memref::LoadOp load) {
            access(load.getMemRef(), load.getIndices(),
                   int64_t(bytesOf(load.getType())), count, /*isLoad=*/true,
                   overlap);
          })
          .Case([&](memref::StoreOp store) {
            access(store.getMemRef(), store.getIndices(),
                   int64_t(bytesOf(store.getValueToStore().getType())), count,
                   /*isLoad=*/false, overlap);
          })
          .Case([&](dkernel::AtomicStoreOp atomic) {
            // A read-modify-write at L2.
            access(atomic.getMemref(), atomic.getIndices(),
                   int64_t(bytesOf(atomic.getValue().getType())), count,
                   /*isLoad=*/true, overlap, /*globalWeight=*/2);
          })
          .Case([&](dkernel::CpAsyncOp copy) {
            // Asynchronous: bandwidth, no latency until the wait.
            access(copy.getSrc(), copy.getSrcIndices(), copy.getBytes(), count,
                   /*isLoad=*/false, overlap);
            access(copy.getDst(), copy.getDstIndices(), copy.getBytes(), count,
                   /*isLoad=*/false, overlap);
          })
          .Case([&](dkernel::VectorCopyOp copy) {
            // A load whose value the store waits for, then the store.
            access(copy.getSrc(), copy.getSrcIndices(), copy.getBytes(), count,
                   /*isLoad=*/true, overlap);
            access(copy.getDst(), copy.getDstIndices(), copy.getBytes(), count,
                   /*isLoad=*/false, overlap);
          })
          .Case([&](dkernel::VectorLoadOp load) {
            // One access of the whole run.
            access(load.getSrc(), load.getIndices(),
                   int64_t(bytesOf(load.getResult(0).getType())) *
                       load.getNumResults(),
                   count, /*isLoad=*/true, overlap);
          })
          .Case([&](dkernel::VectorStoreOp store) {
            access(store.getDst(), store.getIndices(),
                   int64_t(bytesOf(store.getValues().front().getType())) *
                       int64_t(store.getValues().size()),
                   count, /*isLoad=*/false, overlap);
          })
          .Case([&](dkernel::CpAsyncWaitOp) {
            profile.serialGlobalLoads += count;
          })
          .Case([&](gpu::BarrierOp) { profile.syncClocks += count * 20; })
          .Case([&](dkernel::WarpReduceOp reduce) {
            double steps =
                std::log2(double(std::max<int64_t>(reduce.getWidth(), 2)));
            profile.flopsPerBlock += count * profile.threadsPerBlock * steps;
            profile.syncClocks += count * steps * 30;
          })
          .Case([&](dkernel::TreeReduceOp reduce) {
            double length = double(reduce.getLength());
            double steps = std::log2(std::max(length, 2.0));
            profile.flopsPerBlock += count * length;
            profile.sharedBytesPerBlock += count * 2 * length * 4;
            profile.syncClocks += count * steps * 50;
          })
          .Case([&](memref::AllocaOp alloca) {
            MemRefType type = alloca.getType();
            localWords += llvm::divideCeil(
                type.getNumElements() *
                    type.getElementType().getIntOrFloatBitWidth(),
                32);
          })
          .Default([&](Operation *other) {
            profile.flopsPerBlock +=
                count * profile.threadsPerBlock * flopsOf(other);
            for (Region &region : other->getRegions())
              for (Block &inner : region)
                walk(inner, count, overlap);
          });
    }
  }

  dkernel::FuncOp kernel;
  IndexEvaluator eval;
  KernelProfile profile;
  int64_t warpsPerBlock = 1;
  int64_t lanes = 1;
  int64_t threadStride = 1;
  int64_t localWords = 0;
  llvm::DenseMap<Operation *, double> trips;
};

} // namespace

KernelProfile tuner::profileKernel(dkernel::FuncOp kernel) {
  return Profiler(kernel).run();
}

//===----------------------------------------------------------------------===//
// Estimating
//===----------------------------------------------------------------------===//

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

RooflineEstimate tuner::estimateLatency(const KernelProfile &p,
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
  // L2: the SM's share of the L2 bandwidth, up to what one SM can draw.
  double l2PerSM =
      std::min(d.l2BytesPerSMPerClock * clock, d.l2GBs * 1e9 / activeSMs);
  e.l2Us = work * p.l2BytesPerBlock / l2PerSM * 1e6;
  // DRAM: every buffer once; few busy SMs cannot draw all of it (one SM at
  // most three times its share).
  double dram = std::min(d.dramGBs, activeSMs * 3 * d.dramGBs / d.numSMs);
  e.dramUs = p.uniqueBytes / (dram * 1e9) * 1e6;
  e.sharedUs =
      work * p.sharedBytesPerBlock / (d.sharedBytesPerSMPerClock * clock) * 1e6;
  // Latency: the warps of a round run side by side, each thread's accesses
  // one after another (as far as they do not overlap).
  double serial = p.serialGlobalLoads * d.globalLatencyClocks +
                  p.serialSharedLoads * d.sharedLatencyClocks + p.syncClocks;
  e.latencyUs = rounds * serial / clock * spill * 1e6;

  std::pair<double, const char *> bounds[] = {{e.computeUs, "compute"},
                                              {e.l2Us, "l2"},
                                              {e.dramUs, "dram"},
                                              {e.sharedUs, "shared"},
                                              {e.latencyUs, "latency"}};
  auto worst = llvm::max_element(
      bounds, [](const auto &a, const auto &b) { return a.first < b.first; });
  e.bound = worst->second;
  e.us = worst->first + d.launchUs;
  e.slowestUs = e.us;
  return e;
}

RooflineEstimate tuner::estimateKernels(ArrayRef<dkernel::FuncOp> kernels,
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

double tuner::rooflineFloorUs(const KernelProfile &p, const DeviceModel &d) {
  // Every FLOP at the peak rate of all SMs, every buffer once at the full
  // DRAM bandwidth: no variant of the kernel can beat this.
  double clock = d.clockGHz * 1e9;
  double flops = p.flopsPerBlock * double(p.numBlocks);
  double computeUs = flops / (d.flopsPerSMPerClock * d.numSMs * clock) * 1e6;
  double dramUs = p.uniqueBytes / (d.dramGBs * 1e9) * 1e6;
  return std::max(computeUs, dramUs) + d.launchUs;
}
