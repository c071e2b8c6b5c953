//===- DKernelDialect.h - The dkernel dialect -------------------*- C++ -*-===//

#ifndef DEPLODOCK_DIALECT_DKERNEL_IR_DKERNELDIALECT_H
#define DEPLODOCK_DIALECT_DKERNEL_IR_DKERNELDIALECT_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/Operation.h"

#include <optional>

#include "Deplodock/Dialect/DKernel/IR/DKernelDialect.h.inc"

namespace deplodock::dkernel {

/// The unroll hint on an scf.for: `{dkernel.unroll = 4 : i64}`.
constexpr llvm::StringLiteral kUnrollAttrName = "dkernel.unroll";

/// The unroll hint of `op`, or null when it has none.
inline mlir::IntegerAttr getUnrollAttr(mlir::Operation *op) {
  return op->getAttrOfType<mlir::IntegerAttr>(kUnrollAttrName);
}

/// The unroll factor requested for `op` (an scf.for), if any.
inline std::optional<int64_t> getUnrollFactor(mlir::Operation *op) {
  if (mlir::IntegerAttr attr = getUnrollAttr(op))
    return attr.getInt();
  return std::nullopt;
}

/// Asks for `op` (an scf.for) to be unrolled `factor` times.
void setUnrollFactor(mlir::Operation *op, int64_t factor);

} // namespace deplodock::dkernel

#endif // DEPLODOCK_DIALECT_DKERNEL_IR_DKERNELDIALECT_H
