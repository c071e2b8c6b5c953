//===- BenchResult.cpp - What the bench worker answers --------------------===//

#include "Deplodock/Runtime/BenchResult.h"

#include <algorithm>
#include <cmath>

using namespace deplodock::runtime;

llvm::StringRef deplodock::runtime::benchStatusName(BenchStatus status) {
  switch (status) {
  case BenchStatus::Ok:
    return "ok";
  case BenchStatus::CompileFail:
    return "compile_fail";
  case BenchStatus::LaunchFail:
    return "launch_fail";
  case BenchStatus::Timeout:
    return "timeout";
  case BenchStatus::WrongResult:
    return "wrong_result";
  }
  return "?";
}

std::optional<BenchStatus>
deplodock::runtime::parseBenchStatus(llvm::StringRef name) {
  for (BenchStatus status :
       {BenchStatus::Ok, BenchStatus::CompileFail, BenchStatus::LaunchFail,
        BenchStatus::Timeout, BenchStatus::WrongResult})
    if (benchStatusName(status) == name)
      return status;
  return std::nullopt;
}

/// The `q` quantile of sorted `v`, interpolated linearly.
static double quantile(llvm::ArrayRef<double> v, double q) {
  double at = q * (v.size() - 1);
  size_t lo = static_cast<size_t>(std::floor(at));
  size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (v[hi] - v[lo]) * (at - lo);
}

Stats deplodock::runtime::computeStats(llvm::ArrayRef<double> samplesUs) {
  Stats stats;
  if (samplesUs.empty())
    return stats;
  std::vector<double> sorted(samplesUs.begin(), samplesUs.end());
  std::sort(sorted.begin(), sorted.end());
  stats.samples = sorted.size();
  stats.minUs = sorted.front();
  stats.maxUs = sorted.back();
  stats.medianUs = quantile(sorted, 0.5);
  double sum = 0;
  for (double v : sorted)
    sum += v;
  stats.meanUs = sum / sorted.size();
  double squares = 0;
  for (double v : sorted)
    squares += (v - stats.meanUs) * (v - stats.meanUs);
  stats.varianceUs2 = sorted.size() > 1 ? squares / (sorted.size() - 1) : 0;
  double iqr = quantile(sorted, 0.75) - quantile(sorted, 0.25);
  stats.spread = stats.medianUs > 0 ? iqr / stats.medianUs : 0;
  return stats;
}

const UnitTiming *BenchResult::timing(int64_t launch) const {
  for (const UnitTiming &t : timings)
    if (t.launch == launch)
      return &t;
  return nullptr;
}
