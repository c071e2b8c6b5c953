//===- Verify.h - Compare GPU outputs with their reference ------*- C++ -*-===//
//
// The check that runs before any timing counts: every output element of the
// kernels against the reference, with the dtype's tolerance (see Tolerance).
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_RUNTIME_VERIFY_H
#define DEPLODOCK_RUNTIME_VERIFY_H

#include "Deplodock/Runtime/BenchResult.h"

namespace deplodock::runtime {

/// Compares `actual` with `expected`, both buffers of `dtype` of the same
/// size, element by element under `tolerance`; integers and i1 must match
/// exactly whatever the tolerance says.
OutputCheck checkOutput(DType dtype, llvm::ArrayRef<uint8_t> expected,
                        llvm::ArrayRef<uint8_t> actual,
                        const Tolerance &tolerance);

/// One line about a failed check: "buffer NAME: 12 of 4096 elements differ
/// (max abs error 0.5), element 7: expected 1.25 got nan".
std::string describeMismatch(const OutputCheck &check, llvm::StringRef name,
                             int64_t numElements);

} // namespace deplodock::runtime

#endif // DEPLODOCK_RUNTIME_VERIFY_H
