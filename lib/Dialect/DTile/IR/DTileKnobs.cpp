//===- DTileKnobs.cpp - The knobs Tile rules may set ------------*- C++ -*-===//

#include "Deplodock/Dialect/DTile/IR/DTileKnobs.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <limits>

using namespace mlir;

namespace deplodock::dtile {

#define GET_KNOB_TABLE
#include "Deplodock/Dialect/DTile/IR/DTileKnobs.cpp.inc"

#define GET_KNOB_ACCESSOR_DEFS
#include "Deplodock/Dialect/DTile/IR/DTileKnobs.cpp.inc"

#define GET_KNOB_STRUCT_DEFS
#include "Deplodock/Dialect/DTile/IR/DTileKnobs.cpp.inc"

llvm::ArrayRef<KnobInfo> getKnobTable() { return kKnobTable; }

const KnobInfo *lookupKnob(llvm::StringRef name) {
  const KnobInfo *it = llvm::find_if(
      kKnobTable, [&](const KnobInfo &knob) { return knob.name == name; });
  return it == std::end(kKnobTable) ? nullptr : it;
}

std::string describeUnknownKnob(llvm::StringRef name) {
  SmallVector<StringRef> names;
  for (const KnobInfo &knob : kKnobTable)
    names.push_back(knob.name);
  return ("unknown knob '" + name + "' (knobs: " + llvm::join(names, ", ") +
          ")")
      .str();
}

llvm::StringRef describeKnobKind(KnobKind kind) {
  switch (kind) {
  case KnobKind::Int:
    return "an integer";
  case KnobKind::Bool:
    return "a boolean";
  case KnobKind::IntList:
    return "a list of integers";
  }
  return "";
}

LogicalResult
verifyKnobValue(const KnobInfo &knob, Attribute value,
                llvm::function_ref<InFlightDiagnostic()> emitError) {
  SmallVector<int64_t> numbers;
  bool ok = false;
  switch (knob.kind) {
  case KnobKind::Int:
    // A BoolAttr is an IntegerAttr too; a boolean is not an integer knob.
    if (auto number = dyn_cast<IntegerAttr>(value);
        number && !isa<BoolAttr>(value)) {
      ok = true;
      numbers.push_back(number.getValue().getSExtValue());
    }
    break;
  case KnobKind::Bool:
    ok = isa<BoolAttr>(value);
    break;
  case KnobKind::IntList:
    if (auto list = dyn_cast<DenseI64ArrayAttr>(value)) {
      ok = true;
      llvm::append_range(numbers, list.asArrayRef());
    }
    break;
  }
  if (!ok)
    return emitError() << "knob '" << knob.name << "' expects "
                       << describeKnobKind(knob.kind);
  for (int64_t number : numbers) {
    if (number >= knob.min && number <= knob.max)
      continue;
    InFlightDiagnostic diag = emitError() << "knob '" << knob.name << "' ";
    // Sizes, factors and input positions: none is negative.
    if (number < 0)
      return diag << "must not be negative";
    if (knob.max == std::numeric_limits<int32_t>::max())
      return diag << "must be at least " << knob.min << ", got " << number;
    return diag << "must be in [" << knob.min << ", " << knob.max << "], got "
                << number;
  }
  return success();
}

} // namespace deplodock::dtile
