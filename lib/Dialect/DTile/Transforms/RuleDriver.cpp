//===- RuleDriver.cpp - Choosing and applying rule options ------*- C++ -*-===//

#include "Deplodock/Dialect/DTile/Transforms/Rules.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

/// `value` as knob syntax: 32, true, [0, 1].
static std::string knobValue(Attribute value) {
  if (auto flag = dyn_cast<BoolAttr>(value))
    return flag.getValue() ? "true" : "false";
  if (auto number = dyn_cast<IntegerAttr>(value))
    return std::to_string(number.getInt());
  if (auto list = dyn_cast<DenseI64ArrayAttr>(value)) {
    SmallVector<std::string> items;
    for (int64_t v : list.asArrayRef())
      items.push_back(std::to_string(v));
    return "[" + llvm::join(items, ", ") + "]";
  }
  return "?";
}

std::string dtile::describeOptions(const Rule &rule,
                                   ArrayRef<KnobsAttr> options) {
  if (options.empty())
    return (rule.getName() + ": does not apply").str();
  SmallVector<std::string> names;
  for (NamedAttribute entry : options.front().getEntries())
    names.push_back(entry.getName().str());
  SmallVector<std::string> values;
  for (auto [i, option] : llvm::enumerate(options)) {
    SmallVector<std::string> parts;
    for (NamedAttribute entry : option.getEntries())
      parts.push_back(knobValue(entry.getValue()));
    std::string text = parts.size() == 1 ? parts.front()
                                         : "(" + llvm::join(parts, ", ") + ")";
    values.push_back(text + (i == 0 ? "*" : ""));
  }
  std::string lhs = names.size() == 1 ? names.front()
                                      : "(" + llvm::join(names, ", ") + ")";
  return (rule.getName() + ": " + lhs + " in {" + llvm::join(values, ", ") +
          "}")
      .str();
}

LogicalResult dtile::runRule(const Rule &rule, KernelOp kernel,
                             const Target &target, KnobsAttr requested,
                             bool listForks) {
  SmallVector<KnobsAttr> options = rule.getOptions(kernel, target);
  if (listForks)
    kernel.emitRemark() << describeOptions(rule, options);
  if (options.empty())
    return success();
  KnobsAttr chosen = options.front();
  // The requested values of this rule's knobs pick the option, if given.
  SmallVector<NamedAttribute> wanted;
  if (requested)
    for (NamedAttribute entry : options.front().getEntries())
      if (Attribute value = requested.getEntries().get(entry.getName()))
        wanted.push_back({entry.getName(), value});
  if (!wanted.empty()) {
    auto matches = [&](KnobsAttr option) {
      return llvm::all_of(wanted, [&](NamedAttribute w) {
        return option.getEntries().get(w.getName()) == w.getValue();
      });
    };
    auto it = llvm::find_if(options, matches);
    if (it == options.end()) {
      SmallVector<std::string> asked;
      for (NamedAttribute w : wanted)
        asked.push_back((w.getName().strref() + "=" + knobValue(w.getValue()))
                            .str());
      return kernel.emitOpError("knobs ")
             << llvm::join(asked, ",") << " are not a legal option of "
             << describeOptions(rule, options);
    }
    chosen = *it;
  }
  if (failed(rule.apply(kernel, chosen, target)))
    return kernel.emitOpError("rule ")
           << rule.getName() << " failed to apply "
           << describeOptions(rule, {chosen});
  kernel.setKnobsAttr(kernel.getKnobs().merge(chosen));
  return success();
}

FailureOr<llvm::StringMap<KnobsAttr>>
dtile::parseKnobsOption(MLIRContext *context, StringRef text,
                        std::string &error) {
  llvm::StringMap<KnobsAttr> result;
  SmallVector<StringRef> groups;
  text.split(groups, ';', -1, /*KeepEmpty=*/false);
  for (StringRef group : groups) {
    group = group.trim();
    StringRef kernel;
    // `name:` prefix: a kernel name is an identifier followed by ':'.
    size_t colon = group.find(':');
    size_t equal = group.find('=');
    if (colon != StringRef::npos && (equal == StringRef::npos || colon < equal)) {
      kernel = group.take_front(colon).trim();
      group = group.drop_front(colon + 1);
    }
    // `stage=[0:1]` (or `0:1`) lists become `stage = [0, 1]` for the
    // attribute parser.
    SmallVector<StringRef> entries;
    group.split(entries, ',', -1, /*KeepEmpty=*/false);
    SmallVector<std::string> parts;
    for (StringRef entry : entries) {
      auto [name, value] = entry.split('=');
      name = name.trim();
      value = value.trim();
      if (name.empty() || value.empty()) {
        error = ("expected name=value, got '" + entry.trim() + "'").str();
        return failure();
      }
      std::string v = value.str();
      if (value.contains(':') || value.starts_with("["))
        v = "[" + llvm::join(llvm::split(value.trim("[]"), ':'), ", ") + "]";
      parts.push_back((name + " = " + v).str());
    }
    std::string attrText = "#dtile.knobs<" + llvm::join(parts, ", ") + ">";
    std::string diagnostic;
    Attribute attr;
    {
      ScopedDiagnosticHandler handler(context, [&](Diagnostic &diag) {
        diagnostic = diag.str();
        return success();
      });
      attr = parseAttribute(attrText, context);
    }
    auto knobs = dyn_cast_or_null<KnobsAttr>(attr);
    if (!knobs) {
      error = diagnostic.empty() ? "cannot parse knobs '" + group.str() + "'"
                                 : diagnostic;
      return failure();
    }
    KnobsAttr &slot = result[kernel];
    slot = slot ? slot.merge(knobs) : knobs;
  }
  return result;
}

std::string dtile::formatKnobsOption(StringRef kernel, KnobsAttr knobs) {
  SmallVector<std::string> parts;
  for (NamedAttribute entry : knobs.getEntries()) {
    std::string value = knobValue(entry.getValue());
    if (isa<DenseI64ArrayAttr>(entry.getValue())) {
      // Lists print `[0:1]`, `[2]`, `[]`.
      ArrayRef<int64_t> items =
          cast<DenseI64ArrayAttr>(entry.getValue()).asArrayRef();
      SmallVector<std::string> strs;
      for (int64_t v : items)
        strs.push_back(std::to_string(v));
      value = "[" + llvm::join(strs, ":") + "]";
    }
    parts.push_back((entry.getName().strref() + "=" + value).str());
  }
  std::string text = llvm::join(parts, ",");
  return kernel.empty() ? text : (kernel + ":" + text).str();
}
