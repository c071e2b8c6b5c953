//===- DLoopOps.h - Deplodock loop dialect ops ------------------*- C++ -*-===//

#ifndef DEPLODOCK_DIALECT_DLOOP_IR_DLOOPOPS_H
#define DEPLODOCK_DIALECT_DLOOP_IR_DLOOPOPS_H

#include "Deplodock/Dialect/Common/AffineBounds.h"
#include "Deplodock/Dialect/Common/AxisInterface.h"
#include "Deplodock/Dialect/Common/DeplodockEnums.h"
#include "Deplodock/Dialect/DLoop/IR/DLoopDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <optional>

#define GET_OP_CLASSES
#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h.inc"

namespace deplodock::dloop {

/// The values `value` (of type `index`) can take, when they are known:
/// the induction variable of a `dloop.for` ranges over [0, extent - 1], an
/// `arith.constant` is one point, and an `affine.apply` of known values is
/// bounded through its map. Anything else returns nullopt.
std::optional<Interval> getIndexRange(mlir::Value value);

/// The values `value` can take where `user` runs: as above, with loop
/// variables narrowed by the conditions of the `scf.if`s around `user`
/// (`arith.cmpi` of a loop variable and a constant, and `arith.andi` of such
/// conditions in a then-region, `arith.ori` in an else-region). This is what
/// lets `scf.if %j < 4 { load %a[%j] } else { load %b[%j - 4] }` verify.
std::optional<Interval> getIndexRange(mlir::Value value, mlir::Operation *user);

/// The exact range of the access index `expr` (over `operands`: dimensions
/// then symbols) where `user` runs, or nullopt when it is not known exactly.
/// Verifiers reject out-of-bounds accesses only on such ranges.
std::optional<Interval> getAccessRange(mlir::AffineExpr expr, unsigned numDims,
                                       mlir::ValueRange operands,
                                       mlir::Operation *user);

} // namespace deplodock::dloop

#endif // DEPLODOCK_DIALECT_DLOOP_IR_DLOOPOPS_H
