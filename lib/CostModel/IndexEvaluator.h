//===- IndexEvaluator.h - Index values of one thread, concretely -*- C++
//-*-===//
//
// The cost model reads a kernel one thread at a time: index and i1 values
// are evaluated for a thread id, with block ids at the middle of the grid
// (or those of a given block) and induction variables at the middle iteration
// of their loop. Loaded data, iteration arguments (but where addresses ask for
// their first iteration's) and parameters have no value.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_LIB_COSTMODEL_INDEXEVALUATOR_H
#define DEPLODOCK_LIB_COSTMODEL_INDEXEVALUATOR_H

#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>

namespace deplodock::costmodel {

/// Evaluates index and i1 values of a kernel for one thread of the block.
class IndexEvaluator {
public:
  explicit IndexEvaluator(dkernel::FuncOp kernel);

  /// Evaluates for thread `tid` (linear, on x) from now on.
  void setThread(int64_t tid) {
    thread = tid;
    cache.clear();
  }

  /// Evaluates for block `linear` of the grid (x fastest, as blocks are
  /// launched) from now on; without a call, every block id is the middle
  /// of its grid dimension.
  void setBlock(int64_t linear) {
    for (int i = 0; i < 3; ++i) {
      blockId[i] = linear % grid[i];
      linear /= grid[i];
    }
    cache.clear();
  }

  /// The value of `value` for the current thread, or none.
  std::optional<int64_t> eval(mlir::Value value);

  /// The trip count of `loop` for the current thread.
  std::optional<int64_t> tripCount(mlir::scf::ForOp loop);

  /// With `first`, an scf.for's iteration argument takes its initial value
  /// (the first iteration's): a representative of the addresses a warp
  /// reads through a carried index (a double buffer's slot, say), whose
  /// lane pattern is what the memory model needs. Off, iteration arguments
  /// have no value, as they are data. Clears the cache.
  void setIterArgsAtFirst(bool first) {
    iterArgsAtFirst = first;
    cache.clear();
  }

private:
  std::optional<int64_t> compute(mlir::Value value);

  int64_t grid[3] = {1, 1, 1};
  int64_t block[3] = {1, 1, 1};
  int64_t blockId[3] = {0, 0, 0};
  int64_t thread = 0;
  bool iterArgsAtFirst = false;
  llvm::DenseMap<mlir::Value, std::optional<int64_t>> cache;
};

} // namespace deplodock::costmodel

#endif // DEPLODOCK_LIB_COSTMODEL_INDEXEVALUATOR_H
