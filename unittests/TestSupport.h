//===- TestSupport.h - Helpers shared by the unit tests ---------*- C++ -*-===//

#ifndef DEPLODOCK_UNITTESTS_TESTSUPPORT_H
#define DEPLODOCK_UNITTESTS_TESTSUPPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

#include <string>

namespace deplodock::test {

/// Verifies `op` and returns the first diagnostic it produced ("" if none).
inline std::string firstVerifyError(mlir::Operation *op) {
  std::string message;
  mlir::ScopedDiagnosticHandler handler(op->getContext(),
                                        [&](mlir::Diagnostic &diag) {
                                          if (message.empty())
                                            message = diag.str();
                                          return mlir::success();
                                        });
  (void)mlir::verify(op);
  return message;
}

/// Parses `source` into a module; fails the current test when it does not
/// parse.
inline mlir::OwningOpRef<mlir::ModuleOp> parseModule(mlir::MLIRContext &context,
                                                     llvm::StringRef source) {
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(source,
                                              mlir::ParserConfig(&context));
  EXPECT_TRUE(module) << source.str();
  return module;
}

} // namespace deplodock::test

#endif // DEPLODOCK_UNITTESTS_TESTSUPPORT_H
