//===- CudaHeaderTest.cpp - Our driver declarations against cuda.h --------===//
//
// The runtime declares the driver's types and constants itself, so that it
// builds without the CUDA toolkit. Where cuda.h is installed, this checks
// them against it, and that the versioned entry points CudaDriver looks up
// are the ones cuda.h maps the API names to.
//
//===----------------------------------------------------------------------===//

// Ours first: cuda.h's macros (cuMemAlloc -> cuMemAlloc_v2) must not rename
// the members of CudaDriver.
#include "Deplodock/Runtime/CudaDriver.h"

#include <cuda.h>

#include <cstddef>

#include "gtest/gtest.h"

namespace c = deplodock::runtime::cuda;

#define CHECK_SAME(name) static_assert(c::name == ::name, #name);
CHECK_SAME(CUDA_SUCCESS)
CHECK_SAME(CUDA_ERROR_NOT_INITIALIZED)
CHECK_SAME(CUDA_ERROR_NO_DEVICE)
CHECK_SAME(CUDA_ERROR_NOT_READY)
CHECK_SAME(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)
CHECK_SAME(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE)
CHECK_SAME(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)
CHECK_SAME(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)
CHECK_SAME(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)
CHECK_SAME(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)
CHECK_SAME(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)
CHECK_SAME(CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES)
CHECK_SAME(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES)
CHECK_SAME(CU_FUNC_ATTRIBUTE_NUM_REGS)
CHECK_SAME(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)
CHECK_SAME(CU_STREAM_NON_BLOCKING)
CHECK_SAME(CU_EVENT_DEFAULT)
CHECK_SAME(CU_STREAM_CAPTURE_MODE_THREAD_LOCAL)
CHECK_SAME(CU_TENSOR_MAP_DATA_TYPE_UINT8)
CHECK_SAME(CU_TENSOR_MAP_DATA_TYPE_UINT16)
CHECK_SAME(CU_TENSOR_MAP_DATA_TYPE_INT32)
CHECK_SAME(CU_TENSOR_MAP_DATA_TYPE_INT64)
CHECK_SAME(CU_TENSOR_MAP_DATA_TYPE_FLOAT16)
CHECK_SAME(CU_TENSOR_MAP_DATA_TYPE_FLOAT32)
CHECK_SAME(CU_TENSOR_MAP_DATA_TYPE_FLOAT64)
CHECK_SAME(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16)
CHECK_SAME(CU_TENSOR_MAP_INTERLEAVE_NONE)
CHECK_SAME(CU_TENSOR_MAP_SWIZZLE_NONE)
CHECK_SAME(CU_TENSOR_MAP_SWIZZLE_32B)
CHECK_SAME(CU_TENSOR_MAP_SWIZZLE_64B)
CHECK_SAME(CU_TENSOR_MAP_SWIZZLE_128B)
CHECK_SAME(CU_TENSOR_MAP_L2_PROMOTION_L2_128B)
CHECK_SAME(CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE)
CHECK_SAME(CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION)
#undef CHECK_SAME

static_assert(sizeof(c::CUtensorMap) == sizeof(::CUtensorMap));
static_assert(alignof(c::CUtensorMap) == alignof(::CUtensorMap));
static_assert(sizeof(c::CUuuid) == sizeof(::CUuuid));
static_assert(sizeof(c::CUdeviceptr) == sizeof(::CUdeviceptr));
static_assert(sizeof(c::CUresult) == sizeof(::CUresult));
// cuLaunchKernelEx's configuration, field by field.
static_assert(sizeof(c::CUlaunchAttribute) == sizeof(::CUlaunchAttribute));
static_assert(alignof(c::CUlaunchAttribute) == alignof(::CUlaunchAttribute));
static_assert(offsetof(c::CUlaunchAttribute, value) ==
              offsetof(::CUlaunchAttribute, value));
static_assert(offsetof(c::CUlaunchAttribute,
                       value.programmaticStreamSerializationAllowed) ==
              offsetof(::CUlaunchAttribute,
                       value.programmaticStreamSerializationAllowed));
static_assert(sizeof(c::CUlaunchConfig) == sizeof(::CUlaunchConfig));
static_assert(offsetof(c::CUlaunchConfig, sharedMemBytes) ==
              offsetof(::CUlaunchConfig, sharedMemBytes));
static_assert(offsetof(c::CUlaunchConfig, hStream) ==
              offsetof(::CUlaunchConfig, hStream));
static_assert(offsetof(c::CUlaunchConfig, attrs) ==
              offsetof(::CUlaunchConfig, attrs));
static_assert(offsetof(c::CUlaunchConfig, numAttrs) ==
              offsetof(::CUlaunchConfig, numAttrs));
// The handle types are the same types.
static_assert(std::is_same_v<c::CUcontext, ::CUcontext>);
static_assert(std::is_same_v<c::CUfunction, ::CUfunction>);
static_assert(std::is_same_v<c::CUstream, ::CUstream>);
static_assert(std::is_same_v<c::CUgraphExec, ::CUgraphExec>);

#define NAME_OF(api) NAME_OF_(api)
#define NAME_OF_(symbol) #symbol

namespace {

TEST(CudaHeader, VersionedEntryPoints) {
  // The names CudaDriver looks up (CudaDriver.cpp).
  EXPECT_STREQ(NAME_OF(cuDeviceTotalMem), "cuDeviceTotalMem_v2");
  EXPECT_STREQ(NAME_OF(cuDeviceGetUuid), "cuDeviceGetUuid_v2");
  EXPECT_STREQ(NAME_OF(cuDevicePrimaryCtxRelease),
               "cuDevicePrimaryCtxRelease_v2");
  EXPECT_STREQ(NAME_OF(cuMemAlloc), "cuMemAlloc_v2");
  EXPECT_STREQ(NAME_OF(cuMemFree), "cuMemFree_v2");
  EXPECT_STREQ(NAME_OF(cuMemcpyHtoD), "cuMemcpyHtoD_v2");
  EXPECT_STREQ(NAME_OF(cuMemcpyDtoH), "cuMemcpyDtoH_v2");
  EXPECT_STREQ(NAME_OF(cuMemsetD8Async), "cuMemsetD8Async");
  EXPECT_STREQ(NAME_OF(cuMemsetD32Async), "cuMemsetD32Async");
  EXPECT_STREQ(NAME_OF(cuStreamDestroy), "cuStreamDestroy_v2");
  EXPECT_STREQ(NAME_OF(cuEventDestroy), "cuEventDestroy_v2");
  EXPECT_STREQ(NAME_OF(cuStreamBeginCapture), "cuStreamBeginCapture_v2");
  EXPECT_STREQ(NAME_OF(cuGraphInstantiate), "cuGraphInstantiateWithFlags");
  EXPECT_STREQ(NAME_OF(cuLaunchKernel), "cuLaunchKernel");
  EXPECT_STREQ(NAME_OF(cuLaunchKernelEx), "cuLaunchKernelEx");
#if CUDA_VERSION >= 12080
  EXPECT_STREQ(NAME_OF(cuEventElapsedTime), "cuEventElapsedTime_v2");
#endif
}

} // namespace
