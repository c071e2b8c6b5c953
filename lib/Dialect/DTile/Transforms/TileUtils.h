//===- TileUtils.h - Shared pieces of the Tile rules ------------*- C++ -*-===//

#ifndef DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_TILEUTILS_H
#define DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_TILEUTILS_H

#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h"
#include "Deplodock/Dialect/DTile/IR/DTileOps.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace deplodock::dtile {

/// What a kernel computes, as far as the rules care.
enum class KernelClass {
  /// No reduction: every output element on its own.
  Pointwise,
  /// Every top-level reduction is a matmul: it folds products of two or
  /// more inputs along a shared axis, over a block tile of outputs.
  Matmul,
  /// Other reductions (norms, softmax, row sums): threads cooperate on a row.
  Reduction,
};

/// The class of a tileified kernel.
KernelClass classify(KernelOp kernel);

/// The reduce loops at the top level of the tile body (outside other loops).
llvm::SmallVector<dloop::ForOp> getTopLevelReductions(TileOp tile);

/// Whether `loop` is a matmul loop: a reduce loop carrying values whose body
/// loads at least two distinct buffers at indices using its variable.
bool isMatmulLoop(dloop::ForOp loop);

/// The reduction kind iter arg `i` of `loop` accumulates with, when the
/// loop yields `combiner(acc, x)` (either operand order) for it.
std::optional<ReduceKind> getAccumulatorKind(dloop::ForOp loop, unsigned i);

/// Whether `value` is a constant equal to the identity of `kind`.
bool isIdentity(mlir::Value value, ReduceKind kind);

/// Replaces every use of `coord` with `map(operands)` (one affine.apply at the
/// start of the tile body); canonicalization folds it into the accesses.
void substituteCoord(mlir::OpBuilder &b, TileOp tile, mlir::Value coord,
                     mlir::AffineMap map, mlir::ValueRange operands);

/// An axis of a tile being built.
struct Axis {
  std::string name;
  int64_t extent;
};

/// Builds the inside of a rebuilt tile: given the new block and thread
/// coordinates (with the builder at the start of the new body), returns the
/// block the old body moves into (the new body or a loop made here) and the
/// values that stand for each old coordinate there.
using TileBodyBuilder = llvm::function_ref<
    std::pair<mlir::Block *, llvm::SmallVector<mlir::Value>>(
        mlir::OpBuilder &, mlir::Location, mlir::ValueRange blockCoords,
        mlir::ValueRange threadCoords)>;

/// Replaces `tile` by a tile with the given axes and moves its body into
/// the block `build` returns.
TileOp rebuildTile(TileOp tile, llvm::ArrayRef<Axis> blockAxes,
                   llvm::ArrayRef<Axis> threadAxes, TileBodyBuilder build);

/// The block and thread axes of `tile`.
llvm::SmallVector<Axis> getBlockAxes(TileOp tile);
llvm::SmallVector<Axis> getThreadAxes(TileOp tile);

/// Splits reduce loop `loop` (extent K, divisible by `chunk`) into a loop
/// over K / chunk chunks (axis `<axis>_o`) around a loop over one chunk
/// (`<axis>_i`), both carrying the accumulators; returns the outer loop.
dloop::ForOp splitReduceLoop(dloop::ForOp loop, int64_t chunk);

/// Folds index arithmetic into access maps, folds constants and removes
/// dead and duplicate code in `kernel`.
void cleanupKernel(KernelOp kernel);

/// The product of `values`.
int64_t product(llvm::ArrayRef<int64_t> values);

/// The positive divisors of `n` in [lo, hi], ascending.
llvm::SmallVector<int64_t> divisorsIn(int64_t n, int64_t lo, int64_t hi);

} // namespace deplodock::dtile

#endif // DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_TILEUTILS_H
