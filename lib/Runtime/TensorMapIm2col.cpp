//===- TensorMapIm2col.cpp - im2col tensor maps of strided tensors --------===//
//
// croqRtTensorMapGetIm2col, the host call of croq's generated code for a
// croq.im2col_map: turns a channels-last memref's sizes and strides and the
// map's corners, traversal strides, channels and pixels into the
// parameters of cuTensorMapEncodeIm2col, and answers "no" with the rule a
// tensor breaks; croqRtTensorMapRequireIm2col refuses the launch then, as
// im2col loads have no software copy.
//
//===----------------------------------------------------------------------===//

#include "Error.h"
#include "TensorMap.h"

#include "Croq/Runtime/CroqRuntime.h"

#include <cstdint>

using namespace croq::rt;

/// The parameters of `tensor` in the driver's order (dimension 0
/// innermost), checked; points `*map` at the cached map. False, with the
/// rule in `why`, if a rule is broken.
static bool getIm2colMap(int elementType, uint32_t rank, const void *address,
                         const int64_t *sizes, const int64_t *byteStrides,
                         const int32_t *lower, const int32_t *upper,
                         const int64_t *steps, uint32_t channels,
                         uint32_t pixels, int swizzle, StridedFallback &why,
                         const void **map) {
  if (rank < 3 || rank > kMaxTensorMapRank)
    return why.set("rank",
                   "an im2col map needs rank 3 to 5 (N, spatial dimensions, "
                   "C), got %u",
                   rank);
  const ElementTypeInfo *type = getElementTypeInfo(elementType);
  if (!type)
    return why.set("element-type",
                   "elementType must be a croqRtElementType, got %d",
                   elementType);
  if (!sizes || !byteStrides || !lower || !upper || !steps)
    return why.set("arguments", "sizes, byteStrides, lowerCorner, "
                                "upperCorner and strides must not be null");
  if (byteStrides[rank - 1] != int64_t(type->bytes))
    return why.set("inner-stride",
                   "the channels must be contiguous: the innermost stride "
                   "must be the element size (%u bytes), got %lld bytes",
                   type->bytes, static_cast<long long>(byteStrides[rank - 1]));
  auto toUnsigned = [](int64_t v) { return v < 0 ? 0 : uint64_t(v); };
  uint64_t dims[kMaxTensorMapRank], strides[kMaxTensorMapRank];
  // Channels and images are stepped one by one; the spatial dimensions by
  // the convolution's strides. Corners and steps come outermost first.
  uint32_t elementStrides[kMaxTensorMapRank] = {1, 1, 1, 1, 1};
  int32_t lowerCorner[kMaxTensorMapRank - 2],
      upperCorner[kMaxTensorMapRank - 2];
  for (uint32_t i = 0; i < rank; ++i)
    dims[i] = toUnsigned(sizes[rank - 1 - i]);
  for (uint32_t i = 0; i + 1 < rank; ++i)
    strides[i] = toUnsigned(byteStrides[rank - 2 - i]);
  for (uint32_t i = 0; i + 2 < rank; ++i) {
    lowerCorner[i] = lower[rank - 3 - i];
    upperCorner[i] = upper[rank - 3 - i];
    int64_t step = steps[rank - 3 - i];
    elementStrides[i + 1] =
        step < 0 || step > UINT32_MAX ? 0 : static_cast<uint32_t>(step);
  }
  TensorMapParams params = {elementType,
                            rank,
                            address,
                            dims,
                            strides,
                            /*boxDims=*/nullptr,
                            elementStrides,
                            swizzle,
                            CROQ_RT_L2_PROMOTION_NONE,
                            CROQ_RT_OOB_FILL_ZERO,
                            /*im2col=*/true,
                            lowerCorner,
                            upperCorner,
                            channels,
                            pixels};
  TensorMapRuleViolation violation;
  if (!checkIm2colTensorMap(params, violation))
    return why.set(violation.rule, "%s", violation.message);
  if (swizzle != CROQ_RT_SWIZZLE_NONE &&
      reinterpret_cast<uintptr_t>(address) % 128 != 0)
    return why.set("swizzle-address-alignment",
                   "a swizzled tensor's address must be 128-byte aligned, "
                   "got %p",
                   address);
  *map = getCachedTensorMap("croqRtTensorMapGetIm2col", params);
  if (!*map)
    return why.set("encode", "%s", lastErrorMessage().c_str());
  return true;
}

extern "C" int
croqRtTensorMapGetIm2col(int elementType, uint32_t rank,
                         const void *globalAddress, const int64_t *sizes,
                         const int64_t *byteStrides, const int32_t *lowerCorner,
                         const int32_t *upperCorner, const int64_t *strides,
                         uint32_t channels, uint32_t pixels, int swizzle,
                         const void **tensorMap) {
  if (!tensorMap) {
    reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, "croqRtTensorMapGetIm2col",
                "tensorMap must not be null");
    return 0;
  }
  StridedFallback why;
  if (!getIm2colMap(elementType, rank, globalAddress, sizes, byteStrides,
                    lowerCorner, upperCorner, strides, channels, pixels,
                    swizzle, why, tensorMap))
    return fallBackStrided(tensorMap, why);
  return 1;
}

extern "C" int croqRtTensorMapRequireIm2col(int usable) {
  if (!usable)
    noteFailedTensorMap("the kernel's im2col loads have no software copy, "
                        "and TMA cannot take their tensor (" +
                        std::string(croqRtTensorMapFallbackReason()) + ")");
  return usable;
}
