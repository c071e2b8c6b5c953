//===- BufferIO.h - Read and write interpreter buffers ----------*- C++ -*-===//
//
// Two formats: NumPy's .npy (little-endian f32, f64, i32, i64, bool; what
// numpy.save writes and numpy.load reads) for exchanging inputs and outputs
// with other tools, and a text format for reading results:
//
//   result #0: tensor<2x3xf32>
//   0.5 -0.25 1
//   2 3 4
//
// one line per innermost row, values with enough digits to read back exactly.
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

/// Reads a .npy file; `error` says why on failure.
mlir::FailureOr<Buffer> readNpy(llvm::StringRef path,
                                mlir::MLIRContext *context,
                                std::string &error);

/// Writes `buffer` as a .npy file (f32, f64, i1, i32, i64 or index as i64).
mlir::LogicalResult writeNpy(const Buffer &buffer, llvm::StringRef path,
                             std::string &error);

/// Prints `buffer` in the text format, headed `title`.
void printBuffer(const Buffer &buffer, llvm::StringRef title,
                 llvm::raw_ostream &os);

} // namespace deplodock::interp

#endif // DEPLODOCK_INTERPRETER_BUFFERIO_H
