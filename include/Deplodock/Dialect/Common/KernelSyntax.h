//===- KernelSyntax.h - Syntax shared by kernel and loop ops ----*- C++ -*-===//
//
// Parsing, printing and verifying of what dloop and dtile share: the
// `ins(...) outs(...)` buffer bindings of a kernel, `iter(...)` bindings of a
// loop, and names that must be C identifiers.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_DIALECT_COMMON_KERNELSYNTAX_H
#define DEPLODOCK_DIALECT_COMMON_KERNELSYNTAX_H

#include "mlir/IR/OpImplementation.h"

namespace deplodock {

/// True when `name` is a C identifier (`[A-Za-z_][A-Za-z0-9_]*`), as kernel
/// and axis names must be: they may become CUDA names.
bool isIdentifier(llvm::StringRef name);

/// Parses an optional `keyword(%arg = %operand : type, ...)`, appending to
/// the three lists; each argument takes its operand's type.
mlir::ParseResult parseBindings(
    mlir::OpAsmParser &parser, llvm::StringRef keyword,
    llvm::SmallVectorImpl<mlir::OpAsmParser::Argument> &args,
    llvm::SmallVectorImpl<mlir::OpAsmParser::UnresolvedOperand> &operands,
    llvm::SmallVectorImpl<mlir::Type> &types);

/// Prints ` keyword(%arg = %operand : type, ...)`, or nothing when there are
/// no operands; the inverse of parseBindings.
void printBindings(mlir::OpAsmPrinter &p, llvm::StringRef keyword,
                   mlir::ValueRange args, mlir::ValueRange operands);

/// Checks the name and buffers of a kernel: a C identifier, at least one
/// output, statically shaped identity-layout memrefs, none passed twice.
mlir::LogicalResult verifyKernelBuffers(mlir::Operation *op,
                                        llvm::StringRef name,
                                        mlir::OperandRange buffers,
                                        unsigned numOutputs);

/// Checks that the kernel body's arguments match its buffers, and that
/// nothing in it writes one of the first `numInputs` (inputs are read-only:
/// fusion and the tuner rely on reading them at any time).
mlir::LogicalResult verifyKernelBody(mlir::Operation *op, mlir::Block &body,
                                     mlir::OperandRange buffers,
                                     unsigned numInputs);

/// Checks what a loop carries: its body takes the induction variable (an
/// index) then one iter arg per init, and the iter args, the results and the
/// values its terminator yields (`yielded`, absent while the terminator is
/// missing) all have the inits' types.
mlir::LogicalResult
verifyLoopCarriedValues(mlir::Operation *op, mlir::Block &body,
                        mlir::OperandRange inits,
                        std::optional<mlir::OperandRange> yielded);

/// Names a kernel's buffer arguments `%in0, %in1, ..., %out0, ...`.
void nameKernelArgs(mlir::Region &region, unsigned numInputs,
                    mlir::OpAsmSetValueNameFn setNameFn);

} // namespace deplodock

#endif // DEPLODOCK_DIALECT_COMMON_KERNELSYNTAX_H
