//===- CudaDriver.cpp - The CUDA driver API, loaded at first use ----------===//

#include "Deplodock/Runtime/CudaDriver.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Regex.h"

#include <dlfcn.h>

using namespace deplodock::runtime;

char CudaError::ID = 0;

/// Looks up `name` in `library` into `slot`; false when it is missing.
template <typename Fn>
static bool lookup(llvm::sys::DynamicLibrary &library, const char *name,
                   Fn &slot) {
  slot = reinterpret_cast<Fn>(library.getAddressOfSymbol(name));
  return slot != nullptr;
}

/// Loads and initialises the driver; the body of CudaDriver::get.
static llvm::Expected<CudaDriver> loadDriver() {
  std::string name = "libcuda.so.1";
  if (std::optional<std::string> env =
          llvm::sys::Process::GetEnv("DEPLODOCK_CUDA_DRIVER"))
    if (!env->empty())
      name = *env;
  std::string error;
  llvm::sys::DynamicLibrary library =
      llvm::sys::DynamicLibrary::getPermanentLibrary(name.c_str(), &error);
  if (!library.isValid())
    return llvm::createStringError(
        "no CUDA driver: cannot load %s (%s); running kernels needs an NVIDIA "
        "GPU and its driver",
        name.c_str(), error.c_str());

  CudaDriver driver;
  const char *missing = nullptr;
  auto need = [&](const char *symbol, auto &slot) {
    if (!lookup(library, symbol, slot) && !missing)
      missing = symbol;
  };
  need("cuInit", driver.cuInit);
  need("cuDriverGetVersion", driver.cuDriverGetVersion);
  need("cuGetErrorName", driver.cuGetErrorName);
  need("cuGetErrorString", driver.cuGetErrorString);
  need("cuDeviceGetCount", driver.cuDeviceGetCount);
  need("cuDeviceGet", driver.cuDeviceGet);
  need("cuDeviceGetName", driver.cuDeviceGetName);
  need("cuDeviceGetAttribute", driver.cuDeviceGetAttribute);
  need("cuDeviceTotalMem_v2", driver.cuDeviceTotalMem);
  if (!lookup(library, "cuDeviceGetUuid_v2", driver.cuDeviceGetUuid))
    need("cuDeviceGetUuid", driver.cuDeviceGetUuid);
  need("cuDevicePrimaryCtxRetain", driver.cuDevicePrimaryCtxRetain);
  need("cuDevicePrimaryCtxRelease_v2", driver.cuDevicePrimaryCtxRelease);
  need("cuCtxSetCurrent", driver.cuCtxSetCurrent);
  need("cuCtxSynchronize", driver.cuCtxSynchronize);
  need("cuModuleLoadData", driver.cuModuleLoadData);
  need("cuModuleUnload", driver.cuModuleUnload);
  need("cuModuleGetFunction", driver.cuModuleGetFunction);
  need("cuFuncGetAttribute", driver.cuFuncGetAttribute);
  need("cuFuncSetAttribute", driver.cuFuncSetAttribute);
  need("cuLaunchKernel", driver.cuLaunchKernel);
  need("cuMemAlloc_v2", driver.cuMemAlloc);
  need("cuMemFree_v2", driver.cuMemFree);
  need("cuMemcpyHtoD_v2", driver.cuMemcpyHtoD);
  need("cuMemcpyDtoH_v2", driver.cuMemcpyDtoH);
  need("cuMemsetD8Async", driver.cuMemsetD8Async);
  need("cuMemsetD32Async", driver.cuMemsetD32Async);
  need("cuStreamCreate", driver.cuStreamCreate);
  need("cuStreamDestroy_v2", driver.cuStreamDestroy);
  need("cuStreamQuery", driver.cuStreamQuery);
  need("cuStreamSynchronize", driver.cuStreamSynchronize);
  need("cuEventCreate", driver.cuEventCreate);
  need("cuEventDestroy_v2", driver.cuEventDestroy);
  need("cuEventRecord", driver.cuEventRecord);
  // CUDA 12.8 renamed the entry point; older drivers have only the first.
  if (!lookup(library, "cuEventElapsedTime_v2", driver.cuEventElapsedTime))
    need("cuEventElapsedTime", driver.cuEventElapsedTime);
  need("cuStreamBeginCapture_v2", driver.cuStreamBeginCapture);
  need("cuStreamEndCapture", driver.cuStreamEndCapture);
  need("cuGraphInstantiateWithFlags", driver.cuGraphInstantiateWithFlags);
  need("cuGraphLaunch", driver.cuGraphLaunch);
  need("cuGraphExecDestroy", driver.cuGraphExecDestroy);
  need("cuGraphDestroy", driver.cuGraphDestroy);
  lookup(library, "cuTensorMapEncodeTiled", driver.cuTensorMapEncodeTiled);
  lookup(library, "cuLaunchKernelEx", driver.cuLaunchKernelEx);
  if (missing)
    return llvm::createStringError(
        "CUDA driver too old: %s has no %s (CUDA 12 or later is needed)",
        name.c_str(), missing);

  Dl_info info;
  driver.path = name;
  if (dladdr(reinterpret_cast<void *>(driver.cuInit), &info) &&
      info.dli_fname) {
    llvm::SmallString<256> real;
    driver.path = llvm::sys::fs::real_path(info.dli_fname, real)
                      ? info.dli_fname
                      : real.str().str();
  }

  CudaDriver::CUresult result = driver.cuInit(0);
  if (result == cuda::CUDA_ERROR_NO_DEVICE)
    return llvm::createStringError(
        "no CUDA device: the driver (%s) found no GPU (cuInit: %s)",
        driver.path.c_str(), driver.describe(result).c_str());
  if (result != cuda::CUDA_SUCCESS)
    return llvm::createStringError(
        "CUDA driver unusable: cuInit failed with %s",
        driver.describe(result).c_str());
  return driver;
}

llvm::Expected<const CudaDriver &> CudaDriver::get() {
  // Loaded once; a failure is remembered as its message.
  static llvm::Expected<CudaDriver> *driver =
      new llvm::Expected<CudaDriver>(loadDriver());
  static std::string failure =
      *driver ? "" : llvm::toString(driver->takeError());
  if (!failure.empty())
    return llvm::createStringError(failure);
  return **driver;
}

std::string CudaDriver::describe(CUresult result) const {
  const char *name = nullptr, *text = nullptr;
  if (cuGetErrorName)
    cuGetErrorName(result, &name);
  if (cuGetErrorString)
    cuGetErrorString(result, &text);
  std::string description =
      name ? std::string(name) : "CUDA error " + std::to_string(result);
  if (text)
    description += std::string(" (") + text + ")";
  return description;
}

llvm::Error CudaDriver::check(CUresult result, llvm::StringRef what) const {
  if (result == cuda::CUDA_SUCCESS)
    return llvm::Error::success();
  return llvm::make_error<CudaError>(
      result, (what + " failed: " + describe(result)).str());
}

bool CudaDriver::isSticky(CUresult result) {
  switch (result) {
  case 214: // ECC uncorrectable
  case 220: // NVLink uncorrectable
  case 700: // illegal address
  case 702: // launch timeout
  case 709: // context destroyed
  case 710: // device-side assert
  case 714: // hardware stack error
  case 715: // illegal instruction
  case 716: // misaligned address
  case 717: // invalid address space
  case 718: // invalid program counter
  case 719: // launch failed
  case 999: // unknown
    return true;
  default:
    return false;
  }
}

std::string
deplodock::runtime::readNvidiaDriverVersion(llvm::StringRef libraryPath,
                                            llvm::StringRef procFile) {
  // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.65.06  Sun Jul ..."
  llvm::Regex version("[0-9]+\\.[0-9]+(\\.[0-9]+)?");
  if (llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
          llvm::MemoryBuffer::getFileAsStream(procFile)) {
    llvm::StringRef text = (*file)->getBuffer();
    size_t at = text.find("Kernel Module");
    llvm::SmallVector<llvm::StringRef, 2> match;
    if (at != llvm::StringRef::npos &&
        version.match(text.substr(at).take_front(80), &match))
      return match[0].str();
  }
  // libcuda.so.580.65.06
  size_t at = libraryPath.rfind(".so.");
  if (at == llvm::StringRef::npos)
    return "";
  llvm::StringRef suffix = libraryPath.substr(at + 4);
  llvm::SmallVector<llvm::StringRef, 2> match;
  if (version.match(suffix, &match) && match[0] == suffix)
    return suffix.str();
  return "";
}
