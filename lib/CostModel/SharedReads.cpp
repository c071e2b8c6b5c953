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
/// The most blocks whose regions are traced: past that, every buffer is
/// counted once (the walk is one evaluation a block and input).
constexpr int64_t kMaxTracedBlocks = 16384;

/// The buffer parameter `value` is, if it is one of `kernel`'s.
Value asParameter(dkernel::FuncOp kernel, Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || arg.getOwner() != &kernel.getBody().front() ||
      !isa<MemRefType>(arg.getType()))
    return {};
  return arg;
}

/// The element indices of the first read of each input parameter of
/// `kernel`, in program order.
llvm::MapVector<Value, SmallVector<Value>>
findReadSites(dkernel::FuncOp kernel) {
  llvm::MapVector<Value, SmallVector<Value>> sites;
  auto note = [&](Value buffer, ValueRange indices) {
    Value param = asParameter(kernel, buffer);
    if (param && !kernel.isOutput(cast<BlockArgument>(param).getArgNumber()))
      sites.try_emplace(param, llvm::to_vector(indices));
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

/// The element offset of `buffer` that `indices` read in the current block,
/// or none.
std::optional<int64_t> offsetOf(IndexEvaluator &eval, Value buffer,
                                ArrayRef<Value> indices) {
  auto type = cast<MemRefType>(buffer.getType());
  int64_t offset = 0, stride = 1;
  for (int64_t i = type.getRank() - 1; i >= 0; --i) {
    std::optional<int64_t> x = eval.eval(indices[i]);
    if (!x)
      return std::nullopt;
    offset += *x * stride;
    stride *= type.getDimSize(i);
  }
  return offset;
}

} // namespace

double costmodel::bufferBytes(MemRefType type) {
  return double(type.getNumElements()) *
         std::max(double(type.getElementTypeBitWidth()) / 8, 1.0);
}

void costmodel::traceSharedReads(dkernel::FuncOp kernel,
                                 KernelProfile &profile) {
  int64_t blocks = profile.numBlocks;
  if (blocks < 2 || blocks > kMaxTracedBlocks)
    return;
  IndexEvaluator eval(kernel);
  eval.setIterArgsAtFirst(true);
  for (auto &[buffer, indices] : findReadSites(kernel)) {
    auto type = cast<MemRefType>(buffer.getType());
    if (!type.hasStaticShape() || indices.size() != size_t(type.getRank()))
      continue;
    double bytes = bufferBytes(type);
    if (bytes < kMinTracedBytes)
      continue;
    SharedRead read;
    read.regionOfBlock.reserve(blocks);
    llvm::DenseMap<int64_t, uint32_t> regions;
    bool known = true;
    for (int64_t b = 0; b < blocks && known; ++b) {
      eval.setBlock(b);
      std::optional<int64_t> offset = offsetOf(eval, buffer, indices);
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
  // lastWave[i][r]: the last wave that read region r of shared read i.
  // The buffers not traced move once.
  std::vector<std::vector<int64_t>> lastWave;
  double moved = p.uniqueBytes;
  for (const SharedRead &read : p.sharedReads) {
    uint32_t regions = *llvm::max_element(read.regionOfBlock) + 1;
    lastWave.emplace_back(regions, -1);
    moved -= regions * read.regionBytes;
  }
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
