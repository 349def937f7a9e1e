//===- TensorMap.cpp - encoding tiled tensor maps -------------------------===//
//
// Encodes validated tensor-map parameters with cuTensorMapEncodeTiled (or a
// test encoder standing in for it), and croqRtTensorMapEncodeTiled, which
// validates and encodes into caller memory.
//
//===----------------------------------------------------------------------===//

#include "TensorMap.h"

#include "Driver.h"
#include "Error.h"

#include "Croq/Runtime/CroqRuntime.h"

#include <atomic>
#include <cstdio>
#include <type_traits>

using namespace croq::rt;

static std::atomic<croqRtTensorMapEncoder> testEncoder{nullptr};
static std::atomic<uint64_t> encodeCount{0};

/// Writes "[a, b, c]" for `count` values into `buffer`.
template <typename T>
static const char *formatList(char *buffer, std::size_t size, const T *values,
                              uint32_t count) {
  int used = std::snprintf(buffer, size, "[");
  for (uint32_t i = 0; values && i < count && used < int(size); ++i)
    used +=
        std::is_signed_v<T>
            ? std::snprintf(buffer + used, size - used, "%s%lld", i ? ", " : "",
                            static_cast<long long>(values[i]))
            : std::snprintf(buffer + used, size - used, "%s%llu", i ? ", " : "",
                            static_cast<unsigned long long>(values[i]));
  if (used < int(size))
    std::snprintf(buffer + used, size - used, "]");
  return buffer;
}

/// Reports a failed cuTensorMapEncodeTiled with every parameter it got.
static int reportEncodeFailure(cu::Result result, const char *api,
                               const TensorMapParams &p,
                               const uint64_t *strides,
                               const uint32_t *elementStrides) {
  char dims[128], strideList[128], box[64], steps[64];
  return reportDriverError(
      result, api, "cuTensorMapEncodeTiled",
      "elementType=%s, rank=%u, globalAddress=%p, globalDims=%s, "
      "globalStrides=%s, boxDims=%s, elementStrides=%s, swizzle=%d, "
      "l2Promotion=%d, oobFill=%d",
      getElementTypeInfo(p.elementType)->name, p.rank, p.globalAddress,
      formatList(dims, sizeof(dims), p.globalDims, p.rank),
      formatList(strideList, sizeof(strideList), strides, p.rank - 1),
      formatList(box, sizeof(box), p.boxDims, p.rank),
      formatList(steps, sizeof(steps), elementStrides, p.rank), p.swizzle,
      p.l2Promotion, p.oobFill);
}

/// Encodes validated im2col `p` with cuTensorMapEncodeIm2col.
static int encodeIm2colTensorMap(const char *api, void *map,
                                 const TensorMapParams &p) {
  if (testEncoder.load())
    return reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, api,
                       "the test tensor-map encoder encodes tiled maps only, "
                       "not im2col maps");
  const cu::DriverApi *cuda = ensureContext(api);
  if (!cuda)
    return driverFailureStatus();
  uint64_t strides[kMaxTensorMapRank] = {};
  uint32_t elementStrides[kMaxTensorMapRank] = {1, 1, 1, 1, 1};
  for (uint32_t i = 0; i + 1 < p.rank; ++i)
    strides[i] = p.globalStrides[i];
  for (uint32_t i = 0; p.elementStrides && i < p.rank; ++i)
    elementStrides[i] = p.elementStrides[i];
  cu::Result r = cuda->cuTensorMapEncodeIm2col(
      map, getElementTypeInfo(p.elementType)->driverType, p.rank,
      const_cast<void *>(p.globalAddress), p.globalDims, strides, p.lowerCorner,
      p.upperCorner, p.channelsPerPixel, p.pixelsPerColumn, elementStrides,
      cu::kTensorMapInterleaveNone, p.swizzle, p.l2Promotion, p.oobFill);
  if (r != cu::kSuccess) {
    char dims[128], strideList[128], lower[64], upper[64], steps[64];
    return reportDriverError(
        r, api, "cuTensorMapEncodeIm2col",
        "elementType=%s, rank=%u, globalAddress=%p, globalDims=%s, "
        "globalStrides=%s, lowerCorner=%s, upperCorner=%s, "
        "channelsPerPixel=%u, pixelsPerColumn=%u, elementStrides=%s, "
        "swizzle=%d",
        getElementTypeInfo(p.elementType)->name, p.rank, p.globalAddress,
        formatList(dims, sizeof(dims), p.globalDims, p.rank),
        formatList(strideList, sizeof(strideList), strides, p.rank - 1),
        formatList(lower, sizeof(lower), p.lowerCorner, p.rank - 2),
        formatList(upper, sizeof(upper), p.upperCorner, p.rank - 2),
        p.channelsPerPixel, p.pixelsPerColumn,
        formatList(steps, sizeof(steps), elementStrides, p.rank), p.swizzle);
  }
  ++encodeCount;
  return CROQ_RT_SUCCESS;
}

int croq::rt::encodeTensorMap(const char *api, void *map,
                              const TensorMapParams &p) {
  if (p.im2col)
    return encodeIm2colTensorMap(api, map, p);
  if (croqRtTensorMapEncoder encoder = testEncoder.load()) {
    int status = encoder(map, p.elementType, p.rank, p.globalAddress,
                         p.globalDims, p.globalStrides, p.boxDims,
                         p.elementStrides, p.swizzle, p.l2Promotion, p.oobFill);
    if (status != CROQ_RT_SUCCESS)
      return reportError(status, api, "the test tensor-map encoder failed");
    ++encodeCount;
    return CROQ_RT_SUCCESS;
  }

  const cu::DriverApi *cuda = ensureContext(api);
  if (!cuda)
    return driverFailureStatus();
  // The driver reads rank - 1 strides and rank element strides; give it full
  // arrays whatever the caller passed for rank 1 or "all ones".
  uint64_t strides[kMaxTensorMapRank] = {};
  uint32_t elementStrides[kMaxTensorMapRank] = {1, 1, 1, 1, 1};
  for (uint32_t i = 0; i + 1 < p.rank; ++i)
    strides[i] = p.globalStrides[i];
  for (uint32_t i = 0; p.elementStrides && i < p.rank; ++i)
    elementStrides[i] = p.elementStrides[i];
  cu::Result r = cuda->cuTensorMapEncodeTiled(
      map, getElementTypeInfo(p.elementType)->driverType, p.rank,
      const_cast<void *>(p.globalAddress), p.globalDims, strides, p.boxDims,
      elementStrides, cu::kTensorMapInterleaveNone, p.swizzle, p.l2Promotion,
      p.oobFill);
  if (r != cu::kSuccess)
    return reportEncodeFailure(r, api, p, strides, elementStrides);
  ++encodeCount;
  return CROQ_RT_SUCCESS;
}

uint64_t croq::rt::tensorMapEncodeCount() { return encodeCount.load(); }

extern "C" int croqRtTensorMapEncodeTiled(
    void *tensorMap, int elementType, uint32_t rank, const void *globalAddress,
    const uint64_t *globalDims, const uint64_t *globalStrides,
    const uint32_t *boxDims, const uint32_t *elementStrides, int swizzle,
    int l2Promotion, int oobFill) {
  const char *api = "croqRtTensorMapEncodeTiled";
  if (!tensorMap)
    return reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, api,
                       "tensorMap must not be null");
  if (reinterpret_cast<uintptr_t>(tensorMap) % CROQ_RT_TENSOR_MAP_ALIGN != 0)
    return reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, api,
                       "tensorMap must be %d-byte aligned, got %p",
                       CROQ_RT_TENSOR_MAP_ALIGN, tensorMap);
  TensorMapParams params = {elementType,   rank,    globalAddress,  globalDims,
                            globalStrides, boxDims, elementStrides, swizzle,
                            l2Promotion,   oobFill};
  if (int status = validateTensorMap(api, params))
    return status;
  return encodeTensorMap(api, tensorMap, params);
}

extern "C" void
croqRtSetTensorMapEncoderForTesting(croqRtTensorMapEncoder encoder) {
  testEncoder.store(encoder);
}
