//===- Rules.h - The Tile rules and their fork interface --------*- C++ -*-===//
//
// A Tile rule takes one decision about how a kernel maps onto a GPU. Every
// rule exposes the same interface: it lists the legal options for a kernel
// and a target (the first is its heuristic default; none means the rule does
// not apply), and applies one of them. The tuner walks these options; the
// lower-to-tile pipeline takes option 0 or the one the user or the tuning
// database names. Mechanism is apart from policy: `apply` never chooses.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_DIALECT_DTILE_TRANSFORMS_RULES_H
#define DEPLODOCK_DIALECT_DTILE_TRANSFORMS_RULES_H

#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h"
#include "Deplodock/Dialect/DTile/IR/DTileOps.h"
#include "Deplodock/Dialect/DTile/Transforms/Target.h"

#include <memory>
#include <optional>

namespace deplodock::dtile {

/// One Tile rule.
class Rule {
public:
  virtual ~Rule() = default;

  /// The rule's name, as in the pipeline table (`chunk_matmul_k`).
  virtual llvm::StringRef getName() const = 0;

  /// The legal options for `kernel` on `target`, each as the knobs it sets;
  /// option 0 is the heuristic default. Empty when the rule does not apply.
  virtual llvm::SmallVector<KnobsAttr>
  getOptions(KernelOp kernel, const Target &target) const = 0;

  /// Applies `option`, one of getOptions(kernel, target), to `kernel`.
  /// The caller stamps the option's knobs on the kernel.
  virtual mlir::LogicalResult apply(KernelOp kernel, KnobsAttr option,
                                    const Target &target) const = 0;

  /// Checks the knobs `requested` for `kernel` before the options are
  /// listed, so that a request the rule can never meet on `target` fails
  /// with a located reason instead of being ignored.
  virtual mlir::LogicalResult checkRequest(KernelOp kernel,
                                           const Target &target,
                                           KnobsAttr requested) const {
    return mlir::success();
  }
};

/// The rules, in the order the pipeline runs them.
llvm::ArrayRef<std::unique_ptr<Rule>> getRules();

/// The rule called `name`, or null.
const Rule *lookupRule(llvm::StringRef name);

/// Turns a dloop.kernel into a dtile.kernel whose outer chain of free loops
/// becomes the block axes of one dtile.tile, one thread per block: a legal
/// (slow) launch every rule refines.
mlir::FailureOr<KernelOp> tileify(dloop::KernelOp kernel);

/// Lists `rule`'s options for `kernel` (as the remark the `list-forks`
/// option prints: `chunk_matmul_k: BK in {32*, 16, 64}`).
std::string describeOptions(const Rule &rule,
                            llvm::ArrayRef<KnobsAttr> options);

/// Picks one of a rule's options for a kernel when the requested knobs name
/// none: an index into the options, none for option 0, or failure (after
/// reporting an error). Called only where the rule has several options.
using OptionChooser = llvm::function_ref<mlir::FailureOr<std::optional<size_t>>(
    const Rule &, KernelOp, llvm::ArrayRef<KnobsAttr>)>;

/// The simplest of a rule's options: the one whose knobs ask for the least
/// machinery (every enabled flag, staged input and split counts one, every
/// doubling of a thread count, register-tile side or unroll factor counts
/// one; tile shapes count nothing), the earliest among equals. The
/// reference lowering takes it at every fork.
size_t simplestOption(llvm::ArrayRef<KnobsAttr> options);

/// Runs `rule` on `kernel`: picks the option matching `requested` (the
/// values `requested` gives for the rule's knobs), else the one `chooser`
/// picks (replay), else option 0, applies it and stamps its knobs. With
/// `listForks`, also emits the options as a remark. Succeeds without change
/// when the rule does not apply; fails with a located error when `requested`
/// names an illegal value.
mlir::LogicalResult runRule(const Rule &rule, KernelOp kernel,
                            const Target &target, KnobsAttr requested,
                            bool listForks, OptionChooser chooser = nullptr);

/// Parses a knobs option: `BK=32,BM=64,stage=[0:1],tma=true` for every kernel,
/// or `name:BK=32,BM=64;other:threads=128` per kernel (name "" = every
/// kernel). Fails with a message in `error`.
mlir::FailureOr<llvm::StringMap<KnobsAttr>>
parseKnobsOption(mlir::MLIRContext *context, llvm::StringRef text,
                 std::string &error);

/// Prints `knobs` in the syntax of the knobs option (`BK=32,stage=[0:1]`),
/// prefixed `kernel:` when `kernel` is not empty: parseKnobsOption reads it.
std::string formatKnobsOption(llvm::StringRef kernel, KnobsAttr knobs);

} // namespace deplodock::dtile

#endif // DEPLODOCK_DIALECT_DTILE_TRANSFORMS_RULES_H
