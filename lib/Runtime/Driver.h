//===- Driver.h - loading the CUDA driver and binding contexts --*- C++ -*-===//
//
// Access to the dynamically loaded driver, and the per-thread device whose
// primary context every runtime call runs in.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_LIB_RUNTIME_DRIVER_H
#define CROQ_LIB_RUNTIME_DRIVER_H

#include "DriverApi.h"

namespace croq::rt {

/// The loaded driver, or null after reporting (as `api`) why it could not be
/// loaded. The library is opened once per process and never closed.
const cu::DriverApi *loadDriver(const char *api);

/// The driver's name and description of `result`, or null if it has none
/// (or the driver is not loaded).
const char *driverErrorName(cu::Result result);
const char *driverErrorString(cu::Result result);

/// The status a croqRt* function returns after loadDriver or ensureContext
/// failed: CROQ_RT_ERROR_NO_DRIVER when the driver could not be loaded, else
/// CROQ_RT_ERROR_DRIVER.
int driverFailureStatus();

/// The device the calling thread works on (0 unless set); setCurrentDevice
/// expects an ordinal croqRtSetDevice accepted.
int currentDevice();
void setCurrentDevice(int device);

/// Per-device facts read once when its context is created.
struct DeviceLimits {
  int sharedMemPerBlockOptin = 0;
};

/// Makes sure the driver is loaded and initialized and the primary context of
/// the calling thread's device is current on this thread; returns the driver,
/// or null after reporting the failure as `api`. Cheap after the first call.
const cu::DriverApi *ensureContext(const char *api,
                                   const DeviceLimits **limits = nullptr);

} // namespace croq::rt

#endif // CROQ_LIB_RUNTIME_DRIVER_H
