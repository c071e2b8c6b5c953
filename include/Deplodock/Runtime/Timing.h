//===- Timing.h - Measure a unit of launches --------------------*- C++ -*-===//
//
// The timing method, independent of the device: warm up for a while, choose
// a CUDA graph for units under ~10 µs and a repeat count when L2 is not
// flushed, then take rounds of samples until the median is stable (a small
// relative interquartile range after a minimum count and time) or the
// budget is spent. docs/Runtime.md explains the choices.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_RUNTIME_TIMING_H
#define DEPLODOCK_RUNTIME_TIMING_H

#include "Deplodock/Runtime/Device.h"

namespace deplodock::runtime {

/// The longest a sample may repeat the unit.
constexpr unsigned kMaxRepeats = 1000;

/// Measures `unit` on `device`. `kernelTimeoutS` bounds each wait beyond
/// the time the samples are expected to take.
llvm::Expected<Stats> measureUnit(Device &device, Unit &unit,
                                  const TimingOptions &options,
                                  double kernelTimeoutS);

} // namespace deplodock::runtime

#endif // DEPLODOCK_RUNTIME_TIMING_H
