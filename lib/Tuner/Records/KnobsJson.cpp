//===- KnobsJson.cpp - Knob sets as the tune database stores them ---------===//

#include "Deplodock/Tuner/KnobsJson.h"

#include "Deplodock/Dialect/DTile/IR/DTileKnobs.h"
#include "Deplodock/Tuner/StructuralKey.h"
#include "Deplodock/Tuner/TuneDb.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::tuner;

llvm::json::Object tuner::knobsToJson(dtile::KnobsAttr knobs) {
  llvm::json::Object object;
  for (NamedAttribute entry : knobs.getEntries()) {
    Attribute value = entry.getValue();
    if (auto flag = dyn_cast<BoolAttr>(value)) {
      object[entry.getName().strref()] = flag.getValue();
    } else if (auto number = dyn_cast<IntegerAttr>(value)) {
      object[entry.getName().strref()] = number.getInt();
    } else if (auto list = dyn_cast<DenseI64ArrayAttr>(value)) {
      llvm::json::Array items;
      for (int64_t item : list.asArrayRef())
        items.push_back(item);
      object[entry.getName().strref()] = std::move(items);
    }
  }
  return object;
}

std::string tuner::formatKnobsJson(dtile::KnobsAttr knobs) {
  return formatKnobs(knobsToJson(knobs));
}

llvm::Expected<dtile::KnobsAttr>
tuner::knobsFromJson(MLIRContext *context, const llvm::json::Object &object) {
  Builder b(context);
  SmallVector<NamedAttribute> entries;
  for (const auto &[key, value] : object) {
    StringRef name = key;
    const dtile::KnobInfo *knob = dtile::lookupKnob(name);
    if (!knob)
      return llvm::createStringError(dtile::describeUnknownKnob(name));
    Attribute attr;
    switch (knob->kind) {
    case dtile::KnobKind::Int:
      if (std::optional<int64_t> number = value.getAsInteger())
        attr = b.getI64IntegerAttr(*number);
      break;
    case dtile::KnobKind::Bool:
      if (std::optional<bool> flag = value.getAsBoolean())
        attr = b.getBoolAttr(*flag);
      break;
    case dtile::KnobKind::IntList:
      if (const llvm::json::Array *items = value.getAsArray()) {
        SmallVector<int64_t> numbers;
        for (const llvm::json::Value &item : *items)
          if (std::optional<int64_t> number = item.getAsInteger())
            numbers.push_back(*number);
        if (numbers.size() == items->size())
          attr = b.getDenseI64ArrayAttr(numbers);
      }
      break;
    }
    if (!attr)
      return llvm::createStringError("knob '" + name + "' expects " +
                                     dtile::describeKnobKind(knob->kind));
    entries.push_back(b.getNamedAttr(name, attr));
  }
  // The ranges of Rules.td, as the attribute verifies them.
  std::string message;
  dtile::KnobsAttr knobs;
  {
    ScopedDiagnosticHandler handler(context, [&](Diagnostic &diag) {
      message = diag.str();
      return success();
    });
    knobs = dtile::KnobsAttr::getChecked(
        [&] { return mlir::emitError(UnknownLoc::get(context)); }, context,
        DictionaryAttr::get(context, entries));
  }
  if (!knobs)
    return llvm::createStringError(message);
  return knobs;
}

std::optional<size_t> tuner::findOption(ArrayRef<dtile::KnobsAttr> options,
                                        const llvm::json::Object &delta) {
  std::string wanted = formatKnobs(delta);
  for (auto [i, option] : llvm::enumerate(options))
    if (formatKnobsJson(option) == wanted)
      return i;
  return std::nullopt;
}

std::string tuner::forkPointKey(StringRef loopKey, dtile::KnobsAttr knobs) {
  return sha256Hex(("tile\n" + loopKey + "\n" + formatKnobsJson(knobs)).str());
}
