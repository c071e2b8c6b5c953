//===- ErrorSupport.h - llvm::Expected in the tuner's tests ----*- C++ -*-===//
//
// The tuner's libraries return llvm::Expected / llvm::Error. The tests assert
// on a FailureOr and print the message on failure, so `check` adapts one to
// the other: the value, or failure() with the message in `error`.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_UNITTESTS_TUNER_ERRORSUPPORT_H
#define DEPLODOCK_UNITTESTS_TUNER_ERRORSUPPORT_H

#include "mlir/Support/LLVM.h"
#include "llvm/Support/Error.h"

#include <string>

namespace deplodock::tuner::testing {

template <typename T>
mlir::FailureOr<T> check(llvm::Expected<T> value, std::string &error) {
  if (!value) {
    error = llvm::toString(value.takeError());
    return mlir::failure();
  }
  return std::move(*value);
}

inline mlir::LogicalResult check(llvm::Error value, std::string &error) {
  if (value) {
    error = llvm::toString(std::move(value));
    return mlir::failure();
  }
  return mlir::success();
}

} // namespace deplodock::tuner::testing

#endif // DEPLODOCK_UNITTESTS_TUNER_ERRORSUPPORT_H
