//===- ReferenceCache.cpp - A reference program's outputs across requests -===//

#include "Deplodock/Runtime/ReferenceCache.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"

#include <set>

using namespace deplodock::runtime;

std::string ReferenceCache::key(const BenchRequest &request) {
  if (!request.reference)
    return "";
  llvm::SHA256 hash;
  // Length-prefixed fields and fixed-width numbers, so that no two requests
  // give the same bytes.
  auto number = [&](uint64_t v) {
    uint8_t bytes[8];
    for (int i = 0; i < 8; ++i)
      bytes[i] = static_cast<uint8_t>(v >> (8 * i));
    hash.update(llvm::ArrayRef<uint8_t>(bytes));
  };
  auto text = [&](llvm::StringRef s) {
    number(s.size());
    hash.update(s);
  };
  const ReferenceProgram &ref = *request.reference;
  text(ref.source);
  number(ref.compileOptions.size());
  for (const std::string &option : ref.compileOptions)
    text(option);
  std::set<unsigned> used;
  number(ref.launches.size());
  for (const LaunchSpec &launch : ref.launches) {
    text(launch.kernel);
    for (uint32_t v : launch.grid)
      number(v);
    for (uint32_t v : launch.block)
      number(v);
    number(launch.smemBytes);
    number(launch.params.size());
    for (const LaunchParam &param : launch.params) {
      used.insert(param.getBuffer());
      number(param.getBuffer());
      number(param.tma.has_value());
      if (param.tma) {
        number(param.tma->swizzle);
        number(param.tma->box.size());
        for (int64_t extent : param.tma->box)
          number(extent);
      }
    }
    for (const llvm::SmallVector<unsigned, 2> *list :
         {&launch.zero, &launch.writes}) {
      number(list->size());
      for (unsigned b : *list) {
        used.insert(b);
        number(b);
      }
    }
  }
  number(request.outputs.size());
  for (const OutputSpec &output : request.outputs) {
    used.insert(output.buffer);
    number(output.buffer);
  }
  // How every buffer named above starts.
  for (unsigned b : used) {
    number(b);
    if (b >= request.buffers.size())
      continue;
    const BufferSpec &buffer = request.buffers[b];
    number(static_cast<uint64_t>(buffer.dtype));
    number(buffer.shape.size());
    for (int64_t extent : buffer.shape)
      number(extent);
    number(static_cast<uint64_t>(buffer.init));
    number(buffer.seed);
    number(buffer.stream);
    number(buffer.data.size());
    hash.update(buffer.data);
  }
  return llvm::toHex(hash.final(), /*LowerCase=*/true);
}

const ReferenceCache::Outputs *ReferenceCache::lookup(const std::string &key) {
  for (auto it = entries.begin(); it != entries.end(); ++it)
    if (it->first == key) {
      if (it != entries.begin()) {
        auto entry = std::move(*it);
        entries.erase(it);
        entries.push_front(std::move(entry));
      }
      return &entries.front().second;
    }
  return nullptr;
}

void ReferenceCache::store(std::string key, Outputs outputs) {
  uint64_t bytes = 0;
  for (const std::vector<uint8_t> &output : outputs)
    bytes += output.size();
  if (key.empty() || bytes > kMaxBytes)
    return;
  entries.emplace_front(std::move(key), std::move(outputs));
  while (entries.size() > kEntries)
    entries.pop_back();
}
