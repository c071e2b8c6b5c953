//===- MeasureStatus.h - How measuring a variant ended ----------*- C++ -*-===//
//
// One status for the whole tuner: the search strategies, the backends and
// the tune database (its `perf.status` column) use the same enum and the
// same spellings.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_TUNER_MEASURESTATUS_H
#define DEPLODOCK_TUNER_MEASURESTATUS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/ErrorHandling.h"

#include <cstdint>
#include <optional>

namespace deplodock::tuner {

/// How a measurement ended; everything but Ok is a failed variant.
enum class MeasureStatus : uint8_t {
  Ok,
  CompileFail,
  LaunchFail,
  Timeout,
  WrongResult,
};

/// Every status, in declaration order.
inline constexpr MeasureStatus kAllMeasureStatuses[] = {
    MeasureStatus::Ok, MeasureStatus::CompileFail, MeasureStatus::LaunchFail,
    MeasureStatus::Timeout, MeasureStatus::WrongResult};

/// The lower-case name of a status: "ok", "compile_fail", "launch_fail",
/// "timeout" or "wrong_result" (also the database spelling).
inline llvm::StringRef measureStatusName(MeasureStatus status) {
  switch (status) {
  case MeasureStatus::Ok:
    return "ok";
  case MeasureStatus::CompileFail:
    return "compile_fail";
  case MeasureStatus::LaunchFail:
    return "launch_fail";
  case MeasureStatus::Timeout:
    return "timeout";
  case MeasureStatus::WrongResult:
    return "wrong_result";
  }
  llvm_unreachable("unknown measure status");
}

/// The status spelled `text`, if any.
inline std::optional<MeasureStatus>
symbolizeMeasureStatus(llvm::StringRef text) {
  for (MeasureStatus status : kAllMeasureStatuses)
    if (text == measureStatusName(status))
      return status;
  return std::nullopt;
}

} // namespace deplodock::tuner

#endif // DEPLODOCK_TUNER_MEASURESTATUS_H
