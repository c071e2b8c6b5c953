//===- Target.h - The GPU a module targets ----------------------*- C++ -*-===//
//
// `#dkernel.target` and the module attribute that carries it. A pass that
// needs the target calls resolveTarget once with its `target` option: the
// module's attribute wins; a module without one takes the target the option
// names, and records it, or the default target (sm_90); an option
// contradicting the module's attribute is an error. Everything below the
// pass reads the attribute.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_DIALECT_DKERNEL_IR_TARGET_H
#define DEPLODOCK_DIALECT_DKERNEL_IR_TARGET_H

#include "Deplodock/Dialect/Common/GpuTarget.h"
#include "Deplodock/Dialect/DKernel/IR/DKernelDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"

#define GET_ATTRDEF_CLASSES
#include "Deplodock/Dialect/DKernel/IR/DKernelAttrs.h.inc"

namespace deplodock::dkernel {

/// The module attribute naming the target.
constexpr llvm::StringLiteral kTargetAttrName = "dkernel.target";

/// The target of the closest module around (or at) `op` that names one, or
/// null.
TargetAttr getTarget(mlir::Operation *op);

/// getTarget, else the default target (kDefaultGpuTarget).
TargetAttr getTargetOrDefault(mlir::Operation *op);

/// The target of `module` for a pass whose `target` option is `option`
/// ("" when not given): the module's attribute, else the known target
/// `option` names, which is then set on the module, else the default.
/// Fails with an error at `module` for an unknown name or an option that
/// contradicts the module's attribute.
mlir::FailureOr<TargetAttr> resolveTarget(mlir::ModuleOp module,
                                          llvm::StringRef option);

} // namespace deplodock::dkernel

#endif // DEPLODOCK_DIALECT_DKERNEL_IR_TARGET_H
