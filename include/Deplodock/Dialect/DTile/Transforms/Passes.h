//===- Passes.h - Tile IR passes --------------------------------*- C++ -*-===//

#ifndef DEPLODOCK_DIALECT_DTILE_TRANSFORMS_PASSES_H
#define DEPLODOCK_DIALECT_DTILE_TRANSFORMS_PASSES_H

#include "Deplodock/Dialect/DKernel/IR/DKernelDialect.h"
#include "Deplodock/Dialect/DLoop/IR/DLoopDialect.h"
#include "Deplodock/Dialect/DTile/IR/DTileDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace deplodock::dtile {

#define GEN_PASS_DECL
#include "Deplodock/Dialect/DTile/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Deplodock/Dialect/DTile/Transforms/Passes.h.inc"

} // namespace deplodock::dtile

#endif // DEPLODOCK_DIALECT_DTILE_TRANSFORMS_PASSES_H
