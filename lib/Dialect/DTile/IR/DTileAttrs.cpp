//===- DTileAttrs.cpp - Attributes of the tile dialect ----------*- C++ -*-===//

#include "Deplodock/Dialect/DTile/IR/DTileKnobs.h"
#include "Deplodock/Dialect/DTile/IR/DTileOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"

using namespace mlir;
using namespace deplodock::dtile;

KnobsAttr KnobsAttr::get(MLIRContext *context,
                         ArrayRef<NamedAttribute> entries) {
  return get(context, DictionaryAttr::get(context, entries));
}

std::optional<int64_t> KnobsAttr::getInt(StringRef name) const {
  // A BoolAttr is an IntegerAttr too; a boolean knob is not an integer one.
  if (auto value = getEntries().getAs<IntegerAttr>(name);
      value && !isa<BoolAttr>(value))
    return value.getInt();
  return std::nullopt;
}

std::optional<bool> KnobsAttr::getBool(StringRef name) const {
  if (auto value = getEntries().getAs<BoolAttr>(name))
    return value.getValue();
  return std::nullopt;
}

std::optional<ArrayRef<int64_t>> KnobsAttr::getList(StringRef name) const {
  if (auto value = getEntries().getAs<DenseI64ArrayAttr>(name))
    return value.asArrayRef();
  return std::nullopt;
}

KnobsAttr KnobsAttr::merge(KnobsAttr other) const {
  NamedAttrList entries(getEntries());
  for (NamedAttribute entry : other.getEntries())
    entries.set(entry.getName(), entry.getValue());
  return get(getContext(), entries.getDictionary(getContext()));
}

// <BK = 32, stage = [0, 1], tma = true>
Attribute KnobsAttr::parse(AsmParser &parser, Type) {
  MLIRContext *context = parser.getContext();
  Builder b(context);
  NamedAttrList entries;
  auto parseEntry = [&]() -> ParseResult {
    std::string name;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeywordOrString(&name) || parser.parseEqual())
      return failure();
    if (entries.get(name))
      return parser.emitError(loc, "knob '") << name << "' is set twice";
    Attribute value;
    if (succeeded(parser.parseOptionalKeyword("true"))) {
      value = b.getBoolAttr(true);
    } else if (succeeded(parser.parseOptionalKeyword("false"))) {
      value = b.getBoolAttr(false);
    } else if (succeeded(parser.parseOptionalLSquare())) {
      SmallVector<int64_t> list;
      if (failed(parser.parseOptionalRSquare())) {
        if (parser.parseCommaSeparatedList([&]() -> ParseResult {
              return parser.parseInteger(list.emplace_back());
            }) ||
            parser.parseRSquare())
          return failure();
      }
      value = b.getDenseI64ArrayAttr(list);
    } else {
      int64_t number;
      if (parser.parseInteger(number))
        return failure();
      value = b.getI64IntegerAttr(number);
    }
    entries.append(name, value);
    return success();
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::LessGreater,
                                     parseEntry))
    return {};
  return parser.getChecked<KnobsAttr>(context, entries.getDictionary(context));
}

void KnobsAttr::print(AsmPrinter &printer) const {
  printer << '<';
  llvm::interleaveComma(getEntries(), printer, [&](NamedAttribute entry) {
    printer.printKeywordOrString(entry.getName().getValue());
    printer << " = ";
    Attribute value = entry.getValue();
    if (auto flag = dyn_cast<BoolAttr>(value))
      printer << (flag.getValue() ? "true" : "false");
    else if (auto number = dyn_cast<IntegerAttr>(value))
      printer << number.getInt();
    else if (auto list = dyn_cast<DenseI64ArrayAttr>(value))
      printer << '[' << list.asArrayRef() << ']';
    else
      printer << value;
  });
  printer << '>';
}

LogicalResult
KnobsAttr::verify(llvm::function_ref<InFlightDiagnostic()> emitError,
                  DictionaryAttr entries) {
  for (NamedAttribute entry : entries) {
    StringRef name = entry.getName().getValue();
    const KnobInfo *knob = lookupKnob(name);
    if (!knob)
      return emitError() << "unknown knob '" << name << "'";
    Attribute value = entry.getValue();
    bool ok = false;
    switch (knob->kind) {
    case KnobKind::Int:
      ok = isa<IntegerAttr>(value) && !isa<BoolAttr>(value);
      break;
    case KnobKind::Bool:
      ok = isa<BoolAttr>(value);
      break;
    case KnobKind::IntList:
      ok = isa<DenseI64ArrayAttr>(value);
      break;
    }
    if (!ok)
      return emitError() << "knob '" << name << "' expects "
                         << describeKnobKind(knob->kind);
    // Sizes, factors and input positions: none is negative.
    bool negative = false;
    if (auto number = dyn_cast<IntegerAttr>(value);
        number && !isa<BoolAttr>(value))
      negative = number.getValue().isNegative();
    else if (auto list = dyn_cast<DenseI64ArrayAttr>(value))
      negative =
          llvm::any_of(list.asArrayRef(), [](int64_t v) { return v < 0; });
    if (negative)
      return emitError() << "knob '" << name << "' must not be negative";
  }
  return success();
}
