//===- KnobsOption.cpp - The textual syntax of knobs ------------*- C++ -*-===//
//
// Knobs are written one way everywhere: the body of `#dtile.knobs`, which
// the attribute's own parser reads. A knobs option adds only the kernel
// names: `BK=32;matmul:BM=16,stage=[0,1]`.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Dialect/DTile/Transforms/Rules.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

/// The knobs `body` spells, or an error with the parser's message.
static llvm::Expected<KnobsAttr> parseKnobs(MLIRContext *context,
                                            StringRef body) {
  std::string message;
  Attribute attr;
  {
    ScopedDiagnosticHandler handler(context, [&](Diagnostic &diag) {
      if (message.empty())
        message = diag.str();
      return success();
    });
    context->getOrLoadDialect<DTileDialect>();
    attr = mlir::parseAttribute(("#dtile.knobs<" + body + ">").str(), context);
  }
  if (auto knobs = dyn_cast_or_null<KnobsAttr>(attr))
    return knobs;
  return llvm::createStringError(message.empty() ? "expected knobs" : message);
}

llvm::Expected<llvm::StringMap<KnobsAttr>>
dtile::parseKnobsOption(MLIRContext *context, StringRef text) {
  llvm::StringMap<KnobsAttr> result;
  SmallVector<StringRef> groups;
  text.split(groups, ';', -1, /*KeepEmpty=*/false);
  for (StringRef group : groups) {
    group = group.trim();
    StringRef kernel;
    // `name:` prefix: a kernel name is an identifier followed by ':'.
    size_t colon = group.find(':');
    size_t equal = group.find('=');
    if (colon != StringRef::npos &&
        (equal == StringRef::npos || colon < equal)) {
      kernel = group.take_front(colon).trim();
      group = group.drop_front(colon + 1).trim();
    }
    KnobsAttr knobs = KnobsAttr::get(context, ArrayRef<NamedAttribute>{});
    if (!group.empty()) {
      llvm::Expected<KnobsAttr> parsed = parseKnobs(context, group);
      if (!parsed)
        return parsed.takeError();
      knobs = *parsed;
    }
    // Groups naming the same kernel add up; a knob set in two is an error.
    auto [it, inserted] = result.try_emplace(kernel, knobs);
    if (inserted)
      continue;
    for (NamedAttribute entry : knobs.getEntries())
      if (it->second.getEntries().get(entry.getName()))
        return llvm::createStringError(
            ("knob '" + entry.getName().strref() + "' is set twice" +
             (kernel.empty() ? "" : " for kernel " + kernel))
                .str());
    it->second = it->second.merge(knobs);
  }
  return result;
}

std::string dtile::formatKnobsOption(StringRef kernel, KnobsAttr knobs) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (!kernel.empty())
    os << kernel << ":";
  knobs.printBody(os, /*compact=*/true);
  return text;
}
