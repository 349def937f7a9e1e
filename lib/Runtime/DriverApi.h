//===- DriverApi.h - the CUDA driver functions croq loads -------*- C++ -*-===//
//
// The few CUDA Driver API types, constants and functions the runtime uses,
// declared here so that the runtime builds without the CUDA headers; the
// driver itself is loaded with dlopen on first use. DriverApiCheck.cpp checks
// every declaration against <cuda.h> whenever the headers are present.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_LIB_RUNTIME_DRIVERAPI_H
#define CROQ_LIB_RUNTIME_DRIVERAPI_H

#include <cstddef>
#include <cstdint>

namespace croq::rt::cu {

// Handles and scalar types, with the driver's ABI (64-bit hosts).
using Result = int;                   // CUresult
using Device = int;                   // CUdevice
using DevicePtr = unsigned long long; // CUdeviceptr
using Context = struct CUctx_st *;
using Module = struct CUmod_st *;
using Function = struct CUfunc_st *;
using Stream = struct CUstream_st *;
using Event = struct CUevent_st *;
using MemPool = struct CUmemPoolHandle_st *;

constexpr Result kSuccess = 0;            // CUDA_SUCCESS
constexpr Result kErrorDeinitialized = 4; // CUDA_ERROR_DEINITIALIZED

// CUdevice_attribute
constexpr int kDevAttrMaxSharedMemoryPerBlock = 8;
constexpr int kDevAttrMultiprocessorCount = 16;
constexpr int kDevAttrComputeCapabilityMajor = 75;
constexpr int kDevAttrComputeCapabilityMinor = 76;
constexpr int kDevAttrMaxSharedMemoryPerBlockOptin = 97;
constexpr int kDevAttrClusterLaunch = 120;

// CUfunction_attribute
constexpr int kFuncAttrMaxDynamicSharedSizeBytes = 8;

// CUjit_option
constexpr int kJitErrorLogBuffer = 5;
constexpr int kJitErrorLogBufferSizeBytes = 6;
constexpr int kJitOptimizationLevel = 7;

// Flags.
constexpr unsigned kStreamNonBlocking = 0x1;  // CU_STREAM_NON_BLOCKING
constexpr unsigned kEventDisableTiming = 0x2; // CU_EVENT_DISABLE_TIMING
constexpr unsigned kMemAttachGlobal = 0x1;    // CU_MEM_ATTACH_GLOBAL

// CUmemPool_attribute
constexpr int kMemPoolAttrReleaseThreshold = 4;

// CUtensorMapDataType
enum TensorMapDataType : int {
  kTmUint8 = 0,
  kTmUint16 = 1,
  kTmUint32 = 2,
  kTmInt32 = 3,
  kTmUint64 = 4,
  kTmInt64 = 5,
  kTmFloat16 = 6,
  kTmFloat32 = 7,
  kTmFloat64 = 8,
  kTmBfloat16 = 9,
};

// CUtensorMapInterleave, CUtensorMapSwizzle, CUtensorMapL2promotion and
// CUtensorMapFloatOOBfill share their values with croqRtSwizzle,
// croqRtL2Promotion and croqRtOobFill (checked in DriverApiCheck.cpp).
constexpr int kTensorMapInterleaveNone = 0;

/// CUtensorMap: 128 opaque bytes.
constexpr std::size_t kTensorMapBytes = 128;

// CUlaunchAttributeID
constexpr int kLaunchAttrClusterDimension = 4;

constexpr int kMemoryTypeDevice = 2; // CU_MEMORYTYPE_DEVICE

/// CUDA_MEMCPY2D: a copy of `Height` rows of `WidthInBytes` bytes, rows
/// `srcPitch` and `dstPitch` bytes apart.
struct Memcpy2D {
  std::size_t srcXInBytes, srcY;
  int srcMemoryType;
  const void *srcHost;
  DevicePtr srcDevice;
  void *srcArray;
  std::size_t srcPitch;
  std::size_t dstXInBytes, dstY;
  int dstMemoryType;
  void *dstHost;
  DevicePtr dstDevice;
  void *dstArray;
  std::size_t dstPitch;
  std::size_t WidthInBytes;
  std::size_t Height;
};

/// CUlaunchAttributeValue: a 64-byte union; croq only sets clusterDim.
union LaunchAttributeValue {
  char pad[64];
  struct {
    unsigned x, y, z;
  } clusterDim;
};

/// CUlaunchAttribute.
struct LaunchAttribute {
  int id;
  char pad[8 - sizeof(int)];
  LaunchAttributeValue value;
};

/// CUlaunchConfig.
struct LaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  Stream hStream;
  LaunchAttribute *attrs;
  unsigned numAttrs;
};

/// Every driver function the runtime calls: X(name, ABI symbol, return type,
/// parameter list). The ABI symbol is what <cuda.h> maps the name to.
#define CROQ_CU_FUNCTIONS(X)                                                   \
  X(cuGetErrorName, "cuGetErrorName", (Result, const char **))                 \
  X(cuGetErrorString, "cuGetErrorString", (Result, const char **))             \
  X(cuInit, "cuInit", (unsigned))                                              \
  X(cuDriverGetVersion, "cuDriverGetVersion", (int *))                         \
  X(cuDeviceGetCount, "cuDeviceGetCount", (int *))                             \
  X(cuDeviceGet, "cuDeviceGet", (Device *, int))                               \
  X(cuDeviceGetName, "cuDeviceGetName", (char *, int, Device))                 \
  X(cuDeviceGetAttribute, "cuDeviceGetAttribute", (int *, int, Device))        \
  X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", (Context *, Device)) \
  X(cuCtxGetCurrent, "cuCtxGetCurrent", (Context *))                           \
  X(cuCtxSetCurrent, "cuCtxSetCurrent", (Context))                             \
  X(cuModuleLoadData, "cuModuleLoadData", (Module *, const void *))            \
  X(cuModuleLoadDataEx, "cuModuleLoadDataEx",                                  \
    (Module *, const void *, unsigned, int *, void **))                        \
  X(cuModuleUnload, "cuModuleUnload", (Module))                                \
  X(cuModuleGetFunction, "cuModuleGetFunction",                                \
    (Function *, Module, const char *))                                        \
  X(cuFuncSetAttribute, "cuFuncSetAttribute", (Function, int, int))            \
  X(cuLaunchKernel, "cuLaunchKernel",                                          \
    (Function, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,     \
     unsigned, Stream, void **, void **))                                      \
  X(cuLaunchKernelEx, "cuLaunchKernelEx",                                      \
    (const LaunchConfig *, Function, void **, void **))                        \
  X(cuStreamCreate, "cuStreamCreate", (Stream *, unsigned))                    \
  X(cuStreamDestroy, "cuStreamDestroy_v2", (Stream))                           \
  X(cuStreamSynchronize, "cuStreamSynchronize", (Stream))                      \
  X(cuStreamWaitEvent, "cuStreamWaitEvent", (Stream, Event, unsigned))         \
  X(cuEventCreate, "cuEventCreate", (Event *, unsigned))                       \
  X(cuEventDestroy, "cuEventDestroy_v2", (Event))                              \
  X(cuEventSynchronize, "cuEventSynchronize", (Event))                         \
  X(cuEventRecord, "cuEventRecord", (Event, Stream))                           \
  X(cuMemAlloc, "cuMemAlloc_v2", (DevicePtr *, std::size_t))                   \
  X(cuMemAllocManaged, "cuMemAllocManaged",                                    \
    (DevicePtr *, std::size_t, unsigned))                                      \
  X(cuMemFree, "cuMemFree_v2", (DevicePtr))                                    \
  X(cuMemAllocAsync, "cuMemAllocAsync", (DevicePtr *, std::size_t, Stream))    \
  X(cuMemFreeAsync, "cuMemFreeAsync", (DevicePtr, Stream))                     \
  X(cuDeviceGetDefaultMemPool, "cuDeviceGetDefaultMemPool",                    \
    (MemPool *, Device))                                                       \
  X(cuMemPoolGetAttribute, "cuMemPoolGetAttribute", (MemPool, int, void *))    \
  X(cuMemPoolSetAttribute, "cuMemPoolSetAttribute", (MemPool, int, void *))    \
  X(cuMemcpyHtoD, "cuMemcpyHtoD_v2", (DevicePtr, const void *, std::size_t))   \
  X(cuMemcpyAsync, "cuMemcpyAsync",                                            \
    (DevicePtr, DevicePtr, std::size_t, Stream))                               \
  X(cuMemcpy2DAsync, "cuMemcpy2DAsync_v2", (const Memcpy2D *, Stream))         \
  X(cuMemsetD32Async, "cuMemsetD32Async",                                      \
    (DevicePtr, unsigned, std::size_t, Stream))                                \
  X(cuMemsetD16Async, "cuMemsetD16Async",                                      \
    (DevicePtr, unsigned short, std::size_t, Stream))                          \
  X(cuTensorMapEncodeTiled, "cuTensorMapEncodeTiled",                          \
    (void *, int, std::uint32_t, void *, const std::uint64_t *,                \
     const std::uint64_t *, const std::uint32_t *, const std::uint32_t *, int, \
     int, int, int))                                                           \
  X(cuTensorMapEncodeIm2col, "cuTensorMapEncodeIm2col",                        \
    (void *, int, std::uint32_t, void *, const std::uint64_t *,                \
     const std::uint64_t *, const int *, const int *, std::uint32_t,           \
     std::uint32_t, const std::uint32_t *, int, int, int, int))

// The driver functions' types: cuInitFn and so on. (Pasting keeps the names
// clear of <cuda.h>'s macros, such as cuMemAlloc -> cuMemAlloc_v2.)
#define CROQ_CU_DECLARE_TYPE(name, symbol, params)                             \
  using name##Fn = Result(*) params;
CROQ_CU_FUNCTIONS(CROQ_CU_DECLARE_TYPE)
#undef CROQ_CU_DECLARE_TYPE

/// Pointers to the driver's functions; every one is non-null once loaded.
struct DriverApi {
#define CROQ_CU_DECLARE(name, symbol, params) name##Fn name = nullptr;
  CROQ_CU_FUNCTIONS(CROQ_CU_DECLARE)
#undef CROQ_CU_DECLARE
};

} // namespace croq::rt::cu

#endif // CROQ_LIB_RUNTIME_DRIVERAPI_H
