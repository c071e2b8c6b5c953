//===- Sizes.h - Element counts that cannot overflow ------------*- C++ -*-===//
//
// Static shapes can be as large as the IR cares to write (2^63 - 1 per
// dimension): whoever multiplies extents (the interpreter sizing a buffer,
// the CUDA emitter folding strides) counts them here, with overflow checks.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_DIALECT_COMMON_SIZES_H
#define DEPLODOCK_DIALECT_COMMON_SIZES_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>

namespace deplodock {

/// The number of elements of `shape`, or nullopt when a dimension is
/// negative (dynamic) or the product does not fit in int64_t.
std::optional<int64_t> checkedNumElements(llvm::ArrayRef<int64_t> shape);

} // namespace deplodock

#endif // DEPLODOCK_DIALECT_COMMON_SIZES_H
