//===- Interpreter.h - Reference interpreter on the CPU ---------*- C++ -*-===//
//
// Runs a function written in dtensor, dloop (and the upstream arith, math,
// scf, affine, memref and tensor ops they use) on the CPU. Every rewrite of
// the pipeline is checked by running the function before and after it on
// the same inputs.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_INTERPRETER_INTERPRETER_H
#define DEPLODOCK_INTERPRETER_INTERPRETER_H

#include "Deplodock/Interpreter/Buffer.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace deplodock::interp {

/// Runs `func` on `inputs` (one buffer per argument, of the argument's shape
/// and element type; a 0-d buffer for a scalar argument) and returns one
/// buffer per result (0-d for a scalar result). The inputs are not changed,
/// even where the function writes its memref arguments. Fails with a located
/// error on an op it cannot run, an input that does not fit, or an access
/// out of bounds at run time.
mlir::FailureOr<llvm::SmallVector<Buffer>>
runFunction(mlir::func::FuncOp func, llvm::ArrayRef<Buffer> inputs);

/// Seeded inputs for `func`: floats uniform in [-1, 1), integers uniform in
/// [0, 8), i1 fair coin flips. The same seed gives the same inputs on every
/// machine. Fails with a located error on an argument that cannot be
/// interpreted (a dynamic shape).
mlir::FailureOr<llvm::SmallVector<Buffer>> randomInputs(mlir::func::FuncOp func,
                                                        uint64_t seed);

/// How two results of the same function compare.
struct Comparison {
  double maxAbsError = 0;
  double maxRelError = 0;
  /// Index of the worst element, by the tolerance test, and whether all
  /// elements passed.
  int64_t worst = -1;
  bool ok = true;
  /// False when the shapes or element types differ (nothing else is
  /// compared then).
  bool typesMatch = true;
};

/// Compares `actual` with `expected` element by element: an element passes
/// when |a - e| <= atol + rtol * |e|. NaNs must match NaNs and infinities
/// the same infinities.
Comparison compare(const Buffer &expected, const Buffer &actual, double rtol,
                   double atol);

} // namespace deplodock::interp

#endif // DEPLODOCK_INTERPRETER_INTERPRETER_H
