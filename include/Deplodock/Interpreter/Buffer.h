//===- Buffer.h - Values of the reference interpreter -----------*- C++ -*-===//
//
// A buffer holds the elements of a tensor or memref, row-major, each as a
// double rounded to the element type after every operation. Doubles hold
// every f32, f16, bf16 and integer up to 2^53 exactly, so one representation
// serves every type the pipeline computes with.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_INTERPRETER_BUFFER_H
#define DEPLODOCK_INTERPRETER_BUFFER_H

#include "mlir/IR/Types.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace deplodock::interp {

/// The elements of one tensor or memref.
struct Buffer {
  Buffer() = default;
  Buffer(llvm::ArrayRef<int64_t> shape, mlir::Type elementType)
      : shape(shape), elementType(elementType),
        data(static_cast<size_t>(numElements(shape)), 0.0) {}

  /// Number of elements of a buffer of `shape`.
  static int64_t numElements(llvm::ArrayRef<int64_t> shape) {
    int64_t n = 1;
    for (int64_t s : shape)
      n *= s;
    return n;
  }
  int64_t size() const { return static_cast<int64_t>(data.size()); }

  llvm::SmallVector<int64_t, 4> shape;
  mlir::Type elementType;
  std::vector<double> data;
};

/// Rounds `v` to a value of `type`, as the hardware would store it: floats to
/// their precision, integers truncated towards zero, wrapped to their width
/// and sign extended (i8 200 is -56), except i1, which is 0 or 1.
double roundTo(mlir::Type type, double v);

/// Whether buffers and scalars of `type` can be interpreted: floats,
/// integers up to 64 bits, index.
bool isSupportedElementType(mlir::Type type);

} // namespace deplodock::interp

#endif // DEPLODOCK_INTERPRETER_BUFFER_H
