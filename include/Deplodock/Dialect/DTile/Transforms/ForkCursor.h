//===- ForkCursor.h - Walking the fork tree of one kernel -------*- C++ -*-===//
//
// A kernel's variants form a tree: the rules run in order, and each rule
// with several legal options branches. A cursor is a position in that tree:
// the kernel with some rules applied and the next rule to decide. Cursors own
// a private copy of the kernel (in a function whose arguments stand for its
// buffers), so exploring never touches, nor even uses, the input IR.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_DIALECT_DTILE_TRANSFORMS_FORKCURSOR_H
#define DEPLODOCK_DIALECT_DTILE_TRANSFORMS_FORKCURSOR_H

#include "Deplodock/Dialect/DTile/Transforms/Rules.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <random>

namespace deplodock::dtile {

/// A kernel partway through the Tile rules.
class ForkCursor {
public:
  /// Tileifies a copy of `kernel` and stops at the first rule that applies.
  static mlir::FailureOr<ForkCursor> start(dloop::KernelOp kernel,
                                           TargetAttr target);

  /// Whether every rule has run.
  bool isDone() const { return ruleIndex >= getRules().size(); }
  /// The rule to decide next, and its fork (getForkOptions: the
  /// heuristic's pick first).
  const Rule &getRule() const { return *getRules()[ruleIndex]; }
  llvm::ArrayRef<KnobsAttr> getOptions() const { return options; }
  /// Positions in getOptions() in the order a search should try them: the
  /// default, then its neighbours in the rule's canonical order (the next,
  /// the previous, the one after, ...). Canonical orders run by size, so a
  /// search trying a few options of a fork at a time meets the ones most
  /// like the default first.
  llvm::SmallVector<unsigned> getSearchOrder() const;

  /// The cursor after choosing `option` (one of getOptions()).
  mlir::FailureOr<ForkCursor> choose(KnobsAttr option) const;

  /// The kernel as far as it got, and the knobs chosen so far.
  KernelOp getKernel() const;
  KnobsAttr getKnobs() const { return getKernel().getKnobs(); }

  /// Every complete knob assignment below this cursor, depth-first in option
  /// order, stopping after `limit`.
  mlir::FailureOr<llvm::SmallVector<KnobsAttr>> enumerate(size_t limit) const;

  /// One complete assignment, each fork chosen uniformly at random.
  mlir::FailureOr<KnobsAttr> sample(std::mt19937_64 &rng) const;

  /// How many complete assignments are below this cursor, up to `limit`
  /// (as many as enumerate(limit) returns).
  mlir::FailureOr<size_t> count(size_t limit) const;

private:
  ForkCursor(mlir::OwningOpRef<mlir::ModuleOp> module, TargetAttr target)
      : module(std::move(module)), target(target) {}
  /// Moves to the next rule that has options (or to the end).
  void advance(size_t from);

  /// The private copy; mutable because reading it needs a non-const handle.
  mutable mlir::OwningOpRef<mlir::ModuleOp> module;
  TargetAttr target;
  size_t ruleIndex = 0;
  llvm::SmallVector<KnobsAttr> options;
  /// The default's position in the rule's canonical order.
  size_t defaultRank = 0;
};

} // namespace deplodock::dtile

#endif // DEPLODOCK_DIALECT_DTILE_TRANSFORMS_FORKCURSOR_H
