/*===- Staged.c - croqRtTensorMapGetStaged against the fake driver --------===*\
|*                                                                            *|
|* Calls the entry point for tensors a kernel only reads with tensors that   *|
|* TMA cannot describe: which are staged (and with which copies), that a     *|
|* released buffer is reused, which cannot be staged, and what happens with  *|
|* staging off or a failing copy. FakeCuda.c prints the driver calls.        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "Common.h"

#include <stdio.h>
#include <stdlib.h>

/// A fake device address: the fake driver never dereferences it.
static const void *at(uintptr_t address) { return (const void *)address; }

/// The caller's stream: the fake driver only tells null from not null.
static croqRtStream const stream = (croqRtStream)(uintptr_t)0x5eed;

/// Calls croqRtTensorMapGetStaged on `stream` and prints its answer;
/// returns the staging handle.
static void *query(const char *name, int elementType, uint32_t rank,
                   const void *address, const int64_t *sizes,
                   const int64_t *strides, const int64_t *box, int swizzle) {
  printf("== %s\n", name);
  fflush(stdout);
  const void *map = NULL;
  void *staging = NULL;
  int usable =
      croqRtTensorMapGetStaged(elementType, rank, address, sizes, strides, box,
                               swizzle, stream, &map, &staging);
  croqRtTensorMapCacheStats stats;
  croqRtTensorMapStats(&stats);
  printf("%s, %s, staged=%llu fallbacks=%llu, reason '%s'\n",
         usable ? "usable" : "fallback", staging ? "staged" : "not staged",
         (unsigned long long)stats.staged,
         (unsigned long long)stats.fallbacks,
         croqRtTensorMapFallbackReason());
  fflush(stdout);
  return staging;
}

int runStaged(void) {
  // 64 rows of 1001 f16 (2002 bytes apart): padded to 2048-byte rows.
  int64_t sizes[] = {64, 1001}, strides[] = {2002, 2}, box[] = {64, 64};
  void *staging = query("odd-rows", CROQ_RT_F16, 2, at(0x7f0000000000), sizes,
                        strides, box, CROQ_RT_SWIZZLE_128B);
  printf("release\n");
  fflush(stdout);
  croqRtTensorMapReleaseStaged(staging, stream);
  // While that buffer is held, another tensor gets a buffer of its own.
  staging = query("odd-rows-again", CROQ_RT_F16, 2, at(0x7f0000100000), sizes,
                  strides, box, CROQ_RT_SWIZZLE_128B);
  void *other = query("odd-rows-while-held", CROQ_RT_F16, 2,
                      at(0x7f0000200000), sizes, strides, box,
                      CROQ_RT_SWIZZLE_128B);
  croqRtTensorMapReleaseStaged(staging, stream);
  croqRtTensorMapReleaseStaged(other, stream);

  // Rank 3 with a misaligned start: one 2-d copy per outer index; 24-byte
  // rows (12 f16) are padded to 32.
  int64_t sizes3[] = {2, 3, 12}, strides3[] = {1000, 24, 2},
          box3[] = {1, 3, 8};
  staging = query("rank-3", CROQ_RT_F16, 3, at(0x7f0000300002), sizes3,
                  strides3, box3, CROQ_RT_SWIZZLE_NONE);
  croqRtTensorMapReleaseStaged(staging, stream);

  // Rows of 1000 f16 (not a multiple of 16 bytes) that start aligned: a
  // read-only tensor needs no staging (loads clip per element).
  int64_t sizesIn[] = {64, 1000}, stridesIn[] = {4096, 2};
  query("inner-bytes-exempt", CROQ_RT_F16, 2, at(0x7f0000400000), sizesIn,
        stridesIn, box, CROQ_RT_SWIZZLE_128B);

  // What staging cannot repair falls back: a column-major view (inner
  // stride), rows that overlap, a box too large.
  int64_t colStrides[] = {2, 128};
  query("inner-stride", CROQ_RT_F16, 2, at(0x7f0000500000), sizes, colStrides,
        box, CROQ_RT_SWIZZLE_NONE);
  int64_t overlap[] = {2, 2};
  query("overlapping-rows", CROQ_RT_F16, 2, at(0x7f0000500002), sizes,
        overlap, box, CROQ_RT_SWIZZLE_NONE);
  int64_t bigBox[] = {64, 512};
  query("box-after-staging", CROQ_RT_F16, 2, at(0x7f0000600000), sizes,
        strides, bigBox, CROQ_RT_SWIZZLE_NONE);

  // Staging off: the software copy, as croqRtTensorMapGetStrided.
  int was = croqRtTensorMapSetStaging(0);
  query("staging-off", CROQ_RT_F16, 2, at(0x7f0000700000), sizes, strides,
        box, CROQ_RT_SWIZZLE_128B);
  printf("staging was %s\n", was ? "on" : "off");
  croqRtTensorMapSetStaging(was);

  // A failing copy: reported, the buffer returned, the software copy used.
  setenv("CROQ_FAKE_CUDA_FAIL", "cuMemcpy2DAsync=1", 1);
  query("copy-fails", CROQ_RT_F16, 2, at(0x7f0000800000), sizes, strides, box,
        CROQ_RT_SWIZZLE_128B);
  unsetenv("CROQ_FAKE_CUDA_FAIL");

  // Null out-parameters are an error, not a crash.
  int usable =
      croqRtTensorMapGetStaged(CROQ_RT_F16, 2, at(0x7f0000000000), sizes,
                               strides, box, 0, stream, NULL, NULL);
  printf("== null-out\nusable=%d, error '%s'\n", usable,
         croqRtGetLastError());
  // Releasing something that is not a staging buffer is reported.
  int notABuffer;
  croqRtTensorMapReleaseStaged(&notABuffer, stream);
  printf("== release-foreign\nerror '%s'\n", croqRtGetLastError());
  croqRtTensorMapCacheClear();
  printf("== cleared\n");
  return 0;
}
