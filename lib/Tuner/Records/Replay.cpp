//===- Replay.cpp - Following recorded tuning decisions -------------------===//

#include "Deplodock/Tuner/Replay.h"

#include "Deplodock/Tuner/KnobsJson.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::tuner;

std::string tuner::modelContextKey(StringRef target) {
  return ("model-" + target + "-v" + llvm::Twine(kModelVersion)).str();
}

std::string tuner::contextBackend(const DeviceContext &context) {
  if (std::optional<StringRef> backend = context.extra.getString("backend"))
    return backend->str();
  return "";
}

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

FailureOr<TuneDbReplay> TuneDbReplay::open(StringRef path, StringRef context,
                                           StringRef target,
                                           std::string &error) {
  // `sm_90` is compute capability 9.0.
  int capability = 0;
  StringRef digits = target;
  if (!digits.consume_front("sm_") || digits.getAsInteger(10, capability)) {
    error = ("unknown target '" + target + "'").str();
    return failure();
  }
  TuneDbOptions options;
  options.readOnly = true;
  options.mustExist = true;
  llvm::Expected<TuneDb> opened = TuneDb::open(path, options);
  if (!opened) {
    error = llvm::toString(opened.takeError());
    return failure();
  }
  auto db = std::make_unique<TuneDb>(std::move(*opened));
  llvm::Expected<std::vector<DeviceContext>> contexts = db->allContexts();
  if (!contexts) {
    error = llvm::toString(contexts.takeError());
    return failure();
  }
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
          c.ccMajor * 10 + c.ccMinor == capability)
        measured.push_back(c.key);
    key =
        measured.size() == 1 ? measured.front().str() : modelContextKey(target);
  } else if (context == "model") {
    key = modelContextKey(target);
  } else {
    key = context.str();
    if (!known(key)) {
      SmallVector<StringRef> keys;
      for (const DeviceContext &c : *contexts)
        keys.push_back(c.key);
      error =
          ("tune database '" + path + "' has no context '" + key +
           "' (it has " +
           (keys.empty() ? std::string("none") : llvm::join(keys, ", ")) + ")")
              .str();
      return failure();
    }
  }
  bool contextKnown = known(key);
  return TuneDbReplay(std::move(db), std::move(key), contextKnown);
}

FailureOr<std::optional<llvm::json::Object>>
TuneDbReplay::lookup(StringRef loopKey, dtile::KnobsAttr knobs,
                     std::string &error) {
  if (!contextKnown)
    return std::optional<llvm::json::Object>();
  llvm::Expected<std::optional<LoweringRow>> row =
      db->lookupLowering(contextKey, forkPointKey(loopKey, knobs));
  if (!row) {
    error = llvm::toString(row.takeError());
    return failure();
  }
  if (!*row)
    return std::optional<llvm::json::Object>();
  return std::optional<llvm::json::Object>(std::move((*row)->knobs));
}
