//===- Access.h - Affine indices compiled for interpretation ----*- C++ -*-===//
//
// The index maps of loads, stores, stages and dtensor.index_map are compiled
// once into linear combinations of their operands where they are linear
// (most are), so that running them costs a few multiply-adds instead of a
// walk of the affine expression.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_LIB_INTERPRETER_ACCESS_H
#define DEPLODOCK_LIB_INTERPRETER_ACCESS_H

#include "mlir/IR/AffineMap.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace deplodock::interp {

/// An index computation: per result (memref dimension), a linear
/// combination of the index operands, or an affine expression evaluated with
/// evaluateAffineExpr when it is not linear.
struct Access {
  struct Dim {
    int64_t constant = 0;
    /// (operand position, coefficient)
    llvm::SmallVector<std::pair<unsigned, int64_t>, 2> terms;
    /// Set when the index is not linear in the operands.
    mlir::AffineExpr expr;
  };
  llvm::SmallVector<Dim, 4> dims;
  /// Position in the op's operands of the first index operand, and how many
  /// there are.
  unsigned first = 0, count = 0;
  /// Dimension count of the affine map (symbols follow).
  unsigned numMapDims = 0;
  /// Whether every dimension is linear (no `expr`).
  bool linear = true;
};

/// The access of `map` applied to `count` operands starting at `first`.
Access affineAccess(mlir::AffineMap map, unsigned first, unsigned count);

/// The access of plain indices (memref.load and friends).
Access indexAccess(unsigned first, unsigned count);

/// Index `dim` of an access at the operand values `operands`, or nullopt
/// where an expression divides by a non-positive value. Linear indices wrap
/// on overflow (a bounds check then rejects them).
std::optional<int64_t> evaluateDim(const Access::Dim &dim,
                                   llvm::ArrayRef<int64_t> operands,
                                   unsigned numMapDims);

/// A wrapping multiply-add, for index arithmetic on values a bounds check
/// follows.
inline int64_t wrapMulAdd(int64_t acc, int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(acc) +
                              static_cast<uint64_t>(a) *
                                  static_cast<uint64_t>(b));
}

} // namespace deplodock::interp

#endif // DEPLODOCK_LIB_INTERPRETER_ACCESS_H
