//===- Launch.cpp - kernel launch, with clusters and large smem -----------===//
//
// Checks a launch's shape, opts the kernel into dynamic shared memory above
// 48 KB, and launches it with cuLaunchKernel or, for thread block clusters,
// cuLaunchKernelEx. Nothing is allocated per launch.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"
#include "Error.h"

#include "Croq/Runtime/CroqRuntime.h"

#include <cstdint>

using namespace croq::rt;

/// Dynamic shared memory a kernel gets without opting in.
constexpr int64_t kDefaultDynamicSharedBytes = 48 * 1024;
/// Static shared memory a kernel may have besides the dynamic window (croq's
/// mbarriers): launches within this much of the default limit opt in too,
/// since static and dynamic shared memory count against it together.
constexpr int64_t kStaticSharedReserve = 1024;

namespace {
/// A launch's shape; `cluster` is null for an ordinary launch.
struct LaunchShape {
  const int64_t *grid;
  const int64_t *block;
  const int64_t *cluster;
  int64_t sharedMemBytes;
};
} // namespace

/// Checks that every dimension fits the driver's 32-bit fields and that the
/// grid is made of whole clusters.
static int checkShape(const char *api, const LaunchShape &shape) {
  static const char axes[] = "XYZ";
  const struct {
    const char *name;
    const int64_t *dims;
  } groups[] = {
      {"grid", shape.grid}, {"block", shape.block}, {"cluster", shape.cluster}};
  for (const auto &group : groups) {
    for (int i = 0; group.dims && i < 3; ++i) {
      if (group.dims[i] < 1 || group.dims[i] > UINT32_MAX)
        return reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, api,
                           "%s%c must be in [1, 2^32 - 1], got %lld",
                           group.name, axes[i],
                           static_cast<long long>(group.dims[i]));
    }
  }
  for (int i = 0; shape.cluster && i < 3; ++i) {
    if (shape.grid[i] % shape.cluster[i] != 0)
      return reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, api,
                         "grid%c (%lld) must be a multiple of cluster%c "
                         "(%lld)",
                         axes[i], static_cast<long long>(shape.grid[i]),
                         axes[i], static_cast<long long>(shape.cluster[i]));
  }
  if (shape.sharedMemBytes < 0 || shape.sharedMemBytes > UINT32_MAX)
    return reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, api,
                       "dynamic shared memory must be in [0, 2^32 - 1] bytes, "
                       "got %lld",
                       static_cast<long long>(shape.sharedMemBytes));
  return CROQ_RT_SUCCESS;
}

/// Raises the kernel's dynamic shared memory limit when the launch needs
/// more than the default leaves beside the kernel's static shared memory.
static int optIntoSharedMemory(const char *api, const cu::DriverApi &cuda,
                               const DeviceLimits &limits,
                               cu::Function function, int64_t bytes) {
  if (bytes <= kDefaultDynamicSharedBytes - kStaticSharedReserve)
    return CROQ_RT_SUCCESS;
  if (bytes > limits.sharedMemPerBlockOptin)
    return reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, api,
                       "%lld bytes of dynamic shared memory exceed the "
                       "device's limit of %d bytes per block",
                       static_cast<long long>(bytes),
                       limits.sharedMemPerBlockOptin);
  if (cu::Result r = cuda.cuFuncSetAttribute(
          function, cu::kFuncAttrMaxDynamicSharedSizeBytes,
          static_cast<int>(bytes));
      r != cu::kSuccess)
    return reportDriverError(r, api, "cuFuncSetAttribute",
                             "function=%p, MAX_DYNAMIC_SHARED_SIZE_BYTES, %lld",
                             static_cast<void *>(function),
                             static_cast<long long>(bytes));
  return CROQ_RT_SUCCESS;
}

static int launch(const char *api, void *kernel, const LaunchShape &shape,
                  void *stream, void **params, void **extra) {
  if (!kernel)
    return reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, api,
                       "function is null (did loading the module or looking "
                       "up the kernel fail?)");
  if (int status = checkShape(api, shape))
    return status;
  // A kernel whose tensor map could not be encoded must not run with a null
  // map: refuse, with the reason.
  if (std::string reason = takeFailedTensorMap(); !reason.empty())
    return reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, api,
                       "not launched: a tensor map of this launch cannot be "
                       "used (%s)",
                       reason.c_str());
  // A precondition of the call failed and was reported
  // (croqRtRequireEqualExtents): its status stands, and nothing runs.
  if (launchesRefused())
    return CROQ_RT_ERROR_INVALID_ARGUMENT;
  const DeviceLimits *limits = nullptr;
  const cu::DriverApi *cuda = ensureContext(api, &limits);
  if (!cuda)
    return driverFailureStatus();
  auto function = static_cast<cu::Function>(kernel);
  if (int status = optIntoSharedMemory(api, *cuda, *limits, function,
                                       shape.sharedMemBytes))
    return status;

  auto u32 = [](int64_t value) { return static_cast<unsigned>(value); };
  const int64_t *g = shape.grid, *b = shape.block, *c = shape.cluster;
  unsigned smem = u32(shape.sharedMemBytes);
  auto cuStream = static_cast<cu::Stream>(stream);
  if (!c) {
    cu::Result r = cuda->cuLaunchKernel(
        function, u32(g[0]), u32(g[1]), u32(g[2]), u32(b[0]), u32(b[1]),
        u32(b[2]), smem, cuStream, params, extra);
    if (r != cu::kSuccess)
      return reportDriverError(
          r, api, "cuLaunchKernel",
          "function=%p, grid=(%u, %u, %u), block=(%u, %u, %u), "
          "sharedMemBytes=%u, stream=%p",
          kernel, u32(g[0]), u32(g[1]), u32(g[2]), u32(b[0]), u32(b[1]),
          u32(b[2]), smem, stream);
    return CROQ_RT_SUCCESS;
  }

  cu::LaunchAttribute attribute = {};
  attribute.id = cu::kLaunchAttrClusterDimension;
  attribute.value.clusterDim.x = u32(c[0]);
  attribute.value.clusterDim.y = u32(c[1]);
  attribute.value.clusterDim.z = u32(c[2]);
  cu::LaunchConfig config = {};
  config.gridDimX = u32(g[0]);
  config.gridDimY = u32(g[1]);
  config.gridDimZ = u32(g[2]);
  config.blockDimX = u32(b[0]);
  config.blockDimY = u32(b[1]);
  config.blockDimZ = u32(b[2]);
  config.sharedMemBytes = smem;
  config.hStream = cuStream;
  config.attrs = &attribute;
  config.numAttrs = 1;
  if (cu::Result r = cuda->cuLaunchKernelEx(&config, function, params, extra);
      r != cu::kSuccess)
    return reportDriverError(
        r, api, "cuLaunchKernelEx",
        "function=%p, cluster=(%u, %u, %u), grid=(%u, %u, %u), "
        "block=(%u, %u, %u), sharedMemBytes=%u, stream=%p",
        kernel, u32(c[0]), u32(c[1]), u32(c[2]), u32(g[0]), u32(g[1]),
        u32(g[2]), u32(b[0]), u32(b[1]), u32(b[2]), smem, stream);
  return CROQ_RT_SUCCESS;
}

extern "C" int croqRtLaunchKernel(croqRtFunction function,
                                  const uint32_t grid[3],
                                  const uint32_t block[3],
                                  const uint32_t *cluster,
                                  uint32_t sharedMemBytes, croqRtStream stream,
                                  void **params) {
  const char *api = "croqRtLaunchKernel";
  if (!grid || !block)
    return reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, api,
                       "grid and block must not be null");
  int64_t g[3] = {grid[0], grid[1], grid[2]};
  int64_t b[3] = {block[0], block[1], block[2]};
  int64_t c[3] = {};
  if (cluster)
    c[0] = cluster[0], c[1] = cluster[1], c[2] = cluster[2];
  LaunchShape shape = {g, b, cluster ? c : nullptr, sharedMemBytes};
  return launch(api, function, shape, stream, params, nullptr);
}

extern "C" void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                                 intptr_t gridZ, intptr_t blockX,
                                 intptr_t blockY, intptr_t blockZ, int32_t smem,
                                 void *stream, void **params, void **extra,
                                 size_t /*paramsCount*/) {
  int64_t g[3] = {gridX, gridY, gridZ};
  int64_t b[3] = {blockX, blockY, blockZ};
  launch("mgpuLaunchKernel", function, {g, b, nullptr, smem}, stream, params,
         extra);
}

extern "C" void mgpuLaunchClusterKernel(void *function, intptr_t clusterX,
                                        intptr_t clusterY, intptr_t clusterZ,
                                        intptr_t gridX, intptr_t gridY,
                                        intptr_t gridZ, intptr_t blockX,
                                        intptr_t blockY, intptr_t blockZ,
                                        int32_t smem, void *stream,
                                        void **params, void **extra) {
  int64_t c[3] = {clusterX, clusterY, clusterZ};
  int64_t g[3] = {gridX, gridY, gridZ};
  int64_t b[3] = {blockX, blockY, blockZ};
  launch("mgpuLaunchClusterKernel", function, {g, b, c, smem}, stream, params,
         extra);
}
