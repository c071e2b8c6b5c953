//===- BenchRequest.cpp - What the bench worker is asked to run -----------===//

#include "Deplodock/Runtime/BenchRequest.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace deplodock::runtime;

int64_t BufferSpec::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::vector<uint8_t> BufferSpec::initialContents() const {
  switch (init) {
  case InitKind::Data:
    return data;
  case InitKind::Zero:
    return std::vector<uint8_t>(numBytes(), 0);
  case InitKind::Poison:
    return std::vector<uint8_t>(numBytes(), 0xff);
  case InitKind::Seeded: {
    std::vector<uint8_t> bytes(numBytes());
    fillSeeded(dtype, bytes, seed, stream);
    return bytes;
  }
  }
  return {};
}

Tolerance deplodock::runtime::defaultTolerance(DType dtype) {
  switch (dtype) {
  case DType::F64:
    return {1e-9, 1e-12, 1e-12};
  case DType::F32:
    return {1e-3, 1e-5, 1e-5};
  case DType::F16:
    return {1e-2, 1e-3, 5e-3};
  case DType::BF16:
    return {2e-2, 1e-2, 2e-2};
  // As bf16's, in units of the type's epsilon (2^-3 for e4m3fn, 2^-2 for
  // e5m2): two ulps relative, one absolute.
  case DType::F8E4M3FN:
    return {0.25, 0.125, 0.25};
  case DType::F8E5M2:
    return {0.5, 0.25, 0.5};
  default:
    return {0, 0, 0};
  }
}

Tolerance deplodock::runtime::tf32Tolerance() {
  return defaultTolerance(DType::F16);
}

template <typename... Ts>
static llvm::Error invalid(const char *format, Ts &&...values) {
  return llvm::createStringError(
      "invalid request: " +
      llvm::formatv(format, std::forward<Ts>(values)...).str());
}

template <typename... Ts>
static llvm::Error error(const char *format, Ts &&...values) {
  return llvm::createStringError(
      llvm::formatv(format, std::forward<Ts>(values)...).str());
}

/// `error` with "invalid request: " before its message.
static llvm::Error invalidRequest(llvm::Error error) {
  if (!error)
    return error;
  return llvm::createStringError("invalid request: " +
                                 llvm::toString(std::move(error)));
}

llvm::Error
deplodock::runtime::checkLaunches(llvm::ArrayRef<LaunchSpec> launches,
                                  llvm::ArrayRef<BufferSpec> buffers,
                                  llvm::StringRef what) {
  if (launches.empty())
    return error("{0} has no launches", what);
  for (auto [i, launch] : llvm::enumerate(launches)) {
    std::string where = llvm::formatv("{0} launch #{1}", what, i).str();
    const std::string &name = launch.kernel;
    if (name.empty() || llvm::isDigit(name[0]) ||
        !llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; }))
      return error("{0}: kernel name '{1}' is not a C identifier", where, name);
    uint64_t threads = 1;
    for (unsigned d = 0; d < 3; ++d) {
      if (launch.grid[d] == 0 || launch.block[d] == 0)
        return error("{0} (@{1}): grid and block dimensions must be "
                     "positive",
                     where, name);
      threads *= launch.block[d];
    }
    if (threads > 1024)
      return error("{0} (@{1}): {2} threads per block, more than 1024", where,
                   name, threads);
    auto checkBuffer = [&](unsigned b, llvm::StringRef role) -> llvm::Error {
      if (b >= buffers.size())
        return error("{0} (@{1}): {2} names buffer #{3}, but there are {4}",
                     where, name, role, b, buffers.size());
      return llvm::Error::success();
    };
    for (auto [p, param] : llvm::enumerate(launch.params)) {
      std::string role = llvm::formatv("parameter #{0}", p).str();
      if (!param.tma) {
        if (llvm::Error e = checkBuffer(param.buffer, role))
          return e;
        continue;
      }
      const TmaSpec &tma = *param.tma;
      if (llvm::Error e = checkBuffer(tma.buffer, role))
        return e;
      const BufferSpec &buffer = buffers[tma.buffer];
      if (tma.box.size() != buffer.shape.size() || tma.box.empty() ||
          tma.box.size() > 5)
        return error("{0} (@{1}): {2} has a rank-{3} TMA box for a rank-{4} "
                     "buffer (ranks 1 to 5)",
                     where, name, role, tma.box.size(), buffer.shape.size());
      for (auto [box, dim] : llvm::zip(tma.box, buffer.shape))
        if (box < 1 || box > 256)
          return error("{0} (@{1}): {2} has TMA box extent {3} for a "
                       "dimension of {4} (1 to 256; past the buffer's end "
                       "TMA reads zeros)",
                       where, name, role, box, dim);
      if (tma.swizzle != 0 && tma.swizzle != 32 && tma.swizzle != 64 &&
          tma.swizzle != 128)
        return error("{0} (@{1}): {2} has swizzle {3} (0, 32, 64 or 128)",
                     where, name, role, tma.swizzle);
    }
    for (unsigned b : launch.zero)
      if (llvm::Error e = checkBuffer(b, "zero"))
        return e;
    for (unsigned b : launch.writes)
      if (llvm::Error e = checkBuffer(b, "writes"))
        return e;
  }
  return llvm::Error::success();
}

/// " (name)" of a named buffer, else nothing, for messages.
static std::string named(const BufferSpec &buffer) {
  return buffer.name.empty() ? "" : " (" + buffer.name + ")";
}

llvm::Error deplodock::runtime::checkBufferShape(const BufferSpec &buffer,
                                                 size_t index) {
  uint64_t elements = 1;
  for (int64_t d : buffer.shape) {
    if (d < 1 || d > (int64_t(1) << 40))
      return error("buffer #{0}{1} has dimension {2}", index, named(buffer), d);
    elements *= static_cast<uint64_t>(d);
    if (elements > (uint64_t(1) << 40))
      return error("buffer #{0}{1} is too large", index, named(buffer));
  }
  return llvm::Error::success();
}

llvm::Error deplodock::runtime::validateRequest(const BenchRequest &request) {
  if (request.source.empty())
    return invalid("no CUDA source");
  for (auto [i, buffer] : llvm::enumerate(request.buffers)) {
    if (llvm::Error e = invalidRequest(checkBufferShape(buffer, i)))
      return e;
    if (buffer.init == InitKind::Data &&
        buffer.data.size() != buffer.numBytes())
      return invalid("buffer #{0}{1} has {2} bytes of data for {3} bytes", i,
                     named(buffer), buffer.data.size(), buffer.numBytes());
  }
  if (llvm::Error e = invalidRequest(
          checkLaunches(request.launches, request.buffers, "the request")))
    return e;
  if (request.reference)
    if (llvm::Error e = invalidRequest(
            checkLaunches(request.reference->launches, request.buffers,
                          "the reference program")))
      return e;
  for (auto [i, output] : llvm::enumerate(request.outputs)) {
    if (output.buffer >= request.buffers.size())
      return invalid("output #{0} names buffer #{1}, but there are {2}", i,
                     output.buffer, request.buffers.size());
    const BufferSpec &buffer = request.buffers[output.buffer];
    if (output.expected && output.expected->size() != buffer.numBytes())
      return invalid("output #{0}{1} has {2} expected bytes for {3} bytes", i,
                     named(buffer), output.expected->size(), buffer.numBytes());
    if (output.expected && request.reference)
      return invalid("output #{0}{1} has expected data and the request a "
                     "reference program: give one or the other",
                     i, named(buffer));
    if (output.tolerance) {
      const Tolerance &t = *output.tolerance;
      for (double v : {t.rtol, t.atol, t.scale})
        if (!(v >= 0) || std::isinf(v))
          return invalid("output #{0}{1} has a negative or non-finite "
                         "tolerance",
                         i, named(buffer));
    }
  }
  const TimingOptions &t = request.timing;
  if (t.minSamples < 1 || t.maxSamples < 1)
    return invalid("timing needs at least one sample");
  if (t.minSamples > kMaxSamples || t.maxSamples > kMaxSamples)
    return invalid("timing takes at most {0} samples", kMaxSamples);
  auto inRange = [](double v, double most) {
    return std::isfinite(v) && v >= 0 && v <= most;
  };
  for (double v : {t.warmupMs, t.minTimeMs, t.maxTimeMs})
    if (!inRange(v, kMaxTimingMs))
      return invalid("timing budgets (warmup_ms, min_time_ms, max_time_ms) "
                     "must be from 0 to {0} ms",
                     static_cast<int64_t>(kMaxTimingMs));
  for (double v : {t.targetSpread, t.graphBelowUs, t.batchUs})
    if (!(v >= 0) || std::isinf(v))
      return invalid("timing options must be finite and not negative");
  if (!inRange(request.kernelTimeoutS, kMaxTimeoutS) ||
      request.kernelTimeoutS == 0)
    return invalid("kernel_timeout_s must be positive and at most {0}",
                   static_cast<int64_t>(kMaxTimeoutS));
  if (!inRange(request.timeoutS, kMaxTimeoutS))
    return invalid("timeout_s must be from 0 to {0}",
                   static_cast<int64_t>(kMaxTimeoutS));
  return llvm::Error::success();
}

double deplodock::runtime::requestDeadlineS(const BenchRequest &request) {
  if (request.timeoutS > 0)
    return request.timeoutS;
  // Compiling, the reference and verification, then every timed unit at its
  // budget, with room for L2 flushes and slow launches.
  size_t units = (request.time.eachLaunch ? request.launches.size() : 0) +
                 (request.time.total ? 1 : 0);
  double perUnitS =
      2 * (request.timing.warmupMs + request.timing.maxTimeMs) / 1000 + 1;
  return 60 + 2 * request.kernelTimeoutS + units * perUnitS;
}
