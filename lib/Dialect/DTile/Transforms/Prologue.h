//===- Prologue.h - Computed contraction operands ---------------*- C++ -*-===//
//
// A prologue is what a Loop kernel computes from its inputs before a
// contraction reads it (silu(gate) * up feeding the down projection, after
// dloop-fuse's prologue fusion): stage_inputs, mma_sync and wgmma_async
// stage it as a computed slab (a dtile.stage with an apply region), so it
// runs once per staged element.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_PROLOGUE_H
#define DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_PROLOGUE_H

#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h"
#include "Deplodock/Dialect/DTile/IR/DTileOps.h"

#include <optional>

namespace deplodock::dtile {

/// A pointwise prologue of a read: `root` computed by `ops` (in order) from
/// constants and the loads `loads`, all of kernel inputs at one index, one
/// load per buffer (in input order), nothing else reading what they make.
struct Prologue {
  mlir::Operation *root = nullptr;
  llvm::SmallVector<mlir::Operation *> ops;
  llvm::SmallVector<dloop::LoadOp> loads;

  /// The buffers its computed stage reads besides its source (the first
  /// load's): the stage's `apply` buffers.
  llvm::SmallVector<mlir::Value> getApplyInputs() const;
};

/// The prologue `root` computes, if it is one: arith/math ops of one block
/// from constants and loads of `kernel`'s inputs at one index (not a
/// conversion alone), none of whose values anything but the prologue reads.
std::optional<Prologue> matchPrologue(mlir::Operation *root, KernelOp kernel);

/// Whether `a` and `b` compute the same from the same buffers (loads
/// compared by buffer: the index is the prologue's).
bool sameComputation(mlir::Value a, mlir::Value b);

/// The load a matmul factor reads (past an extf), or the first load of the
/// prologue that computes it, which `prologue` then holds; null for
/// anything else.
dloop::LoadOp readFactor(mlir::Value factor, KernelOp kernel,
                         std::optional<Prologue> &prologue);

/// Gives computed `stage` the apply region of prologue `p`: its ops, the
/// loads' values as the block's arguments (source first) and the constants
/// it uses cloned in.
void buildApplyRegion(StageOp stage, const Prologue &p);

} // namespace deplodock::dtile

#endif // DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_PROLOGUE_H
