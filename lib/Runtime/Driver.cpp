//===- Driver.cpp - load libcuda and keep contexts current ----------------===//
//
// Opens the CUDA driver with dlopen on first use, resolves every function the
// runtime calls and initializes it; retains the primary context of each
// device used and makes it current on each calling thread.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"

#include "Error.h"

#include "Croq/Runtime/CroqRuntime.h"

#include <dlfcn.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

using namespace croq::rt;

namespace {

/// The outcome of loading the driver, decided once per process.
struct LoadedDriver {
  cu::DriverApi api;
  /// Empty once loaded and initialized, else why not.
  std::string failure;
  int failureStatus = CROQ_RT_SUCCESS;
};

/// What the runtime knows about one device: its primary context, once
/// retained, and limits read at that time.
struct DeviceState {
  std::mutex mutex;
  std::atomic<cu::Context> context{nullptr};
  DeviceLimits limits;
};

constexpr int kMaxDevices = 64;

} // namespace

/// The driver's functions once resolved, for naming errors; set before
/// cuInit runs, so that its failure can be named too.
static std::atomic<const cu::DriverApi *> resolvedApi{nullptr};

/// Resolves every driver function into `loaded.api`; false (with the reason
/// in `loaded.failure`) if one is missing.
static bool resolveFunctions(void *handle, const char *path,
                             LoadedDriver &loaded) {
#define CROQ_CU_RESOLVE(name, symbol, params)                                  \
  if (void *address = dlsym(handle, symbol)) {                                 \
    static_assert(sizeof(loaded.api.name) == sizeof(address));                 \
    std::memcpy(&loaded.api.name, &address, sizeof(address));                  \
  } else {                                                                     \
    loaded.failure = std::string("the CUDA driver (") + path + ") has no " +   \
                     symbol + ": a CUDA 12.0 or newer driver is needed";       \
    return false;                                                              \
  }
  CROQ_CU_FUNCTIONS(CROQ_CU_RESOLVE)
#undef CROQ_CU_RESOLVE
  return true;
}

/// Opens the driver library, resolves its functions and initializes it.
static LoadedDriver *openDriver() {
  auto *loaded = new LoadedDriver;
  const char *path = std::getenv("CROQ_RUNTIME_LIBCUDA");
  if (!path || !*path)
    path = "libcuda.so.1";
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    loaded->failure = std::string("cannot load the CUDA driver (") + path +
                      "): " + (why ? why : "unknown dlopen error");
    loaded->failureStatus = CROQ_RT_ERROR_NO_DRIVER;
    return loaded;
  }
  if (!resolveFunctions(handle, path, *loaded)) {
    loaded->failureStatus = CROQ_RT_ERROR_NO_DRIVER;
    return loaded;
  }
  resolvedApi.store(&loaded->api);
  // A failing cuInit (no device, a driver older than its kernel module) is
  // as final as a missing library.
  if (cu::Result r = loaded->api.cuInit(0); r != cu::kSuccess) {
    loaded->failure = "cuInit(flags=0) failed: " + describeDriverError(r);
    loaded->failureStatus = CROQ_RT_ERROR_DRIVER;
  }
  return loaded;
}

/// The process's driver; never destroyed, so that calls from global
/// destructors (module unloads) still find it.
static const LoadedDriver &driver() {
  static const LoadedDriver *loaded = openDriver();
  return *loaded;
}

const cu::DriverApi *croq::rt::loadDriver(const char *api) {
  const LoadedDriver &loaded = driver();
  if (!loaded.failure.empty()) {
    reportError(loaded.failureStatus, api, "%s", loaded.failure.c_str());
    return nullptr;
  }
  return &loaded.api;
}

const char *croq::rt::driverErrorName(cu::Result result) {
  const cu::DriverApi *cuda = resolvedApi.load();
  const char *name = nullptr;
  if (!cuda || cuda->cuGetErrorName(result, &name) != cu::kSuccess)
    return nullptr;
  return name;
}

const char *croq::rt::driverErrorString(cu::Result result) {
  const cu::DriverApi *cuda = resolvedApi.load();
  const char *text = nullptr;
  if (!cuda || cuda->cuGetErrorString(result, &text) != cu::kSuccess)
    return nullptr;
  return text;
}

static DeviceState devices[kMaxDevices];
static thread_local int threadDevice = 0;

int croq::rt::currentDevice() { return threadDevice; }

void croq::rt::setCurrentDevice(int device) { threadDevice = device; }

/// Makes the default memory pool of `device`, which the stream-ordered
/// allocations of the runtime (split-K workspaces, staging buffers) come
/// from, keep freed memory instead of returning it to the system at every
/// synchronization: otherwise each call maps its workspace again, which
/// measured about 100 us on an H200. The pool's memory then stays at its
/// peak. A driver without memory pools is left as it is: the allocations
/// still work, only slower.
static void keepPoolMemory(const cu::DriverApi &cuda, cu::Device device) {
  cu::MemPool pool = nullptr;
  if (cuda.cuDeviceGetDefaultMemPool(&pool, device) != cu::kSuccess || !pool)
    return;
  uint64_t threshold = 0;
  if (cuda.cuMemPoolGetAttribute(pool, cu::kMemPoolAttrReleaseThreshold,
                                 &threshold) != cu::kSuccess ||
      threshold == UINT64_MAX)
    return;
  threshold = UINT64_MAX;
  (void)cuda.cuMemPoolSetAttribute(pool, cu::kMemPoolAttrReleaseThreshold,
                                   &threshold);
}

/// Retains the primary context of device `ordinal` and reads its limits.
static cu::Context retainContext(const cu::DriverApi &cuda, const char *api,
                                 int ordinal, DeviceState &state) {
  std::lock_guard<std::mutex> lock(state.mutex);
  if (cu::Context context = state.context.load(std::memory_order_acquire))
    return context;
  cu::Device device = 0;
  if (cu::Result r = cuda.cuDeviceGet(&device, ordinal); r != cu::kSuccess) {
    reportDriverError(r, api, "cuDeviceGet", "ordinal=%d", ordinal);
    return nullptr;
  }
  cu::Context context = nullptr;
  if (cu::Result r = cuda.cuDevicePrimaryCtxRetain(&context, device);
      r != cu::kSuccess) {
    reportDriverError(r, api, "cuDevicePrimaryCtxRetain", "device=%d", ordinal);
    return nullptr;
  }
  if (cu::Result r = cuda.cuDeviceGetAttribute(
          &state.limits.sharedMemPerBlockOptin,
          cu::kDevAttrMaxSharedMemoryPerBlockOptin, device);
      r != cu::kSuccess) {
    reportDriverError(r, api, "cuDeviceGetAttribute",
                      "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, device=%d", ordinal);
    return nullptr;
  }
  keepPoolMemory(cuda, device);
  state.context.store(context, std::memory_order_release);
  return context;
}

const cu::DriverApi *croq::rt::ensureContext(const char *api,
                                             const DeviceLimits **limits) {
  const cu::DriverApi *cuda = loadDriver(api);
  if (!cuda)
    return nullptr;
  int ordinal = threadDevice;
  DeviceState &state = devices[ordinal];
  cu::Context context = state.context.load(std::memory_order_acquire);
  if (!context) {
    context = retainContext(*cuda, api, ordinal, state);
    if (!context)
      return nullptr;
  }
  cu::Context current = nullptr;
  if (cu::Result r = cuda->cuCtxGetCurrent(&current); r != cu::kSuccess) {
    reportDriverError(r, api, "cuCtxGetCurrent", "%s", "");
    return nullptr;
  }
  if (current != context) {
    if (cu::Result r = cuda->cuCtxSetCurrent(context); r != cu::kSuccess) {
      reportDriverError(r, api, "cuCtxSetCurrent",
                        "primary context of device %d", ordinal);
      return nullptr;
    }
  }
  if (limits)
    *limits = &state.limits;
  return cuda;
}

int croq::rt::driverFailureStatus() {
  int status = driver().failureStatus;
  return status != CROQ_RT_SUCCESS ? status : CROQ_RT_ERROR_DRIVER;
}

extern "C" int croqRtInit(void) {
  return ensureContext("croqRtInit") ? CROQ_RT_SUCCESS : driverFailureStatus();
}

extern "C" int croqRtSetDevice(int device) {
  if (device < 0 || device >= kMaxDevices)
    return reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, "croqRtSetDevice",
                       "device must be in [0, %d), got %d", kMaxDevices,
                       device);
  threadDevice = device;
  return CROQ_RT_SUCCESS;
}

extern "C" int croqRtGetDevice(int *device) {
  if (!device)
    return reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, "croqRtGetDevice",
                       "device must not be null");
  *device = threadDevice;
  return CROQ_RT_SUCCESS;
}

extern "C" void mgpuSetDefaultDevice(int32_t device) {
  croqRtSetDevice(device);
}
