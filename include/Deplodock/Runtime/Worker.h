//===- Worker.h - The bench worker's side of the protocol -------*- C++ -*-===//
//
// What tools/deplodock-bench-worker runs: answer requests on a device until
// the parent closes the connection. runBench is the whole of one request:
// compile, verify every output against the reference before anything is
// timed, then time each unit.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_RUNTIME_WORKER_H
#define DEPLODOCK_RUNTIME_WORKER_H

#include "Deplodock/Runtime/ContentsCache.h"
#include "Deplodock/Runtime/Device.h"
#include "Deplodock/Runtime/ReferenceCache.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace deplodock::runtime {

/// What a worker keeps from one request for the next.
struct WorkerCaches {
  ContentsCache contents;
  ReferenceCache references;
};

/// Runs `request` on `device`; `progress` hears each phase ("compile",
/// "verify", "time") as it starts. A failed variant is a result with its
/// status; an Error means the request itself could not run (its reference
/// program failed); `fatal` is set when the device is unusable afterwards.
/// With `caches`, the buffers' initial contents and a reference program's
/// outputs come from there when the request's are known, and are kept there
/// for the next request; without, every request makes and runs its own.
llvm::Expected<BenchResult>
runBench(Device &device, const BenchRequest &request,
         llvm::function_ref<void(llvm::StringRef)> progress, bool &fatal,
         WorkerCaches *caches = nullptr);

/// Exit codes of the worker.
enum WorkerExit {
  /// The parent closed the connection or asked to shut down.
  kWorkerDone = 0,
  /// A frame could not be read; the stream cannot be trusted any more.
  kWorkerBadFrame = 2,
  /// No device (its hello said why).
  kWorkerNoDevice = 3,
  /// The device became unusable (sticky error, hung kernel).
  kWorkerDeviceLost = 4,
};

/// Makes a crash of this process end its stderr with one line of its own,
/// "deplodock-bench-worker: crashed during <phase> of request <id>; ...",
/// after any stack dump, for the parent to quote (call after
/// llvm::InitLLVM, whose handlers then run first).
void installCrashNote();

/// Serves the protocol on `in`/`out`: the hello (with `device`, or the
/// error why there is none), then requests until the end of input. The
/// fake device's process faults (crash, segfault, exit, hang, garbage) are
/// applied here. Returns the exit code.
int serveWorker(llvm::Expected<std::unique_ptr<Device>> device, int in, int out,
                llvm::StringRef workerName);

} // namespace deplodock::runtime

#endif // DEPLODOCK_RUNTIME_WORKER_H
