//===- Rules.h - The Tile rules and their fork interface --------*- C++ -*-===//
//
// A Tile rule takes one decision about how a kernel maps onto a GPU, in
// three parts kept apart: legality (the options the rule can apply to a
// kernel on the module's target, in a canonical order; none when it does
// not apply), policy (its heuristic, which picks the default among them)
// and mechanism (applying one). Which option a lowering takes is up to an
// OptionChooser (OptionChooser.h): the heuristic's, the one `knobs=` names,
// the simplest, or the one a tuning database recorded.
//
// Rules.td declares every rule and its knobs; rules are written against the
// generated knob structs (TypedRule), and decide whether they apply from
// the IR, never from another rule's knobs.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_DIALECT_DTILE_TRANSFORMS_RULES_H
#define DEPLODOCK_DIALECT_DTILE_TRANSFORMS_RULES_H

#include "Deplodock/Dialect/DKernel/IR/Target.h"
#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h"
#include "Deplodock/Dialect/DTile/IR/DTileOps.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <optional>

namespace deplodock::dtile {

using dkernel::TargetAttr;
/// The GPU the rules lower for: the module's `#dkernel.target`.
using Target = TargetAttr;

class OptionChooser;

/// One Tile rule.
class Rule {
public:
  virtual ~Rule() = default;

  /// The rule's name, as Rules.td declares it (`chunk_matmul_k`).
  virtual llvm::StringRef getName() const = 0;

  /// Legality: the options `kernel` admits on `target`, each as the knobs
  /// it sets, in the rule's canonical order; empty when the rule does not
  /// apply.
  virtual llvm::SmallVector<KnobsAttr>
  getLegalOptions(KernelOp kernel, TargetAttr target) const = 0;

  /// Policy: the index in `legal` (getLegalOptions, not empty) of the
  /// option the rule's heuristic takes.
  virtual size_t chooseDefault(KernelOp kernel, llvm::ArrayRef<KnobsAttr> legal,
                               TargetAttr target) const = 0;

  /// Mechanism: applies `option`, one of getLegalOptions(kernel, target).
  /// The caller stamps the option's knobs on the kernel.
  virtual mlir::LogicalResult apply(KernelOp kernel, KnobsAttr option,
                                    TargetAttr target) const = 0;

  /// Checks the knobs `requested` for `kernel` before the options are
  /// listed, so that a request the rule can never meet on `target` fails
  /// with a located reason instead of being ignored.
  virtual mlir::LogicalResult checkRequest(KernelOp kernel, TargetAttr target,
                                           KnobsAttr requested) const {
    return mlir::success();
  }

  /// Why the rule does not apply to `kernel` on `target`, for rules that
  /// can say (list-forks prints it with "does not apply"); empty otherwise.
  virtual std::string getRefusal(KernelOp kernel, TargetAttr target) const {
    return {};
  }
};

/// A rule written against its generated knob struct (`ChunkMatmulKKnobs`),
/// which converts from and to `#dtile.knobs`: the three hooks below are the
/// rule.
template <typename Knobs> class TypedRule : public Rule {
public:
  llvm::StringRef getName() const final { return Knobs::getRuleName(); }

  llvm::SmallVector<KnobsAttr> getLegalOptions(KernelOp kernel,
                                               TargetAttr target) const final {
    llvm::SmallVector<KnobsAttr> result;
    for (const Knobs &option : listOptions(kernel, target))
      result.push_back(option.toAttr(kernel.getContext()));
    return result;
  }

  size_t chooseDefault(KernelOp kernel, llvm::ArrayRef<KnobsAttr> legal,
                       TargetAttr target) const final {
    llvm::SmallVector<Knobs> options;
    for (KnobsAttr option : legal)
      options.push_back(*Knobs::fromAttr(option));
    size_t pick = heuristic(kernel, options, target);
    return pick < options.size() ? pick : 0;
  }

  mlir::LogicalResult apply(KernelOp kernel, KnobsAttr option,
                            TargetAttr target) const final {
    std::optional<Knobs> typed = Knobs::fromAttr(option);
    if (!typed)
      return mlir::failure();
    return rewrite(kernel, *typed, target);
  }

protected:
  /// Legality, in canonical order (see getLegalOptions).
  virtual llvm::SmallVector<Knobs> listOptions(KernelOp kernel,
                                               TargetAttr target) const = 0;
  /// Policy: the index of the default in `options` (see chooseDefault).
  virtual size_t heuristic(KernelOp kernel, llvm::ArrayRef<Knobs> options,
                           TargetAttr target) const = 0;
  /// Mechanism (see apply).
  virtual mlir::LogicalResult rewrite(KernelOp kernel, const Knobs &option,
                                      TargetAttr target) const = 0;
};

/// The rules, in the order the pipeline runs them (Rules.td).
llvm::ArrayRef<std::unique_ptr<Rule>> getRules();

/// The rule called `name`, or null.
const Rule *lookupRule(llvm::StringRef name);

/// Whether `rule` has decided `kernel` already: one of its knobs is stamped.
bool hasDecided(const Rule &rule, KernelOp kernel);

/// The fork `rule` makes at `kernel`: its legal options with the
/// heuristic's pick first and the others in canonical order, so that
/// option 0 is always the default. Empty when the rule does not apply or
/// has decided already.
/// `defaultRank`, when given, receives the default's position in
/// canonical order.
llvm::SmallVector<KnobsAttr> getForkOptions(const Rule &rule, KernelOp kernel,
                                            TargetAttr target,
                                            size_t *defaultRank = nullptr);

/// Turns a dloop.kernel into a dtile.kernel whose outer chain of free loops
/// becomes the block axes of one dtile.tile, one thread per block: a legal
/// (slow) launch every rule refines.
mlir::FailureOr<KernelOp> tileify(dloop::KernelOp kernel);

/// Lists a fork's options (as the remark the `list-forks` option prints:
/// `chunk_matmul_k: BK in {32*, 16, 64}`, the default starred).
std::string describeOptions(const Rule &rule,
                            llvm::ArrayRef<KnobsAttr> options);

/// The simplest of a rule's options: the one whose knobs ask for the least
/// machinery (every enabled flag and staged input counts one, and integer
/// knobs as their KnobCost in Rules.td says: each doubling of a thread
/// count, register-tile side, unroll factor or split counts one, a swizzle
/// one; tile shapes nothing), the earliest among equals. The reference
/// lowering takes it at every fork.
size_t simplestOption(llvm::ArrayRef<KnobsAttr> options);

/// Runs `rule` on `kernel`: asks `chooser` for one of its fork options,
/// applies it and stamps its knobs. With `listForks`, also emits the
/// options as a remark. Succeeds without change when the rule does not
/// apply; fails with a located error when the chooser does.
mlir::LogicalResult runRule(const Rule &rule, KernelOp kernel,
                            TargetAttr target, OptionChooser &chooser,
                            bool listForks);

//===----------------------------------------------------------------------===//
// The textual syntax of knobs
//===----------------------------------------------------------------------===//

/// Parses a knobs option: knobs in the syntax of the `#dtile.knobs` body
/// (`BK=32,BM=64,stage=[0,1],tma=true`) for every kernel, or per kernel
/// `name:BK=32,BM=64;other:threads=128` (name "" = every kernel).
llvm::Expected<llvm::StringMap<KnobsAttr>>
parseKnobsOption(mlir::MLIRContext *context, llvm::StringRef text);

/// Prints `knobs` in that syntax (`BK=32,stage=[0,1]`), prefixed `kernel:`
/// when `kernel` is not empty: parseKnobsOption reads it back.
std::string formatKnobsOption(llvm::StringRef kernel, KnobsAttr knobs);

} // namespace deplodock::dtile

#endif // DEPLODOCK_DIALECT_DTILE_TRANSFORMS_RULES_H
