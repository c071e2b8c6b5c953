//===- Timing.cpp - Measure a unit of launches ----------------------------===//

#include "Deplodock/Runtime/Timing.h"

#include <algorithm>
#include <cmath>

using namespace deplodock::runtime;

/// The most warm-up samples kept for the estimate of a unit's time.
constexpr size_t kMaxWarmupSamples = 1 << 16;

/// The median of `v` (not empty).
static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

llvm::Expected<Stats>
deplodock::runtime::measureUnit(Device &device, Unit &unit,
                                const TimingOptions &options,
                                double kernelTimeoutS) {
  // Warm-up: module load, clocks ramping up, TLBs; rounds double in size
  // until the warm-up time has passed. It also estimates the unit's time.
  double start = device.nowMs();
  std::vector<double> warm;
  SampleRound round;
  round.flushL2 = options.flushL2;
  round.timeoutS = kernelTimeoutS;
  do {
    llvm::Expected<SampleResult> result = device.sample(unit, round);
    if (!result)
      return result.takeError();
    // The estimate needs no more than the first samples; keeping every one
    // of a long warm-up would only cost memory.
    if (warm.size() < kMaxWarmupSamples)
      warm.insert(warm.end(), result->us.begin(), result->us.end());
    round.samples = std::min(2 * round.samples, 64u);
  } while (device.nowMs() - start < options.warmupMs);
  double estimateUs = std::max(median(warm), 1e-3);

  // Small units run as a graph (no gaps between their launches); without
  // flushes a sample repeats the unit for long enough to time it well.
  round.graph = estimateUs < options.graphBelowUs;
  round.repeats = options.flushL2 ? 1
                                  : static_cast<unsigned>(std::clamp(
                                        std::ceil(options.batchUs / estimateUs),
                                        1.0, static_cast<double>(kMaxRepeats)));

  std::vector<double> samples;
  bool graph = round.graph;
  double measureStart = device.nowMs();
  while (true) {
    double elapsed = device.nowMs() - measureStart;
    size_t n = samples.size();
    if (n >= options.maxSamples || (n >= 1 && elapsed >= options.maxTimeMs))
      break;
    if (n >= options.minSamples && elapsed >= options.minTimeMs &&
        computeStats(samples).spread <= options.targetSpread)
      break;
    // Up to the minimum count at once, then rounds of 8; never more than
    // the budget fits by the time samples took so far, nor than 32.
    double perSampleMs =
        n ? elapsed / n : estimateUs * round.repeats / 1000.0 + 0.05;
    double fits =
        std::max(options.maxTimeMs - elapsed, perSampleMs) / perSampleMs;
    double wanted = n < options.minSamples ? options.minSamples - n : 8;
    double most = std::min<double>(32, options.maxSamples - n);
    round.samples = static_cast<unsigned>(
        std::clamp(std::min(wanted, std::floor(fits)), 1.0, most));
    round.timeoutS =
        kernelTimeoutS + round.samples * round.repeats * estimateUs * 4e-6;
    llvm::Expected<SampleResult> result = device.sample(unit, round);
    if (!result)
      return result.takeError();
    graph = result->graph;
    samples.insert(samples.end(), result->us.begin(), result->us.end());
  }
  Stats stats = computeStats(samples);
  stats.repeats = round.repeats;
  stats.graph = graph;
  stats.flushedL2 = options.flushL2;
  return stats;
}
