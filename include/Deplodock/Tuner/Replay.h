//===- Replay.h - Following recorded tuning decisions -----------*- C++ -*-===//
//
// Replay is what `--lower-to-tile="tune-db=PATH"` does at each fork: it
// looks up the lowering row of the kernel's fork-point key in one context of
// the tune database and takes the recorded child's option, else option 0
// (the heuristic's). This file resolves the context, reads the rows, keeps
// the per-kernel tally behind the replay report, and offers all of it to
// the lowering as an OptionChooser (createReplayChooser): the lowering never
// opens a database itself. docs/Tuner/Driver.md describes the keys.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_TUNER_REPLAY_H
#define DEPLODOCK_TUNER_REPLAY_H

#include "Deplodock/Dialect/DTile/IR/DTileOps.h"
#include "Deplodock/Dialect/DTile/Transforms/OptionChooser.h"
#include "Deplodock/Tuner/TuneDb.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>

namespace deplodock::tuner {

/// The version of the roofline model. It is part of the model's context
/// keys: bump it whenever the device parameters or the formula change, so
/// estimates of different models never compete.
inline constexpr int64_t kModelVersion = 12;

/// The context the model backend records its estimates for `target` under
/// ("model-sm_90-v3"; "model-sm_90-v3-tf32" with TF32 contractions).
std::string modelContextKey(llvm::StringRef target, bool tf32 = false);

/// The value of the `backend` field of a context's `extra` JSON ("model",
/// "replay", "cuda"), or "" when it has none.
std::string contextBackend(const DeviceContext &context);

/// Whether a context's rows were measured with TF32 contractions (its
/// `extra` says `"precision": "tf32"`; none says IEEE f32). Winners of one
/// precision are never replayed for the other.
bool contextAllowsTf32(const DeviceContext &context);

/// Marks a context's `extra` as TF32 (before its key is computed).
void markTf32(llvm::json::Object &extra);

/// How one kernel was lowered under replay.
struct KernelReplayReport {
  std::string kernel;
  /// Forks left to replay: rules with several options for the kernel whose
  /// choice the `knobs` option did not name.
  unsigned forks = 0;
  /// Forks that took the recorded choice.
  unsigned replayed = 0;
  /// Forks whose recorded choice is no option any more (the rules changed
  /// since tuning): option 0 was taken.
  unsigned stale = 0;

  /// "tuned" (every fork replayed), "partly tuned", "not tuned" (option 0
  /// everywhere) or "no forks".
  llvm::StringRef verdict() const;
  /// One line: `@matmul: tuned (3 of 3 forks replayed)`.
  std::string describe() const;
};

/// A tune database opened for replay in one context.
class TuneDbReplay {
public:
  /// Opens the database at `path` read-only (it must exist and be sound) to
  /// replay decisions for `target`. `context` picks the context:
  ///  * "" or "auto": the one context measured on a device of the target's
  ///    compute capability (a `cuda` context) in the precision `tf32` says
  ///    when the database has exactly one, else the model context of the
  ///    target in that precision;
  ///  * "model": the model context of the target (modelContextKey);
  ///  * anything else: that context key, which must be recorded in the same
  ///    precision.
  static llvm::Expected<TuneDbReplay> open(llvm::StringRef path,
                                           llvm::StringRef context,
                                           llvm::StringRef target, bool tf32);

  /// The context whose rows are followed.
  llvm::StringRef getContextKey() const { return contextKey; }
  /// Whether the database holds that context (without it every fork takes
  /// option 0).
  bool hasContext() const { return contextKnown; }

  /// The recorded knob delta at the fork point of `knobs` (the knobs stamped
  /// so far) in the kernel of structural key `loopKey`, if any.
  llvm::Expected<std::optional<llvm::json::Object>>
  lookup(llvm::StringRef loopKey, dtile::KnobsAttr knobs);

private:
  TuneDbReplay(std::unique_ptr<TuneDb> db, std::string contextKey,
               bool contextKnown)
      : db(std::move(db)), contextKey(std::move(contextKey)),
        contextKnown(contextKnown) {}

  std::unique_ptr<TuneDb> db;
  std::string contextKey;
  bool contextKnown;
};

/// The chooser replaying the tune database at `path` in `context` (see
/// TuneDbReplay::open) for the module's target and precision (its
/// `dtile.tf32`): at each fork of several
/// options, the recorded child's option, else option 0. The database opens
/// when the lowering starts (an error there is an error at the module).
/// With `report`, remarks per kernel how many forks replay decided.
std::unique_ptr<dtile::OptionChooser>
createReplayChooser(llvm::StringRef path, llvm::StringRef context, bool report);

} // namespace deplodock::tuner

#endif // DEPLODOCK_TUNER_REPLAY_H
