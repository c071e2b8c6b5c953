//===- ContentsCache.cpp - Buffers' initial contents across requests ------===//

#include "Deplodock/Runtime/ContentsCache.h"

using namespace deplodock::runtime;

llvm::ArrayRef<uint8_t> ContentsCache::get(const BufferSpec &buffer) {
  // Given bytes are the request's own: nothing to make or keep.
  if (buffer.init == InitKind::Data)
    return buffer.data;
  uint64_t bytes = buffer.numBytes();
  bool seeded = buffer.init == InitKind::Seeded;
  Key key{buffer.init, buffer.dtype, bytes, seeded ? buffer.seed : 0,
          seeded ? buffer.stream : 0};
  auto found = index.find(key);
  if (found != index.end()) {
    ++hits;
    order.splice(order.begin(), order, found->second);
    return order.front().second;
  }
  ++misses;
  if (bytes > capacity) {
    uncached = buffer.initialContents();
    return uncached;
  }
  uncached = {};
  while (size + bytes > capacity) {
    size -= order.back().second.size();
    index.erase(order.back().first);
    order.pop_back();
  }
  order.emplace_front(key, buffer.initialContents());
  index[key] = order.begin();
  size += bytes;
  return order.front().second;
}
