//===- DTileKnobs.h - The knobs Tile rules may set --------------*- C++ -*-===//
//
// The knob table and the typed views of `#dtile.knobs`, all generated from
// Rules.td (deplodock-tblgen -gen-knob-decls/-defs): the attribute's
// verifier, the `knobs=` option, the tuner's records and the rules read the
// same declaration, so a knob is spelled in one place.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_DIALECT_DTILE_IR_DTILEKNOBS_H
#define DEPLODOCK_DIALECT_DTILE_IR_DTILEKNOBS_H

#include "Deplodock/Dialect/DTile/IR/DTileDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace deplodock::dtile {

/// The kind of value a knob holds.
enum class KnobKind { Int, Bool, IntList };

/// How much machinery an integer knob's value asks for (see KnobCost in
/// Rules.td): nothing, one per doubling, or one unless zero.
enum class KnobCost { None, Log2, NonZero };

/// A knob: its name, value kind, owning rule and meaning; an integer (or
/// each item of a list) lies in [min, max]. An optional knob is set by some
/// options of its rule only.
struct KnobInfo {
  llvm::StringLiteral name;
  KnobKind kind;
  llvm::StringLiteral rule;
  llvm::StringLiteral summary;
  int64_t min;
  int64_t max;
  KnobCost cost;
  bool optional;
};

/// Every knob, in pipeline order of the rules that own them.
llvm::ArrayRef<KnobInfo> getKnobTable();

/// The knob called `name`, or null.
const KnobInfo *lookupKnob(llvm::StringRef name);

/// "unknown knob 'NAME' (knobs: BK, BM, ...)": what an error about a name
/// lookupKnob does not know says, so that the reader sees the valid ones.
std::string describeUnknownKnob(llvm::StringRef name);

/// "an integer", "a boolean" or "a list of integers".
llvm::StringRef describeKnobKind(KnobKind kind);

/// Checks that `value` has the kind of `knob` and lies in its range.
mlir::LogicalResult
verifyKnobValue(const KnobInfo &knob, mlir::Attribute value,
                llvm::function_ref<mlir::InFlightDiagnostic()> emitError);

} // namespace deplodock::dtile

#define GET_ATTRDEF_CLASSES
#include "Deplodock/Dialect/DTile/IR/DTileAttrs.h.inc"

namespace deplodock::dtile {

#define GET_KNOB_STRUCTS
#include "Deplodock/Dialect/DTile/IR/DTileKnobs.h.inc"

} // namespace deplodock::dtile

#endif // DEPLODOCK_DIALECT_DTILE_IR_DTILEKNOBS_H
