//===- TensorMapStrided.cpp - tensor maps of strided tensors, or fallback -===//
//
// croqRtTensorMapGetStrided, the host call of croq's generated code: turns a
// strided memref's sizes and strides into a tensor map's parameters, and
// when the tensor breaks a rule of TMA answers "use the software copy"
// instead of failing, counting it and remembering the rule.
//
//===----------------------------------------------------------------------===//

#include "Error.h"
#include "TensorMap.h"

#include "Croq/Runtime/CroqRuntime.h"

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <string>

using namespace croq::rt;

static std::atomic<uint64_t> fallbackCount{0};
static thread_local std::string fallbackReason;

/// What a fallback map points at: the kernel never reads it as a map.
alignas(128) static const unsigned char kNoMap[CROQ_RT_TENSOR_MAP_BYTES] = {};

uint64_t croq::rt::tensorMapFallbackCount() { return fallbackCount.load(); }

bool StridedFallback::set(const char *brokenRule, const char *format, ...) {
  char text[256];
  va_list args;
  va_start(args, format);
  std::vsnprintf(text, sizeof(text), format, args);
  va_end(args);
  rule = brokenRule;
  message = text;
  return false;
}

int croq::rt::fallBackStrided(const void **tensorMap,
                              const StridedFallback &why) {
  fallbackReason = std::string(why.rule) + ": " + why.message;
  ++fallbackCount;
  if (tensorMap)
    *tensorMap = kNoMap;
  return 0;
}

/// Swizzle modes whose global tensors the CUDA programming guide asks to be
/// 128-byte aligned.
static bool isSwizzled(int swizzle) {
  return swizzle == CROQ_RT_SWIZZLE_32B || swizzle == CROQ_RT_SWIZZLE_64B ||
         swizzle == CROQ_RT_SWIZZLE_128B;
}

bool croq::rt::getStridedTensorMap(const StridedTensor &tensor, bool readOnly,
                                   StridedFallback &why, const void **map) {
  uint32_t rank = tensor.rank;
  if (rank < 1 || rank > kMaxTensorMapRank)
    return why.set("rank", "rank must be in [1, %u], got %u", kMaxTensorMapRank,
                   rank);
  const ElementTypeInfo *type = getElementTypeInfo(tensor.elementType);
  if (!type)
    return why.set("element-type",
                   "elementType must be a croqRtElementType, got %d",
                   tensor.elementType);
  if (!tensor.sizes || !tensor.byteStrides || !tensor.boxDims)
    return why.set("arguments",
                   "sizes, byteStrides and boxDims must not be null");
  if (tensor.byteStrides[rank - 1] != int64_t(type->bytes))
    return why.set("inner-stride",
                   "the innermost stride must be the element size (%u "
                   "bytes), got %lld bytes",
                   type->bytes,
                   static_cast<long long>(tensor.byteStrides[rank - 1]));

  // Driver order: dimension 0 innermost. Negative values saturate to 0 so
  // that validation names them.
  auto toUnsigned = [](int64_t v) { return v < 0 ? 0 : uint64_t(v); };
  uint64_t dims[kMaxTensorMapRank], strides[kMaxTensorMapRank];
  uint32_t box[kMaxTensorMapRank];
  for (uint32_t i = 0; i < rank; ++i) {
    dims[i] = toUnsigned(tensor.sizes[rank - 1 - i]);
    uint64_t b = toUnsigned(tensor.boxDims[rank - 1 - i]);
    box[i] = b > UINT32_MAX ? UINT32_MAX : uint32_t(b);
  }
  for (uint32_t i = 0; i + 1 < rank; ++i)
    strides[i] = toUnsigned(tensor.byteStrides[rank - 2 - i]);
  // L2 promotion to 128 bytes: a box row that starts inside a 128-byte
  // line (rows of 3000 or 7000 halves) brings the whole lines, which the
  // blocks of the neighbouring boxes read next. On an H200 (2026-12-03) the
  // GEMMs from linalg with such rows ran 2-6% faster than with none
  // (128x3000x6000 0.820 -> 0.870 of cuBLAS), the others as fast; 256
  // bytes was slower there (0.685 against 0.709 at 128x3000x3000).
  TensorMapParams params = {tensor.elementType,
                            rank,
                            tensor.address,
                            dims,
                            strides,
                            box,
                            nullptr,
                            tensor.swizzle,
                            CROQ_RT_L2_PROMOTION_128B,
                            CROQ_RT_OOB_FILL_ZERO};
  TensorMapRuleViolation violation;
  if (!checkTensorMap(params, violation))
    return why.set(violation.rule, "%s", violation.message);
  // croq's own, stricter rule for swizzled tensors comes after the driver's
  // rules, so that an address that is not even 16-byte aligned is reported
  // as breaking the basic rule (address-alignment).
  if (isSwizzled(tensor.swizzle) &&
      reinterpret_cast<uintptr_t>(tensor.address) % 128 != 0)
    return why.set("swizzle-address-alignment",
                   "a swizzled tensor's address must be 128-byte aligned, "
                   "got %p",
                   tensor.address);
  // TMA stores write whole 16-byte chunks: where a row of the tensor does
  // not end on a multiple of 16 bytes, a store of a box that reaches past the
  // row's end also writes the bytes up to the next 16-byte boundary, which
  // belong to whatever follows the row (the next columns of a larger tensor
  // that this one is a slice of, or memory after a 1-d tensor). Loads clip
  // per element, so a tensor the kernel only reads is exempt.
  uint64_t innerBytes = dims[0] * type->bytes;
  if (!readOnly && innerBytes % 16 != 0)
    return why.set("inner-bytes",
                   "the innermost dimension must span a multiple of 16 "
                   "bytes (TMA stores write whole 16-byte chunks), got "
                   "%llu * %u = %llu bytes",
                   static_cast<unsigned long long>(dims[0]), type->bytes,
                   static_cast<unsigned long long>(innerBytes));
  if (!map)
    return true;
  *map = getCachedTensorMap("croqRtTensorMapGetStrided", params);
  if (!*map)
    return why.set("encode", "%s", lastErrorMessage().c_str());
  return true;
}

extern "C" int croqRtTensorMapGetStrided(int elementType, uint32_t rank,
                                         const void *globalAddress,
                                         const int64_t *sizes,
                                         const int64_t *byteStrides,
                                         const int64_t *boxDims, int swizzle,
                                         const void **tensorMap) {
  if (!tensorMap) {
    reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, "croqRtTensorMapGetStrided",
                "tensorMap must not be null");
    return 0;
  }
  StridedTensor tensor = {elementType, rank,    globalAddress, sizes,
                          byteStrides, boxDims, swizzle};
  StridedFallback why;
  if (!getStridedTensorMap(tensor, /*readOnly=*/false, why, tensorMap))
    return fallBackStrided(tensorMap, why);
  return 1;
}

extern "C" int croqRtTensorMapRequire(int usable) {
  if (!usable)
    noteFailedTensorMap("the kernel has no software copy for a tensor that "
                        "TMA cannot take (" +
                        fallbackReason +
                        "); compile with tma-fallback=always to move such "
                        "tensors with the software copy");
  return usable;
}

extern "C" const char *croqRtTensorMapFallbackReason(void) {
  return fallbackReason.c_str();
}
