//===- DTileOps.h - Deplodock tile dialect ops ------------------*- C++ -*-===//

#ifndef DEPLODOCK_DIALECT_DTILE_IR_DTILEOPS_H
#define DEPLODOCK_DIALECT_DTILE_IR_DTILEOPS_H

#include "Deplodock/Dialect/Common/AxisInterface.h"
#include "Deplodock/Dialect/Common/DeplodockEnums.h"
#include "Deplodock/Dialect/DTile/IR/DTileDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "Deplodock/Dialect/DTile/IR/DTileEnums.h.inc"

namespace deplodock::dtile {
/// Whether a stage of this transport holds its slab as soon as it ends
/// (copied by the threads themselves), rather than after an async_wait.
inline bool isSynchronous(Transport transport) {
  return transport == Transport::sync || transport == Transport::vector;
}
} // namespace deplodock::dtile

#include "Deplodock/Dialect/DTile/IR/DTileKnobs.h"

#define GET_OP_CLASSES
#include "Deplodock/Dialect/DTile/IR/DTileOps.h.inc"

namespace deplodock::dtile {
/// Whether the origin of `stage` depends on the block coordinate `coord` of
/// `tile`, through an index its map uses.
bool stageOriginDependsOn(StageOp stage, mlir::BlockArgument coord,
                          TileOp tile);
} // namespace deplodock::dtile

#endif // DEPLODOCK_DIALECT_DTILE_IR_DTILEOPS_H
