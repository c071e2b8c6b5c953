//===- Tf32.h - The module attribute that allows tf32 -----------*- C++ -*-===//
//
// The name of the unit attribute by which a module allows its f32
// contractions on tf32 tensor cores (see DTile/Transforms/Precision.h, which
// sets and reads it). The Loop level reads it too: a prologue fuses into an
// f32 contraction only where the contraction stays on the SIMT cores.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_DIALECT_COMMON_TF32_H
#define DEPLODOCK_DIALECT_COMMON_TF32_H

#include "llvm/ADT/StringRef.h"

namespace deplodock {

constexpr llvm::StringLiteral kTf32AttrName = "dtile.tf32";

} // namespace deplodock

#endif // DEPLODOCK_DIALECT_COMMON_TF32_H
