//===- Transforms.h - Loop IR rewrites as functions -------------*- C++ -*-===//
//
// The mechanisms behind the dloop passes, callable on one kernel, so the
// passes, the tuner and tests share them.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_DIALECT_DLOOP_TRANSFORMS_TRANSFORMS_H
#define DEPLODOCK_DIALECT_DLOOP_TRANSFORMS_TRANSFORMS_H

#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h"
#include "mlir/IR/PatternMatch.h"

namespace deplodock::dloop {

/// How much a kernel computes and reads: arith/math ops and loads, each
/// counted once per iteration of the loops around it. Casts (extf, truncf,
/// ...) are not work: they re-encode a value, and counting them would make
/// a half-precision kernel look heavier than the same one in f32.
struct KernelCost {
  double work = 0;
  double reads = 0;
};

/// Measures `kernel`.
KernelCost measureKernel(KernelOp kernel);

/// Hoists loop invariants out of every dloop.for of `kernel`, innermost
/// loops first; returns how many ops moved.
size_t hoistLoopInvariants(KernelOp kernel);

/// Replaces the loads of input buffer `buffer` in `consumer` by the
/// computation `producer` stores into it, then hoists invariants. Fails
/// (changing nothing) when the producer's store is not a plain store of one
/// element per iteration of its free loops, when the stored value reads
/// anything but the producer's inputs (or stores), or when the consumer
/// writes one of those inputs. Whether the inputs still hold what the
/// producer read when the consumer runs is the caller's concern.
mlir::LogicalResult fuseProducerInto(KernelOp producer, mlir::Value buffer,
                                     KernelOp consumer);

/// Rewrites a softmax and the sums of its exponentials inside `kernel` (the
/// softmax denominator and a probabilities-times-values contraction) into
/// one loop over the keys by online softmax (see dloop-fuse-attention).
/// Fails, changing nothing, when the kernel holds no such chain or the
/// rewrite is not provably legal; with `remarks`, a chain that reached a
/// contraction but is left alone says why in a remark.
mlir::LogicalResult fuseOnlineSoftmax(KernelOp kernel, bool remarks);

/// Whether the buffers `producer` reads keep their contents until `reader`
/// runs, so that `reader` may read them in the producer's stead: the
/// producer comes first in the same block, and neither `reader` nor any op
/// between them may write or free one of the buffers (or a view of it).
bool inputsStableUntil(KernelOp producer, KernelOp reader);

/// Whether `op` (with everything nested in it) only computes: scalar code,
/// loops and ifs, and loads of the kernel's inputs, which it never writes.
bool isReadOnlyComputation(mlir::Operation *op, KernelOp kernel);

/// Replaces read-only computations (isReadOnlyComputation) that repeat an
/// equal one earlier in the same block, loops included; returns how many.
size_t dedupeComputations(KernelOp kernel);

/// Renames the loops of `kernel` `d0, d1, ...` (free) and `r0, r1, ...`
/// (reduce) in pre-order, so names stay unique after fusion.
void renameAxes(KernelOp kernel);

/// Adds `buffer` as an input of `kernel` (if it is not one) and returns the
/// body argument bound to it.
mlir::BlockArgument addInput(KernelOp kernel, mlir::Value buffer);

/// Removes input buffers whose body arguments are unused.
void dropUnusedInputs(KernelOp kernel);

} // namespace deplodock::dloop

#endif // DEPLODOCK_DIALECT_DLOOP_TRANSFORMS_TRANSFORMS_H
