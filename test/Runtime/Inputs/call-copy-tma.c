/*===- call-copy-tma.c - croq's host code for tma copies, twice -----------===*\
|*                                                                            *|
|* Calls copy-tma.mlir's host code twice on the same tensors, then twice on  *|
|* an input that starts 4 bytes into its buffer (staged, then with staging   *|
|* off), then on such an output, and prints the runtime's tensor-map         *|
|* statistics after each; host-code-tma.test checks them and what the       *|
|* driver sees.                                                              *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "Croq/Runtime/CroqRuntime.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdio.h>

/// A ranked memref descriptor of rank 1.
typedef struct MemRef1D {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizes[1];
  int64_t strides[1];
} MemRef1D;

/// The entry point: the descriptors, then the stream; the status back.
int32_t _mlir_ciface_copy_tma(MemRef1D *a, MemRef1D *b, void *stream);

/// A stream of the caller's (the fake driver only tells null from not).
static void *const stream = (void *)(uintptr_t)0x5eed;

static void printStats(const char *when) {
  croqRtTensorMapCacheStats stats;
  croqRtTensorMapStats(&stats);
  printf("main: %s: encodes=%llu hits=%llu fallbacks=%llu staged=%llu "
         "reason='%s'\n",
         when, (unsigned long long)stats.encodes,
         (unsigned long long)stats.hits, (unsigned long long)stats.fallbacks,
         (unsigned long long)stats.staged, croqRtTensorMapFallbackReason());
  fflush(stdout);
}

int main(void) {
  static alignas(128) float a[4097];
  static alignas(128) float b[4096];
  MemRef1D memrefA = {a, a, 0, {4096}, {1}};
  MemRef1D memrefB = {b, b, 0, {4096}, {1}};
  _mlir_ciface_copy_tma(&memrefA, &memrefB, stream);
  printStats("first launch");
  _mlir_ciface_copy_tma(&memrefA, &memrefB, stream);
  printStats("second launch");
  MemRef1D shifted = {a, a + 1, 0, {4096}, {1}};
  _mlir_ciface_copy_tma(&shifted, &memrefB, stream);
  printStats("shifted input");
  int wasOn = croqRtTensorMapSetStaging(0);
  _mlir_ciface_copy_tma(&shifted, &memrefB, stream);
  printStats("shifted input, staging off");
  croqRtTensorMapSetStaging(wasOn);
  MemRef1D shiftedOut = {b, b + 1, 0, {4095}, {1}};
  MemRef1D shortIn = {a, a, 0, {4095}, {1}};
  _mlir_ciface_copy_tma(&shortIn, &shiftedOut, stream);
  printStats("shifted output");
  return 0;
}
