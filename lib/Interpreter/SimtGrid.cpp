//===- SimtGrid.cpp - The blocks of a launch, on several CPU threads ------===//
//
// Blocks of a kernel meet only through global memory: through atomics (the
// partial sums of split-K) and reducing stores, whose results depend on the
// order the blocks run in. A launch with neither gives the same results
// whatever that order, so its blocks are spread over CPU threads, each with
// its own Machine (lanes, shared pool, race tracking). The first block in
// grid order that fails is the one reported: the others stop taking blocks
// past it, the errors of the worker threads are dropped, and the failing
// block runs again alone on the calling thread, which reports it as a
// sequential run would.
//
//===----------------------------------------------------------------------===//

#include "SimtMachine.h"

#include "Deplodock/Interpreter/Memory.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <atomic>

using namespace mlir;
using namespace deplodock::interp;
using namespace deplodock::interp::simt;

/// Whether a block of `block` can see what another block writes.
static bool blocksMeet(const SBlock &block) {
  for (const SInstr &instr : block.instrs) {
    if (instr.kind == Kind::AtomicStore ||
        (instr.kind == Kind::Store && instr.reduces))
      return true;
    for (const std::unique_ptr<SBlock> &region : instr.regions)
      if (blocksMeet(*region))
        return true;
  }
  return false;
}

bool &simt::quietThread() {
  static thread_local bool quiet = false;
  return quiet;
}

LogicalResult Machine::runGrid() {
  if (!kernel.cluster.empty())
    return runClusters();
  int64_t gx = kernel.grid[0], gy = kernel.grid[1];
  int64_t numBlocks = gx * gy * kernel.grid[2];
  auto coords = [&](int64_t b) -> llvm::SmallVector<int64_t, 3> {
    return {b % gx, (b / gx) % gy, b / (gx * gy)};
  };
  auto runOne = [&](Machine &m, int64_t b) {
    m.startBlock(coords(b));
    return m.runBlock(kernel.body, m.fullMask);
  };
  unsigned workers = std::min<int64_t>(
      llvm::hardware_concurrency(getCpuThreads()).compute_thread_count(),
      numBlocks);
  if (workers <= 1 || blocksMeet(kernel.body)) {
    for (int64_t b = 0; b < numBlocks; ++b)
      if (failed(runOne(*this, b)))
        return failure();
    return success();
  }

  ScopedDiagnosticHandler quiet(kernel.op->getContext(), [](Diagnostic &) {
    return success(quietThread());
  });
  // Every worker but the first gets its own state (this one is the first),
  // as many as fit in the memory limit.
  std::vector<std::unique_ptr<Machine>> others;
  quietThread() = true;
  for (unsigned w = 1; w < workers; ++w) {
    auto machine = std::make_unique<Machine>(kernel, buffers);
    shareWork(*machine);
    if (failed(machine->setUp()))
      break;
    others.push_back(std::move(machine));
  }
  quietThread() = false;
  workers = others.size() + 1;
  std::atomic<int64_t> next{0}, firstFailure{numBlocks};
  {
    // A pool per launch: starting a few threads costs microseconds, and
    // nothing outlives the launch.
    llvm::DefaultThreadPool pool(llvm::hardware_concurrency(workers));
    for (unsigned w = 0; w < workers; ++w) {
      Machine *m = w == 0 ? this : others[w - 1].get();
      pool.async([&, m] {
        quietThread() = true;
        for (int64_t b; (b = next++) < firstFailure.load();) {
          if (succeeded(runOne(*m, b)))
            continue;
          int64_t seen = firstFailure.load();
          while (b < seen && !firstFailure.compare_exchange_weak(seen, b)) {
          }
          break;
        }
        quietThread() = false;
      });
    }
    pool.wait();
  }
  int64_t failedBlock = firstFailure.load();
  if (failedBlock == numBlocks)
    return success();
  if (failed(runOne(*this, failedBlock)))
    return failure();
  return kernel.op->emitOpError("failed in block ")
         << failedBlock << " only when run beside the other blocks";
}
