//===- VectorRuns.h - Accesses that make one aligned vector -----*- C++ -*-===//
//
// vector_reads and vector_stores turn runs of scalar accesses into one 64
// or 128-bit access: loads or stores of one buffer in one block, at the
// same outer indices and at innermost indices base, base + 1, ...,
// base + W - 1, where every coefficient of the innermost index and its
// base are multiples of W (so the run is aligned whatever the operands
// hold, given rows that are multiples of W). A term that is not linear in
// the operands (a warpgroup MMA fragment's `(thread floordiv 4) * 8`)
// counts as one more operand with its coefficient.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_VECTORRUNS_H
#define DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_VECTORRUNS_H

#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h"
#include "Deplodock/Dialect/DTile/IR/DTileOps.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace deplodock::dtile {

/// One run: W accesses in innermost-index order.
using VectorRun = llvm::SmallVector<mlir::Operation *, 8>;

/// The runs of `width` elements among the dloop.load (or, with `stores`,
/// non-reducing dloop.store) ops of `kernel` whose buffer `accept` takes.
/// Only ops with no memory effects lie between a run's first and last
/// access (so one access at either end is equivalent); each access is in
/// at most one run.
llvm::SmallVector<VectorRun>
findVectorRuns(KernelOp kernel, bool stores, int64_t width,
               llvm::function_ref<bool(mlir::Value)> accept);

/// The widest run (16, 8, then with `minBytes` 4: 4 bytes) of `element`
/// values, in elements, of at least two whole elements.
llvm::SmallVector<int64_t, 3> vectorWidths(mlir::Type element,
                                           int64_t minBytes = 8);

/// Whether `buffer` is a buffer argument of `kernel` in global memory of
/// static, row-major shape whose rows hold whole runs of `width` elements
/// of a width vectorWidths offers (down to `minBytes`): buffers start
/// 256-byte aligned, so a run at an innermost index whose coefficients and
/// base are multiples of `width` is aligned.
bool isAlignedGlobalBuffer(KernelOp kernel, mlir::Value buffer, int64_t width,
                           int64_t minBytes = 8);

/// Replaces each load run by one dkernel.vector_load at its first load and
/// each store run by one dkernel.vector_store at its last store.
void rewriteVectorRuns(llvm::ArrayRef<VectorRun> runs);

} // namespace deplodock::dtile

#endif // DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_VECTORRUNS_H
