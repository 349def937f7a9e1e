/*===- NoDriver.c - every entry point without a CUDA driver ---------------===*\
|*                                                                            *|
|* Calls every exported function on a machine (or with a library path) where  *|
|* the driver cannot be loaded: each reports a clear error and returns null   *|
|* or an error status, nothing crashes. Arguments the runtime can judge       *|
|* without the driver are rejected first.                                     *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "Common.h"

#include <pthread.h>
#include <stdio.h>

/// A non-null stand-in for a kernel handle; never dereferenced.
#define FAKE_FUNCTION ((void *)(uintptr_t)0x1000)
#define FAKE_HANDLE ((void *)(uintptr_t)0x2000)

static void checkDriverAndDevices(void) {
  expectStatus("init", croqRtInit());
  int count = -1;
  expectStatus("device-count", croqRtGetDeviceCount(&count));
  expectStatus("device-count-null", croqRtGetDeviceCount(NULL));
  croqRtDeviceInfo info;
  expectStatus("device-info", croqRtGetDeviceInfo(0, &info));
  expectStatus("set-device-negative", croqRtSetDevice(-1));
  expectStatus("set-device-64", croqRtSetDevice(64));
  mgpuSetDefaultDevice(3);
  int device = -1;
  expectStatus("get-device", croqRtGetDevice(&device));
  printf("device %d\n", device);
  mgpuSetDefaultDevice(0);
}

static void checkModules(void) {
  static char ptx[] = ".version 8.0\n.target sm_90a\n";
  expectPointer("module-load", mgpuModuleLoad(ptx, sizeof(ptx)));
  expectPointer("module-load-null", mgpuModuleLoad(NULL, 0));
  expectPointer("module-load-jit", mgpuModuleLoadJIT(ptx, 2));
  croqRtModule module = FAKE_HANDLE;
  expectStatus("module-load-ptx-opt-level",
               croqRtModuleLoadPTX(ptx, 7, &module));
  printf("module %s\n", module ? "non-null" : "null");
  mgpuModuleUnload(NULL);
  expectDone("module-unload-null");
  mgpuModuleUnload(FAKE_HANDLE);
  expectDone("module-unload");
  expectPointer("get-function-null-module", mgpuModuleGetFunction(NULL, "k"));
  croqRtFunction function = FAKE_HANDLE;
  expectStatus("get-function-null-name",
               croqRtModuleGetFunction(FAKE_HANDLE, NULL, &function));
  printf("function %s\n", function ? "non-null" : "null");
}

static void checkLaunches(void) {
  void *params[1] = {NULL};
  mgpuLaunchKernel(NULL, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL, 0);
  expectDone("launch-null-function");
  mgpuLaunchKernel(FAKE_FUNCTION, 0, 1, 1, 128, 1, 1, 0, NULL, params, NULL, 0);
  expectDone("launch-grid-zero");
  mgpuLaunchKernel(FAKE_FUNCTION, 1, 1, 1, 128, -1, 1, 0, NULL, params, NULL,
                   0);
  expectDone("launch-block-negative");
  mgpuLaunchKernel(FAKE_FUNCTION, (intptr_t)1 << 32, 1, 1, 128, 1, 1, 0, NULL,
                   params, NULL, 0);
  expectDone("launch-grid-2^32");
  mgpuLaunchKernel(FAKE_FUNCTION, 1, 1, 1, 128, 1, 1, -1, NULL, params, NULL,
                   0);
  expectDone("launch-smem-negative");
  mgpuLaunchClusterKernel(FAKE_FUNCTION, 2, 1, 1, 3, 1, 1, 128, 1, 1, 0, NULL,
                          params, NULL);
  expectDone("cluster-grid-not-multiple");
  mgpuLaunchClusterKernel(FAKE_FUNCTION, 1, 1, 0, 2, 1, 1, 128, 1, 1, 0, NULL,
                          params, NULL);
  expectDone("cluster-zero");
  mgpuLaunchKernel(FAKE_FUNCTION, 1, 1, 1, 128, 1, 1, 100000, NULL, params,
                   NULL, 0);
  expectDone("launch-valid");
  mgpuLaunchClusterKernel(FAKE_FUNCTION, 2, 1, 1, 4, 1, 1, 128, 1, 1, 0, NULL,
                          params, NULL);
  expectDone("cluster-valid");
  uint32_t grid[3] = {1, 1, 1}, block[3] = {32, 1, 1};
  expectStatus("launch-croq-null-grid",
               croqRtLaunchKernel(FAKE_FUNCTION, NULL, block, NULL, 0, NULL,
                                  params));
  expectStatus("launch-croq-valid",
               croqRtLaunchKernel(FAKE_FUNCTION, grid, block, NULL, 0, NULL,
                                  params));
}

static void checkStreamsEventsMemory(void) {
  expectPointer("stream-create", mgpuStreamCreate());
  mgpuStreamSynchronize(NULL);
  expectDone("stream-synchronize");
  expectStatus("stream-synchronize-croq", croqRtStreamSynchronize(NULL));
  mgpuStreamWaitEvent(FAKE_HANDLE, FAKE_HANDLE);
  expectDone("stream-wait-event");
  mgpuStreamDestroy(FAKE_HANDLE);
  expectDone("stream-destroy");
  expectPointer("event-create", mgpuEventCreate());
  mgpuEventRecord(FAKE_HANDLE, NULL);
  expectDone("event-record");
  mgpuEventSynchronize(FAKE_HANDLE);
  expectDone("event-synchronize");
  mgpuEventDestroy(FAKE_HANDLE);
  expectDone("event-destroy");
  expectPointer("alloc-zero", mgpuMemAlloc(0, NULL, false));
  expectPointer("alloc", mgpuMemAlloc(1024, NULL, false));
  expectPointer("alloc-managed", mgpuMemAlloc(1024, NULL, true));
  mgpuMemFree(NULL, NULL);
  expectDone("free-null");
  mgpuMemFree(FAKE_HANDLE, NULL);
  expectDone("free");
  mgpuMemcpy(FAKE_HANDLE, FAKE_HANDLE, 0, NULL);
  expectDone("memcpy-zero");
  mgpuMemcpy(FAKE_HANDLE, FAKE_HANDLE, 64, NULL);
  expectDone("memcpy");
  mgpuMemset32(FAKE_HANDLE, 0, 0, NULL);
  expectDone("memset32-zero");
  mgpuMemset32(FAKE_HANDLE, 0xffffffffu, 16, NULL);
  expectDone("memset32");
  mgpuMemset16(FAKE_HANDLE, 0xffff, 16, NULL);
  expectDone("memset16");
}

static void *failOnAnotherThread(void *unused) {
  (void)unused;
  croqRtSetDevice(-7);
  expectDone("error-on-this-thread");
  return NULL;
}

/// The last error belongs to the thread that caused it.
static void checkThreadLocalErrors(void) {
  croqRtClearLastError();
  pthread_t thread;
  pthread_create(&thread, NULL, failOnAnotherThread, NULL);
  pthread_join(thread, NULL);
  expectDone("error-on-other-thread");
  croqRtSetDevice(-8);
  croqRtSetDevice(0);
  expectDone("success-keeps-last-error");
}

int runNoDriver(void) {
  checkDriverAndDevices();
  checkModules();
  checkLaunches();
  checkStreamsEventsMemory();
  checkThreadLocalErrors();
  return 0;
}
