//===- RuleRegistry.cpp - The Tile rules in pipeline order ------*- C++ -*-===//
//
// The order is TileRulePipeline's in Rules.td, which says why.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

using namespace deplodock::dtile;

namespace {
#define GET_RULE_REGISTRY
#include "Deplodock/Dialect/DTile/Transforms/Rules.cpp.inc"
} // namespace

llvm::ArrayRef<std::unique_ptr<Rule>> deplodock::dtile::getRules() {
  static const std::vector<std::unique_ptr<Rule>> rules = createAllRules();
  return rules;
}

const Rule *deplodock::dtile::lookupRule(llvm::StringRef name) {
  for (const std::unique_ptr<Rule> &rule : getRules())
    if (rule->getName() == name)
      return rule.get();
  return nullptr;
}
