//===- Memory.h - Sizes and the memory guard of the interpreter -*- C++ -*-===//
//
// Element counts and byte sizes come from static shapes, which can be as
// large as the IR cares to write: every size is computed with overflow
// checks. Every buffer the interpreter allocates is first reserved against a
// process-wide limit, so a layer too big for the machine is refused with a
// clear error ("needs 4 GiB; the limit is 2 GiB") instead of aborting in the
// allocator.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_INTERPRETER_MEMORY_H
#define DEPLODOCK_INTERPRETER_MEMORY_H

#include "Deplodock/Dialect/Common/Sizes.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>

namespace deplodock::interp {

using deplodock::checkedNumElements;

/// `count` elements of `elementBytes` each, or nullopt when the product does
/// not fit in int64_t.
std::optional<int64_t> checkedBytes(int64_t count, int64_t elementBytes);

/// The most bytes the interpreter's buffers may hold at once.
uint64_t getMemoryLimit();
void setMemoryLimit(uint64_t bytes);

/// The limit when none is set: half of the memory this process may use (the
/// smallest of the physical memory, the cgroup's limit and the address-space
/// and data rlimits).
uint64_t defaultMemoryLimit();

/// The most threads (blocks x threads per block) one kernel launch may
/// simulate: the SIMT engine runs them one after another, so a grid the GPU
/// takes in a millisecond can take the CPU hours, and is refused instead.
uint64_t getThreadLimit();
void setThreadLimit(uint64_t threads);
constexpr uint64_t kDefaultThreadLimit = uint64_t(1) << 28;

/// The most operations, counted once per thread that executes them, one
/// kernel launch (or one sequential run of a function) may execute: a legal
/// loop of 2^16 steps in every thread of a grid takes the CPU hours where the
/// GPU takes a millisecond, and is refused instead.
uint64_t getWorkLimit();
void setWorkLimit(uint64_t operations);
constexpr uint64_t kDefaultWorkLimit = uint64_t(1) << 35;

/// Succeeds when `spent` operations already executed plus `more` to come
/// stay within the work limit; else says how many and what the limit is.
/// `estimate`: `more` is counted before they run (a lower bound from the
/// trip counts), not after.
llvm::Error checkWork(uint64_t spent, uint64_t more, bool estimate);

/// How many CPU threads run the blocks of one kernel launch at once (0:
/// every hardware thread). Only launches whose blocks cannot see each other
/// (no atomics, no reducing stores) are spread; results do not depend on it.
unsigned getCpuThreads();
void setCpuThreads(unsigned threads);

/// Succeeds when `blocks` blocks of `threadsPerBlock` threads are within
/// the thread limit; else says how many and what the limit is.
llvm::Error checkThreadCount(llvm::ArrayRef<int64_t> grid,
                             int64_t threadsPerBlock);

/// Bytes held now by the interpreter's buffers.
uint64_t getHeldBytes();

/// Parses a size: bytes, or a number (decimals allowed) with a K, M, G or T
/// suffix (binary units, optionally followed by "iB" or "B"): "512M",
/// "1.5G", "2GiB".
llvm::Expected<uint64_t> parseByteSize(llvm::StringRef text);

/// `bytes` for people: "3.2 GiB", "512 MiB", "100 bytes".
std::string formatBytes(uint64_t bytes);

/// Bytes reserved against the limit, released when destroyed.
class Reservation {
public:
  Reservation() = default;
  /// Reserves `bytes`, or fails with "<what> needs N; the limit is M (N'
  /// already held)" when the held bytes would exceed the limit.
  static llvm::Expected<Reservation> reserve(uint64_t bytes,
                                             llvm::StringRef what);
  /// Counts `bytes` as held without checking the limit (a copy its caller
  /// cannot refuse); a later reserve sees them.
  static Reservation account(uint64_t bytes);

  Reservation(Reservation &&other) : bytes(other.bytes) { other.bytes = 0; }
  Reservation &operator=(Reservation &&other);
  Reservation(const Reservation &) = delete;
  Reservation &operator=(const Reservation &) = delete;
  ~Reservation() { release(); }

  uint64_t size() const { return bytes; }
  void release();

private:
  explicit Reservation(uint64_t bytes) : bytes(bytes) {}
  uint64_t bytes = 0;
};

} // namespace deplodock::interp

#endif // DEPLODOCK_INTERPRETER_MEMORY_H
