//===- Passes.h - Lowerings between Deplodock levels ------------*- C++ -*-===//

#ifndef DEPLODOCK_CONVERSION_PASSES_H
#define DEPLODOCK_CONVERSION_PASSES_H

#include "Deplodock/Dialect/DKernel/IR/DKernelDialect.h"
#include "Deplodock/Dialect/DLoop/IR/DLoopDialect.h"
#include "Deplodock/Dialect/DTensor/IR/DTensorDialect.h"
#include "Deplodock/Dialect/DTile/IR/DTileDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace deplodock {

#define GEN_PASS_DECL
#include "Deplodock/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Deplodock/Conversion/Passes.h.inc"

/// Lowers every `dtile.kernel` in `module` to Kernel IR for the module's
/// `dkernel.target` (set from `target`, else the default, when the module
/// has none; see dkernel::resolveTarget): one `dkernel.func` per kernel at
/// module level,
/// launched by a `dkernel.launch` where the kernel was. What the
/// `convert-dtile-to-dkernel` pass runs; outside a pass it loads the dialects
/// it builds with. On failure every problem is reported as a located error and
/// `module` is left unchanged.
mlir::LogicalResult convertDTileToDKernel(mlir::ModuleOp module,
                                          llvm::StringRef target = "");

} // namespace deplodock

#endif // DEPLODOCK_CONVERSION_PASSES_H
