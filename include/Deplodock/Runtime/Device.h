//===- Device.h - What the bench worker runs kernels on ---------*- C++ -*-===//
//
// The worker's view of a GPU: compile and load a module, move buffers, encode
// TMA descriptors, enqueue launches, wait with a deadline, and time a unit of
// launches in samples. Two implementations: the CUDA device (driver API and
// NVRTC, loaded lazily) and the fake device of the tests, which needs no GPU,
// writes known results and reports deterministic latencies on a simulated
// clock, with faults on request.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_RUNTIME_DEVICE_H
#define DEPLODOCK_RUNTIME_DEVICE_H

#include "Deplodock/Runtime/BenchResult.h"
#include "Deplodock/Runtime/CudaDriver.h"
#include "Deplodock/Runtime/DeviceInfo.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <vector>

namespace deplodock::runtime {

/// A failure on the device, with the status it gives the variant. A fatal
/// one leaves the device unusable (a sticky CUDA error, a hung kernel): the
/// worker answers, then exits so that the client starts a fresh one.
class DeviceError : public llvm::ErrorInfo<DeviceError> {
public:
  static char ID;
  DeviceError(BenchStatus status, std::string message, bool fatal = false)
      : status(status), text(std::move(message)), fatal(fatal) {}
  void log(llvm::raw_ostream &os) const override { os << text; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }
  BenchStatus getStatus() const { return status; }
  bool isFatal() const { return fatal; }

private:
  BenchStatus status;
  std::string text;
  bool fatal;
};

/// An address in device memory.
using DevicePtr = cuda::CUdeviceptr;

/// A kernel ready to launch.
struct Kernel {
  /// The device's handle (a CUfunction).
  void *handle = nullptr;
  KernelInfo info;
};

/// The value of one kernel parameter: a device pointer or a tensor map,
/// stored with the alignment of the larger.
struct ParamValue {
  cuda::CUtensorMap bytes = {};
  /// The buffer this parameter points into (for the fake device).
  DevicePtr buffer = 0;
};

/// One launch as the device runs it.
struct Step {
  Kernel kernel;
  std::array<uint32_t, 3> grid = {1, 1, 1};
  std::array<uint32_t, 3> block = {1, 1, 1};
  uint32_t smemBytes = 0;
  std::vector<ParamValue> params;
  /// Ranges zeroed before the launch: (address, bytes).
  std::vector<std::pair<DevicePtr, uint64_t>> zero;
  /// Buffers the kernel writes (the fake device's results go there).
  struct Write {
    DevicePtr buffer = 0;
    uint64_t bytes = 0;
    DType dtype = DType::F32;
  };
  std::vector<Write> writes;
  /// Launch as a programmatic dependent of the launch before (the kernel
  /// waits for it before touching memory).
  bool early = false;
};

/// A unit of launches, run or timed as a whole; the device may attach a
/// CUDA graph to it.
class Unit {
public:
  explicit Unit(std::vector<Step> steps) : steps(std::move(steps)) {}
  virtual ~Unit();
  std::vector<Step> steps;
};

/// How one round of samples is taken.
struct SampleRound {
  unsigned samples = 1;
  /// Runs of the unit per sample.
  unsigned repeats = 1;
  bool flushL2 = true;
  /// Replay the unit as a CUDA graph.
  bool graph = false;
  /// The longest a wait for the round may take.
  double timeoutS = 10;
};

/// The samples of one round, in microseconds per run of the unit.
struct SampleResult {
  std::vector<double> us;
  /// Whether a graph was used (capture can fail; then direct launches are).
  bool graph = false;
};

/// A GPU, as the worker uses it.
class Device {
public:
  virtual ~Device();

  virtual const DeviceInfo &getInfo() const = 0;

  /// Makes the device usable from the calling thread (the CUDA device's
  /// context current), for the runtime API, whose callers may switch
  /// threads.
  virtual llvm::Error makeCurrent() { return llvm::Error::success(); }

  /// Prepares for a request: the fake device reads its instructions here.
  virtual llvm::Error beginRequest(const BenchRequest &request) {
    return llvm::Error::success();
  }

  /// Compiles `source` with the device's options plus `options` and loads
  /// it; returns a module handle. Sets `cached` when the image came from the
  /// compile cache. Fails with a DeviceError (compile_fail, with the log).
  virtual llvm::Expected<void *> loadModule(llvm::StringRef source,
                                            llvm::ArrayRef<std::string> options,
                                            bool &cached) = 0;
  /// Loads a compiled image (a cubin, fatbin or PTX, as cuModuleLoadData
  /// takes) and returns a module handle like loadModule's. Fails with a
  /// DeviceError (compile_fail) on an image the device cannot load.
  virtual llvm::Expected<void *> loadImage(llvm::StringRef image);
  /// Kernel `name` of `module`, able to take `smemBytes` of dynamic shared
  /// memory.
  virtual llvm::Expected<Kernel> getKernel(void *module, llvm::StringRef name,
                                           uint32_t smemBytes) = 0;

  virtual llvm::Expected<DevicePtr> allocate(uint64_t bytes) = 0;
  virtual void release(DevicePtr pointer) = 0;
  /// Copies to and from the device; waits for nothing else (call
  /// synchronize first).
  virtual llvm::Error upload(DevicePtr dst, llvm::ArrayRef<uint8_t> src) = 0;
  virtual llvm::Error download(llvm::MutableArrayRef<uint8_t> dst,
                               DevicePtr src) = 0;
  /// A tensor map over buffer `base` of `dtype` and `shape` (outermost
  /// first) with `box` and `swizzle` bytes.
  virtual llvm::Expected<cuda::CUtensorMap>
  encodeTma(DevicePtr base, DType dtype, llvm::ArrayRef<int64_t> shape,
            llvm::ArrayRef<int64_t> box, unsigned swizzle) = 0;

  /// Tells the fake device what `buffer` should hold after the kernels run
  /// (the reference); a real device ignores it.
  virtual void expectContents(DevicePtr buffer,
                              llvm::ArrayRef<uint8_t> contents) {}

  /// A unit of `steps`.
  virtual std::unique_ptr<Unit> makeUnit(std::vector<Step> steps);
  /// Enqueues one run of `unit`.
  virtual llvm::Error run(Unit &unit) = 0;
  /// Enqueues one run of `unit` on the caller's `stream` (a CUstream; null
  /// is the legacy default stream) rather than the device's own, for the
  /// runtime API. The fake device runs it at once, as run does.
  virtual llvm::Error runOn(Unit &unit, void *stream) { return run(unit); }
  /// Waits for everything enqueued, at most `timeoutS` seconds (a
  /// DeviceError timeout, fatal, past it).
  virtual llvm::Error synchronize(double timeoutS) = 0;
  /// Takes one round of samples of `unit` (see SampleRound).
  virtual llvm::Expected<SampleResult> sample(Unit &unit,
                                              const SampleRound &round) = 0;
  /// The clock the timing budgets run on, in milliseconds (simulated on the
  /// fake device).
  virtual double nowMs() = 0;
};

/// Loads the kernels `launches` name from `module` into `kernels` (those
/// not there yet), each with room for the most dynamic shared memory any of
/// its launches asks; appends what the device says of each to `infos`.
llvm::Error loadKernels(Device &device, void *module,
                        llvm::ArrayRef<LaunchSpec> launches,
                        llvm::StringMap<Kernel> &kernels,
                        std::vector<KernelInfo> *infos);

/// The steps of `launches` on `buffers`, which live at `pointers`: their
/// parameters, TMA descriptors encoded, zeroing and writes.
llvm::Expected<std::vector<Step>>
makeSteps(Device &device, llvm::ArrayRef<LaunchSpec> launches,
          const llvm::StringMap<Kernel> &kernels,
          llvm::ArrayRef<BufferSpec> buffers,
          llvm::ArrayRef<DevicePtr> pointers);

/// Options of the CUDA device.
struct CudaDeviceOptions {
  int ordinal = 0;
  /// Where compiled images are kept across workers; none when empty.
  std::string cacheDir;
};

/// The GPU `options.ordinal`, with a primary context and a private stream.
/// Fails with a clear message when there is no driver, no device or no
/// NVRTC.
llvm::Expected<std::unique_ptr<Device>>
createCudaDevice(const CudaDeviceOptions &options);

/// Options of the fake device.
struct FakeDeviceOptions {
  /// Compile with the real NVRTC (for sm_90) instead of pretending.
  bool compileWithNvrtc = false;
  std::string cacheDir;
};

/// The fake device. docs/Runtime.md lists what a request's "fake" object
/// can ask of it.
llvm::Expected<std::unique_ptr<Device>>
createFakeDevice(const FakeDeviceOptions &options);

} // namespace deplodock::runtime

#endif // DEPLODOCK_RUNTIME_DEVICE_H
