//===- FakeDevice.cpp - A device for tests without a GPU ------------------===//
//
// Buffers live in host memory. A launch writes, into each buffer it writes,
// the contents the worker said to expect there (the reference), else a
// pattern computed from the contents of its other parameters, so that a
// reference program and the kernels under test agree. Latencies come from
// the request ("kernel_us") with a small deterministic jitter, on a
// simulated clock, so sample counts and statistics are the same on every
// run. Faults are injected on request.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Dialect/Common/GpuTarget.h"
#include "Deplodock/Runtime/Device.h"
#include "Deplodock/Runtime/Nvrtc.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Regex.h"

#include <cmath>
#include <map>

using namespace deplodock;
using namespace deplodock::runtime;

namespace {

/// The most the fake device's buffers may hold at once, in host memory.
constexpr uint64_t kFakeHostBytes = uint64_t(2) << 30;

/// What a request asks of the fake device.
struct FakeConfig {
  /// "compile_fail", "launch_fail", "sticky", "kernel_hang", "wrong", or a
  /// process fault the worker applies (crash, segfault, exit, hang,
  /// garbage).
  std::string fault;
  /// The kernel the launch faults hit (any when empty).
  std::string faultKernel;
  llvm::StringMap<double> kernelUs;
  double defaultUs = 10;
  int64_t registers = 32;
};

struct FakeModule {
  std::string source;
  /// A compiled image rather than CUDA source.
  bool image = false;
};

class FakeDevice : public Device {
public:
  explicit FakeDevice(const FakeDeviceOptions &options, const Nvrtc *nvrtc)
      : nvrtc(nvrtc), cache(options.cacheDir) {
    // The reference part of the default target (GpuTargets.td).
    const GpuTargetSpec &spec = *lookupGpuTarget(kDefaultGpuTarget);
    info.name = "Deplodock fake GPU";
    info.ccMajor = spec.capability / 10;
    info.ccMinor = spec.capability % 10;
    info.smCount = spec.smCount;
    info.l2Bytes = 50 << 20;
    info.memoryBytes = int64_t(80) << 30;
    info.smemPerBlockOptin = spec.smemPerBlock;
    info.driverVersion = "0.0-fake";
    info.cudaVersion = "13.0";
    info.nvrtcVersion = nvrtc ? nvrtc->getVersion() : "";
    info.uuid = "GPU-00000000-0000-0000-0000-000000000000";
    info.fake = true;
  }

  const DeviceInfo &getInfo() const override { return info; }
  llvm::Error beginRequest(const BenchRequest &request) override;
  llvm::Expected<void *> loadModule(llvm::StringRef source,
                                    llvm::ArrayRef<std::string> options,
                                    bool &cached) override;
  llvm::Expected<void *> loadImage(llvm::StringRef image) override;
  llvm::Expected<Kernel> getKernel(void *module, llvm::StringRef name,
                                   uint32_t smemBytes) override;
  llvm::Expected<DevicePtr> allocate(uint64_t bytes) override;
  void release(DevicePtr pointer) override;
  llvm::Error upload(DevicePtr dst, llvm::ArrayRef<uint8_t> src) override;
  llvm::Error download(llvm::MutableArrayRef<uint8_t> dst,
                       DevicePtr src) override;
  llvm::Expected<cuda::CUtensorMap> encodeTma(DevicePtr base, DType dtype,
                                              llvm::ArrayRef<int64_t> shape,
                                              llvm::ArrayRef<int64_t> box,
                                              unsigned swizzle) override;
  void expectContents(DevicePtr buffer,
                      llvm::ArrayRef<uint8_t> contents) override {
    expected[buffer].assign(contents.begin(), contents.end());
  }
  llvm::Error run(Unit &unit) override;
  llvm::Error synchronize(double timeoutS) override;
  llvm::Expected<SampleResult> sample(Unit &unit,
                                      const SampleRound &round) override;
  double nowMs() override { return clockMs; }

private:
  /// The buffer at `pointer`, if allocated.
  std::vector<uint8_t> *find(DevicePtr pointer) {
    auto it = memory.find(pointer);
    return it == memory.end() ? nullptr : &it->second;
  }
  /// Whether launch faults hit `kernel`.
  bool hits(llvm::StringRef kernel) const {
    return config.faultKernel.empty() || config.faultKernel == kernel;
  }
  /// Microseconds one run of `unit` takes.
  double unitUs(const Unit &unit) const;

  const Nvrtc *nvrtc;
  CompileCache cache;
  DeviceInfo info;
  FakeConfig config;
  std::map<DevicePtr, std::vector<uint8_t>> memory;
  /// Bytes of `memory` in use.
  uint64_t allocated = 0;
  llvm::DenseMap<DevicePtr, std::vector<uint8_t>> expected;
  std::vector<std::unique_ptr<FakeModule>> modules;
  llvm::StringMap<bool> compiled;
  DevicePtr next = 0x10000;
  double clockMs = 0;
  uint64_t samples = 0;
  bool hung = false;
};

} // namespace

/// 'text' for a string, else the value as JSON, for messages.
static std::string quoted(const llvm::json::Value &value) {
  if (std::optional<llvm::StringRef> text = value.getAsString())
    return "'" + text->str() + "'";
  std::string json;
  llvm::raw_string_ostream(json) << value;
  return json;
}

/// A latency the fake device accepts: finite, not negative, at most a
/// second.
static bool isLatencyUs(double us) {
  return std::isfinite(us) && us >= 0 && us <= 1e6;
}

llvm::Error FakeDevice::beginRequest(const BenchRequest &request) {
  config = FakeConfig();
  expected.clear();
  samples = 0;
  hung = false;
  // Anything misspelt or mistyped is refused: it would make a test pass for
  // the wrong reason.
  auto refuse = [](const llvm::Twine &message) {
    return llvm::createStringError("the fake device " + message.str());
  };
  static constexpr llvm::StringLiteral kFaults[] = {
      "compile_fail", "launch_fail", "sticky", "kernel_hang", "wrong",
      "crash",        "segfault",    "exit",   "hang",        "garbage"};
  static constexpr llvm::StringLiteral kPhases[] = {"compile", "verify",
                                                    "time"};
  for (const auto &[key, value] : request.fake) {
    std::optional<llvm::StringRef> text = value.getAsString();
    if (key == "fault") {
      if (!text || !llvm::is_contained(kFaults, *text))
        return refuse("knows no fault " + quoted(value) + " (" +
                      llvm::join(std::begin(kFaults), std::end(kFaults), ", ") +
                      ")");
      config.fault = text->str();
    } else if (key == "phase") {
      if (!text || !llvm::is_contained(kPhases, *text))
        return refuse("knows no phase " + quoted(value) +
                      " (compile, verify, time)");
    } else if (key == "fault_kernel") {
      if (!text)
        return refuse("expects a kernel name as fault_kernel");
      config.faultKernel = text->str();
    } else if (key == "default_us") {
      std::optional<double> us = value.getAsNumber();
      if (!us || !isLatencyUs(*us))
        return refuse("expects default_us from 0 to 1e6");
      config.defaultUs = *us;
    } else if (key == "registers") {
      std::optional<int64_t> registers = value.getAsInteger();
      if (!registers || *registers < 0 || *registers > 255)
        return refuse("expects registers from 0 to 255");
      config.registers = *registers;
    } else if (key == "kernel_us") {
      const llvm::json::Object *us = value.getAsObject();
      if (!us)
        return refuse("expects kernel_us as {\"kernel\": microseconds}");
      for (const auto &[name, v] : *us) {
        std::optional<double> number = v.getAsNumber();
        if (!number || !isLatencyUs(*number))
          return refuse("expects kernel_us." + name.str() + " from 0 to 1e6");
        config.kernelUs[name.str()] = *number;
      }
    } else {
      return refuse("knows no instruction '" + key.str() +
                    "' (fault, phase, fault_kernel, default_us, registers, "
                    "kernel_us)");
    }
  }
  return llvm::Error::success();
}

llvm::Expected<void *>
FakeDevice::loadModule(llvm::StringRef source,
                       llvm::ArrayRef<std::string> options, bool &cached) {
  if (config.fault == "compile_fail")
    return llvm::make_error<DeviceError>(
        BenchStatus::CompileFail,
        "NVRTC compilation failed:\nkernels.cu(1): error: injected compile "
        "failure (fake device)");
  cached = false;
  if (nvrtc) {
    std::vector<std::string> all = nvrtc->options(info.arch(), options);
    std::string key = CompileCache::key(nvrtc->getVersion(), all, source);
    cached = cache.lookup(key).has_value();
    if (!cached) {
      llvm::Expected<std::string> image = nvrtc->compile(source, all);
      if (!image)
        return llvm::make_error<DeviceError>(BenchStatus::CompileFail,
                                             llvm::toString(image.takeError()));
      cache.store(key, *image);
    }
  } else {
    // Without NVRTC, a source seen before counts as cached.
    cached = compiled.count(source);
    compiled[source] = true;
  }
  clockMs += cached ? 0.1 : 50;
  modules.push_back(std::make_unique<FakeModule>(FakeModule{source.str()}));
  return static_cast<void *>(modules.back().get());
}

llvm::Expected<void *> FakeDevice::loadImage(llvm::StringRef image) {
  if (config.fault == "compile_fail" ||
      !(image.starts_with("\x7f"
                          "ELF") ||
        image.starts_with("\x50\xed\x55\xba") || image.contains(".version")))
    return llvm::make_error<DeviceError>(
        BenchStatus::CompileFail,
        "cuModuleLoadData failed: CUDA_ERROR_INVALID_IMAGE (device kernel "
        "image is invalid; fake device: not an ELF, fatbin or PTX)");
  clockMs += 1;
  modules.push_back(
      std::make_unique<FakeModule>(FakeModule{image.str(), /*image=*/true}));
  return static_cast<void *>(modules.back().get());
}

/// Whether `name` appears in `image` as a whole symbol (an ELF string
/// table's entries end in NUL, PTX's `.entry name(`).
static bool definesSymbol(llvm::StringRef image, llvm::StringRef name) {
  auto isSymbolChar = [](char c) { return llvm::isAlnum(c) || c == '_'; };
  for (size_t at = image.find(name); at != llvm::StringRef::npos;
       at = image.find(name, at + 1)) {
    size_t end = at + name.size();
    if ((at == 0 || !isSymbolChar(image[at - 1])) &&
        (end == image.size() || !isSymbolChar(image[end])))
      return true;
  }
  return false;
}

llvm::Expected<Kernel> FakeDevice::getKernel(void *module, llvm::StringRef name,
                                             uint32_t smemBytes) {
  const FakeModule &loaded = *static_cast<FakeModule *>(module);
  llvm::Regex defined("(^|[^A-Za-z0-9_])" + name.str() + "[ \t\n]*\\(");
  if (loaded.image ? !definesSymbol(loaded.source, name)
                   : !defined.match(loaded.source))
    return llvm::make_error<DeviceError>(
        BenchStatus::CompileFail,
        ("looking up kernel '" + name +
         "' failed: CUDA_ERROR_NOT_FOUND (named symbol not found)")
            .str());
  if (smemBytes > info.smemPerBlockOptin)
    return llvm::make_error<DeviceError>(
        BenchStatus::LaunchFail,
        llvm::formatv("kernel '{0}' needs {1} bytes of dynamic shared "
                      "memory; the device allows {2}",
                      name, smemBytes, info.smemPerBlockOptin)
            .str());
  Kernel kernel;
  kernel.handle = module;
  kernel.info.name = name.str();
  kernel.info.registers = config.registers;
  kernel.info.maxThreadsPerBlock = 1024;
  return kernel;
}

llvm::Expected<DevicePtr> FakeDevice::allocate(uint64_t bytes) {
  // The buffers live in this process's memory: a layer too big for it is
  // an out-of-memory failure, not a worker killed by the OOM killer.
  if (bytes > static_cast<uint64_t>(info.memoryBytes) ||
      bytes > kFakeHostBytes - allocated)
    return llvm::make_error<DeviceError>(
        BenchStatus::LaunchFail,
        llvm::formatv(
            "cuMemAlloc of {0} bytes failed: CUDA_ERROR_OUT_OF_MEMORY "
            "(fake device: {1} bytes in use, it holds at most {2} "
            "in host memory)",
            bytes, allocated, kFakeHostBytes)
            .str());
  DevicePtr pointer = next;
  next += (bytes + 0xffff) & ~uint64_t(0xffff);
  memory[pointer].assign(bytes, 0xa5);
  allocated += bytes;
  return pointer;
}

void FakeDevice::release(DevicePtr pointer) {
  auto it = memory.find(pointer);
  if (it == memory.end())
    return;
  allocated -= it->second.size();
  memory.erase(it);
}

llvm::Error FakeDevice::upload(DevicePtr dst, llvm::ArrayRef<uint8_t> src) {
  std::vector<uint8_t> *buffer = find(dst);
  if (!buffer || buffer->size() < src.size())
    return llvm::make_error<DeviceError>(BenchStatus::LaunchFail,
                                         "upload to an unknown fake buffer");
  std::copy(src.begin(), src.end(), buffer->begin());
  return llvm::Error::success();
}

llvm::Error FakeDevice::download(llvm::MutableArrayRef<uint8_t> dst,
                                 DevicePtr src) {
  std::vector<uint8_t> *buffer = find(src);
  if (!buffer || buffer->size() < dst.size())
    return llvm::make_error<DeviceError>(BenchStatus::LaunchFail,
                                         "download of an unknown fake buffer");
  std::copy(buffer->begin(), buffer->begin() + dst.size(), dst.begin());
  return llvm::Error::success();
}

llvm::Expected<cuda::CUtensorMap> FakeDevice::encodeTma(DevicePtr base, DType,
                                                        llvm::ArrayRef<int64_t>,
                                                        llvm::ArrayRef<int64_t>,
                                                        unsigned) {
  cuda::CUtensorMap map = {};
  map.opaque[0] = base;
  return map;
}

/// FNV-1a of `bytes`, continuing from `hash`.
static uint64_t fnv(uint64_t hash, llvm::ArrayRef<uint8_t> bytes) {
  for (uint8_t b : bytes)
    hash = (hash ^ b) * 0x100000001b3ull;
  return hash;
}

llvm::Error FakeDevice::run(Unit &unit) {
  for (const Step &step : unit.steps) {
    const std::string &name = step.kernel.info.name;
    if ((config.fault == "launch_fail" || config.fault == "sticky") &&
        hits(name))
      return llvm::make_error<DeviceError>(
          BenchStatus::LaunchFail,
          config.fault == "sticky"
              ? "running the kernels failed: CUDA_ERROR_ILLEGAL_ADDRESS (an "
                "illegal memory access was encountered; fake device)"
              : "launching '" + name +
                    "' failed: CUDA_ERROR_INVALID_VALUE (invalid argument; "
                    "fake device)",
          /*fatal=*/config.fault == "sticky");
    if (config.fault == "kernel_hang" && hits(name))
      hung = true;
    for (auto [pointer, bytes] : step.zero)
      if (std::vector<uint8_t> *buffer = find(pointer))
        std::fill_n(buffer->begin(), std::min<uint64_t>(bytes, buffer->size()),
                    0);
    // The pattern depends on everything the kernel reads.
    uint64_t hash = 0xcbf29ce484222325ull;
    for (const ParamValue &param : step.params) {
      bool written = llvm::any_of(step.writes, [&](const Step::Write &w) {
        return w.buffer == param.buffer;
      });
      if (std::vector<uint8_t> *buffer = find(param.buffer); buffer && !written)
        hash = fnv(hash, *buffer);
    }
    for (const Step::Write &write : step.writes) {
      std::vector<uint8_t> *buffer = find(write.buffer);
      if (!buffer)
        continue;
      auto it = expected.find(write.buffer);
      if (it != expected.end() && it->second.size() == buffer->size()) {
        *buffer = it->second;
      } else {
        int64_t n = write.bytes / dtypeSize(write.dtype);
        for (int64_t i = 0; i < n; ++i)
          writeElement(
              write.dtype, buffer->data(), i,
              static_cast<double>(((hash >> (i % 32)) + i) % 17) / 16.0 - 0.5);
      }
      if (config.fault == "wrong" && hits(name)) {
        double v = readElement(write.dtype, buffer->data(), 0);
        writeElement(write.dtype, buffer->data(), 0,
                     write.dtype == DType::I1 ? 1 - v : v + 1 + std::fabs(v));
      }
    }
  }
  clockMs += unitUs(unit) / 1000;
  return llvm::Error::success();
}

llvm::Error FakeDevice::synchronize(double timeoutS) {
  if (!hung)
    return llvm::Error::success();
  clockMs += timeoutS * 1000;
  return llvm::make_error<DeviceError>(
      BenchStatus::Timeout,
      llvm::formatv("the GPU was still busy after {0} s (a hung kernel?; fake "
                    "device)",
                    llvm::format("%g", timeoutS))
          .str(),
      /*fatal=*/true);
}

double FakeDevice::unitUs(const Unit &unit) const {
  double us = 0;
  for (const Step &step : unit.steps) {
    auto it = config.kernelUs.find(step.kernel.info.name);
    us += it == config.kernelUs.end() ? config.defaultUs : it->second;
    us += 0.5 * step.zero.size();
  }
  return us;
}

llvm::Expected<SampleResult> FakeDevice::sample(Unit &unit,
                                                const SampleRound &round) {
  SampleResult result;
  result.graph = round.graph;
  double us = unitUs(unit);
  // The verified run already wrote the results; samples only cost time.
  for (unsigned i = 0; i < round.samples; ++i) {
    clockMs += us * round.repeats / 1000;
    // A jitter of up to ±0.4%, the same on every run.
    double jitter = 0.002 * static_cast<double>(samples++ * 7 % 5) - 0.004;
    result.us.push_back(us * (1 + jitter));
    clockMs += (round.flushL2 ? 0.03 : 0) + 0.005;
  }
  if (llvm::Error error = synchronize(round.timeoutS))
    return std::move(error);
  return result;
}

llvm::Expected<std::unique_ptr<Device>>
deplodock::runtime::createFakeDevice(const FakeDeviceOptions &options) {
  const Nvrtc *nvrtc = nullptr;
  if (options.compileWithNvrtc) {
    llvm::Expected<const Nvrtc &> loaded = Nvrtc::get();
    if (!loaded)
      return loaded.takeError();
    nvrtc = &*loaded;
  }
  return std::make_unique<FakeDevice>(options, nvrtc);
}
