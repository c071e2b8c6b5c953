//===- InitAllDialects.h - Register every Deplodock dialect -----*- C++ -*-===//
//
// Entry points for tools that embed Deplodock: register our dialects (and the
// upstream dialects their ops build on) into a registry.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_INITALLDIALECTS_H
#define DEPLODOCK_INITALLDIALECTS_H

namespace mlir {
class DialectRegistry;
class MLIRContext;
} // namespace mlir

namespace deplodock {

/// Adds dtensor, dloop, dtile and dkernel to `registry`.
void registerDeplodockDialects(mlir::DialectRegistry &registry);

/// Adds the upstream dialects Deplodock's tools read and write besides our
/// own: func, arith, math, scf, cf, memref, tensor, linalg, tosa, gpu,
/// affine.
void registerDeplodockInputDialects(mlir::DialectRegistry &registry);

/// Registers both sets with `context` and loads them (and their
/// extensions), as a tool that parses any Deplodock input needs.
void loadDeplodockDialects(mlir::MLIRContext &context);

} // namespace deplodock

#endif // DEPLODOCK_INITALLDIALECTS_H
