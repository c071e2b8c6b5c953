//===- OptionChooser.h - Who picks an option at each fork -------*- C++ -*-===//
//
// The lowering to Tile IR runs every rule on every kernel; where a rule has
// several legal options, an OptionChooser picks one. The choosers here are
// the rules' heuristics, the simplest option (the reference lowering) and
// fixed knobs (`knobs=`); the tuner adds one replaying a tuning database
// (tuner::createReplayChooser). Whoever builds the pipeline passes the
// chooser to createDTileLowerPass, so the lowering never depends on where
// its decisions come from.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_DIALECT_DTILE_TRANSFORMS_OPTIONCHOOSER_H
#define DEPLODOCK_DIALECT_DTILE_TRANSFORMS_OPTIONCHOOSER_H

#include "Deplodock/Dialect/DTile/Transforms/Rules.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace deplodock::dtile {

/// Picks the options of the forks of one lowering. The hooks run in this
/// order: beginModule; then per kernel beginKernel, per rule beforeRule and
/// (where the rule applies) choose, then endKernel; then endModule. Each
/// fails after emitting a located error.
class OptionChooser {
public:
  virtual ~OptionChooser();

  /// What chooses, for diagnostics (`tune-db`, `simplest`).
  virtual llvm::StringRef getName() const = 0;

  /// Before any kernel is tileified: the Loop IR kernels of `module`.
  virtual mlir::LogicalResult beginModule(mlir::ModuleOp module,
                                          TargetAttr target,
                                          llvm::ArrayRef<dloop::KernelOp>) {
    return mlir::success();
  }
  /// Before the rules run on `kernel`, tileified from the `index`th Loop IR
  /// kernel of beginModule.
  virtual mlir::LogicalResult beginKernel(KernelOp kernel, size_t index) {
    return mlir::success();
  }
  /// Before `rule` lists its options for `kernel`.
  virtual mlir::LogicalResult beforeRule(const Rule &rule, KernelOp kernel,
                                         TargetAttr target) {
    return mlir::success();
  }
  /// The index of the option to take among `options`, the fork of `rule`
  /// at `kernel` (getForkOptions: option 0 is the heuristic's pick).
  virtual mlir::FailureOr<size_t> choose(const Rule &rule, KernelOp kernel,
                                         llvm::ArrayRef<KnobsAttr> options) = 0;
  /// After every rule ran on `kernel`.
  virtual mlir::LogicalResult endKernel(KernelOp kernel) {
    return mlir::success();
  }
  /// After every kernel.
  virtual mlir::LogicalResult endModule(mlir::ModuleOp module) {
    return mlir::success();
  }
};

/// Every rule's heuristic: option 0 of every fork.
std::unique_ptr<OptionChooser> createHeuristicChooser();

/// The simplest option of every fork (simplestOption).
std::unique_ptr<OptionChooser> createSimplestChooser();

/// The options the knobs `requested` name (knobs for every kernel under "",
/// overridden by those under a kernel's name), `fallback` at the forks they
/// do not decide. It fails on a knob value no option has, a kernel name no
/// kernel has, and, with `requireTaken`, a requested knob no rule took.
std::unique_ptr<OptionChooser>
createFixedKnobsChooser(llvm::StringMap<KnobsAttr> requested,
                        OptionChooser &fallback, bool requireTaken);

/// Tileifies every dloop.kernel of `module` and runs every rule on each,
/// `chooser` deciding the forks. With `listForks`, remarks every fork.
mlir::LogicalResult lowerToTile(mlir::ModuleOp module, TargetAttr target,
                                OptionChooser &chooser, bool listForks);

struct DTileLowerOptions;

/// The dtile-lower pass with `chooser` deciding the forks `knobs` leaves
/// open instead of the heuristic (null: the heuristic, or the simplest
/// option with `simplest`, which then must not be combined with a chooser).
std::unique_ptr<mlir::Pass>
createDTileLowerPass(const DTileLowerOptions &options,
                     std::shared_ptr<OptionChooser> chooser);

/// Makes the dtile-lower pass `pass` take `chooser` where it would take the
/// heuristic (for a tool that adds a chooser to a parsed pipeline). Fails
/// when `pass` is no dtile-lower pass or already has a chooser or
/// `simplest`.
mlir::LogicalResult
setDTileLowerChooser(mlir::Pass &pass, std::shared_ptr<OptionChooser> chooser);

} // namespace deplodock::dtile

#endif // DEPLODOCK_DIALECT_DTILE_TRANSFORMS_OPTIONCHOOSER_H
