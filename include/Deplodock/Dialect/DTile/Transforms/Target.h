//===- Target.h - The GPU a kernel is lowered for ---------------*- C++ -*-===//
//
// The limits that decide which Tile-rule options are legal. Options are
// filtered against them while they are enumerated, so no illegal variant is
// ever produced.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_DIALECT_DTILE_TRANSFORMS_TARGET_H
#define DEPLODOCK_DIALECT_DTILE_TRANSFORMS_TARGET_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace deplodock::dtile {

/// A GPU architecture the Tile rules lower for.
struct Target {
  /// `sm_80` or `sm_90`.
  std::string name;
  /// Compute capability times 10 (80, 90).
  int capability = 80;
  /// Streaming multiprocessors of the reference part (A100, H100): used by
  /// heuristics for wave counts, never for legality.
  int numSMs = 108;
  /// Most dynamic shared memory one block may use, in bytes.
  int64_t maxSharedBytes = 166912;
  /// Most threads per block.
  int64_t maxThreads = 1024;
  /// Registers per thread the compiler may use.
  int64_t maxRegistersPerThread = 255;
  /// 32-bit registers per multiprocessor.
  int64_t registersPerSM = 65536;
  /// Threads of a warp.
  int64_t warpSize = 32;

  bool hasAsyncCopy() const { return capability >= 80; }
  bool hasTma() const { return capability >= 90; }

  /// The target called `name` (`sm_80`, `sm_90`), or failure.
  static mlir::FailureOr<Target> get(llvm::StringRef name);
};

} // namespace deplodock::dtile

#endif // DEPLODOCK_DIALECT_DTILE_TRANSFORMS_TARGET_H
