//===- BankConflicts.h - Shared-memory bank-conflict analysis ---*- C++ -*-===//
//
// How many shared-memory transactions one warp-wide access costs. Shared
// memory has 32 banks of 4-byte words; lanes reading the same word share it
// (broadcast), lanes reading different words of one bank take turns. The
// degree of an access is the largest number of distinct words any bank
// serves: 1 is conflict-free, 32 fully serialised. pad_smem and
// permute_register_tile keep an option only where this says it helps.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_DIALECT_DTILE_TRANSFORMS_BANKCONFLICTS_H
#define DEPLODOCK_DIALECT_DTILE_TRANSFORMS_BANKCONFLICTS_H

#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"
#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h"
#include "Deplodock/Dialect/DTile/IR/DTileOps.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/MapVector.h"

#include <cstdint>
#include <optional>

namespace deplodock::dtile {

/// Banks of shared memory and the width of one bank, in bytes.
constexpr int64_t kNumBanks = 32;
constexpr int64_t kBankBytes = 4;

/// The conflict degree of one warp's access: `byteAddresses` holds the
/// address each active lane reads or writes (at most 32; accesses no wider
/// than a bank). 1 when there are no lanes.
int64_t bankConflictDegree(llvm::ArrayRef<int64_t> byteAddresses);

/// An affine expression as a sum: a coefficient per dimension, then per
/// symbol, one per term that is not linear in them (keyed by that term,
/// e.g. `d0 floordiv 4`), and a constant.
struct AffineTerms {
  llvm::SmallVector<int64_t> coeffs;
  llvm::MapVector<mlir::AffineExpr, int64_t> nonlinear;
  int64_t constant = 0;
};

/// `expr` split into its terms; nullopt when a coefficient overflows.
std::optional<AffineTerms>
splitAffineExpr(mlir::AffineExpr expr, unsigned numDims, unsigned numSymbols);

/// `expr` as the coefficients of its dimensions, then of its symbols, then
/// its constant term; nullopt when it is not a linear function of them.
std::optional<llvm::SmallVector<int64_t>>
linearizeAffineExpr(mlir::AffineExpr expr, unsigned numDims,
                    unsigned numSymbols);

/// The worst conflict degree over the warps of the block of `read`, a load
/// of the slab `stage` makes, were the slab laid out with `pad` extra
/// elements per dimension, or (unpadded) in the segments of a `swizzle`-byte
/// TMA swizzle (see Common/Swizzle.h): lanes are the linear thread ids (last
/// thread axis fastest), every other index operand (block coordinates, loop
/// variables) taken as 0. Nullopt when the access is not an affine function of
/// them or its elements are wider than a bank.
std::optional<int64_t> slabReadConflicts(StageOp stage, dloop::LoadOp read,
                                         llvm::ArrayRef<int64_t> pad,
                                         int64_t swizzle = 0);

/// The summed worst conflict degree of every read of `stage`'s slab laid
/// out with `pad` or `swizzle` (as slabReadConflicts and, for vector reads,
/// vectorReadConflicts); nullopt when some use is not an analysable
/// dloop.load or dkernel.vector_load.
std::optional<int64_t> slabReadCost(StageOp stage, llvm::ArrayRef<int64_t> pad,
                                    int64_t swizzle = 0);

/// The worst conflict degree of the ldmatrix `read` of the slab `stage`
/// makes, were the slab laid out with `pad` or `swizzle` (as
/// slabReadConflicts): each of its 8 x 8 matrices is one access of the
/// eight 16-byte rows lanes 8j..8j+7 name. Its indices must be constants
/// or affine.apply of the tile's coordinates (block coordinates taken as
/// 0); nullopt otherwise.
std::optional<int64_t> ldmatrixConflicts(StageOp stage,
                                         dkernel::LdMatrixOp read,
                                         llvm::ArrayRef<int64_t> pad,
                                         int64_t swizzle = 0);

/// The worst conflict degree of the vector read `read` (dkernel.vector_load,
/// vector_reads) of the slab `stage` makes, were the slab laid out with
/// `pad` or `swizzle` (as slabReadConflicts). A 128-bit read is served a
/// quarter-warp at a time (8 lanes of 16 bytes), a 64-bit one a half-warp
/// at a time; the degree is the worst of those phases. Index operands
/// other than the tile's coordinates (loop variables) are taken as 0;
/// nullopt when an index is not an affine.apply of those and constants.
std::optional<int64_t> vectorReadConflicts(StageOp stage,
                                           dkernel::VectorLoadOp read,
                                           llvm::ArrayRef<int64_t> pad,
                                           int64_t swizzle = 0);

/// The worst conflict degree of the shared writes of the copy of the
/// transposed stage `stage` (transpose_a), were the slab laid out with
/// `pad`: the block's threads take the box's elements in source order
/// (thread t elements t, t + T, ..., as the Kernel lowering's copy), so a
/// warp reads 32 consecutive source elements and writes each at its
/// transposed place, down a slab column. Nullopt for a stage that is not
/// transposed (its copy writes runs in slab order) or whose elements are
/// wider than a bank.
std::optional<int64_t> transposedWriteConflicts(StageOp stage,
                                                llvm::ArrayRef<int64_t> pad);

} // namespace deplodock::dtile

#endif // DEPLODOCK_DIALECT_DTILE_TRANSFORMS_BANKCONFLICTS_H
