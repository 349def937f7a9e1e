/*===- stub_runtime.c - a GPU-free stand-in for libCroqRuntime ------------===*\
|*                                                                            *|
|* The tests of the croq Python package build this into a libCroqRuntime.so   *|
|* in a temporary directory, so that kernel libraries can be loaded and       *|
|* called on a machine without a GPU. It implements the host functions the    *|
|* generated code calls, launches nothing, and records each launch (grid,     *|
|* block, shared memory, the stream, the first kernel parameters) for the     *|
|* tests to read through croqStubLastLaunch. Setting CROQ_STUB_FAIL to "load" *|
|* or "launch" makes that step fail with a message and, for the entry         *|
|* point's status, croqRtCallEnd's code, as the real runtime reports errors.  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static __thread char lastError[512];
static __thread int callStatus;
static int moduleToken, functionToken, streamToken;

typedef struct CroqStubLaunch {
  int64_t count;
  int64_t grid[3];
  int64_t block[3];
  int32_t sharedMemBytes;
  uint64_t stream;
  int64_t paramsCount;
  /* The first 8 bytes each of the first 64 parameters. */
  uint64_t params[64];
} CroqStubLaunch;

static CroqStubLaunch lastLaunch;

static int shouldFail(const char *step) {
  const char *fail = getenv("CROQ_STUB_FAIL");
  return fail && strcmp(fail, step) == 0;
}

const char *croqRtGetLastError(void) { return lastError; }
void croqRtClearLastError(void) { lastError[0] = 0; }
static __thread int refused;
static __thread int64_t reportedCount;
static __thread int64_t countedCount;
void croqRtCallBegin(void) {
  callStatus = 0;
  refused = 0;
  reportedCount = 0;
  countedCount = 0;
}
int croqRtCallEnd(void) {
  int status = callStatus;
  callStatus = 0;
  refused = 0;
  return status;
}
int croqRtGetDevice(int *device) {
  *device = 0;
  return 0;
}

void croqStubLastLaunch(CroqStubLaunch *out) { *out = lastLaunch; }

/* The host calls of GEMMs from linalg with dynamic extents: the checks of
   the extents and of a specialization's variant (which refuse the call's
   launches when they fail, as the real runtime does), the classifier's
   reports, and usable tensor maps of zeros. */
static __thread int64_t reported[64];

static int refuse(void) {
  refused = 1;
  if (!callStatus)
    callStatus = 1; /* CROQ_RT_ERROR_INVALID_ARGUMENT */
  return 0;
}

int croqRtRequireEqualExtents(int64_t first, int64_t second, int check,
                              int input) {
  (void)input;
  if (first == second)
    return 1;
  snprintf(lastError, sizeof(lastError),
           "croqRtRequireEqualExtents: extents %lld and %lld differ (check "
           "%d); nothing was launched (stub)",
           (long long)first, (long long)second, check);
  return refuse();
}

int croqRtRequireVariant(int64_t product, int64_t chosen, int64_t compiled) {
  if (chosen == compiled)
    return 1;
  snprintf(lastError, sizeof(lastError),
           "croqRtRequireVariant: product %lld was compiled for variant %lld "
           "only; the cost model chose variant %lld (stub)",
           (long long)product, (long long)compiled, (long long)chosen);
  return refuse();
}

void croqRtReportVariant(int64_t product, int64_t products, int64_t chosen) {
  if (product < -1 || product >= products || products > 64)
    return;
  for (int64_t i = reportedCount; i < products; ++i)
    reported[i] = -1;
  if (reportedCount < products)
    reportedCount = products;
  if (product >= 0)
    reported[product] = chosen;
}

int64_t croqRtGetReportedVariants(int64_t *variants, int64_t capacity) {
  for (int64_t i = 0; variants && i < reportedCount && i < capacity; ++i)
    variants[i] = reported[i];
  return reportedCount;
}

static __thread int64_t requested[64];
static __thread int64_t requestedCount;
static __thread int64_t counted[64];

int croqRtRequestVariants(const int64_t *variants, int64_t count) {
  if (count < 0 || count > 64 || (count > 0 && !variants)) {
    snprintf(lastError, sizeof(lastError),
             "croqRtRequestVariants: %lld variants requested (stub)",
             (long long)count);
    return 0;
  }
  for (int64_t i = 0; i < count; ++i)
    requested[i] = variants[i];
  requestedCount = count;
  return 1;
}

int64_t croqRtRequestedVariant(int64_t product, int64_t variants) {
  if (product < 0 || product >= 64)
    return -1;
  for (int64_t i = countedCount; i < product; ++i)
    counted[i] = 0;
  if (countedCount <= product)
    countedCount = product + 1;
  counted[product] = variants;
  return product < requestedCount ? requested[product] : -1;
}

int64_t croqRtGetVariantCounts(int64_t *counts, int64_t capacity) {
  for (int64_t i = 0; counts && i < countedCount && i < capacity; ++i)
    counts[i] = counted[i];
  return countedCount;
}

static const unsigned char zeroMap[128] __attribute__((aligned(128)));

int croqRtTensorMapGetStrided(int elementType, uint32_t rank,
                              const void *address, const int64_t *sizes,
                              const int64_t *byteStrides,
                              const int64_t *boxDims, int swizzle,
                              const void **tensorMap) {
  (void)elementType, (void)rank, (void)address, (void)sizes;
  (void)byteStrides, (void)boxDims, (void)swizzle;
  *tensorMap = zeroMap;
  return 1;
}

int croqRtTensorMapGetStaged(int elementType, uint32_t rank,
                             const void *address, const int64_t *sizes,
                             const int64_t *byteStrides, const int64_t *boxDims,
                             int swizzle, void *stream, const void **tensorMap,
                             void **staging) {
  (void)stream;
  *staging = 0;
  return croqRtTensorMapGetStrided(elementType, rank, address, sizes,
                                   byteStrides, boxDims, swizzle, tensorMap);
}

int croqRtTensorMapRequire(int usable) { return usable; }

/* A split or stream-K GEMM's workspace: an address nothing reads. */
void *mgpuMemAlloc(uint64_t bytes, void *stream, _Bool hostShared) {
  (void)bytes, (void)stream, (void)hostShared;
  return (void *)(uintptr_t)0x7C0000000000ull;
}

void mgpuMemFree(void *pointer, void *stream) { (void)pointer, (void)stream; }

void croqRtTensorMapReleaseStaged(void *staging, void *stream) {
  (void)staging, (void)stream;
}

void *mgpuModuleLoad(void *data, size_t size) {
  (void)data;
  if (shouldFail("load")) {
    snprintf(lastError, sizeof(lastError),
             "mgpuModuleLoad: cuModuleLoadData(image of %zu bytes) failed: "
             "CUDA_ERROR_NO_BINARY_FOR_GPU (stub)", size);
    return NULL;
  }
  return &moduleToken;
}

void *mgpuModuleLoadJIT(void *data, int optLevel) {
  (void)optLevel;
  return mgpuModuleLoad(data, strlen((const char *)data));
}

void mgpuModuleUnload(void *module) { (void)module; }

void *mgpuModuleGetFunction(void *module, const char *name) {
  (void)module;
  (void)name;
  return &functionToken;
}

void *mgpuStreamCreate(void) { return &streamToken; }
void mgpuStreamDestroy(void *stream) { (void)stream; }
void mgpuStreamSynchronize(void *stream) { (void)stream; }

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t paramsCount) {
  (void)function;
  (void)extra;
  if (refused)
    return;
  if (shouldFail("launch")) {
    snprintf(lastError, sizeof(lastError),
             "mgpuLaunchKernel: cuLaunchKernel(grid %ldx%ldx%ld) failed: "
             "CUDA_ERROR_INVALID_VALUE (stub)", (long)gridX, (long)gridY,
             (long)gridZ);
    if (!callStatus)
      callStatus = 3; /* CROQ_RT_ERROR_DRIVER */
    return;
  }
  lastLaunch.stream = (uint64_t)(uintptr_t)stream;
  lastLaunch.count++;
  lastLaunch.grid[0] = gridX;
  lastLaunch.grid[1] = gridY;
  lastLaunch.grid[2] = gridZ;
  lastLaunch.block[0] = blockX;
  lastLaunch.block[1] = blockY;
  lastLaunch.block[2] = blockZ;
  lastLaunch.sharedMemBytes = smem;
  lastLaunch.paramsCount = (int64_t)paramsCount;
  memset(lastLaunch.params, 0, sizeof(lastLaunch.params));
  /* 8 bytes of each: the tests look for pointers and 64-bit sizes. The
     generated code keeps the parameters in one struct on the stack, so
     reading past a 4-byte parameter stays inside it or the frame. */
  for (size_t i = 0; i < paramsCount && i < 64; ++i)
    memcpy(&lastLaunch.params[i], params[i], sizeof(uint64_t));
}
