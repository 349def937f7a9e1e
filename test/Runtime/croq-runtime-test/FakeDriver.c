/*===- FakeDriver.c - the runtime's driver calls, against a fake driver ---===*\
|*                                                                            *|
|* Runs with CROQ_RUNTIME_LIBCUDA naming FakeCuda.c's library, which prints   *|
|* each driver call: checks lazy context set-up, the shared-memory opt-in,    *|
|* cluster launches, the driver-error messages, tensor-map element types and  *|
|* the memref entry point's device copies.                                    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "Common.h"

#include <pthread.h>
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>

static void failNext(const char *spec) {
  if (spec)
    setenv("CROQ_FAKE_CUDA_FAIL", spec, 1);
  else
    unsetenv("CROQ_FAKE_CUDA_FAIL");
}

static void checkDevices(void) {
  expectStatus("init", croqRtInit());
  expectStatus("init-again", croqRtInit());
  int count = 0;
  expectStatus("device-count", croqRtGetDeviceCount(&count));
  printf("count %d\n", count);
  croqRtDeviceInfo info;
  expectStatus("device-info", croqRtGetDeviceInfo(0, &info));
  printf("%s: sm_%d%d, %d SMs, %d/%d bytes of shared memory per block, "
         "clusters %d\n",
         info.name, info.computeCapabilityMajor, info.computeCapabilityMinor,
         info.multiprocessorCount, info.sharedMemPerBlock,
         info.sharedMemPerBlockOptin, info.clusterLaunch);
  expectStatus("device-info-missing-device", croqRtGetDeviceInfo(5, &info));
}

static void *initOnAnotherThread(void *unused) {
  (void)unused;
  expectStatus("init-on-new-thread", croqRtInit());
  return NULL;
}

static void checkContexts(void) {
  pthread_t thread;
  pthread_create(&thread, NULL, initOnAnotherThread, NULL);
  pthread_join(thread, NULL);
  croqRtSetDevice(1);
  expectStatus("init-missing-device", croqRtInit());
  croqRtSetDevice(0);
}

static void *checkModules(void) {
  static char cubin[] = "\177ELF fake cubin";
  expectPointer("module-load", mgpuModuleLoad(cubin, sizeof(cubin)));
  failNext("cuModuleLoadData=200");
  expectPointer("module-load-fails", mgpuModuleLoad(cubin, sizeof(cubin)));
  failNext(NULL);
  static char badPtx[] = "// syntax-error\n", goodPtx[] = ".version 8.0\n";
  expectPointer("module-load-jit-fails", mgpuModuleLoadJIT(badPtx, 2));
  void *module = mgpuModuleLoadJIT(goodPtx, 3);
  expectPointer("module-load-jit", module);
  expectPointer("get-function-missing",
                mgpuModuleGetFunction(module, "missing"));
  return module;
}

static void checkLaunches(void *module) {
  void *kernel = mgpuModuleGetFunction(module, "copy");
  expectPointer("get-function", kernel);
  int value = 42;
  void *params[1] = {&value};
  mgpuLaunchKernel(kernel, 4, 1, 1, 128, 1, 1, 0, NULL, params, NULL, 1);
  expectDone("launch");
  mgpuLaunchKernel(kernel, 4, 1, 1, 128, 1, 1, 49152, NULL, params, NULL, 1);
  expectDone("launch-48k-smem");
  mgpuLaunchKernel(kernel, 4, 1, 1, 128, 1, 1, 49153, NULL, params, NULL, 1);
  expectDone("launch-opts-into-smem");
  mgpuLaunchKernel(kernel, 4, 1, 1, 128, 1, 1, 232449, NULL, params, NULL, 1);
  expectDone("launch-smem-above-device-limit");
  mgpuLaunchClusterKernel(kernel, 2, 1, 1, 8, 2, 1, 256, 1, 1, 100000, NULL,
                          params, NULL);
  expectDone("cluster-launch");
  uint32_t grid[3] = {8, 1, 1}, block[3] = {64, 2, 1}, cluster[3] = {4, 1, 1};
  expectStatus(
      "croq-cluster-launch",
      croqRtLaunchKernel(kernel, grid, block, cluster, 0, NULL, params));
  failNext("cuLaunchKernel=701");
  mgpuLaunchKernel(kernel, 4, 1, 1, 128, 1, 1, 0, NULL, params, NULL, 1);
  expectDone("launch-fails");
  failNext("cuFuncSetAttribute=1");
  mgpuLaunchKernel(kernel, 4, 1, 1, 128, 1, 1, 65536, NULL, params, NULL, 1);
  expectDone("smem-opt-in-fails");
  failNext(NULL);
  mgpuModuleUnload(module);
  expectDone("module-unload");
}

static void checkStreamsEventsMemory(void) {
  void *stream = mgpuStreamCreate();
  expectPointer("stream-create", stream);
  void *event = mgpuEventCreate();
  expectPointer("event-create", event);
  mgpuEventRecord(event, stream);
  mgpuStreamWaitEvent(stream, event);
  mgpuEventSynchronize(event);
  void *device = mgpuMemAlloc(4096, stream, false);
  expectPointer("alloc", device);
  void *managed = mgpuMemAlloc(256, stream, true);
  expectPointer("alloc-managed", managed);
  mgpuMemcpy(device, managed, 256, stream);
  mgpuMemset32(device, 0x7fc00000u, 1024, stream);
  mgpuMemset16(device, 0x7e00, 2048, stream);
  mgpuStreamSynchronize(stream);
  mgpuMemFree(managed, stream);
  mgpuMemFree(device, stream);
  mgpuEventDestroy(event);
  mgpuStreamDestroy(stream);
  expectDone("streams-events-memory");
  failNext("cuStreamSynchronize=700");
  expectStatus("stream-synchronize-fails", croqRtStreamSynchronize(NULL));
  failNext("cuMemAllocAsync=2");
  expectPointer("alloc-fails", mgpuMemAlloc(1ull << 40, NULL, false));
  failNext(NULL);
}

static void checkTensorMaps(void) {
  static alignas(128) unsigned char map[CROQ_RT_TENSOR_MAP_BYTES];
  static const char *const names[] = {"f32", "f16", "bf16", "f8e4m3", "f8e5m2",
                                      "i8",  "u8",  "i16",  "u16",    "i32",
                                      "u32", "i64", "u64",  "f64"};
  for (int type = CROQ_RT_F32; type <= CROQ_RT_F64; ++type) {
    uint64_t dims[1] = {4096};
    uint32_t box[1] = {128};
    printf("element type %s:\n", names[type]);
    int status = croqRtTensorMapEncodeTiled(map, type, 1, FAKE_GLOBAL_ADDRESS,
                                            dims, NULL, box, NULL, 0, 0, 0);
    if (status != CROQ_RT_SUCCESS)
      expectStatus("unexpected failure", status);
  }
  printf("map byte 0: 0x%02x\n", map[0]);

  TensorMapCase c;
  initValidCase(&c, map);
  failNext("cuTensorMapEncodeTiled=1");
  expectStatus("encode-fails", encodeCase(&c));
  failNext(NULL);

  int64_t boxDims[2] = {64, 32};
  MemRef2D memref = {
      FAKE_GLOBAL_ADDRESS, FAKE_GLOBAL_ADDRESS, 0, {256, 128}, {128, 1}};
  void *first = mgpuTensorMapEncodeTiledMemref(2, &memref, /*FLOAT32=*/7, 0, 3,
                                               2, 1, boxDims);
  expectPointer("memref", first);
  void *second =
      mgpuTensorMapEncodeTiledMemref(2, &memref, 7, 0, 3, 2, 1, boxDims);
  expectPointer("memref-again", second);
  printf("same device copy: %s\n", first == second ? "yes" : "no");
  croqRtTensorMapCacheClear();
  expectDone("cache-clear");
}

/// A launch after a tensor map that could not be encoded is refused, once.
/// Its own module: checkLaunches unloaded the first one.
static void checkLaunchAfterFailedTensorMap(void) {
  static char ptx[] = ".version 8.0\n";
  void *module = mgpuModuleLoadJIT(ptx, 3);
  void *kernel = mgpuModuleGetFunction(module, "copy");
  int64_t boxDims[2] = {64, 32};
  /* 1001 f16 per row: rows 2002 bytes apart, not a multiple of 16. */
  MemRef2D memref = {
      FAKE_GLOBAL_ADDRESS, FAKE_GLOBAL_ADDRESS, 0, {256, 1001}, {1001, 1}};
  expectPointer("memref-odd-rows",
                mgpuTensorMapEncodeTiledMemref(2, &memref, /*FLOAT16=*/6, 0, 0,
                                               0, 0, boxDims));
  int value = 42;
  void *params[1] = {&value};
  mgpuLaunchKernel(kernel, 4, 1, 1, 128, 1, 1, 0, NULL, params, NULL, 1);
  expectDone("launch-after-failed-tensor-map");
  mgpuLaunchKernel(kernel, 4, 1, 1, 128, 1, 1, 0, NULL, params, NULL, 1);
  expectDone("next-launch-runs");
  mgpuModuleUnload(module);
}

/// A kernel compiled without the software copy of its tma copies requires
/// the map (croqRtTensorMapRequire): when the runtime cannot give one, the
/// launch is refused, once, with the rule the tensor broke.
static void checkLaunchAfterRequiredMap(void) {
  static char ptx[] = ".version 8.0\n";
  void *module = mgpuModuleLoadJIT(ptx, 3);
  void *kernel = mgpuModuleGetFunction(module, "copy");
  int64_t sizes[2] = {64, 1001};
  int64_t strides[2] = {2002, 2};
  int64_t box[2] = {64, 64};
  const void *map = NULL;
  int value = 42;
  void *params[1] = {&value};
  int usable = croqRtTensorMapGetStrided(CROQ_RT_F16, 2,
                                         (const void *)FAKE_GLOBAL_ADDRESS,
                                         sizes, strides, box, 0, &map);
  printf("required map usable: %d, require returns %d\n", usable,
         croqRtTensorMapRequire(usable));
  mgpuLaunchKernel(kernel, 4, 1, 1, 128, 1, 1, 0, NULL, params, NULL, 1);
  expectDone("launch-after-required-map");
  printf("require(1) returns %d\n", croqRtTensorMapRequire(1));
  mgpuLaunchKernel(kernel, 4, 1, 1, 128, 1, 1, 0, NULL, params, NULL, 1);
  expectDone("launch-after-usable-map");
  mgpuModuleUnload(module);
}

/// The host code of a linalg product checks its dynamic extents
/// (croqRtRequireEqualExtents): equal ones pass; unequal ones fail the call
/// with both extents named, and its launches are refused until it ends.
static void checkLaunchAfterUnequalExtents(void) {
  static char ptx[] = ".version 8.0\n";
  void *module = mgpuModuleLoadJIT(ptx, 3);
  void *kernel = mgpuModuleGetFunction(module, "copy");
  int value = 42;
  void *params[1] = {&value};
  croqRtCallBegin();
  printf("equal extents: %d\n",
         croqRtRequireEqualExtents(64, 64, CROQ_RT_EXTENTS_K, 0));
  printf("unequal extents: %d\n",
         croqRtRequireEqualExtents(1000, 1001, CROQ_RT_EXTENTS_K, 0));
  mgpuLaunchKernel(kernel, 4, 1, 1, 128, 1, 1, 0, NULL, params, NULL, 1);
  mgpuLaunchKernel(kernel, 4, 1, 1, 128, 1, 1, 0, NULL, params, NULL, 1);
  expectStatus("call-with-unequal-extents", croqRtCallEnd());
  croqRtCallBegin();
  croqRtRequireEqualExtents(3, 2, CROQ_RT_EXTENTS_EPILOGUE_INPUT, 2);
  expectStatus("unequal-epilogue-input", croqRtCallEnd());
  croqRtCallBegin();
  croqRtRequireEqualExtents(7, 8, CROQ_RT_EXTENTS_ATTENTION, 2);
  expectStatus("unequal-attention-extents", croqRtCallEnd());
  croqRtCallBegin();
  croqRtRequireEqualExtents(3, 2, CROQ_RT_EXTENTS_DECODE, 5);
  expectStatus("unequal-decode-extents", croqRtCallEnd());
  croqRtCallBegin();
  croqRtRequireEqualExtents(5, 4, CROQ_RT_EXTENTS_VARLEN, 5);
  expectStatus("unequal-varlen-extents", croqRtCallEnd());
  croqRtCallBegin();
  croqRtRequireMultiple(200, 128, CROQ_RT_MULTIPLE_VARLEN_HEAD_DIM);
  expectStatus("varlen-head-dim", croqRtCallEnd());
  croqRtCallBegin();
  croqRtRequireMultiple(64, 128, CROQ_RT_MULTIPLE_PAGE_SIZE);
  expectStatus("page-size", croqRtCallEnd());
  croqRtCallBegin();
  croqRtRequireMultiple(6, 4, CROQ_RT_MULTIPLE_DECODE_SEQUENCES);
  expectStatus("decode-sequences", croqRtCallEnd());
  croqRtCallBegin();
  croqRtRequireMultiple(200, 128, CROQ_RT_MULTIPLE_HEAD_DIM);
  expectStatus("paged-head-dim", croqRtCallEnd());
  croqRtCallBegin();
  printf("multiple: %d\n",
         croqRtRequireMultiple(32, 8, CROQ_RT_MULTIPLE_HEAD_GROUPS));
  printf("not a multiple: %d\n",
         croqRtRequireMultiple(32, 6, CROQ_RT_MULTIPLE_HEAD_GROUPS));
  mgpuLaunchKernel(kernel, 4, 1, 1, 128, 1, 1, 0, NULL, params, NULL, 1);
  expectStatus("heads-not-a-multiple", croqRtCallEnd());
  croqRtCallBegin();
  printf("divisor 0: %d\n",
         croqRtRequireMultiple(32, 0, CROQ_RT_MULTIPLE_HEAD_GROUPS));
  expectStatus("no-key-heads", croqRtCallEnd());
  croqRtCallBegin();
  mgpuLaunchKernel(kernel, 4, 1, 1, 128, 1, 1, 0, NULL, params, NULL, 1);
  expectStatus("next-call-launches", croqRtCallEnd());
  mgpuModuleUnload(module);
}

int runFakeDriver(void) {
  checkDevices();
  checkContexts();
  void *module = checkModules();
  checkLaunches(module);
  checkStreamsEventsMemory();
  checkTensorMaps();
  checkLaunchAfterFailedTensorMap();
  checkLaunchAfterRequiredMap();
  checkLaunchAfterUnequalExtents();
  return 0;
}

int runInit(void) {
  expectStatus("init", croqRtInit());
  static char image[] = "x";
  expectPointer("module-load", mgpuModuleLoad(image, sizeof(image)));
  return 0;
}
