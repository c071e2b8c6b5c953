//===- Passes.h - Loop IR passes --------------------------------*- C++ -*-===//

#ifndef DEPLODOCK_DIALECT_DLOOP_TRANSFORMS_PASSES_H
#define DEPLODOCK_DIALECT_DLOOP_TRANSFORMS_PASSES_H

#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace deplodock::dloop {

#define GEN_PASS_DECL
#include "Deplodock/Dialect/DLoop/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Deplodock/Dialect/DLoop/Transforms/Passes.h.inc"

} // namespace deplodock::dloop

#endif // DEPLODOCK_DIALECT_DLOOP_TRANSFORMS_PASSES_H
