//===- Constants.h - Tensor constants as dense elements ---------*- C++ -*-===//
//
// Layers arrive with weights as `dense_resource` blobs (torch-mlir's form);
// the levels below read constants as DenseElementsAttr.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_DIALECT_DTENSOR_IR_CONSTANTS_H
#define DEPLODOCK_DIALECT_DTENSOR_IR_CONSTANTS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"

namespace deplodock::dtensor {

/// The elements of a tensor constant as a DenseElementsAttr: `value` itself
/// when it is one, the bytes of a `dense_resource` blob otherwise. Fails
/// with an error at `loc` when the blob is missing (an elided resource) or
/// its size does not match the type.
mlir::FailureOr<mlir::DenseElementsAttr>
getDenseElements(mlir::Location loc, mlir::ElementsAttr value);

} // namespace deplodock::dtensor

#endif // DEPLODOCK_DIALECT_DTENSOR_IR_CONSTANTS_H
