//===- Stream.cpp - streams and events ------------------------------------===//
//
// The stream and event functions of MLIR's generated host code, and
// croqRtStreamSynchronize.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"
#include "Error.h"

#include "Croq/Runtime/CroqRuntime.h"

using namespace croq::rt;

static int synchronizeStream(const char *api, void *stream) {
  const cu::DriverApi *cuda = ensureContext(api);
  if (!cuda)
    return driverFailureStatus();
  if (cu::Result r = cuda->cuStreamSynchronize(static_cast<cu::Stream>(stream));
      r != cu::kSuccess)
    return reportDriverError(r, api, "cuStreamSynchronize", "stream=%p",
                             stream);
  return CROQ_RT_SUCCESS;
}

extern "C" int croqRtStreamSynchronize(croqRtStream stream) {
  return synchronizeStream("croqRtStreamSynchronize", stream);
}

namespace {
/// Streams that generated host code destroyed, kept for its next launch:
/// MLIR's launch sequence creates and destroys a stream around every
/// kernel, and creating one costs more than the launch itself. Bounded, so
/// nothing accumulates per launch. Streams belong to the context that was
/// current when they were created; the pool is per thread and croq uses one
/// primary context per device.
struct StreamPool {
  static constexpr size_t kCapacity = 4;
  cu::Stream streams[kCapacity] = {};
  size_t size = 0;
};
thread_local StreamPool streamPool;
} // namespace

extern "C" void *mgpuStreamCreate(void) {
  const char *api = "mgpuStreamCreate";
  const cu::DriverApi *cuda = ensureContext(api);
  if (!cuda)
    return nullptr;
  if (streamPool.size > 0)
    return streamPool.streams[--streamPool.size];
  cu::Stream stream = nullptr;
  if (cu::Result r = cuda->cuStreamCreate(&stream, cu::kStreamNonBlocking);
      r != cu::kSuccess) {
    reportDriverError(r, api, "cuStreamCreate", "flags=NON_BLOCKING");
    return nullptr;
  }
  return stream;
}

extern "C" void mgpuStreamDestroy(void *stream) {
  const char *api = "mgpuStreamDestroy";
  const cu::DriverApi *cuda = ensureContext(api);
  if (!cuda)
    return;
  if (stream && streamPool.size < StreamPool::kCapacity) {
    streamPool.streams[streamPool.size++] = static_cast<cu::Stream>(stream);
    return;
  }
  if (cu::Result r = cuda->cuStreamDestroy(static_cast<cu::Stream>(stream));
      r != cu::kSuccess)
    reportDriverError(r, api, "cuStreamDestroy", "stream=%p", stream);
}

extern "C" void mgpuStreamSynchronize(void *stream) {
  synchronizeStream("mgpuStreamSynchronize", stream);
}

extern "C" void mgpuStreamWaitEvent(void *stream, void *event) {
  const char *api = "mgpuStreamWaitEvent";
  const cu::DriverApi *cuda = ensureContext(api);
  if (!cuda)
    return;
  if (cu::Result r = cuda->cuStreamWaitEvent(static_cast<cu::Stream>(stream),
                                             static_cast<cu::Event>(event), 0);
      r != cu::kSuccess)
    reportDriverError(r, api, "cuStreamWaitEvent", "stream=%p, event=%p",
                      stream, event);
}

extern "C" void *mgpuEventCreate(void) {
  const char *api = "mgpuEventCreate";
  const cu::DriverApi *cuda = ensureContext(api);
  if (!cuda)
    return nullptr;
  cu::Event event = nullptr;
  if (cu::Result r = cuda->cuEventCreate(&event, cu::kEventDisableTiming);
      r != cu::kSuccess) {
    reportDriverError(r, api, "cuEventCreate", "flags=DISABLE_TIMING");
    return nullptr;
  }
  return event;
}

extern "C" void mgpuEventDestroy(void *event) {
  const char *api = "mgpuEventDestroy";
  const cu::DriverApi *cuda = ensureContext(api);
  if (!cuda)
    return;
  if (cu::Result r = cuda->cuEventDestroy(static_cast<cu::Event>(event));
      r != cu::kSuccess)
    reportDriverError(r, api, "cuEventDestroy", "event=%p", event);
}

extern "C" void mgpuEventSynchronize(void *event) {
  const char *api = "mgpuEventSynchronize";
  const cu::DriverApi *cuda = ensureContext(api);
  if (!cuda)
    return;
  if (cu::Result r = cuda->cuEventSynchronize(static_cast<cu::Event>(event));
      r != cu::kSuccess)
    reportDriverError(r, api, "cuEventSynchronize", "event=%p", event);
}

extern "C" void mgpuEventRecord(void *event, void *stream) {
  const char *api = "mgpuEventRecord";
  const cu::DriverApi *cuda = ensureContext(api);
  if (!cuda)
    return;
  if (cu::Result r = cuda->cuEventRecord(static_cast<cu::Event>(event),
                                         static_cast<cu::Stream>(stream));
      r != cu::kSuccess)
    reportDriverError(r, api, "cuEventRecord", "event=%p, stream=%p", event,
                      stream);
}
