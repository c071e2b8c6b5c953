//===- AttentionMmaMatch.h - Attention kernels mma.sync can run -*- C++ -*-===//
//
// The matcher half of attention_mma: which online-softmax kernels of
// dloop-fuse-attention mma.sync can run, and their q, k, v loads, key loop
// and score code, for AttentionMma.cpp to rebuild.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_ATTENTIONMMAMATCH_H
#define DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_ATTENTIONMMAMATCH_H

#include "MmaFragments.h"

#include "Deplodock/Dialect/DKernel/IR/Target.h"
#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h"
#include "Deplodock/Dialect/DTile/IR/DTileOps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/Support/Error.h"

namespace deplodock::dtile::attention_mma {

using mlir::Operation;
using mlir::SmallVector;
using mlir::Type;
using mlir::Value;
namespace memref = mlir::memref;

/// The m16n8k16 shape of one mma.sync.
constexpr int64_t kTileM = kMmaTileM, kTileN = kMmaTileN, kTileK = 16;

/// What a dimension of a staged operand walks.
enum class Role { Rows, Keys, Head, Fixed };

/// One of q, k, v: its load, and per dimension what it walks (the others
/// are fixed within a block: constants and the batch block axes).
struct Operand {
  dloop::LoadOp load;
  SmallVector<Role> roles;
  /// Whether the head dimension is the innermost one.
  bool headInner = false;
};

/// An online-softmax kernel mma.sync can run.
struct MmaAttention {
  TileOp tile;
  dloop::ForOp keys, scores, update, epilogue;
  unsigned maxIndex = 0, sumIndex = 1;
  Operand q, k, v;
  /// The score the running maximum folds, and the ops (in the key loop's
  /// body, in order) it is computed by from the q.k sum.
  Value score;
  SmallVector<Operation *> scoreOps;
  memref::AllocaOp acc;
  Type element;
  int64_t queries = 0, keyCount = 0, head = 0;

  /// The shape of `op`'s slab: `rows` queries or `keys` keys, the whole
  /// head, one along the fixed dimensions.
  SmallVector<int64_t> slabShape(const Operand &op, int64_t rows,
                                 int64_t keys) const {
    SmallVector<int64_t> shape;
    for (Role role : op.roles)
      shape.push_back(role == Role::Rows   ? rows
                      : role == Role::Keys ? keys
                      : role == Role::Head ? head
                                           : 1);
    return shape;
  }
};

/// The kernel's online softmax if mma.sync can run it, else why not.
llvm::Expected<MmaAttention> matchMmaAttention(KernelOp kernel,
                                               dkernel::TargetAttr target);

} // namespace deplodock::dtile::attention_mma

#endif // DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_ATTENTIONMMAMATCH_H
