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

llvm::ArrayRef<llvm::StringRef> deplodock::tuner::backendNames() {
  static const llvm::StringRef names[] = {"model", "replay", "cuda"};
  return names;
}

FailureOr<std::unique_ptr<Backend>>
deplodock::tuner::createBackend(StringRef name, StringRef target,
                                StringRef tablePath, std::string &error,
                                const CudaBackendOptions *cuda) {
  if (name == "model")
    return createModelBackend(target, error);
  if (name == "replay") {
    if (tablePath.empty()) {
      error = "the replay backend needs a latency table (--replay-table)";
      return failure();
    }
    return createReplayBackend(tablePath, target, error);
  }
  if (name == "cuda") {
    if (!cuda) {
      error = "the cuda backend needs to know how to start its bench worker";
      return failure();
    }
    return createCudaBackend(*cuda, target, error);
  }
  error = ("unknown backend '" + name +
           "' (expected one of: " + llvm::join(backendNames(), ", ") + ")")
              .str();
  return failure();
}
