//===- MmaFragments.h - Pieces the mma.sync rules share ---------*- C++ -*-===//
//
// mma_sync (matmuls) and attention_mma (online softmax) both build warp
// tiles of m16n8 mma.sync fragments read from shared slabs with ldmatrix;
// what they build alike lives here.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_MMAFRAGMENTS_H
#define DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_MMAFRAGMENTS_H

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Builders.h"
#include "llvm/Support/Error.h"

namespace deplodock::dtile {

/// The M and N of one mma.sync tile, and a warp.
constexpr int64_t kMmaTileM = 16, kMmaTileN = 8, kWarpSize = 32;

/// Why a rule cannot take a kernel, for its remark.
llvm::Error refuseMma(const llvm::Twine &why);

/// `value` past an optional extf.
mlir::Value skipExtend(mlir::Value value);

/// `expr` over `coords` then `extra` as dimensions, as an affine.apply.
mlir::Value applyOver(mlir::OpBuilder &b, mlir::Location loc,
                      mlir::AffineExpr expr, mlir::ValueRange coords,
                      mlir::ValueRange extra = {});

/// The widest stage swizzle (32, 64 or 128 bytes) a slab of `shape` and
/// `element` can be held in, so that the eight rows of an ldmatrix fall in
/// distinct banks; 0 if none.
int64_t slabSwizzle(llvm::ArrayRef<int64_t> shape, mlir::Type element);

/// One ldmatrix of `matrices` 8 x 8 matrices of `element` from `slab`, each
/// lane naming the row at (`row`, `col`) of the slab's two innermost
/// dimensions (those before them are unit): 2 * `matrices` values per lane.
llvm::SmallVector<mlir::Value> loadMatrices(mlir::OpBuilder &b,
                                            mlir::Location loc,
                                            mlir::Value slab, mlir::Value row,
                                            mlir::Value col, mlir::Type element,
                                            unsigned matrices, bool trans);

} // namespace deplodock::dtile

#endif // DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_MMAFRAGMENTS_H
