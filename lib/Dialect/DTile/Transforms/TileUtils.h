//===- TileUtils.h - Shared pieces of the Tile rules ------------*- C++ -*-===//

#ifndef DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_TILEUTILS_H
#define DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_TILEUTILS_H

#include "Deplodock/Dialect/DKernel/IR/Target.h"
#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h"
#include "Deplodock/Dialect/DTile/IR/DTileOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/Error.h"

#include <optional>

namespace deplodock::dtile {

/// The longest loop over a thread's private buffer (a memref.alloca of the
/// tile) that mark_unroll unrolls fully, so that nvcc keeps the buffer in
/// registers: a buffer past 256 words would not fit a thread's 255
/// registers anyway. Rules that create private buffers keep within it.
constexpr int64_t kMaxPrivateUnroll = 256;

/// What a kernel computes, as far as the rules care.
enum class KernelClass {
  /// No reduction: every output element on its own.
  Pointwise,
  /// Every top-level reduction is a matmul: it folds products of two or
  /// more inputs along a shared axis, over a block tile of outputs.
  Matmul,
  /// Other reductions (norms, softmax, row sums): threads cooperate on a row.
  Reduction,
  /// An online softmax (dloop-fuse-attention): a private buffer of row
  /// accumulators (`memref.alloca`) rescaled at every step of a reduce loop
  /// over the keys. Only attention_blocks maps it to threads.
  OnlineSoftmax,
};

/// The class of a tileified kernel.
KernelClass classify(KernelOp kernel);

/// The reduce loop of an online-softmax kernel that rescales its private
/// accumulators (the loop over the keys), or null.
dloop::ForOp getOnlineSoftmaxLoop(TileOp tile);

/// Gives each block `threads` threads taken from the innermost block axes of
/// a kernel without threads, one output row each (masked where they do not
/// divide), as blockify_launch does for kernels that are not matmuls.
mlir::LogicalResult dealRowsToThreads(KernelOp kernel, int64_t threads);

/// Whether dealRowsToThreads deals block extents `extents` to `threads`
/// threads evenly (whole axes or divisors of one, no mask).
bool dealsRowsEvenly(llvm::ArrayRef<int64_t> extents, int64_t threads);

/// The reduce loops at the top level of the tile body (outside other loops).
llvm::SmallVector<dloop::ForOp> getTopLevelReductions(TileOp tile);

/// The reduce loop of a matmul kernel not mapped to threads yet when it is
/// the tile body's only loop and sums one value from zero (what the
/// tensor-core rules start from); else why not.
llvm::Expected<dloop::ForOp> getSoleSumLoop(KernelOp kernel);

/// The 32-bit words of the private arrays (memref.alloca) of `tile`'s body:
/// what a thread holds in registers once their loops are unrolled.
int64_t getPrivateWords(TileOp tile);

/// The registers each thread of a block of `threads` may hold on `target`:
/// the per-thread limit, or its share of the SM's file when one such block
/// is resident (what __launch_bounds__(threads) lets ptxas assume), in the
/// allocation granule of 8.
int64_t getRegisterBudget(dkernel::TargetAttr target, int64_t threads);

/// Ranks a bm x bn block tile of a matmul tile (block axes batch..., M, N),
/// each block tile shared by `splits` blocks along K, for the tensor-core
/// heuristics: tiles whose blocks fill at least half of `smCount` SMs
/// first, the larger first; then the others, more blocks first.
std::pair<bool, int64_t> rankBlockTile(TileOp tile, int64_t bm, int64_t bn,
                                       int64_t smCount, int64_t splits = 1);

/// Clones, at `b`, the body of matmul tile `old` but its loop `loop` (the
/// epilogue) for one accumulator `acc` of the loop's result at output row
/// `row` and column `col`, the batch axes at `batch`; inside an `scf.if`
/// where the row may reach `rowLimit` or the column `colLimit` (none: the
/// block tile divides the extent).
void cloneAccumulatorEpilogue(mlir::OpBuilder &b, TileOp old, dloop::ForOp loop,
                              mlir::ValueRange batch, mlir::Value row,
                              mlir::Value col, mlir::Value acc,
                              std::optional<int64_t> rowLimit,
                              std::optional<int64_t> colLimit);

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
using TileBodyBuilder =
    llvm::function_ref<std::pair<mlir::Block *, llvm::SmallVector<mlir::Value>>(
        mlir::OpBuilder &, mlir::Location, mlir::ValueRange blockCoords,
        mlir::ValueRange threadCoords)>;

/// Replaces `tile` by a tile with the given axes and moves its body into
/// the block `build` returns.
TileOp rebuildTile(TileOp tile, llvm::ArrayRef<Axis> blockAxes,
                   llvm::ArrayRef<Axis> threadAxes, TileBodyBuilder build);

/// Rebuilds `tile` with a new innermost thread axis `name` of `extent`
/// (neighbouring lanes), the body unchanged; returns its coordinate.
mlir::Value addInnermostThreadAxis(TileOp &tile, llvm::StringRef name,
                                   int64_t extent);

/// The tile rows a grid deals as one group where it groups them by default
/// (tile_order) or offers a group at all (persistent_tiles): the GROUP_M
/// Triton's matmuls take, as CUTLASS's rasterisation does.
constexpr int64_t kTileRowGroup = 8;

/// The block coordinates of linear tile index `t` over `extents`: row-major,
/// the last axis fastest; with `group` > 1, the last two axes (rows, columns)
/// are dealt `group` rows at a time, down the rows of a group first and
/// then across its columns (`group` divides the rows). persistent_tiles and
/// tile_order deal tiles so.
llvm::SmallVector<mlir::AffineExpr>
getTileCoords(mlir::AffineExpr t, llvm::ArrayRef<int64_t> extents,
              int64_t group);

/// The block and thread axes of `tile`.
llvm::SmallVector<Axis> getBlockAxes(TileOp tile);
llvm::SmallVector<Axis> getThreadAxes(TileOp tile);

/// Splits reduce loop `loop` (extent K) into a loop over ceil(K / chunk)
/// chunks (axis `<axis>_o`) around a loop over one chunk (`<axis>_i`), both
/// carrying the accumulators; returns the outer loop. When `chunk` does not
/// divide K, iterations past K are skipped (their body is guarded, the
/// accumulators pass through).
dloop::ForOp splitReduceLoop(dloop::ForOp loop, int64_t chunk);

//===----------------------------------------------------------------------===//
// Masked tiles (Masking.cpp)
//===----------------------------------------------------------------------===//

/// A coordinate that may run past its extent: in range while below it.
struct Mask {
  mlir::Value coord;
  int64_t extent;
};

/// `coord < extent`, at `b`.
mlir::Value buildInRange(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value coord, int64_t extent);

/// Wraps `load` (a dloop.load or dkernel.vector_load) in `scf.if %cond`,
/// yielding zeros when the condition fails.
void guardLoad(mlir::Operation *load, mlir::Value cond);

/// Guards the accesses of `scope` (at any depth) against the masked
/// coordinates, whose conditions are built right after their definitions:
/// a load whose indices use a coordinate runs only while it is in range
/// (else yields zero); every store runs only while all are in range. Loads
/// and stores are dloop's and dkernel.vector_load / vector_store.
void guardAccesses(mlir::Block &scope, llvm::ArrayRef<Mask> masks);

/// Merges equal `scf.if`s of one block that only read kernel inputs or
/// slabs (the guarded loads register-tile copies repeat).
void mergeEquivalentGuards(KernelOp kernel);

/// Folds bound checks that the ranges of their coordinates decide, and the
/// guards they leave constant.
void populateMaskFoldingPatterns(mlir::RewritePatternSet &patterns);

/// Builds the start of each iteration of a loop that carries values one
/// iteration ahead: given the loop's variable and the carried values, maps
/// in `mapping` the old body's values they stand for and returns what the
/// next iteration receives in their place.
using AheadBuilder = llvm::function_ref<llvm::SmallVector<mlir::Value>(
    mlir::OpBuilder &b, mlir::Value k, mlir::ValueRange carried,
    mlir::IRMapping &mapping)>;

/// Replaces `loop` by a loop that also carries values, starting from
/// `inits`: each iteration runs what `ahead` builds, then the old body but
/// the ops `skip` accepts. The old loop's uses take the new one's first
/// results; its unroll hint carries over.
dloop::ForOp carryAhead(dloop::ForOp loop, mlir::ValueRange inits,
                        AheadBuilder ahead,
                        llvm::function_ref<bool(mlir::Operation *)> skip);

/// Folds index arithmetic into access maps, folds constants and removes
/// dead and duplicate code in `kernel`.
void cleanupKernel(KernelOp kernel);

/// `a / b` rounded up, for positive values.
inline int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// The product of `values`.
int64_t product(llvm::ArrayRef<int64_t> values);

/// The positive divisors of `n` in [lo, hi], ascending.
llvm::SmallVector<int64_t> divisorsIn(int64_t n, int64_t lo, int64_t hi);

} // namespace deplodock::dtile

#endif // DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_TILEUTILS_H
