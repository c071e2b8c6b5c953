//===- KernelSyntax.h - Syntax shared by kernel and loop ops ----*- C++ -*-===//
//
// Parsing, printing and verifying of the pieces of syntax that dloop and
// dtile share: the `ins(...) outs(...)` buffer bindings of a kernel, the
// `iter(...)` arguments of a loop, and axis names.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_DIALECT_COMMON_KERNELSYNTAX_H
#define DEPLODOCK_DIALECT_COMMON_KERNELSYNTAX_H

#include "mlir/IR/OpImplementation.h"

namespace deplodock {

/// Parses `ins(%a = %x : T, ...) outs(%b = %y : U, ...)` into the block
/// arguments `args` (inputs then outputs) and resolves the operands into
/// `result`, recording the operand segment sizes {ins, outs} in `segments`.
mlir::ParseResult
parseKernelBindings(mlir::OpAsmParser &parser, mlir::OperationState &result,
                    llvm::SmallVectorImpl<mlir::OpAsmParser::Argument> &args,
                    int32_t segments[2]);

/// Prints the bindings of `body`'s arguments to `ins` then `outs`.
void printKernelBindings(mlir::OpAsmPrinter &p, mlir::Block &body,
                         mlir::ValueRange ins, mlir::ValueRange outs);

/// Checks the bindings of a kernel named `name`: at least one output, block
/// arguments matching the operands, no buffer passed twice, a name usable as
/// a C identifier.
mlir::LogicalResult verifyKernelBindings(mlir::Operation *op,
                                         llvm::StringRef name,
                                         mlir::Block &body,
                                         mlir::ValueRange ins,
                                         mlir::ValueRange outs);

/// Parses an optional `iter(%acc = %init : T, ...)` into block arguments
/// appended to `args` and resolved init operands appended to `result`; the
/// op's results get the same types.
mlir::ParseResult
parseIterArgs(mlir::OpAsmParser &parser, mlir::OperationState &result,
              llvm::SmallVectorImpl<mlir::OpAsmParser::Argument> &args);

/// Prints ` iter(...)` for `iterArgs` bound to `inits`, or nothing.
void printIterArgs(mlir::OpAsmPrinter &p, mlir::ValueRange iterArgs,
                   mlir::ValueRange inits);

/// Whether `name` is a C identifier: it may become a CUDA name.
bool isIdentifier(llvm::StringRef name);

} // namespace deplodock

#endif // DEPLODOCK_DIALECT_COMMON_KERNELSYNTAX_H
