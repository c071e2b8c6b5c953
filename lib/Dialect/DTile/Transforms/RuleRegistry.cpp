//===- RuleRegistry.cpp - The Tile rules in pipeline order ------*- C++ -*-===//
//
// register_tile runs before stage_inputs (the design table has them the
// other way round): stages are then placed once in the already jammed
// per-thread body instead of being replicated and merged across the
// register-tile copies. The set of options is the same either way.
// permute_register_tile follows stage_inputs, so that its conflict
// analysis sees the slab reads it would change, and pad_smem follows it,
// so that pads are chosen for the reads as they end up. tma_copy follows
// async_copy and applies only where async_copy did not: a kernel's stages
// travel by one kind of asynchronous copy or the other, never both.
// split_inner_for_swizzle follows tma_copy: it lays out the TMA slabs.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

using namespace deplodock::dtile;

llvm::ArrayRef<std::unique_ptr<Rule>> deplodock::dtile::getRules() {
  static const auto rules = [] {
    std::vector<std::unique_ptr<Rule>> list;
    list.push_back(createChunkMatmulK());
    list.push_back(createSplitMatmulK());
    list.push_back(createCooperativeReduce());
    list.push_back(createBlockifyLaunch());
    list.push_back(createChunkReduce());
    list.push_back(createRegisterTile());
    list.push_back(createStageInputs());
    list.push_back(createPermuteRegisterTile());
    list.push_back(createPadSmem());
    list.push_back(createDoubleBuffer());
    list.push_back(createAsyncCopy());
    list.push_back(createTmaCopy());
    list.push_back(createSplitInnerForSwizzle());
    list.push_back(createPipelineKOuter());
    list.push_back(createMarkUnroll());
    return list;
  }();
  return rules;
}

const Rule *deplodock::dtile::lookupRule(llvm::StringRef name) {
  for (const std::unique_ptr<Rule> &rule : getRules())
    if (rule->getName() == name)
      return rule.get();
  return nullptr;
}
