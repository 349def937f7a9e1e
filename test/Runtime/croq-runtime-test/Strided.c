/*===- Strided.c - croqRtTensorMapGetStrided, usable maps and fallbacks ---===*\
|*                                                                            *|
|* Calls the generated host code's tensor-map entry point with a stand-in    *|
|* encoder: what a usable tensor is encoded as (driver order, byte strides), *|
|* that a second call on the same tensor is a cache hit, and which rule each *|
|* unusable tensor falls back for.                                            *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "Common.h"

#include <stdio.h>
#include <string.h>

static int encodes;
static int lastType;
static uint32_t lastRank;
static uint64_t lastDims[5], lastStrides[4];
static uint32_t lastBox[5];
static int lastSwizzle;
static int lastPromotion;

static int stampingEncoder(void *map, int elementType, uint32_t rank,
                           const void *globalAddress,
                           const uint64_t *globalDims,
                           const uint64_t *globalStrides,
                           const uint32_t *boxDims,
                           const uint32_t *elementStrides, int swizzle,
                           int l2Promotion, int oobFill) {
  (void)globalAddress, (void)elementStrides, (void)oobFill;
  ++encodes;
  lastPromotion = l2Promotion;
  lastType = elementType;
  lastRank = rank;
  lastSwizzle = swizzle;
  for (uint32_t i = 0; i < rank; ++i) {
    lastDims[i] = globalDims[i];
    lastBox[i] = boxDims[i];
    if (i + 1 < rank)
      lastStrides[i] = globalStrides[i];
  }
  memset(map, 0, CROQ_RT_TENSOR_MAP_BYTES);
  memcpy(map, &encodes, sizeof(encodes));
  return CROQ_RT_SUCCESS;
}

/// Prints what the encoder saw last, in driver order.
static void printSeen(void) {
  printf("encoded: type=%d rank=%u swizzle=%d l2=%d dims=[", lastType, lastRank,
         lastSwizzle, lastPromotion);
  for (uint32_t i = 0; i < lastRank; ++i)
    printf("%s%llu", i ? ", " : "", (unsigned long long)lastDims[i]);
  printf("] strides=[");
  for (uint32_t i = 0; i + 1 < lastRank; ++i)
    printf("%s%llu", i ? ", " : "", (unsigned long long)lastStrides[i]);
  printf("] box=[");
  for (uint32_t i = 0; i < lastRank; ++i)
    printf("%s%u", i ? ", " : "", lastBox[i]);
  printf("]\n");
}

/// Calls croqRtTensorMapGetStrided and prints its answer: the map's stamp
/// when usable, the fallback reason otherwise.
static void query(const char *name, int elementType, uint32_t rank,
                  const void *address, const int64_t *sizes,
                  const int64_t *strides, const int64_t *box, int swizzle) {
  const void *map = NULL;
  int usable = croqRtTensorMapGetStrided(elementType, rank, address, sizes,
                                         strides, box, swizzle, &map);
  int stamp = 0;
  if (map)
    memcpy(&stamp, map, sizeof(stamp));
  printf("== %s\n", name);
  if (usable)
    printf("usable, stamp %d, reason '%s'\n", stamp,
           croqRtTensorMapFallbackReason());
  else
    printf("fallback, map %s, reason '%s'\n",
           map && stamp == 0 ? "zeros" : "not zeros",
           croqRtTensorMapFallbackReason());
}

static void printFallbackStats(const char *when) {
  croqRtTensorMapCacheStats stats;
  croqRtTensorMapStats(&stats);
  printf("stats %s: encodes=%llu hits=%llu fallbacks=%llu\n", when,
         (unsigned long long)stats.encodes, (unsigned long long)stats.hits,
         (unsigned long long)stats.fallbacks);
}

int runStrided(void) {
  croqRtSetTensorMapEncoderForTesting(stampingEncoder);
  char *base = (char *)FAKE_GLOBAL_ADDRESS;

  /* memref<1024x512xf16>, 64x64 boxes, 128B swizzle. */
  int64_t sizes2[2] = {1024, 512}, strides2[2] = {1024, 2}, box2[2] = {64, 64};
  query("f16-row-major", CROQ_RT_F16, 2, base, sizes2, strides2, box2,
        CROQ_RT_SWIZZLE_128B);
  printSeen();
  query("f16-second-launch", CROQ_RT_F16, 2, base, sizes2, strides2, box2,
        CROQ_RT_SWIZZLE_128B);
  printFallbackStats("after second launch");

  /* Element types the upstream descriptor cannot name. */
  int64_t bytes2[2] = {512, 1}, box8[2] = {32, 128};
  query("i8", CROQ_RT_I8, 2, base, sizes2, bytes2, box8, CROQ_RT_SWIZZLE_NONE);
  printSeen();
  query("f8e4m3", CROQ_RT_F8E4M3, 2, base, sizes2, bytes2, box8,
        CROQ_RT_SWIZZLE_NONE);
  printSeen();

  /* memref<4x3x8x16x32xf32, strided<[65536, 16384, 2048, 128, 1]>>: every
     outer stride is padded. */
  int64_t sizes5[5] = {4, 3, 8, 16, 32};
  int64_t strides5[5] = {65536 * 4, 16384 * 4, 2048 * 4, 128 * 4, 4};
  int64_t box5[5] = {1, 2, 4, 8, 32};
  query("rank-5-strided", CROQ_RT_F32, 5, base, sizes5, strides5, box5,
        CROQ_RT_SWIZZLE_128B);
  printSeen();

  /* Tensors TMA cannot take. */
  query("misaligned-address", CROQ_RT_F16, 2, base + 8, sizes2, strides2, box2,
        CROQ_RT_SWIZZLE_NONE);
  /* Not 16-byte aligned and swizzled: the basic rule is the one named. */
  query("misaligned-swizzled-address", CROQ_RT_F16, 2, base + 6, sizes2,
        strides2, box2, CROQ_RT_SWIZZLE_128B);
  query("swizzled-address-16", CROQ_RT_F16, 2, base + 16, sizes2, strides2,
        box2, CROQ_RT_SWIZZLE_128B);
  query("unswizzled-address-16", CROQ_RT_F16, 2, base + 16, sizes2, strides2,
        box2, CROQ_RT_SWIZZLE_NONE);
  int64_t oddSizes[2] = {64, 33}, oddStrides[2] = {66, 2};
  query("odd-row-f16", CROQ_RT_F16, 2, base, oddSizes, oddStrides, box2,
        CROQ_RT_SWIZZLE_NONE);
  /* memref<150x500xf16, strided<[1024, 1], offset: 5184>>: a slice of a
     wider tensor whose rows (1000 bytes) do not end on a 16-byte boundary,
     where a TMA store would write the 4 elements after each row. At an
     address only 16-byte aligned the swizzle rule is named first. */
  int64_t sliceSizes[2] = {150, 500}, sliceStrides[2] = {2048, 2};
  query("slice-rows-not-16-bytes", CROQ_RT_F16, 2, base + 128, sliceSizes,
        sliceStrides, box2, CROQ_RT_SWIZZLE_128B);
  query("slice-rows-not-16-bytes-at-16", CROQ_RT_F16, 2, base + 16,
        sliceSizes, sliceStrides, box2, CROQ_RT_SWIZZLE_128B);
  int64_t colStrides[2] = {2, 2048};
  query("column-of-a-matrix", CROQ_RT_F16, 2, base, sizes2, colStrides, box2,
        CROQ_RT_SWIZZLE_NONE);
  int64_t emptySizes[2] = {0, 512};
  query("empty", CROQ_RT_F16, 2, base, emptySizes, strides2, box2,
        CROQ_RT_SWIZZLE_NONE);
  int64_t hugeStrides[2] = {(int64_t)1 << 41, 2};
  query("huge-stride", CROQ_RT_F16, 2, base, sizes2, hugeStrides, box2,
        CROQ_RT_SWIZZLE_NONE);
  query("rank-6", CROQ_RT_F16, 6, base, sizes2, strides2, box2,
        CROQ_RT_SWIZZLE_NONE);
  printFallbackStats("after fallbacks");

  /* A usable tensor leaves the reason of the last fallback. */
  query("usable-again", CROQ_RT_F16, 2, base, sizes2, strides2, box2,
        CROQ_RT_SWIZZLE_128B);

  croqRtSetTensorMapEncoderForTesting(failingTensorMapEncoder);
  int64_t otherBox[2] = {32, 64};
  query("encoder-fails", CROQ_RT_F16, 2, base, sizes2, strides2, otherBox,
        CROQ_RT_SWIZZLE_128B);
  printFallbackStats("after failed encode");
  croqRtClearLastError();

  expectStatus("null-out-pointer",
               croqRtTensorMapGetStrided(CROQ_RT_F16, 2, base, sizes2, strides2,
                                         box2, 0, NULL) == 0
                   ? CROQ_RT_ERROR_INVALID_ARGUMENT
                   : CROQ_RT_SUCCESS);
  croqRtSetTensorMapEncoderForTesting(NULL);
  croqRtTensorMapCacheClear();
  return 0;
}
