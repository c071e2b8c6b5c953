//===- ContentsCache.h - Initial contents across requests ------*- C++ -*-===//
//
// A worker uploads every buffer's initial contents before each run: the
// seeded values of the inputs, zeros, or 0xff. Drawing the seeded values of
// a large GEMM's weights (hundreds of megabytes) takes longer than timing
// the kernel, and a tune sends the same buffers with every variant of a
// kernel, twice per request when a reference program runs first. The cache
// keeps the contents it made, least recently used dropped first, within a
// byte budget; the uploads still happen every time, so a kernel that writes
// an input cannot change what the next run starts from.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_RUNTIME_CONTENTSCACHE_H
#define DEPLODOCK_RUNTIME_CONTENTSCACHE_H

#include "Deplodock/Runtime/BenchRequest.h"

#include "llvm/ADT/ArrayRef.h"

#include <list>
#include <map>
#include <tuple>

namespace deplodock::runtime {

class ContentsCache {
public:
  /// Keeps at most `capacityBytes` of contents; a buffer larger than that is
  /// made on every call.
  explicit ContentsCache(uint64_t capacityBytes = kDefaultCapacity)
      : capacity(capacityBytes) {}

  /// 1 GiB: the inputs and outputs of the suite's largest GEMM (Qwen's FP32
  /// gate_proj at 512 tokens, about 320 MB) with room for the next kernel's.
  static constexpr uint64_t kDefaultCapacity = uint64_t(1) << 30;

  /// The bytes `buffer` starts with (BufferSpec::initialContents). Valid
  /// until the next call.
  llvm::ArrayRef<uint8_t> get(const BufferSpec &buffer);

  uint64_t getSizeBytes() const { return size; }
  size_t getNumEntries() const { return order.size(); }
  size_t getNumHits() const { return hits; }
  size_t getNumMisses() const { return misses; }

private:
  /// What the contents depend on: the kind, the element type and count,
  /// and for seeded values the seed and stream (0 otherwise).
  using Key = std::tuple<InitKind, DType, uint64_t, uint64_t, uint64_t>;
  using Entry = std::pair<Key, std::vector<uint8_t>>;

  uint64_t capacity;
  uint64_t size = 0;
  size_t hits = 0, misses = 0;
  /// Most recently used first.
  std::list<Entry> order;
  std::map<Key, std::list<Entry>::iterator> index;
  /// The contents of the last buffer too large to keep.
  std::vector<uint8_t> uncached;
};

} // namespace deplodock::runtime

#endif // DEPLODOCK_RUNTIME_CONTENTSCACHE_H
