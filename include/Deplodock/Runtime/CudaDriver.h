//===- CudaDriver.h - The CUDA driver API, loaded at first use --*- C++ -*-===//
//
// The few driver entry points the runtime calls, looked up with dlopen in
// libcuda.so.1 the first time they are needed. Nothing links against the
// driver, so every tool starts on a machine without a GPU and says so only
// when asked to run a kernel. The types and constants are those of cuda.h
// (CUDA 12 ABI, the versioned entry points it maps to); a unit test checks
// them against cuda.h where the toolkit is installed.
//
// $DEPLODOCK_CUDA_DRIVER names another library to load (a path, or a name
// that does not exist to act as if there were no driver).
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_RUNTIME_CUDADRIVER_H
#define DEPLODOCK_RUNTIME_CUDADRIVER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>
#include <string>

// The opaque handle types, with cuda.h's tags so that both can meet in one
// translation unit.
struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUstream_st;
struct CUevent_st;
struct CUgraph_st;
struct CUgraphExec_st;

namespace deplodock::runtime::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = CUctx_st *;
using CUmodule = CUmod_st *;
using CUfunction = CUfunc_st *;
using CUstream = CUstream_st *;
using CUevent = CUevent_st *;
using CUgraph = CUgraph_st *;
using CUgraphExec = CUgraphExec_st *;

/// cuda.h's CUuuid.
struct CUuuid {
  char bytes[16];
};

/// cuda.h's CUtensorMap: 128 opaque bytes, 128-byte aligned (CUDA 13; 64
/// before, which 128 also satisfies).
struct alignas(128) CUtensorMap {
  uint64_t opaque[16];
};

// Results.
constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_NOT_INITIALIZED = 3;
constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
constexpr CUresult CUDA_ERROR_NOT_READY = 600;

// Device attributes.
constexpr int CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
constexpr int CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;

// Function attributes.
constexpr int CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0;
constexpr int CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1;
constexpr int CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES = 2;
constexpr int CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3;
constexpr int CU_FUNC_ATTRIBUTE_NUM_REGS = 4;
constexpr int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;

// Streams, events, graphs.
constexpr unsigned CU_STREAM_NON_BLOCKING = 1;
constexpr unsigned CU_EVENT_DEFAULT = 0;
constexpr int CU_STREAM_CAPTURE_MODE_THREAD_LOCAL = 1;

// Tensor maps.
constexpr int CU_TENSOR_MAP_DATA_TYPE_UINT8 = 0;
constexpr int CU_TENSOR_MAP_DATA_TYPE_UINT16 = 1;
constexpr int CU_TENSOR_MAP_DATA_TYPE_INT32 = 3;
constexpr int CU_TENSOR_MAP_DATA_TYPE_INT64 = 5;
constexpr int CU_TENSOR_MAP_DATA_TYPE_FLOAT16 = 6;
constexpr int CU_TENSOR_MAP_DATA_TYPE_FLOAT32 = 7;
constexpr int CU_TENSOR_MAP_DATA_TYPE_FLOAT64 = 8;
constexpr int CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 = 9;
constexpr int CU_TENSOR_MAP_INTERLEAVE_NONE = 0;
constexpr int CU_TENSOR_MAP_SWIZZLE_NONE = 0;
constexpr int CU_TENSOR_MAP_SWIZZLE_32B = 1;
constexpr int CU_TENSOR_MAP_SWIZZLE_64B = 2;
constexpr int CU_TENSOR_MAP_SWIZZLE_128B = 3;
constexpr int CU_TENSOR_MAP_L2_PROMOTION_L2_128B = 2;
constexpr int CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE = 0;

// Launch attributes.
constexpr int CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION = 6;

/// cuda.h's CUlaunchAttribute: an id padded to 8 bytes, then a 64-byte
/// union of which we set only the programmatic-serialisation flag.
struct CUlaunchAttribute {
  int id;
  char pad[4];
  union alignas(8) {
    char bytes[64];
    int programmaticStreamSerializationAllowed;
  } value;
};

/// cuda.h's CUlaunchConfig.
struct CUlaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  CUstream hStream;
  CUlaunchAttribute *attrs;
  unsigned numAttrs;
};

} // namespace deplodock::runtime::cuda

namespace deplodock::runtime {

/// The loaded driver: one pointer per entry point (null for the optional
/// ones an old driver lacks).
struct CudaDriver {
  using CUresult = cuda::CUresult;
  using CUdevice = cuda::CUdevice;
  using CUdeviceptr = cuda::CUdeviceptr;

  CUresult (*cuInit)(unsigned flags) = nullptr;
  CUresult (*cuDriverGetVersion)(int *version) = nullptr;
  CUresult (*cuGetErrorName)(CUresult error, const char **name) = nullptr;
  CUresult (*cuGetErrorString)(CUresult error, const char **text) = nullptr;
  CUresult (*cuDeviceGetCount)(int *count) = nullptr;
  CUresult (*cuDeviceGet)(CUdevice *device, int ordinal) = nullptr;
  CUresult (*cuDeviceGetName)(char *name, int length,
                              CUdevice device) = nullptr;
  CUresult (*cuDeviceGetAttribute)(int *value, int attribute,
                                   CUdevice device) = nullptr;
  CUresult (*cuDeviceTotalMem)(size_t *bytes, CUdevice device) = nullptr;
  CUresult (*cuDeviceGetUuid)(cuda::CUuuid *uuid, CUdevice device) = nullptr;
  CUresult (*cuDevicePrimaryCtxRetain)(cuda::CUcontext *context,
                                       CUdevice device) = nullptr;
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice device) = nullptr;
  CUresult (*cuCtxSetCurrent)(cuda::CUcontext context) = nullptr;
  CUresult (*cuCtxSynchronize)() = nullptr;
  CUresult (*cuModuleLoadData)(cuda::CUmodule *module,
                               const void *image) = nullptr;
  CUresult (*cuModuleUnload)(cuda::CUmodule module) = nullptr;
  CUresult (*cuModuleGetFunction)(cuda::CUfunction *function,
                                  cuda::CUmodule module,
                                  const char *name) = nullptr;
  CUresult (*cuFuncGetAttribute)(int *value, int attribute,
                                 cuda::CUfunction function) = nullptr;
  CUresult (*cuFuncSetAttribute)(cuda::CUfunction function, int attribute,
                                 int value) = nullptr;
  CUresult (*cuLaunchKernel)(cuda::CUfunction function, unsigned gridX,
                             unsigned gridY, unsigned gridZ, unsigned blockX,
                             unsigned blockY, unsigned blockZ,
                             unsigned sharedBytes, cuda::CUstream stream,
                             void **params, void **extra) = nullptr;
  CUresult (*cuMemAlloc)(CUdeviceptr *pointer, size_t bytes) = nullptr;
  CUresult (*cuMemFree)(CUdeviceptr pointer) = nullptr;
  CUresult (*cuMemcpyHtoD)(CUdeviceptr dst, const void *src,
                           size_t bytes) = nullptr;
  CUresult (*cuMemcpyDtoH)(void *dst, CUdeviceptr src, size_t bytes) = nullptr;
  CUresult (*cuMemsetD8Async)(CUdeviceptr dst, unsigned char value,
                              size_t count, cuda::CUstream stream) = nullptr;
  CUresult (*cuMemsetD32Async)(CUdeviceptr dst, unsigned value, size_t count,
                               cuda::CUstream stream) = nullptr;
  CUresult (*cuStreamCreate)(cuda::CUstream *stream, unsigned flags) = nullptr;
  CUresult (*cuStreamDestroy)(cuda::CUstream stream) = nullptr;
  CUresult (*cuStreamQuery)(cuda::CUstream stream) = nullptr;
  CUresult (*cuStreamSynchronize)(cuda::CUstream stream) = nullptr;
  CUresult (*cuEventCreate)(cuda::CUevent *event, unsigned flags) = nullptr;
  CUresult (*cuEventDestroy)(cuda::CUevent event) = nullptr;
  CUresult (*cuEventRecord)(cuda::CUevent event,
                            cuda::CUstream stream) = nullptr;
  CUresult (*cuEventElapsedTime)(float *ms, cuda::CUevent start,
                                 cuda::CUevent end) = nullptr;
  CUresult (*cuStreamBeginCapture)(cuda::CUstream stream, int mode) = nullptr;
  CUresult (*cuStreamEndCapture)(cuda::CUstream stream,
                                 cuda::CUgraph *graph) = nullptr;
  CUresult (*cuGraphInstantiateWithFlags)(cuda::CUgraphExec *exec,
                                          cuda::CUgraph graph,
                                          unsigned long long flags) = nullptr;
  CUresult (*cuGraphLaunch)(cuda::CUgraphExec exec,
                            cuda::CUstream stream) = nullptr;
  CUresult (*cuGraphExecDestroy)(cuda::CUgraphExec exec) = nullptr;
  CUresult (*cuGraphDestroy)(cuda::CUgraph graph) = nullptr;
  /// Optional: CUDA 12.0 and later. Without it every launch is a plain one.
  CUresult (*cuLaunchKernelEx)(const cuda::CUlaunchConfig *config,
                               cuda::CUfunction function, void **params,
                               void **extra) = nullptr;
  /// Optional: CUDA 12.0 and later.
  CUresult (*cuTensorMapEncodeTiled)(
      cuda::CUtensorMap *map, int dataType, unsigned rank, void *address,
      const uint64_t *dims, const uint64_t *strides, const uint32_t *box,
      const uint32_t *elementStrides, int interleave, int swizzle,
      int l2Promotion, int oobFill) = nullptr;

  /// The file the driver was loaded from, symbolic links resolved
  /// (libcuda.so.580.65.06).
  std::string path;

  /// The driver, loaded and initialised (cuInit) on the first call. Fails,
  /// every time with the same message, when there is no driver ("no CUDA
  /// driver: ...") or no device ("no CUDA device: ...").
  static llvm::Expected<const CudaDriver &> get();

  /// "CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was encountered)".
  std::string describe(CUresult result) const;

  /// Success, or an error "<what> failed: <describe(result)>" carrying the
  /// code (see CudaError).
  llvm::Error check(CUresult result, llvm::StringRef what) const;

  /// Whether `result` leaves the context unusable ("sticky" errors after a
  /// kernel fault): the process must exit.
  static bool isSticky(CUresult result);
};

/// A failed driver call.
class CudaError : public llvm::ErrorInfo<CudaError> {
public:
  static char ID;
  CudaError(cuda::CUresult result, std::string message)
      : result(result), text(std::move(message)) {}
  void log(llvm::raw_ostream &os) const override { os << text; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }
  cuda::CUresult getResult() const { return result; }

private:
  cuda::CUresult result;
  std::string text;
};

/// The kernel driver's version: what `procFile` says, else the suffix of
/// the loaded library's file name (libcuda.so.580.65.06); empty when
/// neither says.
std::string readNvidiaDriverVersion(
    llvm::StringRef libraryPath,
    llvm::StringRef procFile = "/proc/driver/nvidia/version");

} // namespace deplodock::runtime

#endif // DEPLODOCK_RUNTIME_CUDADRIVER_H
