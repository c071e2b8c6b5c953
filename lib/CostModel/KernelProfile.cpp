//===- KernelProfile.cpp - What a kernel does, counted from its IR --------===//
//
// Counting runs over the Kernel IR once, carrying how often (on average per
// thread) the current op runs. Index arithmetic is evaluated concretely
// (IndexEvaluator). That gives trip counts of loops whose bounds depend on
// the thread (cooperative copies), the fraction of threads that take a
// branch (`tid < 16`), and the addresses a warp's 32 lanes touch: how many
// 32-byte sectors a global access needs and how many wavefronts a shared one
// needs (bank conflicts). Values it cannot evaluate (loaded data) fall back
// to the benign assumption: a coalesced access, a branch always taken, one
// trip.
//
//===----------------------------------------------------------------------===//

#include "IndexEvaluator.h"
#include "SharedReads.h"

#include "Deplodock/CostModel/RooflineModel.h"
#include "Deplodock/Dialect/Common/GpuTarget.h"
#include "Deplodock/Dialect/DKernel/IR/DKernelTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::costmodel;

namespace {

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
    int64_t threadStride = std::max<int64_t>(profile.threadsPerBlock / 256, 1);
    for (int64_t t = 0; t < profile.threadsPerBlock; t += threadStride)
      active.push_back(t);
  }

  KernelProfile run() {
    for (Type type : kernel.getArgumentTypes())
      if (auto memref = dyn_cast<MemRefType>(type))
        profile.uniqueBytes += bufferBytes(memref);
    Block &body = kernel.getBody().front();
    walk(body, 1.0, overlapOf(body, 1));
    profile.registers = kBaseThreadRegisters + localWords;
    traceSharedReads(kernel, profile);
    return profile;
  }

private:
  static double bytesOf(Type type) {
    return std::max<double>(type.getIntOrFloatBitWidth() / 8.0, 1.0);
  }

  /// The average over the sampled threads that reach the code being walked
  /// of `fn(thread)`; `fallback` when it cannot be evaluated.
  template <typename Fn> double average(Fn fn, double fallback) {
    double sum = 0;
    int64_t count = 0;
    for (int64_t t : active) {
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
      if (llvm::MulOverflow(strides[i + 1], type.getDimSize(i + 1), strides[i]))
        return std::nullopt;
    int64_t elementBytes = static_cast<int64_t>(bytesOf(type.getElementType()));
    SmallVector<int64_t> addresses;
    // An index carried by a loop (a rotating buffer's slot) is taken at
    // its first iteration: the lanes' pattern is the same at every one.
    eval.setIterArgsAtFirst(true);
    llvm::scope_exit restore([&] { eval.setIterArgsAtFirst(false); });
    for (int64_t lane = 0; lane < lanes; ++lane) {
      eval.setThread(lane);
      // An address past what 64 bits hold is as unknown as one that
      // cannot be evaluated.
      int64_t linear = 0, term, address;
      for (auto [index, stride] : llvm::zip(indices, strides)) {
        std::optional<int64_t> x = eval.eval(index);
        if (!x || llvm::MulOverflow(*x, stride, term) ||
            llvm::AddOverflow(linear, term, linear))
          return std::nullopt;
      }
      if (llvm::MulOverflow(linear, elementBytes, address))
        return std::nullopt;
      addresses.push_back(address);
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

  /// Counts `count` shared loads a thread waits for, overlapping `overlap`
  /// at a time, and each alone.
  void countSharedLoads(double count, double overlap) {
    profile.serialSharedLoads += count / overlap;
    profile.unoverlappedSharedLoads += count;
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
        countSharedLoads(count, overlap);
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
  /// constant bounds and no unroll hint of its own. A loop whose bounds
  /// depend on the block (a persistent grid's loop over tiles) has a trip
  /// count nvcc cannot know.
  bool unrolledFully(scf::ForOp loop, double trips) {
    auto constant = [](Value v) { return matchPattern(v, m_Constant()); };
    return !loop->hasAttr("dkernel.unroll") && trips <= 8 &&
           trips == std::floor(trips) && constant(loop.getLowerBound()) &&
           constant(loop.getUpperBound()) && constant(loop.getStep());
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
        bool pipelined = !inCopyLoop && chargeCopyPipeline(loop, count, trips);
        inCopyLoop |= pipelined;
        walk(*loop.getBody(), count * trips, inner);
        if (pipelined)
          inCopyLoop = false;
        continue;
      }
      if (auto branch = dyn_cast<scf::IfOp>(op)) {
        // Each side is walked with the sampled threads that take it: a
        // branch nested in another (a warp role's single issuing thread)
        // is taken by a share of the threads that reach it, not of all.
        bool hasElse = !branch.getElseRegion().empty();
        SmallVector<int64_t> thenThreads, elseThreads;
        bool known = !active.empty();
        for (int64_t t : active) {
          eval.setThread(t);
          std::optional<int64_t> c = eval.eval(branch.getCondition());
          if (!c) {
            known = false;
            break;
          }
          (*c != 0 ? thenThreads : elseThreads).push_back(t);
        }
        double taken = hasElse ? 0.5 : 1.0;
        if (known) {
          taken = double(thenThreads.size()) / double(active.size());
        } else {
          thenThreads = elseThreads = active;
        }
        SmallVector<int64_t> reaching = std::exchange(active, thenThreads);
        walk(branch.getThenRegion().front(), count * taken, overlap);
        if (hasElse) {
          active = elseThreads;
          walk(branch.getElseRegion().front(), count * (1 - taken), overlap);
        }
        active = std::move(reaching);
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
            if (!inCopyLoop)
              profile.copyWaits += count;
          })
          .Case([&](dkernel::TmaLoadOp copy) {
            // Issued by one thread (count is per thread of the block): the
            // box crosses L2 and lands in shared memory.
            dkernel::TmaDescriptorType box = copy.getDescriptorType();
            double bytes = bytesOf(box.getElementType());
            for (int64_t extent : box.getBoxShape())
              bytes *= double(extent);
            // A multicast box crosses L2 once for the blocks it lands in:
            // each pays its share.
            double sharers = 1;
            if (Value mask = copy.getMulticast())
              if (std::optional<int64_t> bits = getConstantIntValue(mask))
                sharers =
                    std::max(1, llvm::popcount(static_cast<uint16_t>(*bits)));
            profile.l2BytesPerBlock +=
                count * profile.threadsPerBlock * bytes / sharers;
            profile.sharedBytesPerBlock +=
                count * profile.threadsPerBlock * bytes;
          })
          .Case([&](dkernel::MbarrierWaitOp wait) {
            // A pipelined K loop charged its waits already; elsewhere the
            // waits of one block of code wait for copies issued together.
            // A wait for a cluster's release of a slot (the mbarrier a
            // remote arrival names) waits for no copy, but for the peer.
            bool release =
                llvm::any_of(wait.getSlot().getUsers(), [&](Operation *user) {
                  auto arrive =
                      dyn_cast<dkernel::MbarrierArriveClusterOp>(user);
                  return arrive && arrive.getSlot() == wait.getSlot();
                });
            if (release)
              profile.clusterReleaseWaits += count;
            else if (!inCopyLoop)
              profile.copyWaits += count / double(waitsAround(wait));
          })
          .Case([&](dkernel::WgmmaMmaAsyncOp mma) {
            // A warpgroup's m64nNk(32 bytes): 64 x N x 16 at the 16-bit
            // rate whatever the type, both operands read from shared memory.
            double warpgroups = double(profile.threadsPerBlock) / 128;
            double n = double(mma.getN());
            profile.wgmmaFlopsPerBlock += count * warpgroups * 2 * 64 * n * 16;
            profile.sharedBytesPerBlock +=
                count * warpgroups * (64 * 32 + 32 * n);
          })
          .Case([&](dkernel::MmaSyncOp) {
            // A warp's m16n8k16 (16-bit) or m16n8k8 (TF32, half the rate).
            profile.mmaSyncFlopsPerBlock +=
                count * warpsPerBlock * 2 * 16 * 8 * 16;
          })
          .Case([&](dkernel::LdMatrixOp load) {
            // 8 x 8 matrices of 16-bit elements, 128 bytes each.
            profile.sharedBytesPerBlock +=
                count * warpsPerBlock * load.getNumMatrices() * 128;
            countSharedLoads(count, overlap);
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

  /// The waits of a K loop for its asynchronous copies (TMA or cp.async),
  /// counted for all its `trips` at once (KernelProfile::copyWaits); false
  /// when `loop` waits for none. With d slots per stage, d - 1 stages are
  /// in flight while a step computes: one whole latency before the first
  /// step, then 1 / (d - 1) of one per step, or a whole one per step when
  /// d is 1. TMA: S mbarrier slots for the G stages the loop refills (the
  /// mbarriers it arms per step) give d = S / G, less one for each wgmma
  /// group a step leaves in flight (wait_group N), whose slot is not
  /// refilled yet. cp.async: a wait that leaves N groups pending in a loop
  /// committing G per step keeps N / G steps in flight, one more when the
  /// loop issues the next step's copies before it reads shared memory. A
  /// loop that refills nothing waits once.
  bool chargeCopyPipeline(scf::ForOp loop, double count, double trips) {
    dkernel::MbarrierWaitOp tmaWait;
    dkernel::CpAsyncWaitOp cpWait;
    int64_t armed = 0, committed = 0, wgmmaInFlight = 0;
    bool clustered = false;
    // Whether the first cp.async of the body comes before its first read
    // of shared memory, once one of the two is seen.
    std::optional<bool> prefetches;
    loop.getBody()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      // The K loop is the one whose own steps wait: a loop around it (a
      // persistent grid's loop over tiles) repeats the whole pipeline.
      bool own = op->getParentOfType<scf::ForOp>() == loop;
      if (auto w = dyn_cast<dkernel::MbarrierWaitOp>(op); w && !tmaWait) {
        if (own)
          tmaWait = w;
      } else if (auto w = dyn_cast<dkernel::CpAsyncWaitOp>(op); w && !cpWait) {
        if (own)
          cpWait = w;
      } else if (isa<dkernel::MbarrierArriveExpectTxOp>(op))
        ++armed;
      else if (isa<dkernel::MbarrierArriveClusterOp>(op))
        clustered = true;
      else if (auto w = dyn_cast<dkernel::WgmmaWaitGroupOp>(op))
        wgmmaInFlight = std::max<int64_t>(wgmmaInFlight, w.getPending());
      else if (isa<dkernel::CpAsyncCommitOp>(op))
        ++committed;
      else if (!prefetches && isa<dkernel::CpAsyncOp>(op))
        prefetches = true;
      else if (!prefetches && readsShared(op))
        prefetches = false;
    });
    int64_t depth = 0;
    if (tmaWait) {
      auto slots = cast<MemRefType>(tmaWait.getMbarriers().getType());
      // A cluster's kernel (cluster_multicast) follows its "full"
      // mbarriers with as many "empty" ones.
      int64_t full = slots.getNumElements() / (clustered ? 2 : 1);
      // A slot is refilled only once the wgmma groups reading it retire:
      // each group a step leaves in flight holds one more slot.
      depth = armed ? std::max<int64_t>(full / armed - wgmmaInFlight, 1) : 0;
    } else if (cpWait) {
      depth = committed ? (prefetches.value_or(false) ? 2 : 1) +
                              int64_t(cpWait.getPending()) / committed
                        : 0;
    } else {
      return false;
    }
    double waits = depth == 0   ? 1
                   : depth == 1 ? trips
                                : 1 + trips / double(depth - 1);
    profile.copyWaits += count * waits;
    return true;
  }

  /// Whether `op` reads shared memory: what a step computes on.
  static bool readsShared(Operation *op) {
    if (isa<dkernel::LdMatrixOp, dkernel::WgmmaMmaAsyncOp>(op))
      return true;
    if (auto load = dyn_cast<memref::LoadOp>(op))
      return spaceOf(load.getMemRef()) == Space::Shared;
    if (auto load = dyn_cast<dkernel::VectorLoadOp>(op))
      return spaceOf(load.getSrc()) == Space::Shared;
    return false;
  }

  /// The mbarrier waits of the code around `wait` (its block, through the
  /// branches it is nested in), which wait for copies issued together.
  int64_t waitsAround(dkernel::MbarrierWaitOp wait) {
    Block *block = wait->getBlock();
    while (isa_and_nonnull<scf::IfOp>(block->getParentOp()))
      block = block->getParentOp()->getBlock();
    auto inserted = waitsPerBlock.try_emplace(block, 0);
    int64_t &waits = inserted.first->second;
    if (inserted.second)
      for (Operation &op : *block)
        op.walk([&](dkernel::MbarrierWaitOp) { ++waits; });
    return std::max<int64_t>(waits, 1);
  }

  dkernel::FuncOp kernel;
  IndexEvaluator eval;
  KernelProfile profile;
  int64_t warpsPerBlock = 1;
  int64_t lanes = 1;
  /// The sampled threads (at most 256 of the block) that reach the code
  /// being walked.
  SmallVector<int64_t> active;
  int64_t localWords = 0;
  llvm::DenseMap<Operation *, double> trips;
  llvm::DenseMap<Block *, int64_t> waitsPerBlock;
  /// Inside a K loop whose copy waits chargeCopyPipeline counted.
  bool inCopyLoop = false;
};

} // namespace

KernelProfile costmodel::profileKernel(dkernel::FuncOp kernel) {
  return Profiler(kernel).run();
}
