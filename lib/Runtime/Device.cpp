//===- Device.cpp - device count and properties ---------------------------===//
//
// croqRtGetDeviceCount and croqRtGetDeviceInfo: what a caller needs to size
// a launch (SM count, shared memory limits, compute capability).
//
//===----------------------------------------------------------------------===//

#include "Driver.h"
#include "Error.h"

#include "Croq/Runtime/CroqRuntime.h"

#include <cstring>

using namespace croq::rt;

extern "C" int croqRtGetDeviceCount(int *count) {
  const char *api = "croqRtGetDeviceCount";
  if (!count)
    return reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, api,
                       "count must not be null");
  const cu::DriverApi *cuda = loadDriver(api);
  if (!cuda)
    return driverFailureStatus();
  if (cu::Result r = cuda->cuDeviceGetCount(count); r != cu::kSuccess)
    return reportDriverError(r, api, "cuDeviceGetCount", "%s", "");
  return CROQ_RT_SUCCESS;
}

extern "C" int croqRtGetDeviceInfo(int ordinal, croqRtDeviceInfo *info) {
  const char *api = "croqRtGetDeviceInfo";
  if (!info)
    return reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, api,
                       "info must not be null");
  const cu::DriverApi *cuda = loadDriver(api);
  if (!cuda)
    return driverFailureStatus();
  cu::Device device = 0;
  if (cu::Result r = cuda->cuDeviceGet(&device, ordinal); r != cu::kSuccess)
    return reportDriverError(r, api, "cuDeviceGet", "ordinal=%d", ordinal);

  std::memset(info, 0, sizeof(*info));
  if (cu::Result r =
          cuda->cuDeviceGetName(info->name, sizeof(info->name) - 1, device);
      r != cu::kSuccess)
    return reportDriverError(r, api, "cuDeviceGetName", "device=%d", ordinal);

  struct {
    int attribute;
    const char *name;
    int *value;
  } queries[] = {
      {cu::kDevAttrComputeCapabilityMajor, "COMPUTE_CAPABILITY_MAJOR",
       &info->computeCapabilityMajor},
      {cu::kDevAttrComputeCapabilityMinor, "COMPUTE_CAPABILITY_MINOR",
       &info->computeCapabilityMinor},
      {cu::kDevAttrMultiprocessorCount, "MULTIPROCESSOR_COUNT",
       &info->multiprocessorCount},
      {cu::kDevAttrMaxSharedMemoryPerBlock, "MAX_SHARED_MEMORY_PER_BLOCK",
       &info->sharedMemPerBlock},
      {cu::kDevAttrMaxSharedMemoryPerBlockOptin,
       "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN", &info->sharedMemPerBlockOptin},
      {cu::kDevAttrClusterLaunch, "CLUSTER_LAUNCH", &info->clusterLaunch},
  };
  for (const auto &query : queries) {
    if (cu::Result r =
            cuda->cuDeviceGetAttribute(query.value, query.attribute, device);
        r != cu::kSuccess)
      return reportDriverError(r, api, "cuDeviceGetAttribute", "%s, device=%d",
                               query.name, ordinal);
  }
  return CROQ_RT_SUCCESS;
}
