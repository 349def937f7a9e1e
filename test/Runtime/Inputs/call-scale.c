/*===- call-scale.c - a C program calling croq's generated host code ------===*\
|*                                                                            *|
|* Calls the C interface of scale.mlir's host code, linked with              *|
|* libCroqRuntime; what the driver sees is checked by host-code.test.        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

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

void _mlir_ciface_scale(MemRef1D *a, MemRef1D *b);

int main(void) {
  static float a[4096];
  static uint16_t b[16];
  MemRef1D memrefA = {a, a, 0, {4096}, {1}};
  MemRef1D memrefB = {b, b, 0, {16}, {1}};
  printf("main: calling scale\n");
  fflush(stdout);
  _mlir_ciface_scale(&memrefA, &memrefB);
  printf("main: scale returned\n");
  fflush(stdout);
  return 0;
}
