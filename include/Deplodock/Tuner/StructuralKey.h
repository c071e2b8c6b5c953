//===- StructuralKey.h - Keys that name a kernel by its structure -*- C++ -*-//
//
// A tuning result is stored under a structural key: SHA-256 of a canonical
// print of the kernel. The canonical print removes what does not change the
// generated code's behaviour (names, the order of independent loops and of
// commutative operands, which op of a compute-unit cluster runs) and keeps
// everything that does (extents, element types, constants, reductions,
// access indices). Kernels with equal keys are tuned once and share results.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_TUNER_STRUCTURALKEY_H
#define DEPLODOCK_TUNER_STRUCTURALKEY_H

#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h"

#include <string>

namespace deplodock::tuner {

/// The canonical print of a Loop IR kernel, after five canonicalisations:
/// size-1 free loops (and buffer axes) dropped; each perfectly nested chain
/// of free loops sorted by extent; values, buffers (in first-use order) and
/// loops renamed; commutative operands sorted; ops collapsed into clusters
/// (add/sub/mul/neg/fma: `fma`; max/min/compare/select: `cmp`; div/rem:
/// `div`; exp/log/sqrt/rsqrt/tanh/erf/sin/cos/pow: `sfu`). `anyExtent`
/// prints loop extents and buffer sizes as `?`.
std::string canonicalPrint(dloop::KernelOp kernel, bool anyExtent = false);

/// The structural key of a Loop IR kernel: SHA-256 of canonicalPrint, hex.
std::string structuralKey(dloop::KernelOp kernel);

/// The key of the kernel's family: its structure up to extents (SHA-256 of
/// canonicalPrint with anyExtent), so a projection at another sequence
/// length or width is in the same family. The tuner warm-starts a kernel
/// with the winners of its family.
std::string structuralFamilyKey(dloop::KernelOp kernel);

/// The key of an op of a later level (a tile kernel with its knobs, a kernel
/// function): SHA-256 of its generic print with local names, so SSA names
/// and the surrounding module do not matter.
std::string opKey(mlir::Operation *op);

/// SHA-256 of `text` as 64 lower-case hex digits.
std::string sha256Hex(llvm::StringRef text);

} // namespace deplodock::tuner

#endif // DEPLODOCK_TUNER_STRUCTURALKEY_H
