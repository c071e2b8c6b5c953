//===- AxisInterface.h - Ops that bind named axes ---------------*- C++ -*-===//

#ifndef DEPLODOCK_DIALECT_COMMON_AXISINTERFACE_H
#define DEPLODOCK_DIALECT_COMMON_AXISINTERFACE_H

#include "Deplodock/Dialect/Common/AffineBounds.h"
#include "mlir/IR/OpDefinition.h"

#include "Deplodock/Dialect/Common/AxisInterface.h.inc"

namespace deplodock {

/// Emits an error at `op` when `axis` is also bound by an op around it
/// (below the nearest isolated-from-above op). Siblings may share names.
mlir::LogicalResult verifyAxisNotShadowed(mlir::Operation *op,
                                          llvm::StringRef axis);

/// The range of `value` when it is an axis coordinate.
std::optional<Interval> getCoordRange(mlir::Value value);

} // namespace deplodock

#endif // DEPLODOCK_DIALECT_COMMON_AXISINTERFACE_H
