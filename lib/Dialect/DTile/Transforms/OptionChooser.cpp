//===- OptionChooser.cpp - Who picks an option at each fork -----*- C++ -*-===//

#include "Deplodock/Dialect/DTile/Transforms/OptionChooser.h"

#include "Deplodock/Dialect/Common/Sizes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

OptionChooser::~OptionChooser() = default;

namespace {

class HeuristicChooser final : public OptionChooser {
public:
  StringRef getName() const override { return "heuristic"; }
  FailureOr<size_t> choose(const Rule &, KernelOp,
                           ArrayRef<KnobsAttr>) override {
    return 0;
  }
};

class SimplestChooser final : public OptionChooser {
public:
  StringRef getName() const override { return "simplest"; }
  FailureOr<size_t> choose(const Rule &, KernelOp,
                           ArrayRef<KnobsAttr> options) override {
    return simplestOption(options);
  }
};

/// `knobs=`: the options the requested knobs name, the fallback elsewhere.
class FixedKnobsChooser final : public OptionChooser {
public:
  FixedKnobsChooser(llvm::StringMap<KnobsAttr> requested,
                    OptionChooser &fallback, bool requireTaken)
      : requested(std::move(requested)), fallback(fallback),
        requireTaken(requireTaken) {}

  StringRef getName() const override { return "knobs"; }

  LogicalResult beginModule(ModuleOp module, TargetAttr target,
                            ArrayRef<dloop::KernelOp> loops) override {
    if (failed(fallback.beginModule(module, target, loops)))
      return failure();
    // A misspelt kernel name would otherwise change nothing.
    llvm::StringSet<> kernels;
    module.walk([&](Operation *op) {
      if (auto tile = dyn_cast<KernelOp>(op))
        kernels.insert(tile.getSymName());
      else if (auto loop = dyn_cast<dloop::KernelOp>(op))
        kernels.insert(loop.getSymName());
    });
    SmallVector<StringRef> names;
    for (const auto &entry : requested)
      if (!entry.getKey().empty())
        names.push_back(entry.getKey());
    llvm::sort(names);
    for (StringRef name : names)
      if (!kernels.contains(name))
        return module.emitError("no kernel @")
               << name << " to take knobs "
               << formatKnobsOption("", requested.lookup(name));
    return success();
  }

  LogicalResult beginKernel(KernelOp kernel, size_t index) override {
    return fallback.beginKernel(kernel, index);
  }

  LogicalResult beforeRule(const Rule &rule, KernelOp kernel,
                           TargetAttr target) override {
    if (KnobsAttr wanted = requestedFor(kernel))
      if (failed(rule.checkRequest(kernel, target, wanted)))
        return failure();
    return fallback.beforeRule(rule, kernel, target);
  }

  FailureOr<size_t> choose(const Rule &rule, KernelOp kernel,
                           ArrayRef<KnobsAttr> options) override {
    // The requested values of this rule's knobs pick the option, if given
    // (any option's knobs: optional ones are absent from some).
    SmallVector<NamedAttribute> wanted;
    if (KnobsAttr all = requestedFor(kernel))
      for (KnobsAttr option : options)
        for (NamedAttribute entry : option.getEntries())
          if (Attribute value = all.getEntries().get(entry.getName());
              value && !llvm::any_of(wanted, [&](NamedAttribute w) {
                return w.getName() == entry.getName();
              }))
            wanted.push_back({entry.getName(), value});
    if (wanted.empty())
      return fallback.choose(rule, kernel, options);
    auto matches = [&](KnobsAttr option) {
      return llvm::all_of(wanted, [&](NamedAttribute w) {
        return option.getEntries().get(w.getName()) == w.getValue();
      });
    };
    // An option setting exactly the requested knobs first: an optional knob
    // left out means its absence (no split), as a recorded variant says.
    auto it = llvm::find_if(options, [&](KnobsAttr option) {
      return matches(option) && option.getEntries().size() == wanted.size();
    });
    if (it == options.end())
      it = llvm::find_if(options, matches);
    if (it != options.end())
      return static_cast<size_t>(it - options.begin());
    return kernel.emitOpError("knobs ")
           << formatKnobsOption("", KnobsAttr::get(kernel.getContext(), wanted))
           << " are not a legal option of " << describeOptions(rule, options);
  }

  LogicalResult endKernel(KernelOp kernel) override {
    if (failed(fallback.endKernel(kernel)))
      return failure();
    if (!requireTaken)
      return success();
    // A knob meant for this kernel must have been taken.
    KnobsAttr taken = kernel.getKnobs();
    for (NamedAttribute entry : taken.getEntries())
      used.insert(entry.getName());
    if (KnobsAttr own = requested.lookup(kernel.getSymName()))
      for (NamedAttribute entry : own.getEntries())
        if (taken.getEntries().get(entry.getName()) != entry.getValue())
          return kernel.emitOpError("no rule took knob ")
                 << entry.getName() << " for this kernel";
    return success();
  }

  LogicalResult endModule(ModuleOp module) override {
    if (failed(fallback.endModule(module)))
      return failure();
    if (!requireTaken)
      return success();
    if (KnobsAttr all = requested.lookup(""))
      for (NamedAttribute entry : all.getEntries())
        if (!used.contains(entry.getName()))
          return module.emitError("no rule took knob ")
                 << entry.getName() << " for any kernel";
    return success();
  }

private:
  /// The knobs for every kernel, overridden by those naming `kernel`.
  KnobsAttr requestedFor(KernelOp kernel) const {
    KnobsAttr all = requested.lookup(""),
              own = requested.lookup(kernel.getSymName());
    if (all && own)
      return all.merge(own);
    return all ? all : own;
  }

  llvm::StringMap<KnobsAttr> requested;
  OptionChooser &fallback;
  bool requireTaken;
  llvm::StringSet<> used;
};

} // namespace

std::unique_ptr<OptionChooser> dtile::createHeuristicChooser() {
  return std::make_unique<HeuristicChooser>();
}

std::unique_ptr<OptionChooser> dtile::createSimplestChooser() {
  return std::make_unique<SimplestChooser>();
}

std::unique_ptr<OptionChooser>
dtile::createFixedKnobsChooser(llvm::StringMap<KnobsAttr> requested,
                               OptionChooser &fallback, bool requireTaken) {
  return std::make_unique<FixedKnobsChooser>(std::move(requested), fallback,
                                             requireTaken);
}

/// Whether a 64-bit size counts the bytes of `type` (static shapes only;
/// index and other elements as 8 bytes, the widest index). An empty shape
/// counts 0 whatever its other extents.
static bool hasCountableBytes(MemRefType type) {
  if (!type.hasStaticShape())
    return true;
  Type element = type.getElementType();
  int64_t elementBytes =
      element.isIntOrFloat() ? (element.getIntOrFloatBitWidth() + 7) / 8 : 8;
  std::optional<int64_t> elements = checkedNumElements(type.getShape());
  return elements && checkedNumElements({*elements, elementBytes});
}

/// Refuses a kernel with a buffer (or a thread's private array) whose bytes
/// a 64-bit size cannot count: the rules multiply its extents into point,
/// block and byte counts, and no GPU could hold it.
static LogicalResult checkCountable(dloop::KernelOp kernel) {
  for (Value operand : kernel->getOperands())
    if (auto type = dyn_cast<MemRefType>(operand.getType());
        type && !hasCountableBytes(type))
      return kernel.emitOpError("reads or writes a buffer of type ")
             << type << ", which has more bytes than a 64-bit size can count";
  WalkResult walk = kernel.walk([](memref::AllocaOp alloca) {
    if (hasCountableBytes(alloca.getType()))
      return WalkResult::advance();
    alloca.emitOpError("allocates ")
        << alloca.getType()
        << ", which has more bytes than a 64-bit size can count";
    return WalkResult::interrupt();
  });
  return failure(walk.wasInterrupted());
}

LogicalResult dtile::lowerToTile(ModuleOp module, TargetAttr target,
                                 OptionChooser &chooser, bool listForks) {
  SmallVector<dloop::KernelOp> loops;
  module.walk([&](dloop::KernelOp kernel) { loops.push_back(kernel); });
  for (dloop::KernelOp loop : loops)
    if (failed(checkCountable(loop)))
      return failure();
  if (failed(chooser.beginModule(module, target, loops)))
    return failure();
  SmallVector<KernelOp> kernels;
  for (dloop::KernelOp loop : loops) {
    FailureOr<KernelOp> tiled = tileify(loop);
    if (failed(tiled))
      return failure();
    kernels.push_back(*tiled);
  }
  for (auto [index, kernel] : llvm::enumerate(kernels)) {
    if (failed(chooser.beginKernel(kernel, index)))
      return failure();
    for (const std::unique_ptr<Rule> &rule : getRules())
      if (failed(runRule(*rule, kernel, target, chooser, listForks)))
        return failure();
    if (failed(chooser.endKernel(kernel)))
      return failure();
  }
  return chooser.endModule(module);
}
