//===- Module.cpp - loading modules and looking up kernels ----------------===//
//
// Module load (cubin, fatbin, PTX), JIT compilation of PTX with its error
// log, unload and kernel lookup, for croqRt* callers and for the mgpu*
// functions of MLIR's generated host code.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"
#include "Error.h"

#include "Croq/Runtime/CroqRuntime.h"

#include <cstdint>
#include <cstring>

using namespace croq::rt;

static int loadModule(const char *api, const void *image, std::size_t size,
                      cu::Module *module) {
  if (!module)
    return reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, api,
                       "module must not be null");
  *module = nullptr;
  if (!image)
    return reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, api,
                       "image must not be null");
  const cu::DriverApi *cuda = ensureContext(api);
  if (!cuda)
    return driverFailureStatus();
  if (cu::Result r = cuda->cuModuleLoadData(module, image); r != cu::kSuccess)
    return reportDriverError(r, api, "cuModuleLoadData", "image=%p, size=%zu",
                             image, size);
  return CROQ_RT_SUCCESS;
}

static int loadPtx(const char *api, const char *ptx, int optLevel,
                   cu::Module *module) {
  if (!module)
    return reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, api,
                       "module must not be null");
  *module = nullptr;
  if (!ptx)
    return reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, api,
                       "ptx must not be null");
  if (optLevel < 0 || optLevel > 4)
    return reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, api,
                       "optLevel must be in [0, 4], got %d", optLevel);
  const cu::DriverApi *cuda = ensureContext(api);
  if (!cuda)
    return driverFailureStatus();

  char log[8192] = {0};
  int options[] = {cu::kJitErrorLogBuffer, cu::kJitErrorLogBufferSizeBytes,
                   cu::kJitOptimizationLevel};
  void *values[] = {log, reinterpret_cast<void *>(sizeof(log) - 1),
                    reinterpret_cast<void *>(static_cast<intptr_t>(optLevel))};
  cu::Result r = cuda->cuModuleLoadDataEx(module, ptx, 3, options, values);
  if (r == cu::kSuccess)
    return CROQ_RT_SUCCESS;
  return reportError(CROQ_RT_ERROR_DRIVER, api,
                     "cuModuleLoadDataEx(ptx=%zu bytes, optLevel=%d) failed: "
                     "%s%s%s",
                     std::strlen(ptx), optLevel, describeDriverError(r).c_str(),
                     log[0] ? "; JIT error log:\n" : "", log);
}

/// Unloading null does nothing: generated code unloads its modules from a
/// global destructor even when loading them failed (and was reported).
static int unloadModule(const char *api, cu::Module module) {
  if (!module)
    return CROQ_RT_SUCCESS;
  // Generated code unloads its modules from global destructors; when the
  // driver has already shut down at process exit, it has released them.
  if (const cu::DriverApi *driver = loadDriver(api)) {
    cu::Context current = nullptr;
    if (driver->cuCtxGetCurrent(&current) == cu::kErrorDeinitialized)
      return CROQ_RT_SUCCESS;
  }
  const cu::DriverApi *cuda = ensureContext(api);
  if (!cuda)
    return driverFailureStatus();
  if (cu::Result r = cuda->cuModuleUnload(module); r != cu::kSuccess)
    return reportDriverError(r, api, "cuModuleUnload", "module=%p",
                             static_cast<void *>(module));
  return CROQ_RT_SUCCESS;
}

static int getFunction(const char *api, cu::Module module, const char *name,
                       cu::Function *function) {
  if (!function)
    return reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, api,
                       "function must not be null");
  *function = nullptr;
  if (!module)
    return reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, api,
                       "module must not be null (did loading it fail?)");
  if (!name)
    return reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, api,
                       "name must not be null");
  const cu::DriverApi *cuda = ensureContext(api);
  if (!cuda)
    return driverFailureStatus();
  if (cu::Result r = cuda->cuModuleGetFunction(function, module, name);
      r != cu::kSuccess)
    return reportDriverError(r, api, "cuModuleGetFunction",
                             "module=%p, name=\"%s\"",
                             static_cast<void *>(module), name);
  return CROQ_RT_SUCCESS;
}

extern "C" int croqRtModuleLoad(const void *image, size_t size,
                                croqRtModule *module) {
  return loadModule("croqRtModuleLoad", image, size,
                    reinterpret_cast<cu::Module *>(module));
}

extern "C" int croqRtModuleLoadPTX(const char *ptx, int optLevel,
                                   croqRtModule *module) {
  return loadPtx("croqRtModuleLoadPTX", ptx, optLevel,
                 reinterpret_cast<cu::Module *>(module));
}

extern "C" int croqRtModuleUnload(croqRtModule module) {
  return unloadModule("croqRtModuleUnload", static_cast<cu::Module>(module));
}

extern "C" int croqRtModuleGetFunction(croqRtModule module, const char *name,
                                       croqRtFunction *function) {
  return getFunction("croqRtModuleGetFunction", static_cast<cu::Module>(module),
                     name, reinterpret_cast<cu::Function *>(function));
}

extern "C" void *mgpuModuleLoad(void *data, size_t size) {
  cu::Module module = nullptr;
  loadModule("mgpuModuleLoad", data, size, &module);
  return module;
}

extern "C" void *mgpuModuleLoadJIT(void *data, int optLevel) {
  cu::Module module = nullptr;
  loadPtx("mgpuModuleLoadJIT", static_cast<const char *>(data), optLevel,
          &module);
  return module;
}

extern "C" void mgpuModuleUnload(void *module) {
  unloadModule("mgpuModuleUnload", static_cast<cu::Module>(module));
}

extern "C" void *mgpuModuleGetFunction(void *module, const char *name) {
  cu::Function function = nullptr;
  getFunction("mgpuModuleGetFunction", static_cast<cu::Module>(module), name,
              &function);
  return function;
}
