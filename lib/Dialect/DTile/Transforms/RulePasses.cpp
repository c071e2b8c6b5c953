//===- RulePasses.cpp - The Tile rules as passes ----------------*- C++ -*-===//

#include "Deplodock/Dialect/DTile/Transforms/OptionChooser.h"
#include "Deplodock/Dialect/DTile/Transforms/Passes.h"
#include "Deplodock/Dialect/DTile/Transforms/Precision.h"
#include "Deplodock/Dialect/DTile/Transforms/Rules.h"

namespace deplodock::dtile {
#define GEN_PASS_DEF_DTILETILEIFY
#define GEN_PASS_DEF_DTILELOWER
// One GEN_PASS_DEF_<RULE> per rule of Rules.td, before the definitions.
#define GET_RULE_PASS_DEFS
#include "Deplodock/Dialect/DTile/Transforms/Rules.cpp.inc"

#include "Deplodock/Dialect/DTile/Transforms/Passes.h.inc"
} // namespace deplodock::dtile

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

namespace {

/// The knobs of a `knobs=` option; fails with an error at `module`.
FailureOr<llvm::StringMap<KnobsAttr>> parseKnobs(ModuleOp module,
                                                 StringRef text) {
  llvm::Expected<llvm::StringMap<KnobsAttr>> parsed =
      parseKnobsOption(module.getContext(), text);
  if (!parsed)
    return module.emitError("bad knobs option '")
           << text << "': " << llvm::toString(parsed.takeError());
  return std::move(*parsed);
}

/// Runs the rule called `name` on every tile kernel of `module`.
LogicalResult runRulePass(ModuleOp module, StringRef name, StringRef target,
                          StringRef knobs, bool listForks) {
  FailureOr<TargetAttr> resolved = dkernel::resolveTarget(module, target);
  if (failed(resolved))
    return failure();
  FailureOr<llvm::StringMap<KnobsAttr>> requested = parseKnobs(module, knobs);
  if (failed(requested))
    return failure();
  std::unique_ptr<OptionChooser> heuristic = createHeuristicChooser();
  std::unique_ptr<OptionChooser> chooser = createFixedKnobsChooser(
      std::move(*requested), *heuristic, /*requireTaken=*/false);
  if (failed(chooser->beginModule(module, *resolved, {})))
    return failure();
  SmallVector<KernelOp> kernels;
  module.walk([&](KernelOp kernel) { kernels.push_back(kernel); });
  const Rule &rule = *lookupRule(name);
  for (auto [index, kernel] : llvm::enumerate(kernels))
    if (failed(chooser->beginKernel(kernel, index)) ||
        failed(runRule(rule, kernel, *resolved, *chooser, listForks)))
      return failure();
  return success();
}

struct TileifyPass final
    : deplodock::dtile::impl::DTileTileifyBase<TileifyPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<dloop::KernelOp> loops;
    getOperation().walk(
        [&](dloop::KernelOp kernel) { loops.push_back(kernel); });
    for (dloop::KernelOp kernel : loops)
      if (failed(tileify(kernel)))
        return signalPassFailure();
  }
};

#define GET_RULE_PASSES
#include "Deplodock/Dialect/DTile/Transforms/Rules.cpp.inc"

struct LowerPass final : deplodock::dtile::impl::DTileLowerBase<LowerPass> {
  using Base::Base;
  LowerPass(const DTileLowerOptions &options,
            std::shared_ptr<OptionChooser> chooser)
      : Base(options), chooser(std::move(chooser)) {}

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<TargetAttr> target = dkernel::resolveTarget(module, this->target);
    if (failed(target) || failed(applyPrecisionOption(module, precision)))
      return signalPassFailure();
    FailureOr<llvm::StringMap<KnobsAttr>> requested = parseKnobs(module, knobs);
    if (failed(requested))
      return signalPassFailure();
    if (simplest && chooser) {
      module.emitError("simplest and ")
          << chooser->getName() << " choose the same forks: pass one of them";
      return signalPassFailure();
    }
    std::shared_ptr<OptionChooser> fallback = chooser;
    if (!fallback)
      fallback = simplest ? createSimplestChooser() : createHeuristicChooser();
    std::unique_ptr<OptionChooser> fixed = createFixedKnobsChooser(
        std::move(*requested), *fallback, /*requireTaken=*/true);
    if (failed(lowerToTile(module, *target, *fixed, listForks)))
      signalPassFailure();
  }

  /// Takes `other` as the chooser, unless the pass has one or `simplest`.
  LogicalResult adopt(std::shared_ptr<OptionChooser> other) {
    if (chooser || simplest)
      return failure();
    chooser = std::move(other);
    return success();
  }

private:
  /// Who decides the forks `knobs` leaves open; null: the heuristic.
  std::shared_ptr<OptionChooser> chooser;
};

} // namespace

LogicalResult
dtile::setDTileLowerChooser(Pass &pass,
                            std::shared_ptr<OptionChooser> chooser) {
  if (pass.getTypeID() != TypeID::get<LowerPass>())
    return failure();
  return static_cast<LowerPass &>(pass).adopt(std::move(chooser));
}

std::unique_ptr<Pass>
dtile::createDTileLowerPass(const DTileLowerOptions &options,
                            std::shared_ptr<OptionChooser> chooser) {
  return std::make_unique<LowerPass>(options, std::move(chooser));
}
