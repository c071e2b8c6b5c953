//===- DTileKnobs.h - The knobs Tile rules may set --------------*- C++ -*-===//
//
// One table of every knob name, its value kind and the rule that owns it.
// The knobs attribute verifier, the `knobs=` pass option and the tuner all
// read it, so a knob is spelled in one place.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_DIALECT_DTILE_IR_DTILEKNOBS_H
#define DEPLODOCK_DIALECT_DTILE_IR_DTILEKNOBS_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace deplodock::dtile {

/// The kind of value a knob holds.
enum class KnobKind { Int, Bool, IntList };

/// A knob: its name, value kind, owning rule and meaning.
struct KnobInfo {
  llvm::StringLiteral name;
  KnobKind kind;
  llvm::StringLiteral rule;
  llvm::StringLiteral summary;
};

/// Every knob, in pipeline order of the rules that own them.
llvm::ArrayRef<KnobInfo> getKnobTable();

/// The knob called `name`, or null.
const KnobInfo *lookupKnob(llvm::StringRef name);

/// "an integer", "a boolean" or "a list of integers".
llvm::StringRef describeKnobKind(KnobKind kind);

} // namespace deplodock::dtile

#endif // DEPLODOCK_DIALECT_DTILE_IR_DTILEKNOBS_H
