//===- RuleDriver.cpp - Forks of the rules and running them -----*- C++ -*-===//

#include "Deplodock/Dialect/DTile/Transforms/OptionChooser.h"
#include "Deplodock/Dialect/DTile/Transforms/Rules.h"

#include "Deplodock/Dialect/DTile/IR/DTileKnobs.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <limits>
#include <set>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

bool dtile::hasDecided(const Rule &rule, KernelOp kernel) {
  return llvm::any_of(kernel.getKnobs().getEntries(), [&](NamedAttribute e) {
    const KnobInfo *knob = lookupKnob(e.getName());
    return knob && knob->rule == rule.getName();
  });
}

SmallVector<KnobsAttr> dtile::getForkOptions(const Rule &rule, KernelOp kernel,
                                             TargetAttr target,
                                             size_t *defaultRank) {
  if (defaultRank)
    *defaultRank = 0;
  // A kernel whose tile was dropped (it stores nothing) has nothing left
  // to decide.
  if (!kernel.getTile() || hasDecided(rule, kernel))
    return {};
  SmallVector<KnobsAttr> options = rule.getLegalOptions(kernel, target);
  if (options.size() < 2)
    return options;
  size_t pick = rule.chooseDefault(kernel, options, target);
  if (defaultRank)
    *defaultRank = pick;
  // The default first, the others in canonical order.
  std::rotate(options.begin(), options.begin() + pick,
              options.begin() + pick + 1);
  return options;
}

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
  // Named by every knob some option sets, in name order (the order of an
  // option's entries); an option leaving knobs out shows the rest, as the
  // leading ones where another option sets them all, and '-' for each
  // unset one where none does.
  std::set<StringRef> all;
  size_t widest = 0;
  for (KnobsAttr option : options) {
    widest = std::max(widest, option.getEntries().size());
    for (NamedAttribute entry : option.getEntries())
      all.insert(entry.getName().getValue());
  }
  bool padded = all.size() > widest;
  SmallVector<StringRef> names(all.begin(), all.end());
  SmallVector<std::string> values;
  for (auto [i, option] : llvm::enumerate(options)) {
    SmallVector<std::string> parts;
    for (StringRef name : names) {
      if (Attribute value = option.getEntries().get(name))
        parts.push_back(knobValue(value));
      else if (padded)
        parts.push_back("-");
    }
    std::string text =
        parts.size() == 1 ? parts.front() : "(" + llvm::join(parts, ", ") + ")";
    values.push_back(text + (i == 0 ? "*" : ""));
  }
  std::string lhs = llvm::join(names, ", ");
  if (names.size() > 1)
    lhs = "(" + lhs + ")";
  return (rule.getName() + ": " + lhs + " in {" + llvm::join(values, ", ") +
          "}")
      .str();
}

LogicalResult dtile::runRule(const Rule &rule, KernelOp kernel,
                             TargetAttr target, OptionChooser &chooser,
                             bool listForks) {
  if (failed(chooser.beforeRule(rule, kernel, target)))
    return failure();
  SmallVector<KnobsAttr> options = getForkOptions(rule, kernel, target);
  if (listForks) {
    InFlightDiagnostic remark = kernel.emitRemark()
                                << "@" << kernel.getSymName() << ": "
                                << describeOptions(rule, options);
    if (options.empty() && kernel.getTile() && !hasDecided(rule, kernel))
      if (std::string why = rule.getRefusal(kernel, target); !why.empty())
        remark << ": " << why;
  }
  if (options.empty())
    return success();
  FailureOr<size_t> pick = chooser.choose(rule, kernel, options);
  if (failed(pick))
    return failure();
  KnobsAttr chosen = options[*pick < options.size() ? *pick : 0];
  if (failed(rule.apply(kernel, chosen, target)))
    return kernel.emitOpError("rule ") << rule.getName() << " failed to apply "
                                       << describeOptions(rule, {chosen});
  kernel.setKnobsAttr(kernel.getKnobs().merge(chosen));
  return success();
}

/// How much machinery one knob asks for (see simplestOption).
static double knobCost(StringRef name, Attribute value) {
  if (auto flag = dyn_cast<BoolAttr>(value))
    return flag.getValue() ? 1 : 0;
  if (auto list = dyn_cast<DenseI64ArrayAttr>(value))
    return list.size();
  auto number = dyn_cast<IntegerAttr>(value);
  const KnobInfo *knob = lookupKnob(name);
  if (!number || !knob || number.getInt() < 1)
    return 0;
  switch (knob->cost) {
  case KnobCost::None:
    return 0;
  case KnobCost::Log2:
    return std::log2(static_cast<double>(number.getInt()));
  case KnobCost::NonZero:
    return 1;
  }
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
