//===- Precision.h - The contraction precision a module allows --*- C++ -*-===//
//
// FP32 contractions stay IEEE f32 unless the user asks for TF32 (the
// `precision=tf32` option of dtile-lower and the lowering pipelines): the
// request is the unit attribute `dtile.tf32` on the module, so that it
// travels with the IR like its dkernel.target, and the mma_sync rule may
// then run f32 matmuls on tf32 tensor cores.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_DIALECT_DTILE_TRANSFORMS_PRECISION_H
#define DEPLODOCK_DIALECT_DTILE_TRANSFORMS_PRECISION_H

#include "mlir/IR/BuiltinOps.h"

namespace deplodock::dtile {

/// The module attribute allowing tf32 contractions.
constexpr llvm::StringLiteral kTf32AttrName = "dtile.tf32";

/// Whether the module of `op` allows FP32 contractions in tf32.
bool allowsTf32(mlir::Operation *op);

/// Applies a `precision` option to `module`: "" leaves the module's own
/// choice, "ieee" clears the attribute, "tf32" sets it; anything else is an
/// error at the module.
mlir::LogicalResult applyPrecisionOption(mlir::ModuleOp module,
                                         llvm::StringRef precision);

} // namespace deplodock::dtile

#endif // DEPLODOCK_DIALECT_DTILE_TRANSFORMS_PRECISION_H
