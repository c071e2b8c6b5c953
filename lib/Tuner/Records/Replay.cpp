//===- Replay.cpp - Following recorded tuning decisions -------------------===//

#include "Deplodock/Tuner/Replay.h"

#include "Deplodock/Dialect/DTile/Transforms/Precision.h"
#include "Deplodock/Tuner/KnobsJson.h"
#include "Deplodock/Tuner/StructuralKey.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::tuner;

std::string tuner::modelContextKey(StringRef target, bool tf32) {
  return ("model-" + target + "-v" + llvm::Twine(kModelVersion) +
          (tf32 ? "-tf32" : ""))
      .str();
}

std::string tuner::contextBackend(const DeviceContext &context) {
  if (std::optional<StringRef> backend = context.extra.getString("backend"))
    return backend->str();
  return "";
}

bool tuner::contextAllowsTf32(const DeviceContext &context) {
  return context.extra.getString("precision") ==
         std::optional<StringRef>("tf32");
}

void tuner::markTf32(llvm::json::Object &extra) { extra["precision"] = "tf32"; }

StringRef KernelReplayReport::verdict() const {
  if (forks == 0)
    return "no forks";
  if (replayed == forks)
    return "tuned";
  return replayed ? "partly tuned" : "not tuned";
}

std::string KernelReplayReport::describe() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "@" << kernel << ": " << verdict();
  if (forks) {
    os << " (" << replayed << " of " << forks << " forks replayed";
    if (stale)
      os << ", " << stale << " stale record" << (stale == 1 ? "" : "s");
    os << ")";
  }
  return text;
}

llvm::Expected<TuneDbReplay> TuneDbReplay::open(StringRef path,
                                                StringRef context,
                                                StringRef target, bool tf32) {
  // The target's capability (sm_90 and sm_90a are both 9.0).
  const GpuTargetSpec *spec = lookupGpuTarget(target);
  if (!spec)
    return llvm::createStringError("unknown target '" + target +
                                   "' (known: " + listGpuTargets() + ")");
  int64_t capability = spec->capability;
  TuneDbOptions options;
  options.readOnly = true;
  options.mustExist = true;
  llvm::Expected<TuneDb> opened = TuneDb::open(path, options);
  if (!opened)
    return opened.takeError();
  auto db = std::make_unique<TuneDb>(std::move(*opened));
  llvm::Expected<std::vector<DeviceContext>> contexts = db->allContexts();
  if (!contexts)
    return contexts.takeError();
  auto known = [&](StringRef key) {
    return llvm::any_of(*contexts,
                        [&](const DeviceContext &c) { return c.key == key; });
  };

  std::string key;
  if (context.empty() || context == "auto") {
    // A device measured on the target's architecture wins over the model.
    SmallVector<StringRef> measured;
    for (const DeviceContext &c : *contexts)
      if (contextBackend(c) == "cuda" &&
          c.ccMajor * 10 + c.ccMinor == capability &&
          contextAllowsTf32(c) == tf32)
        measured.push_back(c.key);
    key = measured.size() == 1 ? measured.front().str()
                               : modelContextKey(target, tf32);
  } else if (context == "model") {
    key = modelContextKey(target, tf32);
  } else {
    key = context.str();
    auto stored = llvm::find_if(
        *contexts, [&](const DeviceContext &c) { return c.key == key; });
    if (stored != contexts->end() && contextAllowsTf32(*stored) != tf32)
      return llvm::createStringError(
          "context '" + key + "' of tune database '" + path +
          "' was tuned with precision=" + (tf32 ? "ieee" : "tf32") +
          ", not the precision=" + (tf32 ? "tf32" : "ieee") +
          " this lowering uses");
    if (stored == contexts->end()) {
      SmallVector<StringRef> keys;
      for (const DeviceContext &c : *contexts)
        keys.push_back(c.key);
      return llvm::createStringError(
          "tune database '" + path + "' has no context '" + key + "' (it has " +
          (keys.empty() ? std::string("none") : llvm::join(keys, ", ")) + ")");
    }
  }
  bool contextKnown = known(key);
  return TuneDbReplay(std::move(db), std::move(key), contextKnown);
}

llvm::Expected<std::optional<llvm::json::Object>>
TuneDbReplay::lookup(StringRef loopKey, dtile::KnobsAttr knobs) {
  if (!contextKnown)
    return std::nullopt;
  llvm::Expected<std::optional<LoweringRow>> row =
      db->lookupLowering(contextKey, forkPointKey(loopKey, knobs));
  if (!row)
    return row.takeError();
  if (!*row)
    return std::nullopt;
  return std::optional<llvm::json::Object>(std::move((*row)->knobs));
}

//===----------------------------------------------------------------------===//
// The replay chooser
//===----------------------------------------------------------------------===//

namespace {

class ReplayChooser final : public dtile::OptionChooser {
public:
  ReplayChooser(StringRef path, StringRef context, bool report)
      : path(path), context(context), report(report) {}

  StringRef getName() const override { return "tune-db"; }

  LogicalResult beginModule(ModuleOp module, dtile::TargetAttr target,
                            ArrayRef<dloop::KernelOp> loops) override {
    llvm::Expected<TuneDbReplay> opened = TuneDbReplay::open(
        path, context, target.getName(), dtile::allowsTf32(module));
    if (!opened)
      return module.emitError(llvm::toString(opened.takeError()));
    replay.emplace(std::move(*opened));
    // Keyed by the Loop IR kernels, which tileify replaces.
    loopKeys.clear();
    for (dloop::KernelOp kernel : loops)
      loopKeys.push_back(structuralKey(kernel));
    return success();
  }

  LogicalResult beginKernel(dtile::KernelOp kernel, size_t index) override {
    current = index;
    tally = KernelReplayReport();
    tally.kernel = kernel.getSymName().str();
    return success();
  }

  FailureOr<size_t> choose(const dtile::Rule &, dtile::KernelOp kernel,
                           ArrayRef<dtile::KnobsAttr> options) override {
    if (options.size() < 2)
      return 0;
    ++tally.forks;
    llvm::Expected<std::optional<llvm::json::Object>> delta =
        replay->lookup(loopKeys[current], kernel.getKnobs());
    if (!delta)
      return kernel.emitOpError(llvm::toString(delta.takeError()));
    if (!*delta)
      return 0;
    std::optional<size_t> choice = findOption(options, **delta);
    ++(choice ? tally.replayed : tally.stale);
    return choice.value_or(0);
  }

  LogicalResult endKernel(dtile::KernelOp kernel) override {
    if (report)
      kernel.emitRemark("tune-db: ")
          << tally.describe() << " in context '" << replay->getContextKey()
          << "'" << (replay->hasContext() ? "" : ", which it does not hold");
    return success();
  }

private:
  std::string path, context;
  bool report;
  std::optional<TuneDbReplay> replay;
  SmallVector<std::string> loopKeys;
  size_t current = 0;
  KernelReplayReport tally;
};

} // namespace

std::unique_ptr<dtile::OptionChooser>
tuner::createReplayChooser(StringRef path, StringRef context, bool report) {
  return std::make_unique<ReplayChooser>(path, context, report);
}
