//===- Target.cpp - The GPU a module targets --------------------*- C++ -*-===//

#include "Deplodock/Dialect/DKernel/IR/Target.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dkernel;

#define GET_ATTRDEF_CLASSES
#include "Deplodock/Dialect/DKernel/IR/DKernelAttrs.cpp.inc"

void DKernelDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "Deplodock/Dialect/DKernel/IR/DKernelAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// TargetAttr
//===----------------------------------------------------------------------===//

namespace {

/// The integer fields of the attribute, in print order.
struct IntField {
  llvm::StringLiteral keyword;
  int64_t (TargetAttr::*get)() const;
};

constexpr IntField kIntFields[] = {
    {"capability", &TargetAttr::getCapability},
    {"sm_count", &TargetAttr::getSmCount},
    {"smem_per_block", &TargetAttr::getSmemPerBlock},
    {"smem_per_sm", &TargetAttr::getSmemPerSM},
    {"threads_per_block", &TargetAttr::getThreadsPerBlock},
    {"threads_per_sm", &TargetAttr::getThreadsPerSM},
    {"blocks_per_sm", &TargetAttr::getBlocksPerSM},
    {"registers_per_sm", &TargetAttr::getRegistersPerSM},
    {"registers_per_thread", &TargetAttr::getRegistersPerThread},
    {"warp_size", &TargetAttr::getWarpSize},
    {"l2_bytes", &TargetAttr::getL2Bytes},
};

} // namespace

TargetAttr TargetAttr::get(MLIRContext *context, const GpuTargetSpec &spec) {
  return get(context, spec.name, spec.capability, spec.smCount,
             spec.smemPerBlock, spec.smemPerSM, spec.threadsPerBlock,
             spec.threadsPerSM, spec.blocksPerSM, spec.registersPerSM,
             spec.registersPerThread, spec.warpSize, spec.l2Bytes,
             spec.features);
}

TargetAttr TargetAttr::lookup(MLIRContext *context, StringRef name) {
  const GpuTargetSpec *spec = lookupGpuTarget(name);
  if (!spec)
    return {};
  context->getOrLoadDialect<DKernelDialect>();
  return get(context, *spec);
}

// <"sm_90", capability = 90, ..., features = [cp_async, tma]>
Attribute TargetAttr::parse(AsmParser &parser, Type) {
  std::string name;
  if (parser.parseLess() || parser.parseString(&name))
    return {};
  int64_t values[std::size(kIntFields)];
  llvm::StringSet<> seen;
  uint32_t features = 0;
  while (succeeded(parser.parseOptionalComma())) {
    SMLoc loc = parser.getCurrentLocation();
    std::string keyword;
    if (parser.parseKeywordOrString(&keyword) || parser.parseEqual())
      return {};
    if (!seen.insert(keyword).second) {
      parser.emitError(loc, "field '") << keyword << "' is set twice";
      return {};
    }
    if (keyword == "features") {
      auto parseFeature = [&]() -> ParseResult {
        SMLoc at = parser.getCurrentLocation();
        std::string feature;
        if (parser.parseKeywordOrString(&feature))
          return failure();
        std::optional<GpuFeature> known = symbolizeGpuFeature(feature);
        if (!known)
          return parser.emitError(at, "unknown GPU feature '")
                 << feature << "'";
        features |= static_cast<uint32_t>(*known);
        return success();
      };
      if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                         parseFeature))
        return {};
      continue;
    }
    const IntField *field = llvm::find_if(
        kIntFields, [&](const IntField &f) { return f.keyword == keyword; });
    if (field == std::end(kIntFields)) {
      parser.emitError(loc, "unknown field '") << keyword << "'";
      return {};
    }
    if (parser.parseInteger(values[field - kIntFields]))
      return {};
  }
  if (parser.parseGreater())
    return {};
  SmallVector<StringRef> required;
  for (const IntField &field : kIntFields)
    required.push_back(field.keyword);
  required.push_back("features");
  for (StringRef keyword : required)
    if (!seen.contains(keyword)) {
      parser.emitError(parser.getNameLoc(), "missing field '")
          << keyword << "'";
      return {};
    }
  return parser.getChecked<TargetAttr>(
      parser.getContext(), name, values[0], values[1], values[2], values[3],
      values[4], values[5], values[6], values[7], values[8], values[9],
      values[10], features);
}

void TargetAttr::print(AsmPrinter &printer) const {
  printer << "<\"" << getName() << "\"";
  for (const IntField &field : kIntFields)
    printer << ", " << field.keyword << " = " << (this->*field.get)();
  printer << ", features = [";
  llvm::interleaveComma(llvm::make_filter_range(getGpuFeatures(),
                                                [&](const GpuFeatureInfo &f) {
                                                  return has(f.feature);
                                                }),
                        printer,
                        [&](const GpuFeatureInfo &f) { printer << f.name; });
  printer << "]>";
}

LogicalResult TargetAttr::verify(
    llvm::function_ref<InFlightDiagnostic()> emitError, StringRef name,
    int64_t capability, int64_t smCount, int64_t smemPerBlock,
    int64_t smemPerSM, int64_t threadsPerBlock, int64_t threadsPerSM,
    int64_t blocksPerSM, int64_t registersPerSM, int64_t registersPerThread,
    int64_t warpSize, int64_t l2Bytes, uint32_t features) {
  if (name.empty())
    return emitError() << "target name must not be empty";
  int64_t values[] = {capability,  smCount,         smemPerBlock,
                      smemPerSM,   threadsPerBlock, threadsPerSM,
                      blocksPerSM, registersPerSM,  registersPerThread,
                      warpSize,    l2Bytes};
  for (auto [field, value] : llvm::zip(kIntFields, values))
    if (value <= 0)
      return emitError() << field.keyword << " must be positive, got " << value;
  if (smemPerBlock > smemPerSM)
    return emitError() << "smem_per_block (" << smemPerBlock
                       << ") exceeds smem_per_sm (" << smemPerSM << ")";
  if (threadsPerBlock > threadsPerSM)
    return emitError() << "threads_per_block (" << threadsPerBlock
                       << ") exceeds threads_per_sm (" << threadsPerSM << ")";
  uint32_t known = 0;
  for (const GpuFeatureInfo &f : getGpuFeatures())
    known |= static_cast<uint32_t>(f.feature);
  if (features & ~known)
    return emitError() << "unknown GPU feature bits " << (features & ~known);
  return success();
}

//===----------------------------------------------------------------------===//
// The module's target
//===----------------------------------------------------------------------===//

TargetAttr dkernel::getTarget(Operation *op) {
  for (; op; op = op->getParentOp())
    if (auto target = op->getAttrOfType<TargetAttr>(kTargetAttrName))
      return target;
  return {};
}

TargetAttr dkernel::getTargetOrDefault(Operation *op) {
  if (TargetAttr target = getTarget(op))
    return target;
  return TargetAttr::lookup(op->getContext(), kDefaultGpuTarget);
}

FailureOr<TargetAttr> dkernel::resolveTarget(ModuleOp module,
                                             StringRef option) {
  MLIRContext *context = module.getContext();
  context->getOrLoadDialect<DKernelDialect>();
  TargetAttr own = getTarget(module);
  if (own) {
    if (!option.empty() && option != own.getName())
      return module.emitError("target option '")
             << option << "' contradicts the module's target '" << own.getName()
             << "'";
    return own;
  }
  StringRef name = option.empty() ? StringRef(kDefaultGpuTarget) : option;
  TargetAttr target = TargetAttr::lookup(context, name);
  if (!target)
    return module.emitError("unknown target '")
           << name << "'; expected " << listGpuTargets();
  // A target named once holds for every later pass; the default needs no
  // record.
  if (!option.empty())
    module->setAttr(kTargetAttrName, target);
  return target;
}
