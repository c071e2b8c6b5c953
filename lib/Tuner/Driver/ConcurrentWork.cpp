//===- ConcurrentWork.cpp - Running independent tasks on a pool -----------===//

#include "Deplodock/Tuner/ConcurrentWork.h"

using namespace deplodock;
using namespace deplodock::tuner;

void tuner::runConcurrently(llvm::ThreadPoolInterface *pool,
                            llvm::ArrayRef<std::function<void()>> tasks) {
  if (!pool || tasks.size() < 2) {
    for (const std::function<void()> &task : tasks)
      task();
    return;
  }
  // A group of its own: other work on the pool is not waited for.
  llvm::ThreadPoolTaskGroup group(*pool);
  for (const std::function<void()> &task : tasks)
    group.async(task);
  group.wait();
}
