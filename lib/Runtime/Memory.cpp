//===- Memory.cpp - device memory: allocate, free, copy, fill -------------===//
//
// The memory functions of MLIR's generated host code. Copies and fills are
// asynchronous on the given stream; zero-sized requests do nothing.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"
#include "Error.h"

#include "Croq/Runtime/CroqRuntime.h"

#include <cstdint>
#include <mutex>
#include <unordered_set>

using namespace croq::rt;

static cu::DevicePtr devicePtr(const void *ptr) {
  return static_cast<cu::DevicePtr>(reinterpret_cast<uintptr_t>(ptr));
}

namespace {
/// The managed allocations of mgpuMemAlloc: released with cuMemFree, as
/// they come from no stream-ordered pool.
struct ManagedAllocations {
  std::mutex mutex;
  std::unordered_set<cu::DevicePtr> pointers;
};
} // namespace

static ManagedAllocations &managedAllocations() {
  static ManagedAllocations allocations;
  return allocations;
}

extern "C" void *mgpuMemAlloc(uint64_t sizeBytes, void *stream,
                              bool isHostShared) {
  const char *api = "mgpuMemAlloc";
  if (sizeBytes == 0)
    return nullptr;
  const cu::DriverApi *cuda = ensureContext(api);
  if (!cuda)
    return nullptr;
  cu::DevicePtr ptr = 0;
  if (isHostShared) {
    if (cu::Result r =
            cuda->cuMemAllocManaged(&ptr, sizeBytes, cu::kMemAttachGlobal);
        r != cu::kSuccess) {
      reportDriverError(r, api, "cuMemAllocManaged",
                        "bytes=%llu, flags=ATTACH_GLOBAL",
                        static_cast<unsigned long long>(sizeBytes));
      return nullptr;
    }
    ManagedAllocations &managed = managedAllocations();
    std::lock_guard<std::mutex> lock(managed.mutex);
    managed.pointers.insert(ptr);
  } else if (cu::Result r = cuda->cuMemAllocAsync(
                 &ptr, sizeBytes, static_cast<cu::Stream>(stream));
             r != cu::kSuccess) {
    // Device memory is stream-ordered (from the device's default pool, which
    // keeps freed memory for reuse): usable by the work queued on `stream`
    // after this call, or on the legacy default stream for a null one.
    reportDriverError(r, api, "cuMemAllocAsync", "bytes=%llu, stream=%p",
                      static_cast<unsigned long long>(sizeBytes), stream);
    return nullptr;
  }
  return reinterpret_cast<void *>(static_cast<uintptr_t>(ptr));
}

extern "C" void mgpuMemFree(void *ptr, void *stream) {
  const char *api = "mgpuMemFree";
  if (!ptr)
    return;
  const cu::DriverApi *cuda = ensureContext(api);
  if (!cuda)
    return;
  bool isManaged;
  {
    ManagedAllocations &managed = managedAllocations();
    std::lock_guard<std::mutex> lock(managed.mutex);
    isManaged = managed.pointers.erase(devicePtr(ptr)) != 0;
  }
  if (isManaged) {
    if (cu::Result r = cuda->cuMemFree(devicePtr(ptr)); r != cu::kSuccess)
      reportDriverError(r, api, "cuMemFree", "ptr=%p", ptr);
    return;
  }
  // Released after the work queued on `stream`; the host does not wait.
  if (cu::Result r =
          cuda->cuMemFreeAsync(devicePtr(ptr), static_cast<cu::Stream>(stream));
      r != cu::kSuccess)
    reportDriverError(r, api, "cuMemFreeAsync", "ptr=%p, stream=%p", ptr,
                      stream);
}

extern "C" void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                           void *stream) {
  const char *api = "mgpuMemcpy";
  if (sizeBytes == 0)
    return;
  const cu::DriverApi *cuda = ensureContext(api);
  if (!cuda)
    return;
  if (cu::Result r =
          cuda->cuMemcpyAsync(devicePtr(dst), devicePtr(src), sizeBytes,
                              static_cast<cu::Stream>(stream));
      r != cu::kSuccess)
    reportDriverError(r, api, "cuMemcpyAsync",
                      "dst=%p, src=%p, bytes=%zu, stream=%p", dst, src,
                      sizeBytes, stream);
}

extern "C" void mgpuMemset32(void *dst, unsigned int value, size_t count,
                             void *stream) {
  const char *api = "mgpuMemset32";
  if (count == 0)
    return;
  const cu::DriverApi *cuda = ensureContext(api);
  if (!cuda)
    return;
  if (cu::Result r = cuda->cuMemsetD32Async(devicePtr(dst), value, count,
                                            static_cast<cu::Stream>(stream));
      r != cu::kSuccess)
    reportDriverError(r, api, "cuMemsetD32Async",
                      "dst=%p, value=0x%08x, count=%zu, stream=%p", dst, value,
                      count, stream);
}

extern "C" void mgpuMemset16(void *dst, unsigned short value, size_t count,
                             void *stream) {
  const char *api = "mgpuMemset16";
  if (count == 0)
    return;
  const cu::DriverApi *cuda = ensureContext(api);
  if (!cuda)
    return;
  if (cu::Result r = cuda->cuMemsetD16Async(devicePtr(dst), value, count,
                                            static_cast<cu::Stream>(stream));
      r != cu::kSuccess)
    reportDriverError(r, api, "cuMemsetD16Async",
                      "dst=%p, value=0x%04x, count=%zu, stream=%p", dst,
                      static_cast<unsigned>(value), count, stream);
}
