//===- RuleDriver.cpp - Choosing and applying rule options ------*- C++ -*-===//

#include "Deplodock/Dialect/DTile/Transforms/Rules.h"

#include "Deplodock/Dialect/DTile/IR/DTileKnobs.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <limits>

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
    std::string text =
        parts.size() == 1 ? parts.front() : "(" + llvm::join(parts, ", ") + ")";
    values.push_back(text + (i == 0 ? "*" : ""));
  }
  std::string lhs =
      names.size() == 1 ? names.front() : "(" + llvm::join(names, ", ") + ")";
  return (rule.getName() + ": " + lhs + " in {" + llvm::join(values, ", ") +
          "}")
      .str();
}

LogicalResult dtile::runRule(const Rule &rule, KernelOp kernel,
                             const Target &target, KnobsAttr requested,
                             bool listForks, OptionChooser chooser) {
  if (requested && failed(rule.checkRequest(kernel, target, requested)))
    return failure();
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
        asked.push_back(
            (w.getName().strref() + "=" + knobValue(w.getValue())).str());
      return kernel.emitOpError("knobs ")
             << llvm::join(asked, ",") << " are not a legal option of "
             << describeOptions(rule, options);
    }
    chosen = *it;
  } else if (chooser && options.size() > 1) {
    FailureOr<std::optional<size_t>> pick = chooser(rule, kernel, options);
    if (failed(pick))
      return failure();
    if (*pick && **pick < options.size())
      chosen = options[**pick];
  }
  if (failed(rule.apply(kernel, chosen, target)))
    return kernel.emitOpError("rule ") << rule.getName() << " failed to apply "
                                       << describeOptions(rule, {chosen});
  kernel.setKnobsAttr(kernel.getKnobs().merge(chosen));
  return success();
}

/// The value of knob `name` written as `text` (`32`, `true`, `[0:1]`, `0:1`,
/// `[]`), or null with a message in `error`.
static Attribute parseKnobValue(Builder &b, StringRef name, StringRef text,
                                std::string &error) {
  const KnobInfo *knob = lookupKnob(name);
  if (!knob) {
    error = ("unknown knob '" + name + "'").str();
    return {};
  }
  auto expected = [&] {
    error = ("knob '" + name + "' expects " + describeKnobKind(knob->kind) +
             ", got '" + text + "'")
                .str();
    return Attribute();
  };
  switch (knob->kind) {
  case KnobKind::Int: {
    int64_t value;
    if (text.getAsInteger(10, value))
      return expected();
    return b.getI64IntegerAttr(value);
  }
  case KnobKind::Bool:
    if (text == "true" || text == "false")
      return b.getBoolAttr(text == "true");
    return expected();
  case KnobKind::IntList: {
    // `[0:1]`, `0:1`, `[2]`, `[]`: ',' separates knobs, so ':' items.
    StringRef items = text;
    if (items.consume_front("[") != items.consume_back("]"))
      return expected();
    SmallVector<int64_t> values;
    if (!items.trim().empty())
      for (StringRef item : llvm::split(items, ':'))
        if (item.trim().getAsInteger(10, values.emplace_back()))
          return expected();
    return b.getDenseI64ArrayAttr(values);
  }
  }
  return expected();
}

FailureOr<llvm::StringMap<KnobsAttr>>
dtile::parseKnobsOption(MLIRContext *context, StringRef text,
                        std::string &error) {
  Builder b(context);
  llvm::StringMap<NamedAttrList> entries;
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
      group = group.drop_front(colon + 1);
    }
    NamedAttrList &knobs = entries[kernel];
    SmallVector<StringRef> items;
    group.split(items, ',', -1, /*KeepEmpty=*/false);
    for (StringRef item : items) {
      auto [name, value] = item.split('=');
      name = name.trim();
      value = value.trim();
      if (name.empty() || value.empty() || !item.contains('=')) {
        error = ("expected name=value, got '" + item.trim() + "'").str();
        return failure();
      }
      Attribute attr = parseKnobValue(b, name, value, error);
      if (!attr)
        return failure();
      if (knobs.get(name)) {
        error = ("knob '" + name + "' is set twice" +
                 (kernel.empty() ? "" : " for kernel " + kernel))
                    .str();
        return failure();
      }
      knobs.append(name, attr);
    }
  }
  llvm::StringMap<KnobsAttr> result;
  for (auto &[kernel, knobs] : entries) {
    // The verifier rejects what the syntax allows but a knob does not (a
    // negative size).
    KnobsAttr attr;
    {
      ScopedDiagnosticHandler handler(context, [&](Diagnostic &diag) {
        error = diag.str();
        return success();
      });
      attr = KnobsAttr::getChecked(
          [&] { return mlir::emitError(UnknownLoc::get(context)); }, context,
          knobs.getDictionary(context));
    }
    if (!attr)
      return failure();
    result[kernel] = attr;
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

/// How much machinery one knob asks for (see simplestOption).
static double knobCost(StringRef name, Attribute value) {
  if (auto flag = dyn_cast<BoolAttr>(value))
    return flag.getValue() ? 1 : 0;
  if (auto list = dyn_cast<ArrayAttr>(value))
    return list.size();
  if (auto list = dyn_cast<DenseI64ArrayAttr>(value))
    return list.size();
  auto number = dyn_cast<IntegerAttr>(value);
  if (!number || number.getInt() < 1)
    return 0;
  // Counts of threads cooperating, of values a thread holds, of copies of
  // a loop body, of blocks sharing a sum: each doubling is more to get
  // right. Tile shapes are not.
  if (llvm::is_contained({"threads", "FM", "FN", "unroll", "split_k"}, name))
    return std::log2(static_cast<double>(number.getInt()));
  // Any swizzle permutes every slab read.
  if (name == "swizzle")
    return 1;
  return 0;
}

size_t deplodock::dtile::simplestOption(ArrayRef<KnobsAttr> options) {
  size_t best = 0;
  double bestCost = std::numeric_limits<double>::infinity();
  for (auto [i, option] : llvm::enumerate(options)) {
    double cost = 0;
    for (NamedAttribute entry : option.getEntries())
      cost += knobCost(entry.getName(), entry.getValue());
    if (cost < bestCost) {
      best = i;
      bestCost = cost;
    }
  }
  return best;
}
