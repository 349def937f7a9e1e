/*===- Cache.c - the tensor-map cache, with a stand-in encoder ------------===*\
|*                                                                            *|
|* Replaces the driver's encoder with one that records what it was given, and *|
|* checks which parameters share a cache entry, that a hit does not encode,   *|
|* what the memref entry point hands the encoder, and clearing.               *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "Common.h"

#include <stdalign.h>
#include <stdio.h>
#include <string.h>

/// What the stand-in encoder saw last, and how often it ran.
static struct {
  int calls;
  int elementType;
  uint32_t rank;
  const void *address;
  uint64_t dims[5], strides[4];
  uint32_t box[5];
} seen;

static int recordingEncoder(void *map, int elementType, uint32_t rank,
                            const void *globalAddress,
                            const uint64_t *globalDims,
                            const uint64_t *globalStrides,
                            const uint32_t *boxDims,
                            const uint32_t *elementStrides, int swizzle,
                            int l2Promotion, int oobFill) {
  (void)elementStrides, (void)swizzle, (void)l2Promotion, (void)oobFill;
  ++seen.calls;
  seen.elementType = elementType;
  seen.rank = rank;
  seen.address = globalAddress;
  for (uint32_t i = 0; i < rank; ++i) {
    seen.dims[i] = globalDims[i];
    seen.box[i] = boxDims[i];
    if (i + 1 < rank)
      seen.strides[i] = globalStrides[i];
  }
  /* Stamp the map with the encoding's number. */
  memset(map, 0, CROQ_RT_TENSOR_MAP_BYTES);
  memcpy(map, &seen.calls, sizeof(seen.calls));
  return CROQ_RT_SUCCESS;
}

static void printStats(const char *when) {
  croqRtTensorMapCacheStats stats;
  croqRtTensorMapStats(&stats);
  printf("stats %s: encodes=%llu hits=%llu entries=%llu\n", when,
         (unsigned long long)stats.encodes, (unsigned long long)stats.hits,
         (unsigned long long)stats.entries);
}

static int stampOf(const void *map) {
  int stamp = 0;
  memcpy(&stamp, map, sizeof(stamp));
  return stamp;
}

/// Looks `c` up and prints whether it is the entry `first`.
static const void *lookUp(const char *name, const TensorMapCase *c,
                          const void *first) {
  const void *map = getCachedCase(c);
  const char *error = croqRtGetLastError();
  if (map)
    printf("== %s\n%s, stamp %d: %s\n", name,
           map == first ? "same entry" : "new entry", stampOf(map),
           *error ? error : "(no error)");
  else
    printf("== %s\nnull: %s\n", name, *error ? error : "(no error)");
  croqRtClearLastError();
  return map;
}

static void checkKeys(void) {
  TensorMapCase c;
  initValidCase(&c, NULL);
  const void *first = lookUp("first", &c, NULL);
  printf("aligned to 128: %s\n",
         ((uintptr_t)first % 128 == 0) ? "yes" : "no");
  printStats("after first");
  lookUp("same-params", &c, first);
  printStats("after hit");

  uint32_t ones[5] = {1, 1, 1, 1, 1};
  c.elementStrides = ones;
  lookUp("explicit-unit-element-strides", &c, first);
  c.elementStrides = NULL;

  /* Values past `rank` are not part of the key. */
  c.dims[4] = 77;
  c.box[4] = 77;
  lookUp("ignored-entries-past-rank", &c, first);

  initValidCase(&c, NULL);
  c.globalAddress = (const char *)FAKE_GLOBAL_ADDRESS + 1024;
  lookUp("other-pointer", &c, first);
  initValidCase(&c, NULL);
  c.strides[0] = 2048;
  lookUp("other-stride", &c, first);
  initValidCase(&c, NULL);
  c.dims[1] = 1023;
  lookUp("other-dim", &c, first);
  initValidCase(&c, NULL);
  c.box[1] = 64;
  lookUp("other-box", &c, first);
  initValidCase(&c, NULL);
  c.steps[1] = 2;
  c.elementStrides = c.steps;
  lookUp("other-element-stride", &c, first);
  initValidCase(&c, NULL);
  c.elementType = CROQ_RT_BF16;
  lookUp("other-element-type", &c, first);
  initValidCase(&c, NULL);
  c.swizzle = CROQ_RT_SWIZZLE_NONE;
  lookUp("other-swizzle", &c, first);
  initValidCase(&c, NULL);
  c.l2Promotion = CROQ_RT_L2_PROMOTION_NONE;
  lookUp("other-l2-promotion", &c, first);
  initValidCase(&c, NULL);
  c.oobFill = CROQ_RT_OOB_FILL_NAN;
  lookUp("other-oob-fill", &c, first);
  croqRtSetDevice(1);
  initValidCase(&c, NULL);
  lookUp("other-device", &c, first);
  croqRtSetDevice(0);
  lookUp("first-again", &c, first);
  printStats("after keys");

  c.box[1] = 300;
  lookUp("invalid-is-not-cached", &c, first);
  printStats("after invalid");
}

static void checkDirectEncode(void) {
  static alignas(128) unsigned char map[CROQ_RT_TENSOR_MAP_BYTES];
  TensorMapCase c;
  initValidCase(&c, map);
  expectStatus("direct-encode", encodeCase(&c));
  printf("direct stamp %d\n", stampOf(map));
  printStats("after direct encode");
}

static void checkMemref(void) {
  /* memref<256x128xf16> at an offset of 64 elements, boxes of 64x32. */
  MemRef2D memref = {FAKE_GLOBAL_ADDRESS, FAKE_GLOBAL_ADDRESS,
                     64, {256, 128}, {128, 1}};
  int64_t box[2] = {64, 32};
  void *map =
      mgpuTensorMapEncodeTiledMemref(2, &memref, /*FLOAT16=*/6, 0, 0, 0, 0, box);
  expectPointer("memref-needs-driver-for-device-copy", map);
  printf("encoder saw: type=%d rank=%u address=+%llu dims=[%llu, %llu] "
         "strides=[%llu] box=[%u, %u]\n",
         seen.elementType, seen.rank,
         (unsigned long long)((const char *)seen.address -
                              (const char *)FAKE_GLOBAL_ADDRESS),
         (unsigned long long)seen.dims[0], (unsigned long long)seen.dims[1],
         (unsigned long long)seen.strides[0], seen.box[0], seen.box[1]);
  printStats("after memref");
}

static void checkClearAndFailures(void) {
  croqRtTensorMapCacheClear();
  printStats("after clear");
  TensorMapCase c;
  initValidCase(&c, NULL);
  lookUp("re-encoded-after-clear", &c, NULL);
  printStats("after re-encode");

  croqRtSetTensorMapEncoderForTesting(failingTensorMapEncoder);
  c.dims[1] = 8;
  lookUp("encoder-fails", &c, NULL);
  printStats("after failed encode");

  croqRtSetTensorMapEncoderForTesting(NULL);
  lookUp("driver-encoder-restored", &c, NULL);
}

/// The cache within a capacity of 2: the least recently used map goes
/// first, a hit makes a map recent, an evicted map is encoded again.
static void checkCapacity(void) {
  croqRtSetTensorMapEncoderForTesting(recordingEncoder);
  croqRtTensorMapCacheClear();
  uint64_t old = croqRtTensorMapSetCacheCapacity(2);
  printf("capacity was %llu\n", (unsigned long long)old);
  TensorMapCase a, b, c;
  initValidCase(&a, NULL);
  initValidCase(&b, NULL);
  b.globalAddress = (const char *)FAKE_GLOBAL_ADDRESS + 4096;
  initValidCase(&c, NULL);
  c.globalAddress = (const char *)FAKE_GLOBAL_ADDRESS + 8192;
  const void *mapA = lookUp("lru-a", &a, NULL);
  const void *mapB = lookUp("lru-b", &b, NULL);
  lookUp("lru-c-evicts-a", &c, NULL);
  printStats("after a, b, c");
  lookUp("lru-b-is-kept", &b, mapB);
  lookUp("lru-a-again-evicts-c", &a, mapA);
  lookUp("lru-b-still-kept", &b, mapB);
  croqRtTensorMapCacheClear();
  croqRtTensorMapSetCacheCapacity(0);
  croqRtTensorMapCacheStats stats;
  croqRtTensorMapStats(&stats);
  printf("evictions=%llu, capacity back to %llu\n",
         (unsigned long long)stats.evictions,
         (unsigned long long)stats.capacity);
  croqRtSetTensorMapEncoderForTesting(NULL);
}

int runCache(void) {
  croqRtSetTensorMapEncoderForTesting(recordingEncoder);
  checkKeys();
  checkDirectEncode();
  checkMemref();
  checkClearAndFailures();
  checkCapacity();
  return 0;
}
