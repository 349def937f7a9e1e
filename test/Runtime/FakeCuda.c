/*===- FakeCuda.c - a stand-in libcuda for testing without a GPU ----------===*\
|*                                                                            *|
|* Defines every driver function libCroqRuntime loads, with the driver's ABI. *|
|* Each call prints what it was given ("fake-cuda: ...") and succeeds with    *|
|* made-up handles and the limits of a Hopper GPU, unless                     *|
|* CROQ_FAKE_CUDA_FAIL=<function>=<CUresult>[,...] names it. Tests load it    *|
|* through CROQ_RUNTIME_LIBCUDA and check the runtime's driver calls.         *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAKE_EXPORT __attribute__((visibility("default")))

typedef int CUresult;

/// The injected result for `function`, or 0 (CUDA_SUCCESS).
static CUresult injected(const char *function) {
  const char *spec = getenv("CROQ_FAKE_CUDA_FAIL");
  size_t length = strlen(function);
  for (const char *p = spec; p && (p = strstr(p, function)); p += length) {
    if ((p == spec || p[-1] == ',') && p[length] == '=')
      return atoi(p + length + 1);
  }
  return 0;
}

#define LOG(...)                                                               \
  do {                                                                         \
    printf("fake-cuda: " __VA_ARGS__);                                         \
    printf("\n");                                                              \
    fflush(stdout);                                                            \
  } while (0)

static const struct {
  CUresult code;
  const char *name, *text;
} errors[] = {
    {0, "CUDA_SUCCESS", "no error"},
    {1, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {101, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {200, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
    {218, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"},
    {500, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",
     "too many resources requested for launch"},
};

FAKE_EXPORT CUresult cuGetErrorName(CUresult error, const char **name) {
  for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); ++i) {
    if (errors[i].code == error) {
      *name = errors[i].name;
      return 0;
    }
  }
  *name = NULL;
  return 1;
}

FAKE_EXPORT CUresult cuGetErrorString(CUresult error, const char **text) {
  for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); ++i) {
    if (errors[i].code == error) {
      *text = errors[i].text;
      return 0;
    }
  }
  *text = NULL;
  return 1;
}

/*===-- Devices and contexts ----------------------------------------------===*/

static char contexts[1];
static _Thread_local void *currentContext;

FAKE_EXPORT CUresult cuInit(unsigned flags) {
  LOG("cuInit(%u)", flags);
  return injected("cuInit");
}

FAKE_EXPORT CUresult cuDriverGetVersion(int *version) {
  *version = 13000;
  return 0;
}

FAKE_EXPORT CUresult cuDeviceGetCount(int *count) {
  *count = 1;
  return injected("cuDeviceGetCount");
}

FAKE_EXPORT CUresult cuDeviceGet(int *device, int ordinal) {
  if (ordinal < 0 || ordinal >= 1)
    return 101;
  *device = ordinal;
  return 0;
}

FAKE_EXPORT CUresult cuDeviceGetName(char *name, int length, int device) {
  snprintf(name, length, "Fake Hopper %d", device);
  return 0;
}

FAKE_EXPORT CUresult cuDeviceGetAttribute(int *value, int attribute,
                                          int device) {
  (void)device;
  switch (attribute) {
  case 8: /* MAX_SHARED_MEMORY_PER_BLOCK */
    *value = 49152;
    break;
  case 16: /* MULTIPROCESSOR_COUNT */
    *value = 132;
    break;
  case 75: /* COMPUTE_CAPABILITY_MAJOR */
    *value = 9;
    break;
  case 76: /* COMPUTE_CAPABILITY_MINOR */
    *value = 0;
    break;
  case 97: /* MAX_SHARED_MEMORY_PER_BLOCK_OPTIN */
    *value = 232448;
    break;
  case 120: /* CLUSTER_LAUNCH */
    *value = 1;
    break;
  default:
    return 1;
  }
  return 0;
}

FAKE_EXPORT CUresult cuDevicePrimaryCtxRetain(void **context, int device) {
  LOG("cuDevicePrimaryCtxRetain(device=%d)", device);
  *context = &contexts[device];
  return injected("cuDevicePrimaryCtxRetain");
}

FAKE_EXPORT CUresult cuCtxGetCurrent(void **context) {
  *context = currentContext;
  return 0;
}

FAKE_EXPORT CUresult cuCtxSetCurrent(void *context) {
  LOG("cuCtxSetCurrent(primary context of device %d)",
      (int)((char *)context - contexts));
  currentContext = context;
  return 0;
}

/*===-- Modules and launches ----------------------------------------------===*/

typedef struct FakeFunction {
  char name[64];
  struct FakeFunction *next;
} FakeFunction;

typedef struct FakeModule {
  int id;
  FakeFunction *functions;
  struct FakeModule *next;
} FakeModule;

static int moduleCount;
/* Like a real context, the fake owns every loaded module, and each module
   its functions, until the module is unloaded; so a program that exits
   without unloading leaks nothing (LeakSanitizer agrees). */
static FakeModule *modules;

static FakeModule *newModule(void) {
  FakeModule *fake = calloc(1, sizeof(FakeModule));
  fake->id = ++moduleCount;
  fake->next = modules;
  modules = fake;
  return fake;
}

FAKE_EXPORT CUresult cuModuleLoadData(void **module, const void *image) {
  LOG("cuModuleLoadData(\"%.8s\")", (const char *)image);
  CUresult result = injected("cuModuleLoadData");
  if (result)
    return result;
  *module = newModule();
  return 0;
}

FAKE_EXPORT CUresult cuModuleLoadDataEx(void **module, const void *image,
                                        unsigned count, int *options,
                                        void **values) {
  char *log = NULL;
  size_t logSize = 0;
  long optLevel = -1;
  for (unsigned i = 0; i < count; ++i) {
    if (options[i] == 5) /* ERROR_LOG_BUFFER */
      log = values[i];
    else if (options[i] == 6) /* ERROR_LOG_BUFFER_SIZE_BYTES */
      logSize = (size_t)(uintptr_t)values[i];
    else if (options[i] == 7) /* OPTIMIZATION_LEVEL */
      optLevel = (long)(intptr_t)values[i];
  }
  LOG("cuModuleLoadDataEx(%u options, optLevel=%ld, error log of %zu bytes)",
      count, optLevel, logSize);
  if (strstr(image, "syntax-error")) {
    if (log && logSize)
      snprintf(log, logSize, "ptxas fatal   : fake syntax error in line 3");
    return 218;
  }
  *module = newModule();
  return 0;
}

FAKE_EXPORT CUresult cuModuleUnload(void *module) {
  FakeModule *fake = module;
  LOG("cuModuleUnload(module %d)", fake->id);
  for (FakeModule **link = &modules; *link; link = &(*link)->next)
    if (*link == fake) {
      *link = fake->next;
      break;
    }
  while (fake->functions) {
    FakeFunction *next = fake->functions->next;
    free(fake->functions);
    fake->functions = next;
  }
  free(fake);
  return 0;
}

FAKE_EXPORT CUresult cuModuleGetFunction(void **function, void *module,
                                         const char *name) {
  LOG("cuModuleGetFunction(module %d, \"%s\")", ((FakeModule *)module)->id,
      name);
  if (strcmp(name, "missing") == 0)
    return 500;
  FakeFunction *fake = calloc(1, sizeof(FakeFunction));
  snprintf(fake->name, sizeof(fake->name), "%s", name);
  fake->next = ((FakeModule *)module)->functions;
  ((FakeModule *)module)->functions = fake;
  *function = fake;
  return 0;
}

FAKE_EXPORT CUresult cuFuncSetAttribute(void *function, int attribute,
                                        int value) {
  LOG("cuFuncSetAttribute(%s, attribute %d, %d)",
      ((FakeFunction *)function)->name, attribute, value);
  return injected("cuFuncSetAttribute");
}

FAKE_EXPORT CUresult cuLaunchKernel(void *function, unsigned gx, unsigned gy,
                                    unsigned gz, unsigned bx, unsigned by,
                                    unsigned bz, unsigned smem, void *stream,
                                    void **params, void **extra) {
  LOG("cuLaunchKernel(%s, grid=(%u,%u,%u), block=(%u,%u,%u), smem=%u, "
      "stream=%s, params=%s, extra=%s)",
      ((FakeFunction *)function)->name, gx, gy, gz, bx, by, bz, smem,
      stream ? "set" : "null", params ? "set" : "null",
      extra ? "set" : "null");
  return injected("cuLaunchKernel");
}

/// CUlaunchConfig and CUlaunchAttribute, as the driver reads them.
typedef struct LaunchAttribute {
  int id;
  char pad[4];
  union {
    char bytes[64];
    struct {
      unsigned x, y, z;
    } clusterDim;
  } value;
} LaunchAttribute;

typedef struct LaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  void *hStream;
  LaunchAttribute *attrs;
  unsigned numAttrs;
} LaunchConfig;

FAKE_EXPORT CUresult cuLaunchKernelEx(const LaunchConfig *config,
                                      void *function, void **params,
                                      void **extra) {
  LOG("cuLaunchKernelEx(%s, grid=(%u,%u,%u), block=(%u,%u,%u), smem=%u, "
      "stream=%s, params=%s, extra=%s, %u attribute(s))",
      ((FakeFunction *)function)->name, config->gridDimX, config->gridDimY,
      config->gridDimZ, config->blockDimX, config->blockDimY,
      config->blockDimZ, config->sharedMemBytes,
      config->hStream ? "set" : "null", params ? "set" : "null",
      extra ? "set" : "null", config->numAttrs);
  for (unsigned i = 0; i < config->numAttrs; ++i) {
    const LaunchAttribute *attribute = &config->attrs[i];
    LOG("  attribute %d: cluster=(%u,%u,%u)", attribute->id,
        attribute->value.clusterDim.x, attribute->value.clusterDim.y,
        attribute->value.clusterDim.z);
  }
  return injected("cuLaunchKernelEx");
}

/*===-- Streams and events ------------------------------------------------===*/

static char streams[1], events[1];

FAKE_EXPORT CUresult cuStreamCreate(void **stream, unsigned flags) {
  LOG("cuStreamCreate(flags=%u)", flags);
  *stream = streams;
  return injected("cuStreamCreate");
}

FAKE_EXPORT CUresult cuStreamDestroy_v2(void *stream) {
  LOG("cuStreamDestroy(%s)", stream == streams ? "the stream" : "?");
  return 0;
}

FAKE_EXPORT CUresult cuStreamSynchronize(void *stream) {
  LOG("cuStreamSynchronize(%s)", stream ? "the stream" : "null");
  return injected("cuStreamSynchronize");
}

FAKE_EXPORT CUresult cuStreamWaitEvent(void *stream, void *event,
                                       unsigned flags) {
  LOG("cuStreamWaitEvent(%s, %s, flags=%u)", stream ? "the stream" : "null",
      event == events ? "the event" : "?", flags);
  return 0;
}

FAKE_EXPORT CUresult cuEventCreate(void **event, unsigned flags) {
  LOG("cuEventCreate(flags=%u)", flags);
  *event = events;
  return 0;
}

FAKE_EXPORT CUresult cuEventDestroy_v2(void *event) {
  LOG("cuEventDestroy(%s)", event == events ? "the event" : "?");
  return 0;
}

FAKE_EXPORT CUresult cuEventSynchronize(void *event) {
  LOG("cuEventSynchronize(%s)", event == events ? "the event" : "?");
  return 0;
}

FAKE_EXPORT CUresult cuEventRecord(void *event, void *stream) {
  LOG("cuEventRecord(%s, %s)", event == events ? "the event" : "?",
      stream ? "the stream" : "null");
  return 0;
}

/*===-- Memory ------------------------------------------------------------===*/

typedef unsigned long long CUdeviceptr;

static CUdeviceptr nextAddress = 0x500000000000ull;

static CUresult allocate(CUdeviceptr *ptr, size_t bytes) {
  *ptr = nextAddress;
  nextAddress += (bytes + 255) / 256 * 256;
  return 0;
}

FAKE_EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *ptr, size_t bytes) {
  CUresult result = injected("cuMemAlloc");
  if (result)
    return result;
  allocate(ptr, bytes);
  LOG("cuMemAlloc(%zu) -> 0x%llx", bytes, *ptr);
  return 0;
}

FAKE_EXPORT CUresult cuMemAllocManaged(CUdeviceptr *ptr, size_t bytes,
                                       unsigned flags) {
  allocate(ptr, bytes);
  LOG("cuMemAllocManaged(%zu, flags=%u) -> 0x%llx", bytes, flags, *ptr);
  return 0;
}

FAKE_EXPORT CUresult cuMemFree_v2(CUdeviceptr ptr) {
  LOG("cuMemFree(0x%llx)", ptr);
  return 0;
}

FAKE_EXPORT CUresult cuMemAllocAsync(CUdeviceptr *ptr, size_t bytes,
                                     void *stream) {
  CUresult result = injected("cuMemAllocAsync");
  if (result)
    return result;
  allocate(ptr, bytes);
  LOG("cuMemAllocAsync(%zu, %s) -> 0x%llx", bytes,
      stream ? "the stream" : "null", *ptr);
  return 0;
}

FAKE_EXPORT CUresult cuMemFreeAsync(CUdeviceptr ptr, void *stream) {
  LOG("cuMemFreeAsync(0x%llx, %s)", ptr, stream ? "the stream" : "null");
  return 0;
}

FAKE_EXPORT CUresult cuDeviceGetDefaultMemPool(void **pool, int device) {
  (void)device;
  static int fakePool;
  *pool = &fakePool;
  return 0;
}

FAKE_EXPORT CUresult cuMemPoolGetAttribute(void *pool, int attribute,
                                           void *value) {
  (void)pool;
  (void)attribute;
  *(unsigned long long *)value = 0;
  return 0;
}

FAKE_EXPORT CUresult cuMemPoolSetAttribute(void *pool, int attribute,
                                           void *value) {
  LOG("cuMemPoolSetAttribute(attribute=%d, value=0x%llx)", attribute,
      *(unsigned long long *)value);
  (void)pool;
  return 0;
}

FAKE_EXPORT CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src,
                                     size_t bytes) {
  (void)src;
  LOG("cuMemcpyHtoD(0x%llx, %zu bytes)", dst, bytes);
  return 0;
}

FAKE_EXPORT CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src,
                                   size_t bytes, void *stream) {
  LOG("cuMemcpyAsync(0x%llx, 0x%llx, %zu bytes, %s)", dst, src, bytes,
      stream ? "the stream" : "null");
  return 0;
}

/* CUDA_MEMCPY2D, as far as the log needs it. */
typedef struct {
  size_t srcXInBytes, srcY;
  int srcMemoryType;
  const void *srcHost;
  CUdeviceptr srcDevice;
  void *srcArray;
  size_t srcPitch;
  size_t dstXInBytes, dstY;
  int dstMemoryType;
  void *dstHost;
  CUdeviceptr dstDevice;
  void *dstArray;
  size_t dstPitch;
  size_t WidthInBytes;
  size_t Height;
} FakeMemcpy2D;

FAKE_EXPORT CUresult cuMemcpy2DAsync_v2(const FakeMemcpy2D *copy,
                                        void *stream) {
  LOG("cuMemcpy2DAsync(dst=0x%llx pitch %zu, src=0x%llx pitch %zu, %zu x %zu "
      "bytes, %s)",
      copy->dstDevice, copy->dstPitch, copy->srcDevice, copy->srcPitch,
      copy->Height, copy->WidthInBytes, stream ? "the stream" : "null");
  return injected("cuMemcpy2DAsync");
}

FAKE_EXPORT CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned value,
                                      size_t count, void *stream) {
  LOG("cuMemsetD32Async(0x%llx, 0x%x, %zu, %s)", dst, value, count,
      stream ? "the stream" : "null");
  return 0;
}

FAKE_EXPORT CUresult cuMemsetD16Async(CUdeviceptr dst, unsigned short value,
                                      size_t count, void *stream) {
  LOG("cuMemsetD16Async(0x%llx, 0x%x, %zu, %s)", dst, value, count,
      stream ? "the stream" : "null");
  return 0;
}

/*===-- Tensor maps -------------------------------------------------------===*/

/* Appends "name=[v0,v1,...]" for `count` signed values. */
static int appendInts(char *text, size_t size, int used, const char *name,
                      const int *values, uint32_t count) {
  used += snprintf(text + used, size - used, " %s=[", name);
  for (uint32_t i = 0; i < count; ++i)
    used += snprintf(text + used, size - used, "%s%d", i ? "," : "",
                     values[i]);
  return used + snprintf(text + used, size - used, "]");
}

FAKE_EXPORT CUresult cuTensorMapEncodeIm2col(
    void *map, int dataType, uint32_t rank, void *address,
    const uint64_t *dims, const uint64_t *strides, const int *lower,
    const int *upper, uint32_t channels, uint32_t pixels,
    const uint32_t *elementStrides, int interleave, int swizzle, int l2,
    int oobFill) {
  char text[768];
  int used = snprintf(text, sizeof(text), "type=%d rank=%u address=%p dims=[",
                      dataType, rank, address);
  for (uint32_t i = 0; i < rank; ++i)
    used += snprintf(text + used, sizeof(text) - used, "%s%llu", i ? "," : "",
                     (unsigned long long)dims[i]);
  used += snprintf(text + used, sizeof(text) - used, "] strides=[");
  for (uint32_t i = 0; i + 1 < rank; ++i)
    used += snprintf(text + used, sizeof(text) - used, "%s%llu", i ? "," : "",
                     (unsigned long long)strides[i]);
  used += snprintf(text + used, sizeof(text) - used, "]");
  used = appendInts(text, sizeof(text), used, "lower", lower, rank - 2);
  used = appendInts(text, sizeof(text), used, "upper", upper, rank - 2);
  used += snprintf(text + used, sizeof(text) - used,
                   " channels=%u pixels=%u elementStrides=[", channels, pixels);
  for (uint32_t i = 0; i < rank; ++i)
    used += snprintf(text + used, sizeof(text) - used, "%s%u", i ? "," : "",
                     elementStrides[i]);
  snprintf(text + used, sizeof(text) - used,
           "] interleave=%d swizzle=%d l2=%d oob=%d", interleave, swizzle, l2,
           oobFill);
  LOG("cuTensorMapEncodeIm2col(%s)", text);
  if ((uintptr_t)map % 64 != 0)
    return 1;
  memset(map, 0xcd, 128);
  return injected("cuTensorMapEncodeIm2col");
}

FAKE_EXPORT CUresult cuTensorMapEncodeTiled(
    void *map, int dataType, uint32_t rank, void *address,
    const uint64_t *dims, const uint64_t *strides, const uint32_t *box,
    const uint32_t *elementStrides, int interleave, int swizzle, int l2,
    int oobFill) {
  char text[512];
  int used = snprintf(text, sizeof(text), "type=%d rank=%u address=%p dims=[",
                      dataType, rank, address);
  for (uint32_t i = 0; i < rank; ++i)
    used += snprintf(text + used, sizeof(text) - used, "%s%llu", i ? "," : "",
                     (unsigned long long)dims[i]);
  used += snprintf(text + used, sizeof(text) - used, "] strides=[");
  for (uint32_t i = 0; i + 1 < rank; ++i)
    used += snprintf(text + used, sizeof(text) - used, "%s%llu", i ? "," : "",
                     (unsigned long long)strides[i]);
  used += snprintf(text + used, sizeof(text) - used, "] box=[");
  for (uint32_t i = 0; i < rank; ++i)
    used += snprintf(text + used, sizeof(text) - used, "%s%u", i ? "," : "",
                     box[i]);
  used += snprintf(text + used, sizeof(text) - used, "] elementStrides=[");
  for (uint32_t i = 0; i < rank; ++i)
    used += snprintf(text + used, sizeof(text) - used, "%s%u", i ? "," : "",
                     elementStrides[i]);
  snprintf(text + used, sizeof(text) - used,
           "] interleave=%d swizzle=%d l2=%d oob=%d", interleave, swizzle, l2,
           oobFill);
  LOG("cuTensorMapEncodeTiled(%s)", text);
  if ((uintptr_t)map % 64 != 0)
    return 1;
  memset(map, 0xab, 128);
  return injected("cuTensorMapEncodeTiled");
}
