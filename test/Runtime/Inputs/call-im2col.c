/*===- call-im2col.c - croq's host code for an im2col load ----------------===*\
|*                                                                            *|
|* Calls im2col.mlir's host code twice on the same tensors, then on an input |*
|* that starts 16 bytes into its buffer (TMA can map it, but croq asks 128   *|
|* bytes of a swizzled tensor), printing the call's status, the runtime's    *|
|* tensor-map statistics and its error; host-code-im2col.test checks them    *|
|* and what the driver sees.                                                 *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "Croq/Runtime/CroqRuntime.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdio.h>

typedef struct MemRef4D {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizes[4];
  int64_t strides[4];
} MemRef4D;

typedef struct MemRef2D {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizes[2];
  int64_t strides[2];
} MemRef2D;

/// The entry point: the descriptors, then the stream; the status back.
int32_t _mlir_ciface_load_im2col(MemRef4D *x, MemRef2D *out, void *stream);

static void *const stream = (void *)(uintptr_t)0x5eed;

static void report(const char *when, int32_t status) {
  croqRtTensorMapCacheStats stats;
  croqRtTensorMapStats(&stats);
  const char *error = croqRtGetLastError();
  printf("main: %s: status=%d encodes=%llu hits=%llu error='%s'\n", when,
         status, (unsigned long long)stats.encodes,
         (unsigned long long)stats.hits, error);
  croqRtClearLastError();
  fflush(stdout);
}

int main(void) {
  /* N x H x W x C = 2 x 5 x 7 x 64 f16, and 256 x 64 f16 out. */
  static alignas(128) uint16_t x[2 * 5 * 7 * 64 + 64];
  static alignas(128) uint16_t out[256 * 64];
  MemRef4D memrefX = {x, x, 0, {2, 5, 7, 64}, {5 * 7 * 64, 7 * 64, 64, 1}};
  MemRef2D memrefOut = {out, out, 0, {256, 64}, {64, 1}};
  report("first launch",
         _mlir_ciface_load_im2col(&memrefX, &memrefOut, stream));
  report("second launch",
         _mlir_ciface_load_im2col(&memrefX, &memrefOut, stream));
  MemRef4D shifted = memrefX;
  shifted.aligned = x + 8;
  report("shifted input",
         _mlir_ciface_load_im2col(&shifted, &memrefOut, stream));
  return 0;
}
