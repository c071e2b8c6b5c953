//===- BufferIO.h - Read and write interpreter buffers ----------*- C++ -*-===//
//
// Two formats: NumPy's .npy (little-endian f16, f32, f64, bool, i8, i16,
// u16, i32, i64; what numpy.save writes and numpy.load reads) for exchanging
// inputs and outputs with other tools, and a text format for reading
// results:
//
//   result #0: tensor<2x3xf32>
//   0.5 -0.25 1
//   2 3 4
//
// one line per innermost row, integers exactly and floats with enough digits
// to read back exactly.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_INTERPRETER_BUFFERIO_H
#define DEPLODOCK_INTERPRETER_BUFFERIO_H

#include "Deplodock/Interpreter/Buffer.h"
#include "mlir/IR/MLIRContext.h"

#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace deplodock::interp {

/// Reads a .npy file (versions 1 to 3, C order); `error` says why on
/// failure.
mlir::FailureOr<Buffer> readNpy(llvm::StringRef path,
                                mlir::MLIRContext *context, std::string &error);

/// Adapts a buffer read from .npy to the element type `expected` where
/// NumPy has no such type: int64 becomes index, and uint16 or int16 (the
/// bits) or float32 (rounded) becomes bf16. Leaves other buffers as they
/// are, for the caller to report a mismatch.
void adaptElementType(Buffer &buffer, mlir::Type expected);

/// Writes `buffer` as a .npy file (version 1): f16, f32, f64, i1 as bool,
/// i8, i16, i32, i64, index as i64, and bf16 as f32 (exactly).
mlir::LogicalResult writeNpy(const Buffer &buffer, llvm::StringRef path,
                             std::string &error);

/// Prints `buffer` in the text format, headed `title`.
void printBuffer(const Buffer &buffer, llvm::StringRef title,
                 llvm::raw_ostream &os);

} // namespace deplodock::interp

#endif // DEPLODOCK_INTERPRETER_BUFFERIO_H
