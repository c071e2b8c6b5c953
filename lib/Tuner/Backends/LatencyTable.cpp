//===- LatencyTable.cpp - Recorded latencies for the replay backend -------===//

#include "Deplodock/Tuner/LatencyTable.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;
using namespace deplodock::tuner;
namespace json = llvm::json;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Expected<LatencyTable> LatencyTable::read(StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!file)
    return makeError("cannot read latency table '" + path +
                     "': " + file.getError().message());
  return parse((*file)->getBuffer(), path);
}

/// Reads one variant entry; `where` locates it in messages.
static llvm::Expected<LatencyEntry> readEntry(const json::Object &object,
                                              const llvm::Twine &where) {
  auto fail = [&](const llvm::Twine &why) {
    return makeError(where + ": " + why);
  };
  LatencyEntry entry;
  std::optional<StringRef> status = object.getString("status");
  if (!status)
    return fail("missing \"status\"");
  std::optional<MeasureStatus> parsed = symbolizeMeasureStatus(*status);
  if (!parsed)
    return fail("unknown status '" + *status + "'");
  entry.status = *parsed;
  if (std::optional<StringRef> detail = object.getString("detail"))
    entry.detail = detail->str();
  if (entry.status != MeasureStatus::Ok)
    return entry;
  std::optional<double> median = object.getNumber("median_us");
  if (!median || !std::isfinite(*median) || *median <= 0)
    return fail("an ok entry needs a positive \"median_us\"");
  entry.medianUs = *median;
  entry.minUs = object.getNumber("min_us").value_or(*median);
  entry.maxUs = object.getNumber("max_us").value_or(*median);
  std::optional<int64_t> samples = object.getInteger("samples");
  if (samples && *samples < 1)
    return fail("\"samples\" must be at least 1");
  entry.samples = samples ? static_cast<unsigned>(*samples) : 1;
  return entry;
}

llvm::Expected<LatencyTable> LatencyTable::parse(StringRef text,
                                                 StringRef origin) {
  auto fail = [&](const llvm::Twine &why) {
    return makeError("latency table '" + origin + "': " + why);
  };
  llvm::Expected<json::Value> value = json::parse(text);
  if (!value)
    return fail("not valid JSON: " + llvm::toString(value.takeError()));
  const json::Object *root = value->getAsObject();
  if (!root)
    return fail("expected a JSON object");
  if (root->getString("format") != kLatencyTableFormat)
    return fail("\"format\" is not \"" + kLatencyTableFormat + "\"");
  std::optional<int64_t> version = root->getInteger("version");
  if (version != kLatencyTableVersion)
    return fail("unsupported \"version\" (this build reads " +
                llvm::Twine(kLatencyTableVersion) + ")");
  LatencyTable table;
  std::optional<StringRef> target = root->getString("target");
  if (!target || target->empty())
    return fail("missing \"target\"");
  table.target = target->str();
  table.recordedWith = root->getString("recorded_with").value_or("").str();
  table.recordedContext =
      root->getString("recorded_context").value_or("").str();
  const json::Object *kernels = root->getObject("kernels");
  if (!kernels)
    return fail("missing the \"kernels\" object");
  for (const auto &[key, kernelValue] : *kernels) {
    const json::Object *kernel = kernelValue.getAsObject();
    const json::Object *variants =
        kernel ? kernel->getObject("variants") : nullptr;
    if (!variants)
      return fail("kernel " + key.str() + ": missing the \"variants\" object");
    StringRef name = kernel->getString("name").value_or("");
    for (const auto &[knobs, entryValue] : *variants) {
      const json::Object *object = entryValue.getAsObject();
      std::string where =
          "kernel " + key.str() + " variant '" + knobs.str() + "'";
      if (!object)
        return fail(where + ": expected a JSON object");
      llvm::Expected<LatencyEntry> entry = readEntry(*object, where);
      if (!entry)
        return fail(llvm::toString(entry.takeError()));
      table.add(key, name, knobs, *entry);
    }
  }
  return table;
}

std::string LatencyTable::print() const {
  json::Object kernelsObject;
  for (const auto &[key, kernel] : kernels) {
    json::Object variants;
    for (const auto &[knobs, entry] : kernel.variants) {
      json::Object object{{"status", measureStatusName(entry.status)}};
      if (entry.status == MeasureStatus::Ok) {
        object["median_us"] = entry.medianUs;
        object["min_us"] = entry.minUs;
        object["max_us"] = entry.maxUs;
        object["samples"] = int64_t(entry.samples);
      }
      if (!entry.detail.empty())
        object["detail"] = entry.detail;
      variants[knobs] = std::move(object);
    }
    kernelsObject[key] =
        json::Object{{"name", kernel.name}, {"variants", std::move(variants)}};
  }
  json::Value root = json::Object{{"format", kLatencyTableFormat},
                                  {"version", kLatencyTableVersion},
                                  {"target", target},
                                  {"recorded_with", recordedWith},
                                  {"recorded_context", recordedContext},
                                  {"kernels", std::move(kernelsObject)}};
  return llvm::formatv("{0:2}", root).str() + "\n";
}

llvm::Error LatencyTable::write(StringRef path) const {
  // writeToOutput writes a temporary file beside `path` and renames it, so a
  // reader never sees half a table.
  if (llvm::Error error = llvm::writeToOutput(path, [&](llvm::raw_ostream &os) {
        os << print();
        return llvm::Error::success();
      }))
    return makeError("cannot write latency table '" + path +
                     "': " + llvm::toString(std::move(error)));
  return llvm::Error::success();
}

void LatencyTable::add(StringRef kernelKey, StringRef kernelName,
                       StringRef knobs, const LatencyEntry &entry) {
  Kernel &kernel = kernels[kernelKey.str()];
  if (kernel.name.empty())
    kernel.name = kernelName.str();
  kernel.variants[knobs.str()] = entry;
}

const LatencyEntry *LatencyTable::lookup(StringRef kernelKey,
                                         StringRef knobs) const {
  auto kernel = kernels.find(kernelKey.str());
  if (kernel == kernels.end())
    return nullptr;
  auto entry = kernel->second.variants.find(knobs.str());
  return entry == kernel->second.variants.end() ? nullptr : &entry->second;
}

StringRef LatencyTable::getKernelName(StringRef kernelKey) const {
  auto kernel = kernels.find(kernelKey.str());
  return kernel == kernels.end() ? StringRef() : StringRef(kernel->second.name);
}

size_t LatencyTable::getNumVariants() const {
  size_t total = 0;
  for (const auto &[key, kernel] : kernels)
    total += kernel.variants.size();
  return total;
}

std::optional<double> LatencyTable::bestUs(StringRef kernelKey) const {
  auto it = kernels.find(kernelKey.str());
  if (it == kernels.end())
    return std::nullopt;
  std::optional<double> best;
  for (const auto &entry : it->second.variants)
    if (entry.second.status == MeasureStatus::Ok &&
        (!best || entry.second.medianUs < *best))
      best = entry.second.medianUs;
  return best;
}
