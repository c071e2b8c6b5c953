//===- GpuTargetGen.cpp - The GPU target table ------------------*- C++ -*-===//
//
// Emits, from the GpuFeature and GpuTarget records:
//  * GET_GPU_FEATURE_ENUM: `enum class GpuFeature : uint32_t`, one bit each;
//  * GET_GPU_FEATURE_TABLE: the GpuFeatureInfo of every feature;
//  * GET_GPU_TARGET_TABLE: the GpuTargetSpec of every target.
// The types are declared in Deplodock/Dialect/Common/GpuTarget.h.
//
//===----------------------------------------------------------------------===//

#include "Generators.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"
#include "llvm/TableGen/Error.h"
#include "llvm/TableGen/Record.h"
#include "llvm/TableGen/TableGenBackend.h"

using namespace llvm;

/// `text` as a C++ string literal.
static std::string quote(StringRef text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out + "\"";
}

bool deplodock::tblgen::emitGpuTargets(const RecordKeeper &records,
                                       raw_ostream &os) {
  emitSourceFileHeader("The GPU targets (GpuTargets.td)", os, records);
  ArrayRef<const Record *> features =
      records.getAllDerivedDefinitions("GpuFeature");
  ArrayRef<const Record *> targets =
      records.getAllDerivedDefinitions("GpuTarget");
  if (features.size() > 32)
    PrintFatalError("at most 32 GPU features fit the feature mask");

  StringSet<> names;
  for (const Record *feature : features)
    if (!names.insert(feature->getValueAsString("name")).second)
      PrintFatalError(feature, "a GPU feature of this name already exists");
  names.clear();
  for (const Record *target : targets)
    if (!names.insert(target->getValueAsString("name")).second)
      PrintFatalError(target, "a GPU target of this name already exists");

  os << "#ifdef GET_GPU_FEATURE_ENUM\n#undef GET_GPU_FEATURE_ENUM\n";
  os << "enum class GpuFeature : uint32_t {\n";
  for (auto [i, feature] : enumerate(features))
    os << "  " << feature->getValueAsString("name") << " = 1u << " << i
       << ",\n";
  os << "};\n#endif // GET_GPU_FEATURE_ENUM\n\n";

  os << "#ifdef GET_GPU_FEATURE_TABLE\n#undef GET_GPU_FEATURE_TABLE\n";
  os << "static const GpuFeatureInfo kGpuFeatureTable[] = {\n";
  for (const Record *feature : features) {
    StringRef name = feature->getValueAsString("name");
    os << "    {GpuFeature::" << name << ", " << quote(name) << ", "
       << quote(feature->getValueAsString("summary")) << "},\n";
  }
  os << "};\n#endif // GET_GPU_FEATURE_TABLE\n\n";

  os << "#ifdef GET_GPU_TARGET_TABLE\n#undef GET_GPU_TARGET_TABLE\n";
  os << "static const GpuTargetSpec kGpuTargetTable[] = {\n";
  for (const Record *target : targets) {
    uint32_t mask = 0;
    for (const Record *feature : target->getValueAsListOfDefs("features"))
      mask |= 1u << (find(features, feature) - features.begin());
    os << "    {" << quote(target->getValueAsString("name")) << ", "
       << quote(target->getValueAsString("referenceGpu"));
    for (StringRef field :
         {"capability", "smCount", "smemPerBlock", "smemPerSM",
          "threadsPerBlock", "threadsPerSM", "blocksPerSM", "registersPerSM",
          "registersPerThread", "warpSize", "l2Bytes"}) {
      int64_t value = target->getValueAsInt(field);
      if (value <= 0)
        PrintFatalError(target, Twine(field) + " must be positive");
      os << ", " << value;
    }
    os << ", " << (target->getValueAsBit("archSpecific") ? "true" : "false")
       << ", " << format_hex(mask, 10) << "u},\n";
  }
  os << "};\n#endif // GET_GPU_TARGET_TABLE\n";
  return false;
}
