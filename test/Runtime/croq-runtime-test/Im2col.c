/*===- Im2col.c - croqRtTensorMapGetIm2col against the fake driver --------===*\
|*                                                                            *|
|* Calls the host entry point of croq.im2col_map with CROQ_RUNTIME_LIBCUDA    *|
|* set to the fake driver, which prints the parameters it receives: what an   *|
|* NHWC (and NWC, NDHWC) tensor is encoded as (driver order: C first, corners *|
|* and traversal strides innermost spatial dimension first), a cache hit on a *|
|* second call, and each rule a tensor or map can break, named.               *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "Common.h"

#include <stdio.h>
#include <string.h>

/// A tensor of up to rank 5 and its im2col parameters, memref order.
typedef struct Im2colCase {
  int elementType;
  uint32_t rank;
  const void *address;
  int64_t sizes[5];
  int64_t byteStrides[5];
  int32_t lower[3];
  int32_t upper[3];
  int64_t steps[3];
  uint32_t channels;
  uint32_t pixels;
  int swizzle;
} Im2colCase;

/// A contiguous f16 NHWC tensor of 8x13x11x64, 3x3 filter with padding 1,
/// stride 2 along W, columns of 128 pixels x 64 channels, 128B swizzle.
static void initNhwc(Im2colCase *c) {
  memset(c, 0, sizeof(*c));
  c->elementType = CROQ_RT_F16;
  c->rank = 4;
  c->address = FAKE_GLOBAL_ADDRESS;
  int64_t sizes[4] = {8, 13, 11, 64};
  memcpy(c->sizes, sizes, sizeof(sizes));
  c->byteStrides[3] = 2;
  for (int d = 2; d >= 0; --d)
    c->byteStrides[d] = c->byteStrides[d + 1] * c->sizes[d + 1];
  c->lower[0] = -1, c->lower[1] = -1;
  c->upper[0] = -1, c->upper[1] = -1;
  c->steps[0] = 1, c->steps[1] = 2;
  c->channels = 64;
  c->pixels = 128;
  c->swizzle = CROQ_RT_SWIZZLE_128B;
}

/// Calls croqRtTensorMapGetIm2col on `c` and prints its answer.
static void get(const char *name, const Im2colCase *c) {
  const void *map = NULL;
  int usable = croqRtTensorMapGetIm2col(
      c->elementType, c->rank, c->address, c->sizes, c->byteStrides, c->lower,
      c->upper, c->steps, c->channels, c->pixels, c->swizzle, &map);
  unsigned char first = map ? *(const unsigned char *)map : 0;
  printf("== %s\n%s, map byte 0x%02x, reason '%s'\n", name,
         usable ? "usable" : "refused", first,
         usable ? "" : croqRtTensorMapFallbackReason());
  fflush(stdout);
}

int runIm2col(void) {
  Im2colCase c;
  initNhwc(&c);
  get("nhwc", &c);
  get("nhwc-again", &c);
  croqRtTensorMapCacheStats stats;
  croqRtTensorMapStats(&stats);
  printf("stats: encodes=%llu hits=%llu\n", (unsigned long long)stats.encodes,
         (unsigned long long)stats.hits);

  // Other corners make another map.
  initNhwc(&c);
  c.lower[0] = -2, c.upper[1] = -4;
  get("nhwc-other-corners", &c);

  // Rank 3 (N, W, C) and rank 5 (N, D, H, W, C).
  Im2colCase nwc;
  memset(&nwc, 0, sizeof(nwc));
  nwc.elementType = CROQ_RT_BF16, nwc.rank = 3;
  nwc.address = FAKE_GLOBAL_ADDRESS;
  nwc.sizes[0] = 4, nwc.sizes[1] = 1000, nwc.sizes[2] = 32;
  nwc.byteStrides[2] = 2, nwc.byteStrides[1] = 64, nwc.byteStrides[0] = 64000;
  nwc.lower[0] = -300, nwc.upper[0] = 200, nwc.steps[0] = 3;
  nwc.channels = 32, nwc.pixels = 1024, nwc.swizzle = CROQ_RT_SWIZZLE_64B;
  get("nwc-rank-3", &nwc);
  Im2colCase ndhwc;
  memset(&ndhwc, 0, sizeof(ndhwc));
  ndhwc.elementType = CROQ_RT_F32, ndhwc.rank = 5;
  ndhwc.address = FAKE_GLOBAL_ADDRESS;
  int64_t sizes5[5] = {2, 5, 6, 7, 8};
  memcpy(ndhwc.sizes, sizes5, sizeof(sizes5));
  ndhwc.byteStrides[4] = 4;
  for (int d = 3; d >= 0; --d)
    ndhwc.byteStrides[d] = ndhwc.byteStrides[d + 1] * ndhwc.sizes[d + 1];
  ndhwc.lower[0] = -1, ndhwc.lower[1] = -2, ndhwc.lower[2] = -3;
  ndhwc.upper[0] = 1, ndhwc.upper[1] = 2, ndhwc.upper[2] = 3;
  ndhwc.steps[0] = 1, ndhwc.steps[1] = 2, ndhwc.steps[2] = 3;
  ndhwc.channels = 8, ndhwc.pixels = 16, ndhwc.swizzle = CROQ_RT_SWIZZLE_NONE;
  get("ndhwc-rank-5", &ndhwc);

  // Refusals, one rule each.
  initNhwc(&c);
  c.rank = 2;
  get("rank-2", &c);
  initNhwc(&c);
  c.address = (const char *)FAKE_GLOBAL_ADDRESS + 8;
  get("misaligned-address", &c);
  initNhwc(&c);
  c.address = (const char *)FAKE_GLOBAL_ADDRESS + 16;
  get("swizzled-address-16", &c);
  initNhwc(&c);
  c.byteStrides[3] = 4;
  get("channels-not-contiguous", &c);
  initNhwc(&c);
  c.sizes[3] = 60, c.byteStrides[2] = 120;
  get("pixel-stride-120", &c);
  initNhwc(&c);
  c.lower[1] = -129;
  get("corner-range-rank-4", &c);
  initNhwc(&c);
  c.lower[1] = 6, c.upper[1] = -6;
  get("empty-box", &c);
  initNhwc(&c);
  c.channels = 4;
  get("channels-bytes", &c);
  initNhwc(&c);
  c.channels = 128;
  get("channels-swizzle-span", &c);
  initNhwc(&c);
  c.channels = 512, c.swizzle = CROQ_RT_SWIZZLE_NONE;
  get("channels-range", &c);
  initNhwc(&c);
  c.pixels = 2048;
  get("pixels-range", &c);
  initNhwc(&c);
  c.steps[0] = 9;
  get("stride-range", &c);
  initNhwc(&c);
  c.rank = 2;
  get("rank-2-again", &c);
  printf("require: %d\n", croqRtTensorMapRequireIm2col(0));
  const char *error = croqRtGetLastError();
  printf("last error: %s\n", *error ? error : "(none)");
  croqRtClearLastError();
  return 0;
}
