//===- TensorMap.h - tiled tensor maps inside the runtime -------*- C++ -*-===//
//
// The parameters of a tiled tensor map, their validation, and encoding
// through the driver (or a test encoder), shared by the direct, cached and
// memref entry points.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_LIB_RUNTIME_TENSORMAP_H
#define CROQ_LIB_RUNTIME_TENSORMAP_H

#include <cstdint>
#include <string>

namespace croq::rt {

constexpr unsigned kMaxTensorMapRank = 5;

/// A tiled tensor map's parameters as a caller passed them (see
/// croqRtTensorMapEncodeTiled); dimension 0 is the innermost.
struct TensorMapParams {
  int elementType;
  uint32_t rank;
  const void *globalAddress;
  const uint64_t *globalDims;
  const uint64_t *globalStrides;
  const uint32_t *boxDims;
  /// Null means every element stride is 1.
  const uint32_t *elementStrides;
  int swizzle;
  int l2Promotion;
  int oobFill;
  /// Im2col mode (cuTensorMapEncodeIm2col): boxDims is unused; the box is
  /// the corners below (rank - 2 each, innermost spatial dimension first),
  /// and each load moves pixelsPerColumn x channelsPerPixel elements.
  bool im2col = false;
  const int32_t *lowerCorner = nullptr;
  const int32_t *upperCorner = nullptr;
  uint32_t channelsPerPixel = 0;
  uint32_t pixelsPerColumn = 0;
};

/// Facts about a croqRtElementType.
struct ElementTypeInfo {
  const char *name;
  unsigned bytes;
  /// The CUtensorMapDataType it is encoded as.
  int driverType;
  /// Whether out-of-bounds elements may read as NaN.
  bool allowsNanFill;
};

/// The facts about `elementType`, or null if it is not a croqRtElementType.
const ElementTypeInfo *getElementTypeInfo(int elementType);

/// The croqRtElementType a CUtensorMapDataType is handled as, or -1.
int elementTypeFromDriverType(int64_t driverType);

/// The first rule of cuTensorMapEncodeTiled a set of parameters breaks.
struct TensorMapRuleViolation {
  /// A short name of the rule ("address-alignment", "stride-alignment", ...).
  const char *rule = "";
  /// The rule and the value that breaks it, in words.
  char message[256] = {};
};

/// Checks every rule of cuTensorMapEncodeTiled (without interleave) on
/// `params`; returns false, with the first rule broken in `violation`, if
/// one is. Reports nothing.
bool checkTensorMap(const TensorMapParams &params,
                    TensorMapRuleViolation &violation);

/// Checks every rule of cuTensorMapEncodeIm2col (without interleave) on
/// `params` (im2col set); as checkTensorMap.
bool checkIm2colTensorMap(const TensorMapParams &params,
                          TensorMapRuleViolation &violation);

/// Checks every rule of cuTensorMapEncodeTiled (without interleave) on
/// `params`, or of cuTensorMapEncodeIm2col for an im2col map; reports the
/// first one broken as `api` and returns
/// CROQ_RT_ERROR_INVALID_ARGUMENT, else CROQ_RT_SUCCESS.
int validateTensorMap(const char *api, const TensorMapParams &params);

/// Encodes validated `params` into the 128 bytes at `map`, with the driver
/// or the test encoder; counts successful encodings.
int encodeTensorMap(const char *api, void *map, const TensorMapParams &params);

/// Successful encodeTensorMap calls so far.
uint64_t tensorMapEncodeCount();

/// Validates `params` (reporting a broken rule as `api`) and returns the
/// cache's map for them, encoding it on a miss; null on failure.
const void *getCachedTensorMap(const char *api, const TensorMapParams &params);

/// Tensors croqRtTensorMapGetStrided sent to the software copy so far.
uint64_t tensorMapFallbackCount();

/// Tensors croqRtTensorMapGetStaged copied into staging buffers so far.
uint64_t tensorMapStagedCount();

/// A tensor as croqRtTensorMapGetStrided receives it, in memref order
/// (outermost dimension first).
struct StridedTensor {
  int elementType;
  uint32_t rank;
  const void *address;
  const int64_t *sizes;
  const int64_t *byteStrides;
  const int64_t *boxDims;
  int swizzle;
};

/// Why a strided tensor cannot be moved by TMA: the rule's short name and
/// the rule and value in words.
struct StridedFallback {
  const char *rule = "";
  std::string message;

  /// Records that `rule` is broken, with a printf-style message; returns
  /// false, for the callers that answer "no".
  [[gnu::format(printf, 3, 4)]] bool set(const char *brokenRule,
                                         const char *format, ...);
};

/// Whether `tensor` breaks no rule of TMA (else false, with the rule in
/// `why`); if so and `map` is not null, points `*map` at the cached map
/// (encoded on a miss; a failed encoding is the rule "encode"). A `readOnly`
/// tensor is exempt from the inner-bytes rule.
bool getStridedTensorMap(const StridedTensor &tensor, bool readOnly,
                         StridedFallback &why, const void **map);

/// Counts a fallback for `why`, remembers it for
/// croqRtTensorMapFallbackReason, points `*tensorMap` (if not null) at zero
/// bytes and returns 0.
int fallBackStrided(const void **tensorMap, const StridedFallback &why);

} // namespace croq::rt

#endif // CROQ_LIB_RUNTIME_TENSORMAP_H
