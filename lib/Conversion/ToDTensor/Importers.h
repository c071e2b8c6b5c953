//===- Importers.h - Pieces of the dtensor importer -------------*- C++ -*-===//
//
// Each importer rewrites one family of upstream ops on tensors into dtensor
// ops at the rewriter's insertion point and returns the replacement values,
// or fails after emitting a located error.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_LIB_CONVERSION_TODTENSOR_IMPORTERS_H
#define DEPLODOCK_LIB_CONVERSION_TODTENSOR_IMPORTERS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace deplodock::importer {

/// The name used in diagnostics.
inline constexpr llvm::StringLiteral kPassName = "convert-to-dtensor";

/// Reads `source` at `map` over an iteration domain of shape `domain`: the
/// source itself when that is already the layout, else a dtensor.index_map.
mlir::Value readOver(mlir::OpBuilder &b, mlir::Location loc,
                     mlir::Value source, mlir::AffineMap map,
                     llvm::ArrayRef<int64_t> domain);

/// Imports a `linalg.generic` (named ops are generalized before).
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
importGeneric(mlir::RewriterBase &rewriter, mlir::linalg::GenericOp op);

/// Imports tensor.expand_shape, collapse_shape, extract_slice, insert_slice,
/// concat and pad; fails on other ops.
mlir::FailureOr<mlir::Value> importTensorOp(mlir::RewriterBase &rewriter,
                                            mlir::Operation *op);

/// Imports an arith or math op on tensors as an elementwise op, and a splat
/// tensor constant as an elementwise op without operands.
mlir::FailureOr<mlir::Value> importScalarOp(mlir::RewriterBase &rewriter,
                                            mlir::Operation *op);

} // namespace deplodock::importer

#endif // DEPLODOCK_LIB_CONVERSION_TODTENSOR_IMPORTERS_H
