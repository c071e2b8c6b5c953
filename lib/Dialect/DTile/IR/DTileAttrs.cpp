//===- DTileAttrs.cpp - Attributes of the tile dialect ----------*- C++ -*-===//

#include "Deplodock/Dialect/DTile/IR/DTileKnobs.h"
#include "Deplodock/Dialect/DTile/IR/DTileOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringExtras.h"

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

// <BK = 32, stage = [0, 1], tma = true>: each value is read as the kind
// its knob declares, so a wrong one is reported where it stands.
Attribute KnobsAttr::parse(AsmParser &parser, Type) {
  MLIRContext *context = parser.getContext();
  Builder b(context);
  NamedAttrList entries;
  auto parseEntry = [&]() -> ParseResult {
    std::string name;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeywordOrString(&name))
      return failure();
    const KnobInfo *knob = lookupKnob(name);
    if (!knob)
      return parser.emitError(loc, describeUnknownKnob(name));
    if (entries.get(name))
      return parser.emitError(loc, "knob '") << name << "' is set twice";
    if (parser.parseEqual())
      return failure();
    SMLoc valueLoc = parser.getCurrentLocation();
    auto expected = [&] {
      return parser.emitError(valueLoc, "knob '")
             << name << "' expects " << describeKnobKind(knob->kind);
    };
    Attribute value;
    switch (knob->kind) {
    case KnobKind::Bool:
      if (succeeded(parser.parseOptionalKeyword("true")))
        value = b.getBoolAttr(true);
      else if (succeeded(parser.parseOptionalKeyword("false")))
        value = b.getBoolAttr(false);
      else
        return expected();
      break;
    case KnobKind::Int: {
      // The parser reads `true` as the integer 1 (of i1); it is no size.
      if (succeeded(parser.parseOptionalKeyword("true")) ||
          succeeded(parser.parseOptionalKeyword("false")))
        return expected();
      int64_t number;
      OptionalParseResult parsed = parser.parseOptionalInteger(number);
      if (!parsed.has_value())
        return expected();
      if (failed(*parsed))
        return failure();
      value = b.getI64IntegerAttr(number);
      break;
    }
    case KnobKind::IntList: {
      if (failed(parser.parseOptionalLSquare()))
        return expected();
      SmallVector<int64_t> list;
      if (failed(parser.parseOptionalRSquare())) {
        auto parseItem = [&]() -> ParseResult {
          if (succeeded(parser.parseOptionalKeyword("true")) ||
              succeeded(parser.parseOptionalKeyword("false")))
            return expected();
          OptionalParseResult parsed =
              parser.parseOptionalInteger(list.emplace_back());
          if (!parsed.has_value())
            return expected();
          return *parsed;
        };
        if (parser.parseCommaSeparatedList(parseItem) || parser.parseRSquare())
          return failure();
      }
      value = b.getDenseI64ArrayAttr(list);
      break;
    }
    }
    entries.append(name, value);
    return success();
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::LessGreater,
                                     parseEntry))
    return {};
  return parser.getChecked<KnobsAttr>(context, entries.getDictionary(context));
}

void KnobsAttr::printBody(llvm::raw_ostream &os, bool compact) const {
  StringRef equal = compact ? "=" : " = ", comma = compact ? "," : ", ";
  llvm::interleave(
      getEntries(), os,
      [&](NamedAttribute entry) {
        os << entry.getName().getValue() << equal;
        Attribute value = entry.getValue();
        if (auto flag = dyn_cast<BoolAttr>(value))
          os << (flag.getValue() ? "true" : "false");
        else if (auto number = dyn_cast<IntegerAttr>(value))
          os << number.getInt();
        else if (auto list = dyn_cast<DenseI64ArrayAttr>(value))
          os << '['
             << llvm::join(llvm::map_range(
                               list.asArrayRef(),
                               [](int64_t v) { return std::to_string(v); }),
                           comma)
             << ']';
        else
          os << value;
      },
      comma);
}

void KnobsAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printBody(printer.getStream(), /*compact=*/false);
  printer << '>';
}

LogicalResult
KnobsAttr::verify(llvm::function_ref<InFlightDiagnostic()> emitError,
                  DictionaryAttr entries) {
  for (NamedAttribute entry : entries) {
    StringRef name = entry.getName().getValue();
    const KnobInfo *knob = lookupKnob(name);
    if (!knob)
      return emitError() << describeUnknownKnob(name);
    if (failed(verifyKnobValue(*knob, entry.getValue(), emitError)))
      return failure();
  }
  return success();
}
