/*===- call-scale.c - a C program calling croq's generated host code ------===*\
|*                                                                            *|
|* Calls the C interface of scale.mlir's host code, linked with              *|
|* libCroqRuntime; what the driver sees is checked by host-code.test.        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "Croq/Runtime/CroqRuntime.h"

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

/// The entry point: the descriptors, then the stream to launch on; the
/// call's status back (croq-host-entries).
int32_t _mlir_ciface_scale(MemRef1D *a, MemRef1D *b, void *stream);

int main(void) {
  static float a[4096];
  static uint16_t b[16];
  MemRef1D memrefA = {a, a, 0, {4096}, {1}};
  MemRef1D memrefB = {b, b, 0, {16}, {1}};
  printf("main: calling scale\n");
  fflush(stdout);
  // A stream of the caller's (the fake driver only tells null from not).
  void *stream = (void *)(uintptr_t)0x5eed;
  int32_t status = _mlir_ciface_scale(&memrefA, &memrefB, stream);
  printf("main: scale returned %d\n", status);
  if (status != 0)
    printf("main: error '%s'\n", croqRtGetLastError());
  fflush(stdout);
  return 0;
}
