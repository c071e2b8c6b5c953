//===- ReferenceCache.h - Reference outputs across requests ----*- C++ -*-===//
//
// A request whose reference is a program (a large kernel's simplest
// lowering) runs it before the variant: one more upload, the reference's
// run, which can take far longer than the variant's, and the download of
// its outputs. A tune sends the same reference with every variant of a
// kernel, on the same inputs: a worker keeps the outputs of the last few
// and runs a reference again only when something it depends on changed
// (its source, options and launches, the buffers its launches and the
// checked outputs name, and how they start).
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_RUNTIME_REFERENCECACHE_H
#define DEPLODOCK_RUNTIME_REFERENCECACHE_H

#include "Deplodock/Runtime/BenchRequest.h"

#include <deque>
#include <string>
#include <vector>

namespace deplodock::runtime {

class ReferenceCache {
public:
  /// The outputs of one reference run, in the order of the request's
  /// outputs.
  using Outputs = std::vector<std::vector<uint8_t>>;

  /// What running `request`'s reference program gives depends on; empty
  /// when it has none.
  static std::string key(const BenchRequest &request);

  /// The outputs kept under `key`, or null.
  const Outputs *lookup(const std::string &key);
  /// Keeps `outputs` under `key`, dropping the oldest beyond kEntries or
  /// kMaxBytes.
  void store(std::string key, Outputs outputs);

  size_t getNumEntries() const { return entries.size(); }

  /// A tune measures one kernel at a time: two is room for the next.
  static constexpr size_t kEntries = 2;
  static constexpr uint64_t kMaxBytes = uint64_t(1) << 30;

private:
  /// Most recent first.
  std::deque<std::pair<std::string, Outputs>> entries;
};

} // namespace deplodock::runtime

#endif // DEPLODOCK_RUNTIME_REFERENCECACHE_H
