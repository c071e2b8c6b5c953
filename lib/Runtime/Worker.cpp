//===- Worker.cpp - The bench worker's side of the protocol ---------------===//

#include "Deplodock/Runtime/Worker.h"
#include "Deplodock/Runtime/Protocol.h"
#include "Deplodock/Runtime/Timing.h"
#include "Deplodock/Runtime/Verify.h"

#include "Channel.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

using namespace deplodock::runtime;

namespace {

/// The request's device buffers, released on every way out.
class Buffers {
public:
  explicit Buffers(Device &device) : device(device) {}
  ~Buffers() {
    for (DevicePtr pointer : pointers)
      device.release(pointer);
  }
  std::vector<DevicePtr> pointers;

private:
  Device &device;
};

} // namespace

llvm::Expected<std::vector<Step>> deplodock::runtime::makeSteps(
    Device &device, llvm::ArrayRef<LaunchSpec> launches,
    const llvm::StringMap<Kernel> &kernels, llvm::ArrayRef<BufferSpec> buffers,
    llvm::ArrayRef<DevicePtr> pointers) {
  std::vector<Step> steps;
  for (const LaunchSpec &launch : launches) {
    Step step;
    step.kernel = kernels.lookup(launch.kernel);
    step.grid = launch.grid;
    step.block = launch.block;
    step.smemBytes = launch.smemBytes;
    step.early = launch.early;
    for (const LaunchParam &param : launch.params) {
      ParamValue value;
      if (param.tma) {
        const BufferSpec &buffer = buffers[param.tma->buffer];
        llvm::Expected<cuda::CUtensorMap> map =
            device.encodeTma(pointers[param.tma->buffer], buffer.dtype,
                             buffer.shape, param.tma->box, param.tma->swizzle);
        if (!map)
          return map.takeError();
        value.bytes = *map;
        value.buffer = pointers[param.tma->buffer];
      } else {
        value.buffer = pointers[param.buffer];
        std::memcpy(&value.bytes, &value.buffer, sizeof(DevicePtr));
      }
      step.params.push_back(value);
    }
    for (unsigned b : launch.zero)
      step.zero.emplace_back(pointers[b], buffers[b].numBytes());
    for (unsigned b : launch.writes)
      step.writes.push_back(
          {pointers[b], buffers[b].numBytes(), buffers[b].dtype});
    steps.push_back(std::move(step));
  }
  return steps;
}

llvm::Error deplodock::runtime::loadKernels(Device &device, void *module,
                                            llvm::ArrayRef<LaunchSpec> launches,
                                            llvm::StringMap<Kernel> &kernels,
                                            std::vector<KernelInfo> *infos) {
  llvm::StringMap<uint32_t> smem;
  for (const LaunchSpec &launch : launches)
    smem[launch.kernel] = std::max(smem[launch.kernel], launch.smemBytes);
  for (const LaunchSpec &launch : launches) {
    if (kernels.count(launch.kernel))
      continue;
    llvm::Expected<Kernel> kernel =
        device.getKernel(module, launch.kernel, smem[launch.kernel]);
    if (!kernel)
      return kernel.takeError();
    if (infos)
      infos->push_back(kernel->info);
    kernels[launch.kernel] = *kernel;
  }
  return llvm::Error::success();
}

llvm::Expected<BenchResult>
deplodock::runtime::runBench(Device &device, const BenchRequest &request,
                             llvm::function_ref<void(llvm::StringRef)> progress,
                             bool &fatal, WorkerCaches *caches) {
  // Without the caller's cache, one that keeps nothing: the host holds no
  // more than the largest buffer's contents beside the request.
  ContentsCache keepNothing(0);
  ContentsCache &contents = caches ? caches->contents : keepNothing;
  fatal = false;
  BenchResult result;
  result.id = request.id;
  // A device error is the variant's failure; anything else is the request's.
  auto failed = [&](llvm::Error error) -> llvm::Expected<BenchResult> {
    std::string other;
    llvm::handleAllErrors(
        std::move(error),
        [&](const DeviceError &e) {
          result.status = e.getStatus();
          result.detail = e.message();
          fatal = e.isFatal();
        },
        [&](const llvm::ErrorInfoBase &e) { other = e.message(); });
    result.workerExits = fatal;
    if (!other.empty())
      return llvm::createStringError(other);
    return std::move(result);
  };
  // The reference program failing is the request's fault, not the
  // variant's.
  auto referenceFailed = [&](llvm::Error error) -> llvm::Error {
    std::string message;
    llvm::handleAllErrors(std::move(error), [&](const llvm::ErrorInfoBase &e) {
      message = e.message();
      if (e.isA<DeviceError>())
        fatal |= static_cast<const DeviceError &>(e).isFatal();
    });
    return llvm::createStringError("the reference program failed: " + message);
  };
  if (llvm::Error error = device.beginRequest(request))
    return std::move(error);

  progress("compile");
  auto compileStart = std::chrono::steady_clock::now();
  bool cached = false;
  llvm::Expected<void *> module =
      device.loadModule(request.source, request.compileOptions, cached);
  if (!module)
    return failed(module.takeError());
  result.compileCached = cached;
  result.compileMs = std::chrono::duration<double, std::milli>(
                         std::chrono::steady_clock::now() - compileStart)
                         .count();
  llvm::StringMap<Kernel> kernels;
  if (llvm::Error error = loadKernels(device, *module, request.launches,
                                      kernels, &result.kernels))
    return failed(std::move(error));
  // A reference run on these inputs before gave these outputs.
  std::string referenceKey =
      caches ? ReferenceCache::key(request) : std::string();
  const ReferenceCache::Outputs *referenceOutputs =
      caches && request.reference ? caches->references.lookup(referenceKey)
                                  : nullptr;
  llvm::StringMap<Kernel> referenceKernels;
  if (request.reference && !referenceOutputs) {
    bool ignored;
    llvm::Expected<void *> reference = device.loadModule(
        request.reference->source, request.reference->compileOptions, ignored);
    if (!reference)
      return referenceFailed(reference.takeError());
    if (llvm::Error error =
            loadKernels(device, *reference, request.reference->launches,
                        referenceKernels, nullptr))
      return referenceFailed(std::move(error));
  }

  Buffers buffers(device);
  for (const BufferSpec &buffer : request.buffers) {
    llvm::Expected<DevicePtr> pointer = device.allocate(buffer.numBytes());
    if (!pointer)
      return failed(pointer.takeError());
    buffers.pointers.push_back(*pointer);
  }
  llvm::Expected<std::vector<Step>> steps = makeSteps(
      device, request.launches, kernels, request.buffers, buffers.pointers);
  if (!steps)
    return failed(steps.takeError());
  // One buffer's initial contents at a time.
  auto upload = [&]() -> llvm::Error {
    for (auto [pointer, buffer] : llvm::zip(buffers.pointers, request.buffers))
      if (llvm::Error error = device.upload(pointer, contents.get(buffer)))
        return error;
    return llvm::Error::success();
  };
  auto download = [&](std::vector<std::vector<uint8_t>> &out) -> llvm::Error {
    out.clear();
    for (const OutputSpec &output : request.outputs) {
      out.emplace_back(request.buffers[output.buffer].numBytes());
      if (llvm::Error error =
              device.download(out.back(), buffers.pointers[output.buffer]))
        return error;
    }
    return llvm::Error::success();
  };

  progress("verify");
  std::vector<std::optional<std::vector<uint8_t>>> expected;
  for (const OutputSpec &output : request.outputs)
    expected.push_back(output.expected);
  if (referenceOutputs) {
    for (auto [slot, bytes] : llvm::zip(expected, *referenceOutputs))
      slot = bytes;
  } else if (request.reference) {
    llvm::Expected<std::vector<Step>> referenceSteps =
        makeSteps(device, request.reference->launches, referenceKernels,
                  request.buffers, buffers.pointers);
    if (!referenceSteps)
      return referenceFailed(referenceSteps.takeError());
    std::unique_ptr<Unit> unit = device.makeUnit(std::move(*referenceSteps));
    std::vector<std::vector<uint8_t>> outputs;
    if (llvm::Error error = upload())
      return referenceFailed(std::move(error));
    if (llvm::Error error = device.run(*unit))
      return referenceFailed(std::move(error));
    if (llvm::Error error = device.synchronize(request.kernelTimeoutS))
      return referenceFailed(std::move(error));
    if (llvm::Error error = download(outputs))
      return referenceFailed(std::move(error));
    for (auto [slot, bytes] : llvm::zip(expected, outputs))
      slot = bytes;
    if (caches)
      caches->references.store(referenceKey, std::move(outputs));
  }
  for (auto [output, bytes] : llvm::zip(request.outputs, expected))
    if (bytes)
      device.expectContents(buffers.pointers[output.buffer], *bytes);

  std::unique_ptr<Unit> all = device.makeUnit(*steps);
  std::vector<std::vector<uint8_t>> actual;
  if (llvm::Error error = upload())
    return failed(std::move(error));
  if (llvm::Error error = device.run(*all))
    return failed(std::move(error));
  if (llvm::Error error = device.synchronize(request.kernelTimeoutS))
    return failed(std::move(error));
  if (llvm::Error error = download(actual))
    return failed(std::move(error));
  for (auto [output, want, got] :
       llvm::zip(request.outputs, expected, actual)) {
    if (!want)
      continue;
    const BufferSpec &buffer = request.buffers[output.buffer];
    OutputCheck check =
        checkOutput(buffer.dtype, *want, got,
                    output.tolerance.value_or(defaultTolerance(buffer.dtype)));
    check.buffer = output.buffer;
    result.verified = true;
    if (!check.ok && result.status == BenchStatus::Ok) {
      result.status = BenchStatus::WrongResult;
      result.detail = describeMismatch(check,
                                       buffer.name.empty()
                                           ? "#" + std::to_string(output.buffer)
                                           : buffer.name,
                                       buffer.numElements());
    }
    result.checks.push_back(check);
  }
  if (request.returnOutputs)
    result.outputs = std::move(actual);
  // Nothing is timed unless it computed the right answer.
  if (result.status != BenchStatus::Ok)
    return std::move(result);

  progress("time");
  if (request.time.eachLaunch)
    for (auto [i, step] : llvm::enumerate(*steps)) {
      std::unique_ptr<Unit> unit = device.makeUnit({step});
      llvm::Expected<Stats> stats =
          measureUnit(device, *unit, request.timing, request.kernelTimeoutS);
      if (!stats)
        return failed(stats.takeError());
      result.timings.push_back({static_cast<int64_t>(i), *stats});
    }
  if (request.time.total) {
    llvm::Expected<Stats> stats =
        measureUnit(device, *all, request.timing, request.kernelTimeoutS);
    if (!stats)
      return failed(stats.takeError());
    result.timings.push_back({-1, *stats});
  }
  return std::move(result);
}

//===----------------------------------------------------------------------===//
// The crash note
//===----------------------------------------------------------------------===//

namespace {
/// The line a crash writes last, kept ready because a signal handler may
/// only write.
char crashNote[192];
std::atomic<size_t> crashNoteSize{0};
} // namespace

/// Says in the crash note where the worker is: "during verify of request
/// 3".
static void setCrashNote(llvm::StringRef where) {
  crashNoteSize = 0;
  int n = std::snprintf(crashNote, sizeof(crashNote),
                        "%scrashed %.*s; the parent records the failure and "
                        "starts a new worker\n",
                        kWorkerMessagePrefix.data(),
                        static_cast<int>(std::min<size_t>(where.size(), 64)),
                        where.data());
  crashNoteSize = std::clamp<int>(n, 0, sizeof(crashNote) - 1);
}

static void writeCrashNote(void *) {
  if (size_t n = crashNoteSize)
    if (::write(2, crashNote, n) < 0)
      return;
}

void deplodock::runtime::installCrashNote() {
  setCrashNote("while idle");
  llvm::sys::AddSignalHandler(writeCrashNote, nullptr);
}

/// The fake device's faults that take the whole process down, at the phase
/// the request names ("verify" unless it says).
static void applyProcessFault(const llvm::json::Object &fake,
                              llvm::StringRef phase, int out) {
  llvm::StringRef fault = fake.getString("fault").value_or("");
  if (phase != fake.getString("phase").value_or("verify"))
    return;
  if (fault == "crash")
    std::abort();
  if (fault == "segfault")
    std::raise(SIGSEGV);
  if (fault == "exit")
    _exit(7);
  if (fault == "hang")
    while (true)
      pause();
  if (fault == "garbage") {
    static const char garbage[] = "this is not a frame\n";
    if (::write(out, garbage, sizeof(garbage) - 1) < 0)
      _exit(7);
  }
}

int deplodock::runtime::serveWorker(
    llvm::Expected<std::unique_ptr<Device>> device, int in, int out,
    llvm::StringRef workerName) {
  Channel channel(in, out);
  Hello hello;
  hello.worker = workerName.str();
  if (!device) {
    hello.error = llvm::toString(device.takeError());
    llvm::consumeError(channel.write(encodeHello(hello), std::nullopt));
    return kWorkerNoDevice;
  }
  hello.device = (*device)->getInfo();
  if (llvm::Error error = channel.write(encodeHello(hello), std::nullopt)) {
    llvm::consumeError(std::move(error));
    return kWorkerDone;
  }
  bool fake = hello.device->fake;
  // Every variant of a kernel starts from the same inputs, and is checked
  // against the same reference.
  WorkerCaches caches;
  while (true) {
    llvm::Expected<std::optional<Frame>> frame = channel.read(std::nullopt);
    if (!frame) {
      std::string message = llvm::toString(frame.takeError());
      llvm::consumeError(channel.write(encodeError(message), std::nullopt));
      return kWorkerBadFrame;
    }
    if (!*frame)
      return kWorkerDone;
    llvm::StringRef type = (*frame)->type();
    llvm::Error written = llvm::Error::success();
    if (type == "shutdown")
      return kWorkerDone;
    if (type == "info") {
      written = channel.write(encodeHello(hello), std::nullopt);
    } else if (type == "bench") {
      llvm::Expected<BenchRequest> request = decodeRequest(**frame);
      if (!request) {
        written = channel.write(
            encodeError(llvm::toString(request.takeError())), std::nullopt);
      } else {
        auto progress = [&](llvm::StringRef phase) {
          setCrashNote(
              ("during " + phase + " of request " + llvm::Twine(request->id))
                  .str());
          llvm::consumeError(
              channel.write(encodeProgress(request->id, phase), std::nullopt));
          if (fake)
            applyProcessFault(request->fake, phase, out);
        };
        bool fatal = false;
        llvm::Expected<BenchResult> result =
            runBench(**device, *request, progress, fatal, &caches);
        written = channel.write(
            result ? encodeResult(*result)
                   : encodeError(llvm::toString(result.takeError())),
            std::nullopt);
        setCrashNote("while idle");
        if (fatal) {
          llvm::consumeError(std::move(written));
          return kWorkerDeviceLost;
        }
      }
    } else {
      written = channel.write(
          encodeError("unknown message type '" + type.str() + "'"),
          std::nullopt);
    }
    if (written) {
      llvm::consumeError(std::move(written));
      return kWorkerDone;
    }
  }
}
