//===- ConcurrentWork.h - Running independent tasks on a pool ---*- C++ -*-===//
//
// The tuner lowers variants on a thread pool (`--jobs`); the tasks write
// their results into slots of their own and the caller reads the slots in
// order afterwards, so what is recorded never depends on which task ends
// first.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_TUNER_CONCURRENTWORK_H
#define DEPLODOCK_TUNER_CONCURRENTWORK_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/ThreadPool.h"

#include <functional>

namespace deplodock::tuner {

/// Runs `tasks` on `pool` and waits for them all; on the calling thread, in
/// order, when `pool` is null or there is a single task.
void runConcurrently(llvm::ThreadPoolInterface *pool,
                     llvm::ArrayRef<std::function<void()>> tasks);

} // namespace deplodock::tuner

#endif // DEPLODOCK_TUNER_CONCURRENTWORK_H
