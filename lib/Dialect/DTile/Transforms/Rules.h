//===- Rules.h - Constructors of the Tile rules -----------------*- C++ -*-===//

#ifndef DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_RULES_H
#define DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_RULES_H

#include "Deplodock/Dialect/DTile/Transforms/Rules.h"

namespace deplodock::dtile {

std::unique_ptr<Rule> createChunkMatmulK();
std::unique_ptr<Rule> createSplitMatmulK();
std::unique_ptr<Rule> createCooperativeReduce();
std::unique_ptr<Rule> createBlockifyLaunch();
std::unique_ptr<Rule> createChunkReduce();
std::unique_ptr<Rule> createRegisterTile();
std::unique_ptr<Rule> createStageInputs();
std::unique_ptr<Rule> createPermuteRegisterTile();
std::unique_ptr<Rule> createPadSmem();
std::unique_ptr<Rule> createDoubleBuffer();
std::unique_ptr<Rule> createAsyncCopy();
std::unique_ptr<Rule> createTmaCopy();
std::unique_ptr<Rule> createSplitInnerForSwizzle();
std::unique_ptr<Rule> createPipelineKOuter();
std::unique_ptr<Rule> createMarkUnroll();

} // namespace deplodock::dtile

#endif // DEPLODOCK_LIB_DIALECT_DTILE_TRANSFORMS_RULES_H
