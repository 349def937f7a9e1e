//===- DriverApiCheck.cpp - check DriverApi.h against cuda.h --------------===//
//
// Compile-time checks that the driver types, constants, symbols and function
// shapes declared in DriverApi.h (and the enums of the public header that
// pass straight through to the driver) match the CUDA headers. Compiles to
// nothing when <cuda.h> is not available.
//
//===----------------------------------------------------------------------===//

#if defined(__has_include)
#if __has_include(<cuda.h>)
#define CROQ_HAVE_CUDA_H 1
#endif
#endif

#ifdef CROQ_HAVE_CUDA_H

#include "DriverApi.h"

#include "Croq/Runtime/CroqRuntime.h"

#include <cuda.h>

#include <cstddef>
#include <type_traits>

using namespace croq::rt;

namespace {

/// Compares enumerators of different enumerations as numbers.
constexpr bool sameValue(long long a, long long b) { return a == b; }

constexpr bool sameString(const char *a, const char *b) {
  while (*a && *a == *b) {
    ++a;
    ++b;
  }
  return *a == *b;
}

/// True when two function types have the same arity and every parameter and
/// the result have the same size: enums and typedefs differ in name only.
template <typename R1, typename... A1, typename R2, typename... A2>
constexpr bool sameShape(R1 (*)(A1...), R2 (*)(A2...)) {
  if constexpr (sizeof...(A1) != sizeof...(A2)) {
    return false;
  } else {
    return sizeof(R1) == sizeof(R2) &&
           ((sizeof(A1) == sizeof(A2)) && ... && true);
  }
}

} // namespace

#define CROQ_STRINGIFY_EXPANDED(x) CROQ_STRINGIFY(x)
#define CROQ_STRINGIFY(x) #x
#define CROQ_CU_CHECK(name, symbol, params)                                    \
  static_assert(sameString(CROQ_STRINGIFY_EXPANDED(name), symbol),             \
                #name " is exported as another symbol");                       \
  static_assert(sameShape(&::name, cu::name##Fn()),                            \
                #name " has another signature in cuda.h");
CROQ_CU_FUNCTIONS(CROQ_CU_CHECK)
#undef CROQ_CU_CHECK

static_assert(sizeof(CUresult) == sizeof(cu::Result));
static_assert(std::is_same_v<CUdevice, cu::Device>);
static_assert(std::is_same_v<CUdeviceptr, cu::DevicePtr>);
static_assert(sameValue(CUDA_SUCCESS, cu::kSuccess));

static_assert(sameValue(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK,
                        cu::kDevAttrMaxSharedMemoryPerBlock));
static_assert(sameValue(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                        cu::kDevAttrMultiprocessorCount));
static_assert(sameValue(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                        cu::kDevAttrComputeCapabilityMajor));
static_assert(sameValue(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                        cu::kDevAttrComputeCapabilityMinor));
static_assert(sameValue(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                        cu::kDevAttrMaxSharedMemoryPerBlockOptin));
static_assert(sameValue(CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH,
                        cu::kDevAttrClusterLaunch));
static_assert(sameValue(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                        cu::kFuncAttrMaxDynamicSharedSizeBytes));
static_assert(sameValue(CU_JIT_ERROR_LOG_BUFFER, cu::kJitErrorLogBuffer));
static_assert(sameValue(CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                        cu::kJitErrorLogBufferSizeBytes));
static_assert(sameValue(CU_JIT_OPTIMIZATION_LEVEL, cu::kJitOptimizationLevel));
static_assert(sameValue(CU_STREAM_NON_BLOCKING, cu::kStreamNonBlocking));
static_assert(sameValue(CU_EVENT_DISABLE_TIMING, cu::kEventDisableTiming));
static_assert(sameValue(CU_MEM_ATTACH_GLOBAL, cu::kMemAttachGlobal));
static_assert(sameValue(CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
                        cu::kMemPoolAttrReleaseThreshold));

static_assert(sameValue(CU_TENSOR_MAP_DATA_TYPE_UINT8, cu::kTmUint8));
static_assert(sameValue(CU_TENSOR_MAP_DATA_TYPE_UINT16, cu::kTmUint16));
static_assert(sameValue(CU_TENSOR_MAP_DATA_TYPE_UINT32, cu::kTmUint32));
static_assert(sameValue(CU_TENSOR_MAP_DATA_TYPE_INT32, cu::kTmInt32));
static_assert(sameValue(CU_TENSOR_MAP_DATA_TYPE_UINT64, cu::kTmUint64));
static_assert(sameValue(CU_TENSOR_MAP_DATA_TYPE_INT64, cu::kTmInt64));
static_assert(sameValue(CU_TENSOR_MAP_DATA_TYPE_FLOAT16, cu::kTmFloat16));
static_assert(sameValue(CU_TENSOR_MAP_DATA_TYPE_FLOAT32, cu::kTmFloat32));
static_assert(sameValue(CU_TENSOR_MAP_DATA_TYPE_FLOAT64, cu::kTmFloat64));
static_assert(sameValue(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, cu::kTmBfloat16));
static_assert(sameValue(CU_TENSOR_MAP_INTERLEAVE_NONE,
                        cu::kTensorMapInterleaveNone));
static_assert(sameValue(CU_TENSOR_MAP_SWIZZLE_NONE, CROQ_RT_SWIZZLE_NONE));
static_assert(sameValue(CU_TENSOR_MAP_SWIZZLE_32B, CROQ_RT_SWIZZLE_32B));
static_assert(sameValue(CU_TENSOR_MAP_SWIZZLE_64B, CROQ_RT_SWIZZLE_64B));
static_assert(sameValue(CU_TENSOR_MAP_SWIZZLE_128B, CROQ_RT_SWIZZLE_128B));
static_assert(sameValue(CU_TENSOR_MAP_L2_PROMOTION_NONE,
                        CROQ_RT_L2_PROMOTION_NONE));
static_assert(sameValue(CU_TENSOR_MAP_L2_PROMOTION_L2_64B,
                        CROQ_RT_L2_PROMOTION_64B));
static_assert(sameValue(CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                        CROQ_RT_L2_PROMOTION_128B));
static_assert(sameValue(CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                        CROQ_RT_L2_PROMOTION_256B));
static_assert(sameValue(CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE,
                        CROQ_RT_OOB_FILL_ZERO));
static_assert(sameValue(CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA,
                        CROQ_RT_OOB_FILL_NAN));
static_assert(sizeof(CUtensorMap) == cu::kTensorMapBytes);
static_assert(sizeof(CUtensorMap) == CROQ_RT_TENSOR_MAP_BYTES);
static_assert(alignof(CUtensorMap) % CROQ_RT_TENSOR_MAP_ALIGN == 0);

static_assert(sameValue(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION,
                        cu::kLaunchAttrClusterDimension));
static_assert(sizeof(CUlaunchAttributeValue) ==
              sizeof(cu::LaunchAttributeValue));
static_assert(offsetof(CUlaunchAttributeValue, clusterDim.z) ==
              offsetof(cu::LaunchAttributeValue, clusterDim.z));
static_assert(sizeof(CUlaunchAttribute) == sizeof(cu::LaunchAttribute));
static_assert(offsetof(CUlaunchAttribute, value) ==
              offsetof(cu::LaunchAttribute, value));
static_assert(sizeof(CUlaunchConfig) == sizeof(cu::LaunchConfig));
static_assert(offsetof(CUlaunchConfig, sharedMemBytes) ==
              offsetof(cu::LaunchConfig, sharedMemBytes));
static_assert(offsetof(CUlaunchConfig, hStream) ==
              offsetof(cu::LaunchConfig, hStream));
static_assert(offsetof(CUlaunchConfig, attrs) ==
              offsetof(cu::LaunchConfig, attrs));
static_assert(offsetof(CUlaunchConfig, numAttrs) ==
              offsetof(cu::LaunchConfig, numAttrs));

static_assert(sameValue(CU_MEMORYTYPE_DEVICE, cu::kMemoryTypeDevice));
static_assert(sizeof(CUDA_MEMCPY2D) == sizeof(cu::Memcpy2D));
static_assert(offsetof(CUDA_MEMCPY2D, srcMemoryType) ==
              offsetof(cu::Memcpy2D, srcMemoryType));
static_assert(offsetof(CUDA_MEMCPY2D, srcDevice) ==
              offsetof(cu::Memcpy2D, srcDevice));
static_assert(offsetof(CUDA_MEMCPY2D, srcPitch) ==
              offsetof(cu::Memcpy2D, srcPitch));
static_assert(offsetof(CUDA_MEMCPY2D, dstMemoryType) ==
              offsetof(cu::Memcpy2D, dstMemoryType));
static_assert(offsetof(CUDA_MEMCPY2D, dstDevice) ==
              offsetof(cu::Memcpy2D, dstDevice));
static_assert(offsetof(CUDA_MEMCPY2D, dstPitch) ==
              offsetof(cu::Memcpy2D, dstPitch));
static_assert(offsetof(CUDA_MEMCPY2D, WidthInBytes) ==
              offsetof(cu::Memcpy2D, WidthInBytes));
static_assert(offsetof(CUDA_MEMCPY2D, Height) ==
              offsetof(cu::Memcpy2D, Height));

#endif // CROQ_HAVE_CUDA_H
