//===- ReferenceCache.cpp - A reference program's outputs across requests -===//

#include "Deplodock/Runtime/ReferenceCache.h"
#include "Deplodock/Runtime/Protocol.h"

#include "JsonFields.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SHA256.h"

#include <set>

using namespace deplodock::runtime;
using deplodock::runtime::fields::toArray;
using llvm::json::Array;
using llvm::json::Object;

std::string ReferenceCache::key(const BenchRequest &request) {
  if (!request.reference)
    return "";
  const ReferenceProgram &ref = *request.reference;
  // The program as the protocol sends it, and the buffers it and the checked
  // outputs name, as they start.
  std::set<unsigned> named;
  Array launches;
  for (const LaunchSpec &launch : ref.launches) {
    launches.push_back(encodeLaunch(launch));
    for (const LaunchParam &param : launch.params)
      named.insert(param.getBuffer());
    named.insert(launch.zero.begin(), launch.zero.end());
    named.insert(launch.writes.begin(), launch.writes.end());
  }
  Array outputs;
  for (const OutputSpec &output : request.outputs) {
    outputs.push_back(output.buffer);
    named.insert(output.buffer);
  }
  Array buffers;
  llvm::SHA256 data;
  for (unsigned b : named) {
    if (b >= request.buffers.size())
      continue;
    const BufferSpec &buffer = request.buffers[b];
    buffers.push_back(Object{{"buffer", b},
                             {"dtype", dtypeName(buffer.dtype)},
                             {"shape", toArray<int64_t>(buffer.shape)},
                             {"init", static_cast<int64_t>(buffer.init)},
                             {"seed", buffer.seed},
                             {"stream", buffer.stream},
                             {"data_bytes", buffer.data.size()}});
    data.update(buffer.data);
  }
  llvm::json::Value described =
      Object{{"source", ref.source},
             {"compile_options", toArray<std::string>(ref.compileOptions)},
             {"launches", std::move(launches)},
             {"outputs", std::move(outputs)},
             {"buffers", std::move(buffers)}};
  llvm::SHA256 hash;
  hash.update(llvm::formatv("{0}", described).str());
  // The given bytes, after a description that says how many of each.
  hash.update(data.final());
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
