//===- LoweringTiming.cpp - Timing variant lowering from Loop IR ----------===//
//
// Each variant starts from the Loop IR kernel: tileify, the rules with a
// random option at every fork, then Kernel IR and CUDA. Nothing is shared
// between variants, so the time is what one compile with given knobs costs.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Tuner/StructuralKey.h"
#include "Deplodock/Tuner/Tuner.h"

#include <algorithm>
#include <chrono>
#include <random>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::tuner;

llvm::Expected<LoweringTiming>
tuner::timeVariantLowering(dloop::KernelOp kernel, const dtile::Target &target,
                           size_t count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::string loopKey = structuralKey(kernel);
  std::vector<double> times;
  for (size_t i = 0; i < count; ++i) {
    auto start = std::chrono::steady_clock::now();
    FailureOr<dtile::ForkCursor> cursor =
        dtile::ForkCursor::start(kernel, target);
    while (succeeded(cursor) && !cursor->isDone()) {
      ArrayRef<dtile::KnobsAttr> options = cursor->getOptions();
      cursor = cursor->choose(options[rng() % options.size()]);
    }
    if (failed(cursor))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "cannot lower a variant of @" +
                                         kernel.getSymName());
    // A variant that does not lower is timed all the same: it is work done.
    llvm::consumeError(lowerVariant(*cursor, loopKey, target).takeError());
    times.push_back(std::chrono::duration<double, std::milli>(
                        std::chrono::steady_clock::now() - start)
                        .count());
  }
  LoweringTiming timing;
  timing.variants = times.size();
  if (times.empty())
    return timing;
  for (double t : times)
    timing.meanMs += t / times.size();
  std::sort(times.begin(), times.end());
  timing.medianMs = times[times.size() / 2];
  timing.maxMs = times.back();
  return timing;
}
