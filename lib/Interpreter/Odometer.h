//===- Odometer.h - Walks of the elements of a shape ------------*- C++ -*-===//

#ifndef DEPLODOCK_LIB_INTERPRETER_ODOMETER_H
#define DEPLODOCK_LIB_INTERPRETER_ODOMETER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>

namespace deplodock::interp {

using llvm::ArrayRef;
using llvm::SmallVector;

/// The row-major coordinates of the elements of a shape, from a start
/// element on, with an offset that moves by strides[d] along axis d.
class Odometer {
public:
  /// `strides` empty: no offset.
  Odometer(ArrayRef<int64_t> shape, ArrayRef<int64_t> strides, int64_t start,
           int64_t base = 0)
      : shape(shape), strides(strides), coords(shape.size(), 0), offset(base) {
    for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
      coords[d] = start % shape[d];
      start /= shape[d];
      if (!strides.empty())
        offset += coords[d] * strides[d];
    }
  }

  void next() {
    for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
      bool wraps = ++coords[d] == shape[d];
      if (!strides.empty())
        offset += wraps ? -(shape[d] - 1) * strides[d] : strides[d];
      if (!wraps)
        return;
      coords[d] = 0;
    }
  }

  /// Elements left in the current innermost row, and the offset's step
  /// along it.
  int64_t rowLeft() const {
    return shape.empty() ? 1 : shape.back() - coords.back();
  }
  int64_t rowStride() const {
    return shape.empty() || strides.empty() ? 0 : strides.back();
  }
  /// Moves `n` (at most rowLeft()) elements on.
  void skip(int64_t n) {
    if (shape.empty() || n == 0)
      return;
    if (n < rowLeft()) {
      coords.back() += n;
      offset += n * rowStride();
      return;
    }
    // To the last element of the row, then across its end.
    offset += (rowLeft() - 1) * rowStride();
    coords.back() = shape.back() - 1;
    next();
  }

  ArrayRef<int64_t> shape, strides;
  SmallVector<int64_t, 6> coords;
  int64_t offset;
};

/// Row-major strides of `shape`.
inline SmallVector<int64_t, 4> rowMajorStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t, 4> strides(shape.size(), 1);
  for (int d = static_cast<int>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

} // namespace deplodock::interp

#endif // DEPLODOCK_LIB_INTERPRETER_ODOMETER_H
