//===- RulePasses.cpp - The Tile rules as passes ----------------*- C++ -*-===//

#include "Deplodock/Dialect/DTile/Transforms/Passes.h"
#include "Deplodock/Dialect/DTile/Transforms/Rules.h"
#include "Deplodock/Tuner/KnobsJson.h"
#include "Deplodock/Tuner/Replay.h"
#include "Deplodock/Tuner/StructuralKey.h"

#include "llvm/ADT/StringSet.h"

namespace deplodock::dtile {
#define GEN_PASS_DEF_DTILETILEIFY
#define GEN_PASS_DEF_DTILECHUNKMATMULK
#define GEN_PASS_DEF_DTILESPLITMATMULK
#define GEN_PASS_DEF_DTILECOOPERATIVEREDUCE
#define GEN_PASS_DEF_DTILEBLOCKIFYLAUNCH
#define GEN_PASS_DEF_DTILECHUNKREDUCE
#define GEN_PASS_DEF_DTILEREGISTERTILE
#define GEN_PASS_DEF_DTILESTAGEINPUTS
#define GEN_PASS_DEF_DTILEPERMUTEREGISTERTILE
#define GEN_PASS_DEF_DTILEPADSMEM
#define GEN_PASS_DEF_DTILEDOUBLEBUFFER
#define GEN_PASS_DEF_DTILEASYNCCOPY
#define GEN_PASS_DEF_DTILETMACOPY
#define GEN_PASS_DEF_DTILESPLITINNERFORSWIZZLE
#define GEN_PASS_DEF_DTILEPIPELINEKOUTER
#define GEN_PASS_DEF_DTILEMARKUNROLL
#define GEN_PASS_DEF_DTILELOWER
#include "Deplodock/Dialect/DTile/Transforms/Passes.h.inc"
} // namespace deplodock::dtile

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

namespace {

/// The target and per-kernel knobs a rule pass was given.
struct RuleOptions {
  Target target;
  llvm::StringMap<KnobsAttr> knobs;

  /// The knobs requested for `kernel`: those for every kernel, overridden by
  /// those naming it.
  KnobsAttr requestedFor(KernelOp kernel) const {
    KnobsAttr all = knobs.lookup(""), own = knobs.lookup(kernel.getSymName());
    if (all && own)
      return all.merge(own);
    return all ? all : own;
  }
};

/// Parses the shared options; fails with an error at `module`.
FailureOr<RuleOptions> parseOptions(ModuleOp module, StringRef target,
                                    StringRef knobs) {
  FailureOr<Target> t = Target::get(target);
  if (failed(t))
    return module.emitError("unknown target '")
           << target << "'; expected sm_80 or sm_90";
  std::string error;
  FailureOr<llvm::StringMap<KnobsAttr>> parsed =
      parseKnobsOption(module.getContext(), knobs, error);
  if (failed(parsed))
    return module.emitError("bad knobs option '") << knobs << "': " << error;
  return RuleOptions{*t, std::move(*parsed)};
}

/// Fails with an error at `module` when the knobs name a kernel that
/// `kernels` lacks (a misspelt name would otherwise change nothing).
LogicalResult checkKernelNames(ModuleOp module, const RuleOptions &options,
                               ArrayRef<KernelOp> kernels) {
  SmallVector<StringRef> names;
  for (const auto &entry : options.knobs)
    if (!entry.getKey().empty())
      names.push_back(entry.getKey());
  llvm::sort(names);
  for (StringRef name : names)
    if (llvm::none_of(kernels, [&](KernelOp kernel) {
          return kernel.getSymName() == name;
        }))
      return module.emitError("no kernel @")
             << name << " to take knobs "
             << formatKnobsOption("", options.knobs.lookup(name));
  return success();
}

/// Runs the rule called `name` on every tile kernel of `module`.
LogicalResult runRuleOnModule(ModuleOp module, StringRef name, StringRef target,
                              StringRef knobs, bool listForks) {
  FailureOr<RuleOptions> options = parseOptions(module, target, knobs);
  if (failed(options))
    return failure();
  const Rule *rule = lookupRule(name);
  SmallVector<KernelOp> kernels;
  module.walk([&](KernelOp kernel) { kernels.push_back(kernel); });
  if (failed(checkKernelNames(module, *options, kernels)))
    return failure();
  for (KernelOp kernel : kernels)
    if (failed(runRule(*rule, kernel, options->target,
                       options->requestedFor(kernel), listForks)))
      return failure();
  return success();
}

/// Tileifies every dloop.kernel of `module`; returns the new kernels.
FailureOr<SmallVector<KernelOp>> tileifyAll(ModuleOp module) {
  SmallVector<dloop::KernelOp> loops;
  module.walk([&](dloop::KernelOp kernel) { loops.push_back(kernel); });
  SmallVector<KernelOp> kernels;
  for (dloop::KernelOp kernel : loops) {
    FailureOr<KernelOp> tiled = tileify(kernel);
    if (failed(tiled))
      return failure();
    kernels.push_back(*tiled);
  }
  return kernels;
}

struct TileifyPass final
    : deplodock::dtile::impl::DTileTileifyBase<TileifyPass> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(tileifyAll(getOperation())))
      signalPassFailure();
  }
};

#define DEFINE_RULE_PASS(Name, RuleName)                                       \
  struct Name##Pass final                                                      \
      : deplodock::dtile::impl::DTile##Name##Base<Name##Pass> {                \
    using Base::Base;                                                          \
    void runOnOperation() override {                                           \
      if (failed(runRuleOnModule(getOperation(), RuleName, target, knobs,      \
                                 listForks)))                                  \
        signalPassFailure();                                                   \
    }                                                                          \
  };

DEFINE_RULE_PASS(ChunkMatmulK, "chunk_matmul_k")
DEFINE_RULE_PASS(SplitMatmulK, "split_matmul_k")
DEFINE_RULE_PASS(CooperativeReduce, "cooperative_reduce")
DEFINE_RULE_PASS(BlockifyLaunch, "blockify_launch")
DEFINE_RULE_PASS(ChunkReduce, "chunk_reduce")
DEFINE_RULE_PASS(RegisterTile, "register_tile")
DEFINE_RULE_PASS(StageInputs, "stage_inputs")
DEFINE_RULE_PASS(PermuteRegisterTile, "permute_register_tile")
DEFINE_RULE_PASS(PadSmem, "pad_smem")
DEFINE_RULE_PASS(DoubleBuffer, "double_buffer")
DEFINE_RULE_PASS(AsyncCopy, "async_copy")
DEFINE_RULE_PASS(TmaCopy, "tma_copy")
DEFINE_RULE_PASS(SplitInnerForSwizzle, "split_inner_for_swizzle")
DEFINE_RULE_PASS(PipelineKOuter, "pipeline_k_outer")
DEFINE_RULE_PASS(MarkUnroll, "mark_unroll")

#undef DEFINE_RULE_PASS

struct LowerPass final : deplodock::dtile::impl::DTileLowerBase<LowerPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<RuleOptions> options = parseOptions(module, target, knobs);
    if (failed(options))
      return signalPassFailure();
    if (simplest && !tuneDb.empty()) {
      module.emitError("simplest and tune-db choose the same forks: pass "
                       "one of them");
      return signalPassFailure();
    }
    std::optional<tuner::TuneDbReplay> replay;
    SmallVector<std::string> loopKeys;
    if (!tuneDb.empty()) {
      std::string error;
      FailureOr<tuner::TuneDbReplay> opened =
          tuner::TuneDbReplay::open(tuneDb, tuneContext, target, error);
      if (failed(opened)) {
        module.emitError(error);
        return signalPassFailure();
      }
      replay.emplace(std::move(*opened));
      // Keyed by the Loop IR kernels, which tileify replaces.
      module.walk([&](dloop::KernelOp kernel) {
        loopKeys.push_back(tuner::structuralKey(kernel));
      });
    }
    FailureOr<SmallVector<KernelOp>> kernels = tileifyAll(module);
    if (failed(kernels) || failed(checkKernelNames(module, *options, *kernels)))
      return signalPassFailure();
    llvm::StringSet<> used;
    for (auto [position, kernel] : llvm::enumerate(*kernels)) {
      size_t index = position;
      tuner::KernelReplayReport report;
      report.kernel = kernel.getSymName().str();
      auto replayChoice =
          [&](const Rule &, KernelOp at,
              ArrayRef<KnobsAttr> choices) -> FailureOr<std::optional<size_t>> {
        ++report.forks;
        std::string error;
        FailureOr<std::optional<llvm::json::Object>> delta =
            replay->lookup(loopKeys[index], at.getKnobs(), error);
        if (failed(delta))
          return at.emitOpError(error);
        if (!*delta)
          return std::optional<size_t>();
        std::optional<size_t> choice = tuner::findOption(choices, **delta);
        ++(choice ? report.replayed : report.stale);
        return choice;
      };
      auto simplestChoice =
          [](const Rule &, KernelOp,
             ArrayRef<KnobsAttr> choices) -> FailureOr<std::optional<size_t>> {
        return std::optional<size_t>(simplestOption(choices));
      };
      OptionChooser chooser = nullptr;
      if (replay)
        chooser = replayChoice;
      else if (simplest)
        chooser = simplestChoice;
      for (const std::unique_ptr<Rule> &rule : getRules())
        if (failed(runRule(*rule, kernel, options->target,
                           options->requestedFor(kernel), listForks, chooser)))
          return signalPassFailure();
      if (replay && tuneReport)
        kernel.emitRemark("tune-db: ")
            << report.describe() << " in context '" << replay->getContextKey()
            << "'" << (replay->hasContext() ? "" : ", which it does not hold");
      // A knob meant for this kernel must have been taken.
      KnobsAttr taken = kernel.getKnobs();
      for (NamedAttribute entry : taken.getEntries())
        used.insert(entry.getName());
      if (KnobsAttr own = options->knobs.lookup(kernel.getSymName()))
        for (NamedAttribute entry : own.getEntries())
          if (taken.getEntries().get(entry.getName()) != entry.getValue()) {
            kernel.emitOpError("no rule took knob ")
                << entry.getName() << " for this kernel";
            return signalPassFailure();
          }
    }
    if (KnobsAttr all = options->knobs.lookup(""))
      for (NamedAttribute entry : all.getEntries())
        if (!used.contains(entry.getName())) {
          module.emitError("no rule took knob ")
              << entry.getName() << " for any kernel";
          return signalPassFailure();
        }
  }
};

} // namespace
