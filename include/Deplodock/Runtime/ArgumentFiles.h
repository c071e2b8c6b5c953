//===- ArgumentFiles.h - A function's arguments from .npy files -*- C++ -*-===//
//
// The one way every tool that runs a layer reads its arguments from .npy
// files (deplodock-run --interp and --bench, and so the benchmark harness's
// dry run and its GPU run): the file must hold the argument's shape and
// element type, or a stand-in NumPy has for a type it lacks:
//
//   argument    .npy
//   bf16        uint16 or int16 (the bits), or float32 (rounded to bf16:
//               exact for values bf16 holds)
//   index       int64
//   f16, f32, f64, i1, i8, i16, i32, i64
//               float16, float32, float64, bool, int8, int16, int32, int64
//
// A scalar argument is a 0-d array.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_RUNTIME_ARGUMENTFILES_H
#define DEPLODOCK_RUNTIME_ARGUMENTFILES_H

#include "Deplodock/Interpreter/Buffer.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/Error.h"

#include <string>

namespace deplodock::runtime {

/// Reads argument #`index` of `func` (a tensor or memref, or a scalar from
/// a 0-d array) from `path`, in the element type of the argument. Fails saying
/// why: the file cannot be read, or holds another shape or an element type the
/// table above does not allow for the argument (the message says which it
/// allows).
llvm::Expected<interp::Buffer>
readArgumentFile(mlir::func::FuncOp func, unsigned index, llvm::StringRef path);

/// Reads every argument of `func`, one file each, in order; fails when the
/// count differs.
llvm::Expected<llvm::SmallVector<interp::Buffer>>
readArgumentFiles(mlir::func::FuncOp func, llvm::ArrayRef<std::string> paths);

} // namespace deplodock::runtime

#endif // DEPLODOCK_RUNTIME_ARGUMENTFILES_H
