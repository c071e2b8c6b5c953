//===- DTileKnobs.cpp - The knobs Tile rules may set ------------*- C++ -*-===//

#include "Deplodock/Dialect/DTile/IR/DTileKnobs.h"

#include "llvm/ADT/STLExtras.h"

namespace deplodock::dtile {

static const KnobInfo kKnobs[] = {
    {"BK", KnobKind::Int, "chunk_matmul_k", "K chunk of a matmul loop"},
    {"split_k", KnobKind::Int, "split_matmul_k",
     "blocks sharing one K range (1: no split)"},
    {"threads", KnobKind::Int, "cooperative_reduce",
     "threads cooperating on one reduction row"},
    {"BM", KnobKind::Int, "blockify_launch", "output rows per block"},
    {"BN", KnobKind::Int, "blockify_launch", "output columns per block"},
    {"block_threads", KnobKind::Int, "blockify_launch",
     "threads per block of a pointwise kernel"},
    {"chunk", KnobKind::Int, "chunk_reduce", "chunk of a staged reduction"},
    {"stage", KnobKind::IntList, "stage_inputs",
     "inputs staged in shared memory, by position"},
    {"FM", KnobKind::Int, "register_tile", "rows held per thread"},
    {"FN", KnobKind::Int, "register_tile", "columns held per thread"},
    {"permute", KnobKind::Bool, "permute_register_tile",
     "bank-conflict remap of register-tile columns"},
    {"double_buffer", KnobKind::Bool, "double_buffer",
     "two shared buffers per stage"},
    {"tma", KnobKind::Bool, "tma_copy", "stages travel by TMA"},
    {"swizzle", KnobKind::Int, "split_inner_for_swizzle",
     "widest TMA swizzle in bytes each TMA slab takes (0: none)"},
    {"async_copy", KnobKind::Bool, "async_copy", "stages travel by cp.async"},
    {"pad", KnobKind::Bool, "pad_smem", "pad shared rows against conflicts"},
    {"pipeline", KnobKind::Bool, "pipeline_k_outer",
     "issue the next K chunk before computing this one"},
    {"unroll", KnobKind::Int, "mark_unroll", "unroll factor of inner loops"},
};

llvm::ArrayRef<KnobInfo> getKnobTable() { return kKnobs; }

const KnobInfo *lookupKnob(llvm::StringRef name) {
  const KnobInfo *it = llvm::find_if(
      kKnobs, [&](const KnobInfo &knob) { return knob.name == name; });
  return it == std::end(kKnobs) ? nullptr : it;
}

llvm::StringRef describeKnobKind(KnobKind kind) {
  switch (kind) {
  case KnobKind::Int:
    return "an integer";
  case KnobKind::Bool:
    return "a boolean";
  case KnobKind::IntList:
    return "a list of integers";
  }
  return "";
}

} // namespace deplodock::dtile
