//===- SharedReads.cpp - The regions of its inputs each block reads -------===//
//
// A matmul's blocks read A by tile rows and B by tile columns: the blocks
// of one column share its B slab. Running side by side they read it from
// DRAM once; run in different waves they read it again, unless the L2
// still holds it. Which blocks share a region is read off the kernel: the
// address the first read of an input takes (thread 0, loops at their
// middle iteration, as IndexEvaluator evaluates) is the same for exactly
// the blocks that read the same slab, whatever grid order a rule chose
// (tile_order's groups, a split-K axis). Launch order then says which of
// them run in one wave.
//
//===----------------------------------------------------------------------===//

#include "SharedReads.h"
#include "IndexEvaluator.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::costmodel;

namespace {

/// Inputs smaller than this stay in any L2 the model knows: counted once.
constexpr double kMinTracedBytes = 1 << 20;

/// The first global read of an input: its buffer and element indices.
struct ReadSite {
  Value buffer;
  SmallVector<Value> indices;
};

/// The buffer parameter `value` is, if it is one of `kernel`'s.
Value asParameter(dkernel::FuncOp kernel, Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || arg.getOwner() != &kernel.getBody().front() ||
      !isa<MemRefType>(arg.getType()))
    return {};
  return arg;
}

/// The first read of each input parameter of `kernel`, in program order.
llvm::MapVector<Value, ReadSite> findReadSites(dkernel::FuncOp kernel) {
  llvm::MapVector<Value, ReadSite> sites;
  auto note = [&](Value buffer, ValueRange indices) {
    Value param = asParameter(kernel, buffer);
    if (!param || kernel.isOutput(cast<BlockArgument>(param).getArgNumber()))
      return;
    if (!sites.contains(param))
      sites[param] = {param, llvm::to_vector(indices)};
  };
  kernel.walk([&](Operation *op) {
    llvm::TypeSwitch<Operation *>(op)
        .Case([&](memref::LoadOp load) {
          note(load.getMemRef(), load.getIndices());
        })
        .Case([&](dkernel::CpAsyncOp copy) {
          note(copy.getSrc(), copy.getSrcIndices());
        })
        .Case([&](dkernel::VectorCopyOp copy) {
          note(copy.getSrc(), copy.getSrcIndices());
        })
        .Case([&](dkernel::VectorLoadOp load) {
          note(load.getSrc(), load.getIndices());
        })
        .Case([&](dkernel::TmaLoadOp copy) {
          auto arg = dyn_cast<BlockArgument>(copy.getDescriptor());
          if (!arg)
            return;
          if (dkernel::TmaDescriptorOp described =
                  kernel.getTmaDescriptorOp(arg.getArgNumber()))
            note(described.getBuffer(), copy.getCoords());
        });
  });
  return sites;
}

/// The element offset `site` reads in the current block, or none.
std::optional<int64_t> offsetOf(IndexEvaluator &eval, const ReadSite &site) {
  auto type = cast<MemRefType>(site.buffer.getType());
  int64_t offset = 0, stride = 1;
  for (int64_t i = type.getRank() - 1; i >= 0; --i) {
    std::optional<int64_t> x = eval.eval(site.indices[i]);
    if (!x)
      return std::nullopt;
    offset += *x * stride;
    stride *= type.getDimSize(i);
  }
  return offset;
}

double bytesOf(MemRefType type) {
  return double(type.getNumElements()) *
         double(llvm::divideCeil(type.getElementTypeBitWidth(), 8));
}

} // namespace

void costmodel::traceSharedReads(dkernel::FuncOp kernel,
                                 KernelProfile &profile) {
  profile.onceBytes = profile.uniqueBytes;
  int64_t blocks = profile.numBlocks;
  if (blocks < 2 || blocks > kMaxTracedBlocks)
    return;
  IndexEvaluator eval(kernel);
  eval.setIterArgsAtFirst(true);
  for (auto &[buffer, site] : findReadSites(kernel)) {
    auto type = cast<MemRefType>(buffer.getType());
    if (!type.hasStaticShape() || site.indices.size() != size_t(type.getRank()))
      continue;
    double bytes = bytesOf(type);
    if (bytes < kMinTracedBytes)
      continue;
    SharedRead read;
    read.regionOfBlock.reserve(blocks);
    llvm::DenseMap<int64_t, uint32_t> regions;
    bool known = true;
    for (int64_t b = 0; b < blocks && known; ++b) {
      eval.setBlock(b);
      std::optional<int64_t> offset = offsetOf(eval, site);
      known = offset.has_value();
      if (known)
        read.regionOfBlock.push_back(
            regions.try_emplace(*offset, regions.size()).first->second);
    }
    // Unknown, one region for all, or one a block: nothing to share
    // between waves, each byte moves once.
    if (!known || regions.size() < 2 || int64_t(regions.size()) == blocks)
      continue;
    read.regionBytes = bytes / double(regions.size());
    profile.onceBytes -= bytes;
    profile.sharedReads.push_back(std::move(read));
  }
}

double costmodel::dramBytes(const KernelProfile &p, int64_t wave,
                            int64_t l2Bytes) {
  if (p.sharedReads.empty() || wave < 1)
    return p.uniqueBytes;
  int64_t blocks = p.numBlocks;
  int64_t waves = (blocks + wave - 1) / wave;
  // readBefore[w]: the bytes waves 0 .. w - 1 read, each region once a wave.
  std::vector<double> readBefore(waves + 1, 0);
  std::vector<std::vector<int64_t>> lastWave;
  for (const SharedRead &read : p.sharedReads) {
    uint32_t regions = 0;
    for (uint32_t r : read.regionOfBlock)
      regions = std::max(regions, r + 1);
    lastWave.emplace_back(regions, -1);
  }
  double moved = p.onceBytes;
  for (int64_t w = 0; w < waves; ++w) {
    double read = 0;
    for (auto [shared, last] : llvm::zip(p.sharedReads, lastWave)) {
      for (int64_t b = w * wave; b < std::min(blocks, (w + 1) * wave); ++b) {
        int64_t &seen = last[shared.regionOfBlock[b]];
        if (seen == w)
          continue; // Another block of this wave reads it: shared in L2.
        // Still in L2 when what was read since its last wave fits.
        if (seen < 0 || readBefore[w] - readBefore[seen] > double(l2Bytes))
          moved += shared.regionBytes;
        read += shared.regionBytes;
        seen = w;
      }
    }
    readBefore[w + 1] = readBefore[w] + read;
  }
  return moved;
}
