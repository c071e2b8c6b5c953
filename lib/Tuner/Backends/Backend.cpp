//===- Backend.cpp - Where the latency of a variant comes from ------------===//

#include "Deplodock/Tuner/Backend.h"
#include "Deplodock/Tuner/CudaBackend.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace deplodock::tuner;

Backend::~Backend() = default;

BackendResult BackendResult::single(double us, std::string detail) {
  BackendResult result;
  result.measurement = Measurement::latency(us);
  result.meanUs = us;
  result.detail = std::move(detail);
  return result;
}

BackendResult BackendResult::failure(MeasureStatus status, std::string detail) {
  BackendResult result;
  result.measurement = Measurement::failure(status);
  result.detail = std::move(detail);
  return result;
}

llvm::Expected<std::vector<BackendResult>>
Backend::measureBatch(llvm::ArrayRef<const Variant *> variants) {
  std::vector<BackendResult> results;
  for (const Variant *variant : variants) {
    llvm::Expected<BackendResult> result = measure(*variant);
    if (!result)
      return result.takeError();
    results.push_back(std::move(*result));
  }
  return results;
}

llvm::ArrayRef<llvm::StringRef> deplodock::tuner::backendNames() {
  static const llvm::StringRef names[] = {"model", "replay", "cuda"};
  return names;
}

llvm::Expected<std::unique_ptr<Backend>>
deplodock::tuner::createBackend(StringRef name, StringRef target,
                                StringRef tablePath,
                                const CudaBackendOptions *cuda, bool tf32) {
  auto fail = [](const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  };
  if (name == "model")
    return createModelBackend(target, tf32);
  if (name == "replay") {
    if (tablePath.empty())
      return fail("the replay backend needs a latency table (--replay-table)");
    return createReplayBackend(tablePath, target, tf32);
  }
  if (name == "cuda") {
    if (!cuda)
      return fail(
          "the cuda backend needs to know how to start its bench worker");
    return createCudaBackend(*cuda, target, tf32);
  }
  return fail("unknown backend '" + name +
              "' (expected one of: " + llvm::join(backendNames(), ", ") + ")");
}
