//===- CudaDevice.cpp - A GPU through the CUDA driver API -----------------===//
//
// Everything runs on one private stream of the primary context. Waits poll
// the stream with a deadline, so a hung kernel becomes a timeout instead of
// a hung worker. Timing: an L2 flush (a memset of twice the L2 size) before
// each sample, outside a pair of events around the unit; the flush also
// keeps the GPU busy while the host enqueues, so launch latency stays out of
// the measurement.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Runtime/Device.h"
#include "Deplodock/Runtime/Nvrtc.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <chrono>
#include <cstdlib>
#include <list>
#include <thread>

using namespace deplodock::runtime;
using namespace deplodock::runtime::cuda;

namespace {

/// A unit with its CUDA graph, captured on first use.
class CudaUnit : public Unit {
public:
  using Unit::Unit;
  ~CudaUnit() override;
  const CudaDriver *driver = nullptr;
  CUgraphExec exec = nullptr;
  /// The repeats the graph holds.
  unsigned repeats = 0;
  /// Capture failed once: do not try again.
  bool noGraph = false;
};

CudaUnit::~CudaUnit() {
  if (exec)
    driver->cuGraphExecDestroy(exec);
}

class CudaDevice : public Device {
public:
  CudaDevice(const CudaDriver &driver, const Nvrtc &nvrtc, std::string cacheDir)
      : driver(driver), nvrtc(nvrtc), cache(std::move(cacheDir)) {}
  ~CudaDevice() override;

  llvm::Error init(int ordinal);

  const DeviceInfo &getInfo() const override { return info; }
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
  llvm::Expected<CUtensorMap> encodeTma(DevicePtr base, DType dtype,
                                        llvm::ArrayRef<int64_t> shape,
                                        llvm::ArrayRef<int64_t> box,
                                        unsigned swizzle) override;
  std::unique_ptr<Unit> makeUnit(std::vector<Step> steps) override;
  llvm::Error run(Unit &unit) override;
  llvm::Error runOn(Unit &unit, void *stream) override;
  llvm::Error makeCurrent() override;
  llvm::Error synchronize(double timeoutS) override;
  llvm::Expected<SampleResult> sample(Unit &unit,
                                      const SampleRound &round) override;
  double nowMs() override;

private:
  /// A DeviceError of `status` for a failed call, fatal when sticky.
  llvm::Error fail(CUresult result, llvm::StringRef what, BenchStatus status) {
    if (result == CUDA_SUCCESS)
      return llvm::Error::success();
    return llvm::make_error<DeviceError>(
        status, (what + " failed: " + driver.describe(result)).str(),
        CudaDriver::isSticky(result));
  }
  /// Enqueues the zeroing and launches of `unit` once on `on` (the
  /// device's own stream unless given).
  llvm::Error enqueue(const Unit &unit, std::optional<CUstream> on = {});
  /// Keeps a loaded module (at most 32 of them, by key).
  void remember(std::string key, CUmodule module);
  /// Captures `repeats` runs of `unit` as a graph; false when capture fails.
  bool capture(CudaUnit &unit, unsigned repeats);

  const CudaDriver &driver;
  const Nvrtc &nvrtc;
  CompileCache cache;
  DeviceInfo info;
  CUdevice device = 0;
  CUcontext context = nullptr;
  CUstream stream = nullptr;
  DevicePtr flush = 0;
  uint64_t flushBytes = 0;
  unsigned flushValue = 0;
  std::vector<CUevent> events;
  /// Loaded modules by compile key, most recently used first.
  std::list<std::pair<std::string, CUmodule>> modules;
};

} // namespace

CudaDevice::~CudaDevice() {
  if (context) {
    driver.cuCtxSynchronize();
    for (CUevent event : events)
      driver.cuEventDestroy(event);
    for (auto &[key, module] : modules)
      driver.cuModuleUnload(module);
    if (flush)
      driver.cuMemFree(flush);
    if (stream)
      driver.cuStreamDestroy(stream);
    driver.cuDevicePrimaryCtxRelease(device);
  }
}

llvm::Error CudaDevice::init(int ordinal) {
  int count = 0;
  if (llvm::Error error =
          driver.check(driver.cuDeviceGetCount(&count), "cuDeviceGetCount"))
    return error;
  if (ordinal < 0 || ordinal >= count)
    return llvm::createStringError(
        "no CUDA device: there is no GPU #%d (the driver sees %d)", ordinal,
        count);
  auto check = [&](CUresult result, const char *what) {
    return driver.check(result, what);
  };
  if (llvm::Error error =
          check(driver.cuDeviceGet(&device, ordinal), "cuDeviceGet"))
    return error;
  if (llvm::Error error =
          check(driver.cuDevicePrimaryCtxRetain(&context, device),
                "cuDevicePrimaryCtxRetain"))
    return error;
  if (llvm::Error error =
          check(driver.cuCtxSetCurrent(context), "cuCtxSetCurrent"))
    return error;
  // A blocking stream: the synchronous copies on the legacy stream wait for
  // it (the worker also waits for it first, with a deadline).
  if (llvm::Error error =
          check(driver.cuStreamCreate(&stream, 0), "cuStreamCreate"))
    return error;

  char name[256] = {};
  int major = 0, minor = 0, sms = 0, l2 = 0, optin = 0, version = 0;
  size_t memory = 0;
  CUuuid uuid = {};
  for (auto [value, attribute] :
       {std::pair{&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR},
        std::pair{&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR},
        std::pair{&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT},
        std::pair{&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE},
        std::pair{&optin,
                  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN}})
    if (llvm::Error error =
            check(driver.cuDeviceGetAttribute(value, attribute, device),
                  "cuDeviceGetAttribute"))
      return error;
  if (llvm::Error error =
          check(driver.cuDeviceGetName(name, sizeof(name) - 1, device),
                "cuDeviceGetName"))
    return error;
  if (llvm::Error error =
          check(driver.cuDeviceTotalMem(&memory, device), "cuDeviceTotalMem"))
    return error;
  if (llvm::Error error =
          check(driver.cuDriverGetVersion(&version), "cuDriverGetVersion"))
    return error;
  driver.cuDeviceGetUuid(&uuid, device);

  info.name = name;
  info.ordinal = ordinal;
  info.ccMajor = major;
  info.ccMinor = minor;
  info.smCount = sms;
  info.l2Bytes = l2;
  info.memoryBytes = static_cast<int64_t>(memory);
  info.smemPerBlockOptin = optin;
  info.driverVersion = readNvidiaDriverVersion(driver.path);
  info.cudaVersion = std::to_string(version / 1000) + "." +
                     std::to_string(version % 1000 / 10);
  info.nvrtcVersion = nvrtc.getVersion();
  std::string hex = llvm::toHex(
      llvm::ArrayRef(reinterpret_cast<const uint8_t *>(uuid.bytes), 16),
      /*LowerCase=*/true);
  info.uuid = llvm::formatv("GPU-{0}-{1}-{2}-{3}-{4}", hex.substr(0, 8),
                            hex.substr(8, 4), hex.substr(12, 4),
                            hex.substr(16, 4), hex.substr(20))
                  .str();

  // Twice the L2, so that a flush evicts everything a sample left there;
  // allocated by the first sample that flushes (the runtime API never
  // does).
  flushBytes = std::max<uint64_t>(2 * static_cast<uint64_t>(l2), 8u << 20);
  return llvm::Error::success();
}

llvm::Expected<void *>
CudaDevice::loadModule(llvm::StringRef source,
                       llvm::ArrayRef<std::string> options, bool &cached) {
  std::vector<std::string> all = nvrtc.options(info.arch(), options);
  std::string key = CompileCache::key(nvrtc.getVersion(), all, source);
  for (auto it = modules.begin(); it != modules.end(); ++it)
    if (it->first == key) {
      modules.splice(modules.begin(), modules, it);
      cached = true;
      return static_cast<void *>(modules.front().second);
    }
  std::optional<std::string> image = cache.lookup(key);
  cached = image.has_value();
  if (!image) {
    llvm::Expected<std::string> compiled = nvrtc.compile(source, all);
    if (!compiled)
      return llvm::make_error<DeviceError>(
          BenchStatus::CompileFail, llvm::toString(compiled.takeError()));
    image = std::move(*compiled);
    cache.store(key, *image);
  }
  CUmodule module = nullptr;
  if (llvm::Error error = fail(driver.cuModuleLoadData(&module, image->data()),
                               "cuModuleLoadData", BenchStatus::CompileFail))
    return std::move(error);
  remember(std::move(key), module);
  return static_cast<void *>(module);
}

void CudaDevice::remember(std::string key, CUmodule module) {
  modules.emplace_front(std::move(key), module);
  // Loaded modules hold device memory: keep the 32 most recent.
  while (modules.size() > 32) {
    driver.cuModuleUnload(modules.back().second);
    modules.pop_back();
  }
}

llvm::Expected<void *> CudaDevice::loadImage(llvm::StringRef image) {
  // cuModuleLoadData reads PTX up to its NUL: give it a terminated copy.
  std::string copy = image.str();
  std::string key = "image:" + CompileCache::key("", {}, image);
  for (auto it = modules.begin(); it != modules.end(); ++it)
    if (it->first == key) {
      modules.splice(modules.begin(), modules, it);
      return static_cast<void *>(modules.front().second);
    }
  CUmodule module = nullptr;
  if (llvm::Error error = fail(driver.cuModuleLoadData(&module, copy.data()),
                               "cuModuleLoadData", BenchStatus::CompileFail))
    return std::move(error);
  remember(std::move(key), module);
  return static_cast<void *>(module);
}

llvm::Expected<Kernel> CudaDevice::getKernel(void *module, llvm::StringRef name,
                                             uint32_t smemBytes) {
  Kernel kernel;
  CUfunction function = nullptr;
  std::string symbol = name.str();
  if (llvm::Error error =
          fail(driver.cuModuleGetFunction(
                   &function, static_cast<CUmodule>(module), symbol.c_str()),
               "looking up kernel '" + symbol + "'", BenchStatus::CompileFail))
    return std::move(error);
  kernel.handle = function;
  kernel.info.name = symbol;
  int value = 0;
  for (auto [slot, attribute] :
       {std::pair{&kernel.info.registers, CU_FUNC_ATTRIBUTE_NUM_REGS},
        std::pair{&kernel.info.staticSmemBytes,
                  CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES},
        std::pair{&kernel.info.localBytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES},
        std::pair{&kernel.info.constBytes, CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES},
        std::pair{&kernel.info.maxThreadsPerBlock,
                  CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK}}) {
    if (llvm::Error error =
            fail(driver.cuFuncGetAttribute(&value, attribute, function),
                 "cuFuncGetAttribute", BenchStatus::LaunchFail))
      return std::move(error);
    *slot = value;
  }
  // Beyond 48 KiB, dynamic shared memory must be asked for.
  if (smemBytes > 48 * 1024) {
    int64_t available = info.smemPerBlockOptin - kernel.info.staticSmemBytes;
    if (smemBytes > available)
      return llvm::make_error<DeviceError>(
          BenchStatus::LaunchFail,
          llvm::formatv("kernel '{0}' needs {1} bytes of dynamic shared "
                        "memory; the device allows {2}",
                        symbol, smemBytes, available)
              .str());
    if (llvm::Error error =
            fail(driver.cuFuncSetAttribute(
                     function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                     static_cast<int>(smemBytes)),
                 "cuFuncSetAttribute", BenchStatus::LaunchFail))
      return std::move(error);
  }
  return kernel;
}

llvm::Expected<DevicePtr> CudaDevice::allocate(uint64_t bytes) {
  CUdeviceptr pointer = 0;
  if (llvm::Error error =
          fail(driver.cuMemAlloc(&pointer, bytes),
               "cuMemAlloc of " + std::to_string(bytes) + " bytes",
               BenchStatus::LaunchFail))
    return std::move(error);
  return pointer;
}

void CudaDevice::release(DevicePtr pointer) { driver.cuMemFree(pointer); }

llvm::Error CudaDevice::upload(DevicePtr dst, llvm::ArrayRef<uint8_t> src) {
  return fail(driver.cuMemcpyHtoD(dst, src.data(), src.size()), "cuMemcpyHtoD",
              BenchStatus::LaunchFail);
}

llvm::Error CudaDevice::download(llvm::MutableArrayRef<uint8_t> dst,
                                 DevicePtr src) {
  return fail(driver.cuMemcpyDtoH(dst.data(), src, dst.size()), "cuMemcpyDtoH",
              BenchStatus::LaunchFail);
}

llvm::Expected<CUtensorMap> CudaDevice::encodeTma(DevicePtr base, DType dtype,
                                                  llvm::ArrayRef<int64_t> shape,
                                                  llvm::ArrayRef<int64_t> box,
                                                  unsigned swizzle) {
  if (!driver.cuTensorMapEncodeTiled)
    return llvm::make_error<DeviceError>(
        BenchStatus::LaunchFail,
        "the CUDA driver has no cuTensorMapEncodeTiled (CUDA 12 is needed "
        "for TMA)");
  int type;
  switch (dtype) {
  case DType::F16:
    type = CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
    break;
  case DType::BF16:
    type = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
    break;
  case DType::F32:
    type = CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
    break;
  case DType::F64:
    type = CU_TENSOR_MAP_DATA_TYPE_FLOAT64;
    break;
  case DType::I1:
  case DType::I8:
  case DType::F8E4M3FN:
  case DType::F8E5M2:
    type = CU_TENSOR_MAP_DATA_TYPE_UINT8;
    break;
  case DType::I16:
    type = CU_TENSOR_MAP_DATA_TYPE_UINT16;
    break;
  case DType::I32:
    type = CU_TENSOR_MAP_DATA_TYPE_INT32;
    break;
  case DType::I64:
    type = CU_TENSOR_MAP_DATA_TYPE_INT64;
    break;
  }
  // The driver takes dimensions innermost first, and the byte strides of
  // every dimension but the innermost.
  unsigned rank = shape.size();
  uint64_t dims[5], strides[5];
  uint32_t boxDims[5], elementStrides[5];
  uint64_t stride = dtypeSize(dtype);
  for (unsigned i = 0; i < rank; ++i) {
    dims[i] = shape[rank - 1 - i];
    boxDims[i] = box[rank - 1 - i];
    elementStrides[i] = 1;
    stride *= dims[i];
    if (i + 1 < rank)
      strides[i] = stride;
  }
  int mode = swizzle == 128  ? CU_TENSOR_MAP_SWIZZLE_128B
             : swizzle == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
             : swizzle == 32 ? CU_TENSOR_MAP_SWIZZLE_32B
                             : CU_TENSOR_MAP_SWIZZLE_NONE;
  CUtensorMap map;
  if (llvm::Error error = fail(
          driver.cuTensorMapEncodeTiled(
              &map, type, rank, reinterpret_cast<void *>(base), dims, strides,
              boxDims, elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, mode,
              CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
              CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
          "cuTensorMapEncodeTiled", BenchStatus::LaunchFail))
    return std::move(error);
  return map;
}

std::unique_ptr<Unit> CudaDevice::makeUnit(std::vector<Step> steps) {
  auto unit = std::make_unique<CudaUnit>(std::move(steps));
  unit->driver = &driver;
  return unit;
}

/// Whether kernels that wait for the grids before them are launched as
/// their programmatic dependents: yes unless $DEPLODOCK_DEPENDENT_LAUNCH is
/// 0 (to measure what the overlap gains).
static bool dependentLaunchAllowed() {
  static const bool allowed = [] {
    const char *value = std::getenv("DEPLODOCK_DEPENDENT_LAUNCH");
    return !value || llvm::StringRef(value) != "0";
  }();
  return allowed;
}

/// Launches `step` on `stream` as a programmatic dependent of the launch
/// before it: its blocks may start while that grid finishes, and wait for
/// it (dkernel.wait_prior_grids) before touching memory.
static CUresult launchDependent(const CudaDriver &driver, const Step &step,
                                CUstream stream, void **params) {
  cuda::CUlaunchAttribute attribute = {};
  attribute.id = cuda::CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
  attribute.value.programmaticStreamSerializationAllowed = 1;
  cuda::CUlaunchConfig config = {};
  config.gridDimX = step.grid[0];
  config.gridDimY = step.grid[1];
  config.gridDimZ = step.grid[2];
  config.blockDimX = step.block[0];
  config.blockDimY = step.block[1];
  config.blockDimZ = step.block[2];
  config.sharedMemBytes = step.smemBytes;
  config.hStream = stream;
  config.attrs = &attribute;
  config.numAttrs = 1;
  return driver.cuLaunchKernelEx(
      &config, static_cast<CUfunction>(step.kernel.handle), params, nullptr);
}

llvm::Error CudaDevice::enqueue(const Unit &unit, std::optional<CUstream> on) {
  CUstream stream = on.value_or(this->stream);
  for (const Step &step : unit.steps) {
    for (auto [pointer, bytes] : step.zero)
      if (llvm::Error error =
              fail(driver.cuMemsetD8Async(pointer, 0, bytes, stream),
                   "cuMemsetD8Async", BenchStatus::LaunchFail))
        return error;
    llvm::SmallVector<void *, 8> params;
    for (const ParamValue &param : step.params)
      params.push_back(const_cast<CUtensorMap *>(&param.bytes));
    // A memset before the launch is not a grid it could overlap; GPUs
    // before sm_90 have no programmatic dependent launch (and the emitted
    // wait is compiled out there).
    bool early = step.early && step.zero.empty() && info.ccMajor >= 9 &&
                 driver.cuLaunchKernelEx && dependentLaunchAllowed();
    CUresult result = early
                          ? launchDependent(driver, step, stream, params.data())
                          : driver.cuLaunchKernel(
                                static_cast<CUfunction>(step.kernel.handle),
                                step.grid[0], step.grid[1], step.grid[2],
                                step.block[0], step.block[1], step.block[2],
                                step.smemBytes, stream, params.data(), nullptr);
    if (llvm::Error error =
            fail(result, "launching '" + step.kernel.info.name + "'",
                 BenchStatus::LaunchFail))
      return error;
  }
  return llvm::Error::success();
}

llvm::Error CudaDevice::run(Unit &unit) { return enqueue(unit); }

llvm::Error CudaDevice::runOn(Unit &unit, void *stream) {
  return enqueue(unit, static_cast<CUstream>(stream));
}

llvm::Error CudaDevice::makeCurrent() {
  return fail(driver.cuCtxSetCurrent(context), "cuCtxSetCurrent",
              BenchStatus::LaunchFail);
}

llvm::Error CudaDevice::synchronize(double timeoutS) {
  auto start = std::chrono::steady_clock::now();
  auto deadline = start + std::chrono::duration<double>(timeoutS);
  auto pause = std::chrono::microseconds(20);
  while (true) {
    CUresult result = driver.cuStreamQuery(stream);
    if (result == CUDA_SUCCESS)
      return llvm::Error::success();
    if (result != CUDA_ERROR_NOT_READY)
      return fail(result, "running the kernels", BenchStatus::LaunchFail);
    if (std::chrono::steady_clock::now() > deadline)
      return llvm::make_error<DeviceError>(
          BenchStatus::Timeout,
          llvm::formatv("the GPU was still busy after {0} s (a hung "
                        "kernel?)",
                        llvm::format("%g", timeoutS))
              .str(),
          /*fatal=*/true);
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(1000));
  }
}

bool CudaDevice::capture(CudaUnit &unit, unsigned repeats) {
  if (unit.exec) {
    driver.cuGraphExecDestroy(unit.exec);
    unit.exec = nullptr;
  }
  if (driver.cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL))
    return false;
  bool ok = true;
  for (unsigned r = 0; r < repeats && ok; ++r)
    if (llvm::Error error = enqueue(unit)) {
      llvm::consumeError(std::move(error));
      ok = false;
    }
  // Capture must end whatever happened, or the stream stays capturing.
  CUgraph graph = nullptr;
  ok &= driver.cuStreamEndCapture(stream, &graph) == CUDA_SUCCESS && graph;
  ok = ok &&
       driver.cuGraphInstantiateWithFlags(&unit.exec, graph, 0) == CUDA_SUCCESS;
  if (graph)
    driver.cuGraphDestroy(graph);
  if (!ok) {
    unit.exec = nullptr;
    unit.noGraph = true;
    return false;
  }
  unit.repeats = repeats;
  return true;
}

llvm::Expected<SampleResult> CudaDevice::sample(Unit &base,
                                                const SampleRound &round) {
  auto &unit = static_cast<CudaUnit &>(base);
  SampleResult result;
  if (round.graph && !unit.noGraph)
    result.graph = (unit.exec && unit.repeats == round.repeats) ||
                   capture(unit, round.repeats);
  while (events.size() < 2 * round.samples) {
    CUevent event = nullptr;
    if (llvm::Error error = fail(driver.cuEventCreate(&event, CU_EVENT_DEFAULT),
                                 "cuEventCreate", BenchStatus::LaunchFail))
      return std::move(error);
    events.push_back(event);
  }
  if (round.flushL2 && !flush)
    if (llvm::Error error =
            fail(driver.cuMemAlloc(&flush, flushBytes),
                 "cuMemAlloc of the L2 flush buffer", BenchStatus::LaunchFail))
      return std::move(error);
  for (unsigned i = 0; i < round.samples; ++i) {
    if (round.flushL2)
      if (llvm::Error error =
              fail(driver.cuMemsetD32Async(flush, ++flushValue, flushBytes / 4,
                                           stream),
                   "flushing L2", BenchStatus::LaunchFail))
        return std::move(error);
    if (llvm::Error error = fail(driver.cuEventRecord(events[2 * i], stream),
                                 "cuEventRecord", BenchStatus::LaunchFail))
      return std::move(error);
    if (result.graph) {
      if (llvm::Error error = fail(driver.cuGraphLaunch(unit.exec, stream),
                                   "cuGraphLaunch", BenchStatus::LaunchFail))
        return std::move(error);
    } else {
      for (unsigned r = 0; r < round.repeats; ++r)
        if (llvm::Error error = enqueue(unit))
          return std::move(error);
    }
    if (llvm::Error error =
            fail(driver.cuEventRecord(events[2 * i + 1], stream),
                 "cuEventRecord", BenchStatus::LaunchFail))
      return std::move(error);
  }
  if (llvm::Error error = synchronize(round.timeoutS))
    return std::move(error);
  for (unsigned i = 0; i < round.samples; ++i) {
    float ms = 0;
    if (llvm::Error error = fail(
            driver.cuEventElapsedTime(&ms, events[2 * i], events[2 * i + 1]),
            "cuEventElapsedTime", BenchStatus::LaunchFail))
      return std::move(error);
    result.us.push_back(1000.0 * ms / round.repeats);
  }
  return result;
}

double CudaDevice::nowMs() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

llvm::Expected<std::unique_ptr<Device>>
deplodock::runtime::createCudaDevice(const CudaDeviceOptions &options) {
  llvm::Expected<const CudaDriver &> driver = CudaDriver::get();
  if (!driver)
    return driver.takeError();
  llvm::Expected<const Nvrtc &> nvrtc = Nvrtc::get();
  if (!nvrtc)
    return nvrtc.takeError();
  auto device = std::make_unique<CudaDevice>(*driver, *nvrtc, options.cacheDir);
  if (llvm::Error error = device->init(options.ordinal))
    return std::move(error);
  return std::unique_ptr<Device>(std::move(device));
}
