//===- ReplayBackend.cpp - Latencies from a recorded table ----------------===//

#include "Deplodock/Dialect/Common/GpuTarget.h"
#include "Deplodock/Tuner/Backend.h"
#include "Deplodock/Tuner/LatencyTable.h"
#include "Deplodock/Tuner/Replay.h"
#include "Deplodock/Tuner/StructuralKey.h"

using namespace mlir;
using namespace deplodock::tuner;

namespace {

class ReplayBackend : public Backend {
public:
  ReplayBackend(LatencyTable table, std::string path, int capability, bool tf32)
      : table(std::move(table)), path(std::move(path)) {
    // A context of its own, named by the table's contents: replayed rows
    // never mix with measured or estimated ones.
    std::string digest = sha256Hex(this->table.print());
    context.key = "replay-" + digest.substr(0, 16) + (tf32 ? "-tf32" : "");
    context.gpuName = "replay of " + (this->table.recordedContext.empty()
                                          ? std::string("a recorded table")
                                          : this->table.recordedContext);
    context.ccMajor = capability / 10;
    context.ccMinor = capability % 10;
    context.driverVersion = "none";
    context.cudaVersion = "none";
    context.nvrtcVersion = "none";
    context.compilerVersion = "deplodock latency table";
    context.extra =
        llvm::json::Object{{"backend", "replay"},
                           {"table_sha256", digest},
                           {"recorded_with", this->table.recordedWith},
                           {"recorded_context", this->table.recordedContext},
                           {"target", this->table.target}};
    if (tf32)
      markTf32(context.extra);
  }

  llvm::StringRef getName() const override { return "replay"; }
  bool isEstimate() const override { return table.recordedWith == "model"; }
  const DeviceContext &getContext() const override { return context; }

  llvm::Expected<BackendResult> measure(const Variant &variant) override {
    const LatencyEntry *entry =
        table.lookup(variant.loopKey, variant.knobsText);
    if (!entry)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "latency table '" + path + "' has no entry for @" + variant.name +
              " (kernel " + variant.loopKey.substr(0, 12) + ") with knobs '" +
              variant.knobsText +
              "'; record every variant with --search=exhaustive "
              "--record-table");
    BackendResult result;
    if (entry->status != MeasureStatus::Ok)
      return BackendResult::failure(entry->status, entry->detail);
    result.measurement.status = MeasureStatus::Ok;
    result.measurement.medianUs = entry->medianUs;
    result.measurement.minUs = entry->minUs;
    result.measurement.maxUs = entry->maxUs;
    result.measurement.samples = entry->samples;
    result.meanUs = entry->medianUs;
    result.detail = entry->detail;
    return result;
  }

private:
  LatencyTable table;
  std::string path;
  DeviceContext context;
};

} // namespace

llvm::Expected<std::unique_ptr<Backend>>
deplodock::tuner::createReplayBackend(StringRef path, StringRef target,
                                      bool tf32) {
  llvm::Expected<LatencyTable> table = LatencyTable::read(path);
  if (!table)
    return table.takeError();
  auto fail = [](const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  };
  if (table->target != target)
    return fail("latency table '" + path + "' was recorded for " +
                table->target + ", not " + target);
  const GpuTargetSpec *spec = lookupGpuTarget(target);
  if (!spec)
    return fail("unknown target '" + target + "' (known: " + listGpuTargets() +
                ")");
  return std::unique_ptr<Backend>(
      new ReplayBackend(std::move(*table), path.str(), spec->capability, tf32));
}
