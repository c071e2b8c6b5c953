//===- Target.cpp - The GPU a kernel is lowered for -------------*- C++ -*-===//

#include "Deplodock/Dialect/DTile/Transforms/Target.h"

using namespace mlir;
using namespace deplodock::dtile;

FailureOr<Target> Target::get(StringRef name) {
  Target t;
  t.name = name.str();
  if (name == "sm_80") {
    // A100: 164 KB of shared memory per SM, 163 KB per block.
    t.capability = 80;
    t.numSMs = 108;
    t.maxSharedBytes = 166912;
    return t;
  }
  if (name == "sm_90") {
    // H100: 228 KB per SM, 227 KB per block.
    t.capability = 90;
    t.numSMs = 132;
    t.maxSharedBytes = 232448;
    return t;
  }
  return failure();
}
