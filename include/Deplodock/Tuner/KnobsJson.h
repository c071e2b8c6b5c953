//===- KnobsJson.h - Knob sets as the tune database stores them -*- C++ -*-===//
//
// The tune database stores knob sets as JSON objects (integers, booleans,
// integer lists), canonically printed so equal sets are equal text. These
// helpers convert between them and `#dtile.knobs`, and name the state of a
// kernel partway through the Tile rules by a key the tuner writes and replay
// reads.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_TUNER_KNOBSJSON_H
#define DEPLODOCK_TUNER_KNOBSJSON_H

#include "Deplodock/Dialect/DTile/IR/DTileOps.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>

namespace deplodock::tuner {

/// `knobs` as a JSON object: integer, boolean and integer-list values.
llvm::json::Object knobsToJson(dtile::KnobsAttr knobs);

/// The canonical JSON text of `knobs` (compact, keys sorted).
std::string formatKnobsJson(dtile::KnobsAttr knobs);

/// The knobs `object` describes. Fails for an unknown knob or a value of the
/// wrong kind or out of the knob's range (Rules.td).
llvm::Expected<dtile::KnobsAttr>
knobsFromJson(mlir::MLIRContext *context, const llvm::json::Object &object);

/// The index of the option whose knobs are exactly `delta`, if any.
std::optional<size_t> findOption(llvm::ArrayRef<dtile::KnobsAttr> options,
                                 const llvm::json::Object &delta);

/// The key of a kernel partway through the Tile rules: SHA-256 over the
/// structural key of its Loop IR kernel and the knobs stamped so far. The
/// rules are deterministic, so the pair names the Tile IR exactly, and
/// kernels with equal structural keys share every fork-point key (what lets
/// one tuning serve them all).
std::string forkPointKey(llvm::StringRef loopKey, dtile::KnobsAttr knobs);

} // namespace deplodock::tuner

#endif // DEPLODOCK_TUNER_KNOBSJSON_H
