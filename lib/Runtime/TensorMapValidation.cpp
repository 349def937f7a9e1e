//===- TensorMapValidation.cpp - the rules of cuTensorMapEncodeTiled ------===//
//
// Checks a tiled tensor map's parameters against the rules the CUDA driver
// documents for cuTensorMapEncodeTiled, so that a bad map is reported with
// the parameter, the rule and the value before the driver sees it.
//
//===----------------------------------------------------------------------===//

#include "DriverApi.h"
#include "Error.h"
#include "TensorMap.h"

#include "Croq/Runtime/CroqRuntime.h"

#include <cstdarg>
#include <cstdint>
#include <cstdio>

using namespace croq::rt;

constexpr int kInvalid = CROQ_RT_ERROR_INVALID_ARGUMENT;

/// Indexed by croqRtElementType.
static const ElementTypeInfo elementTypes[] = {
    {"f32", 4, cu::kTmFloat32, true},   {"f16", 2, cu::kTmFloat16, true},
    {"bf16", 2, cu::kTmBfloat16, true}, {"f8e4m3", 1, cu::kTmUint8, false},
    {"f8e5m2", 1, cu::kTmUint8, false}, {"i8", 1, cu::kTmUint8, false},
    {"u8", 1, cu::kTmUint8, false},     {"i16", 2, cu::kTmUint16, false},
    {"u16", 2, cu::kTmUint16, false},   {"i32", 4, cu::kTmInt32, false},
    {"u32", 4, cu::kTmUint32, false},   {"i64", 8, cu::kTmInt64, false},
    {"u64", 8, cu::kTmUint64, false},   {"f64", 8, cu::kTmFloat64, true},
};
constexpr int kNumElementTypes = sizeof(elementTypes) / sizeof(elementTypes[0]);
static_assert(kNumElementTypes == CROQ_RT_F64 + 1,
              "one entry per croqRtElementType");

const ElementTypeInfo *croq::rt::getElementTypeInfo(int elementType) {
  if (elementType < 0 || elementType >= kNumElementTypes)
    return nullptr;
  return &elementTypes[elementType];
}

int croq::rt::elementTypeFromDriverType(int64_t driverType) {
  switch (driverType) {
  case cu::kTmUint8:
    return CROQ_RT_U8;
  case cu::kTmUint16:
    return CROQ_RT_U16;
  case cu::kTmUint32:
    return CROQ_RT_U32;
  case cu::kTmInt32:
    return CROQ_RT_I32;
  case cu::kTmUint64:
    return CROQ_RT_U64;
  case cu::kTmInt64:
    return CROQ_RT_I64;
  case cu::kTmFloat16:
    return CROQ_RT_F16;
  case cu::kTmFloat32:
    return CROQ_RT_F32;
  case cu::kTmFloat64:
    return CROQ_RT_F64;
  case cu::kTmBfloat16:
    return CROQ_RT_BF16;
  default:
    return -1;
  }
}

/// Bytes a swizzle mode permutes within (0 for none).
static unsigned swizzleSpan(int swizzle) {
  switch (swizzle) {
  case CROQ_RT_SWIZZLE_32B:
    return 32;
  case CROQ_RT_SWIZZLE_64B:
    return 64;
  case CROQ_RT_SWIZZLE_128B:
    return 128;
  default:
    return 0;
  }
}

/// Records the first broken rule in `v` and returns false.
[[gnu::format(printf, 3, 4)]] static bool
broken(TensorMapRuleViolation &v, const char *rule, const char *format, ...) {
  v.rule = rule;
  va_list args;
  va_start(args, format);
  std::vsnprintf(v.message, sizeof(v.message), format, args);
  va_end(args);
  return false;
}

/// Checks the scalar parameters: rank, element type, modes and address.
static bool checkScalars(const TensorMapParams &p, TensorMapRuleViolation &v) {
  if (p.rank < 1 || p.rank > kMaxTensorMapRank)
    return broken(v, "rank", "rank must be in [1, %u], got %u",
                  kMaxTensorMapRank, p.rank);
  const ElementTypeInfo *type = getElementTypeInfo(p.elementType);
  if (!type)
    return broken(v, "element-type",
                  "elementType must be a croqRtElementType (0..%d), got %d",
                  kNumElementTypes - 1, p.elementType);
  if (p.swizzle < CROQ_RT_SWIZZLE_NONE || p.swizzle > CROQ_RT_SWIZZLE_128B)
    return broken(v, "swizzle", "swizzle must be a croqRtSwizzle (0..3), got %d",
                  p.swizzle);
  if (p.l2Promotion < CROQ_RT_L2_PROMOTION_NONE ||
      p.l2Promotion > CROQ_RT_L2_PROMOTION_256B)
    return broken(v, "l2-promotion",
                  "l2Promotion must be a croqRtL2Promotion (0..3), got %d",
                  p.l2Promotion);
  if (p.oobFill != CROQ_RT_OOB_FILL_ZERO && p.oobFill != CROQ_RT_OOB_FILL_NAN)
    return broken(v, "oob-fill",
                  "oobFill must be a croqRtOobFill (0..1), got %d", p.oobFill);
  if (p.oobFill == CROQ_RT_OOB_FILL_NAN && !type->allowsNanFill)
    return broken(v, "nan-fill",
                  "oobFill NaN needs a floating-point element type (f16, "
                  "bf16, f32 or f64), got %s",
                  type->name);
  if (!p.globalAddress)
    return broken(v, "null-address", "globalAddress must not be null");
  if (reinterpret_cast<uintptr_t>(p.globalAddress) % 16 != 0)
    return broken(v, "address-alignment",
                  "globalAddress must be 16-byte aligned, got %p",
                  p.globalAddress);
  if (!p.globalDims)
    return broken(v, "null-dims", "globalDims must not be null");
  if (!p.globalStrides && p.rank > 1)
    return broken(v, "null-strides",
                  "globalStrides must not be null when rank is %u", p.rank);
  if (!p.boxDims && !p.im2col)
    return broken(v, "null-box", "boxDims must not be null");
  return true;
}

/// The rules of the tensor's extents and byte strides, the same in the
/// tiled and the im2col mode.
static bool checkDimsAndStrides(const TensorMapParams &p,
                                TensorMapRuleViolation &v) {
  for (uint32_t i = 0; i < p.rank; ++i) {
    if (p.globalDims[i] < 1 || p.globalDims[i] > (uint64_t(1) << 32))
      return broken(v, "dim-range",
                    "globalDims[%u] must be in [1, 2^32], got %llu", i,
                    static_cast<unsigned long long>(p.globalDims[i]));
  }
  for (uint32_t i = 0; i + 1 < p.rank; ++i) {
    unsigned long long stride = p.globalStrides[i];
    if (stride % 16 != 0)
      return broken(v, "stride-alignment",
                    "globalStrides[%u] must be a multiple of 16 bytes, got "
                    "%llu",
                    i, stride);
    if (stride >= (1ull << 40))
      return broken(v, "stride-range",
                    "globalStrides[%u] must be less than 2^40 bytes, got %llu",
                    i, stride);
  }
  return true;
}

/// The rule of the element strides (optional), the same in both modes.
static bool checkElementStrides(const TensorMapParams &p,
                                TensorMapRuleViolation &v) {
  for (uint32_t i = 0; p.elementStrides && i < p.rank; ++i) {
    if (p.elementStrides[i] < 1 || p.elementStrides[i] > 8)
      return broken(v, "element-stride-range",
                    "elementStrides[%u] must be in [1, 8], got %u", i,
                    p.elementStrides[i]);
  }
  return true;
}

bool croq::rt::checkTensorMap(const TensorMapParams &p,
                              TensorMapRuleViolation &v) {
  if (!checkScalars(p, v))
    return false;
  if (!checkDimsAndStrides(p, v))
    return false;
  for (uint32_t i = 0; i < p.rank; ++i) {
    if (p.boxDims[i] < 1 || p.boxDims[i] > 256)
      return broken(v, "box-range", "boxDims[%u] must be in [1, 256], got %u",
                    i, p.boxDims[i]);
  }
  unsigned elementBytes = getElementTypeInfo(p.elementType)->bytes;
  unsigned innerBytes = p.boxDims[0] * elementBytes;
  if (innerBytes % 16 != 0)
    return broken(v, "box-inner-bytes",
                  "boxDims[0] * element size must be a multiple of 16 bytes, "
                  "got %u * %u = %u bytes",
                  p.boxDims[0], elementBytes, innerBytes);
  if (unsigned span = swizzleSpan(p.swizzle); span && innerBytes > span)
    return broken(v, "box-swizzle-span",
                  "boxDims[0] * element size must be at most the %u-byte "
                  "swizzle span, got %u * %u = %u bytes",
                  span, p.boxDims[0], elementBytes, innerBytes);
  if (!checkElementStrides(p, v))
    return false;
  return true;
}

/// The bound of an im2col box corner for a tensor of `rank`: corners lie in
/// [-bound, bound - 1].
static int32_t cornerBound(uint32_t rank) {
  return rank == 3 ? (1 << 15) : rank == 4 ? (1 << 7) : (1 << 4);
}

bool croq::rt::checkIm2colTensorMap(const TensorMapParams &p,
                                    TensorMapRuleViolation &v) {
  if (p.rank < 3 || p.rank > kMaxTensorMapRank)
    return broken(v, "rank",
                  "an im2col map needs rank 3 to 5 (C, spatial dimensions, "
                  "N), got %u",
                  p.rank);
  if (!checkScalars(p, v))
    return false;
  if (!p.lowerCorner || !p.upperCorner)
    return broken(v, "null-corners",
                  "pixelBoxLowerCorner and pixelBoxUpperCorner must not be "
                  "null");
  // Dimensions, strides and element strides follow the tiled rules.
  if (!checkDimsAndStrides(p, v))
    return false;
  int32_t bound = cornerBound(p.rank);
  for (uint32_t i = 0; i + 2 < p.rank; ++i) {
    int32_t corners[2] = {p.lowerCorner[i], p.upperCorner[i]};
    for (int32_t corner : corners)
      if (corner < -bound || corner > bound - 1)
        return broken(v, "corner-range",
                      "pixel box corners of a rank-%u map must be in [%d, "
                      "%d], got %d (spatial dimension %u, innermost first)",
                      p.rank, -bound, bound - 1, corner, i);
    // The box runs from the lower corner to the last pixel plus the upper
    // corner.
    long long extent = static_cast<long long>(p.globalDims[i + 1]) +
                       p.upperCorner[i] - p.lowerCorner[i];
    if (extent < 1)
      return broken(v, "empty-box",
                    "the pixel box must hold a pixel: spatial dimension %u "
                    "(innermost first) has %llu pixels + upper %d - lower %d "
                    "= %lld",
                    i, static_cast<unsigned long long>(p.globalDims[i + 1]),
                    p.upperCorner[i], p.lowerCorner[i], extent);
  }
  if (p.channelsPerPixel < 1 || p.channelsPerPixel > 256)
    return broken(v, "channels-range",
                  "channelsPerPixel must be in [1, 256], got %u",
                  p.channelsPerPixel);
  if (p.pixelsPerColumn < 1 || p.pixelsPerColumn > 1024)
    return broken(v, "pixels-range",
                  "pixelsPerColumn must be in [1, 1024], got %u",
                  p.pixelsPerColumn);
  unsigned elementBytes = getElementTypeInfo(p.elementType)->bytes;
  unsigned rowBytes = p.channelsPerPixel * elementBytes;
  if (rowBytes % 16 != 0)
    return broken(v, "channels-bytes",
                  "channelsPerPixel * element size must be a multiple of 16 "
                  "bytes, got %u * %u = %u bytes",
                  p.channelsPerPixel, elementBytes, rowBytes);
  if (unsigned span = swizzleSpan(p.swizzle); span && rowBytes > span)
    return broken(v, "channels-swizzle-span",
                  "channelsPerPixel * element size must be at most the "
                  "%u-byte swizzle span, got %u * %u = %u bytes",
                  span, p.channelsPerPixel, elementBytes, rowBytes);
  if (!checkElementStrides(p, v))
    return false;
  return true;
}

int croq::rt::validateTensorMap(const char *api, const TensorMapParams &p) {
  TensorMapRuleViolation violation;
  if (p.im2col ? checkIm2colTensorMap(p, violation)
               : checkTensorMap(p, violation))
    return CROQ_RT_SUCCESS;
  return reportError(kInvalid, api, "%s", violation.message);
}
