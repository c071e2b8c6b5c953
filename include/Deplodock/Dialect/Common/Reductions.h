//===- Reductions.h - What a reduction kind computes ------------*- C++ -*-===//
//
// Every level that builds, recognises or folds a reduction asks here which
// arith op a ReduceKind is and what its identity is, so the levels cannot
// drift apart on, say, how max treats a NaN.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_DIALECT_COMMON_REDUCTIONS_H
#define DEPLODOCK_DIALECT_COMMON_REDUCTIONS_H

#include "Deplodock/Dialect/Common/DeplodockEnums.h"
#include "mlir/IR/Builders.h"

#include <optional>

namespace deplodock {

/// The kind of `op` as the combining step of a reduction (arith.addf is
/// add, arith.maxnumf is maxnum, ...), if it is one.
std::optional<ReduceKind> getCombinerKind(mlir::Operation *op);

/// Whether elements of `type` can be reduced by `kind`: maxnum and minnum
/// only make sense for floats.
bool isReduceKindLegal(ReduceKind kind, mlir::Type type);

/// Fails with an error on `op` when `kind` cannot reduce elements of `type`.
mlir::LogicalResult verifyReduceKind(mlir::Operation *op, ReduceKind kind,
                                     mlir::Type type);

/// `lhs kind rhs` as one arith op.
mlir::Value buildCombiner(mlir::OpBuilder &b, mlir::Location loc,
                          ReduceKind kind, mlir::Value lhs, mlir::Value rhs);

/// The identity of `kind` on elements of `type`: folding it in changes no
/// value, NaNs included (NaN for maxnum and minnum, which ignore it).
mlir::TypedAttr getReduceIdentity(ReduceKind kind, mlir::Type type);

/// Whether `attr` is the identity of `kind`.
bool isReduceIdentity(mlir::Attribute attr, ReduceKind kind);

} // namespace deplodock

#endif // DEPLODOCK_DIALECT_COMMON_REDUCTIONS_H
