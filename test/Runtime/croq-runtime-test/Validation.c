/*===- Validation.c - every tensor-map rule, broken once ------------------===*\
|*                                                                            *|
|* Breaks each rule of croqRtTensorMapEncodeTiled in turn, starting from a    *|
|* valid map, and prints the message; then shows that valid maps at the edges *|
|* of every range pass validation and stop at the (missing) driver.           *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "Common.h"

#include <stdalign.h>

static alignas(128) unsigned char map[2 * CROQ_RT_TENSOR_MAP_BYTES];

/// Encodes the valid case after `change` edits it.
#define CASE(name, change)                                                     \
  do {                                                                         \
    TensorMapCase c;                                                           \
    initValidCase(&c, map);                                                    \
    change;                                                                    \
    expectStatus(name, encodeCase(&c));                                        \
  } while (0)

static void breakScalars(void) {
  CASE("map-null", c.map = NULL);
  CASE("map-misaligned", c.map = map + 32);
  CASE("rank-zero", c.rank = 0);
  CASE("rank-six", c.rank = 6);
  CASE("element-type-negative", c.elementType = -1);
  CASE("element-type-unknown", c.elementType = CROQ_RT_F64 + 1);
  CASE("swizzle-unknown", c.swizzle = 4);
  CASE("l2-promotion-unknown", c.l2Promotion = 4);
  CASE("oob-fill-unknown", c.oobFill = 2);
  CASE("oob-nan-i32", (c.elementType = CROQ_RT_I32, c.box[0] = 32,
                       c.oobFill = CROQ_RT_OOB_FILL_NAN));
  CASE("oob-nan-f8", (c.elementType = CROQ_RT_F8E4M3, c.box[0] = 128,
                      c.oobFill = CROQ_RT_OOB_FILL_NAN));
  CASE("address-null", c.globalAddress = NULL);
  CASE("address-misaligned",
       c.globalAddress = (const char *)FAKE_GLOBAL_ADDRESS + 8);
  CASE("dims-null", c.globalDims = NULL);
  CASE("strides-null", c.globalStrides = NULL);
  CASE("box-null", c.boxDims = NULL);
}

static void breakArrays(void) {
  CASE("dim-zero", c.dims[1] = 0);
  CASE("dim-above-2^32", c.dims[0] = (1ull << 32) + 1);
  CASE("stride-not-multiple-of-16", c.strides[0] = 1000);
  CASE("stride-2^40", c.strides[0] = 1ull << 40);
  CASE("box-zero", c.box[1] = 0);
  CASE("box-257", c.box[1] = 257);
  CASE("inner-box-8-bytes", c.box[0] = 4);
  CASE("inner-box-f32-24-bytes", (c.elementType = CROQ_RT_F32, c.box[0] = 6,
                                  c.swizzle = CROQ_RT_SWIZZLE_NONE));
  CASE("swizzle-32-span", (c.swizzle = CROQ_RT_SWIZZLE_32B, c.box[0] = 32));
  CASE("swizzle-64-span", (c.swizzle = CROQ_RT_SWIZZLE_64B, c.box[0] = 64));
  CASE("swizzle-128-span", c.box[0] = 128);
  CASE("element-stride-zero", (c.steps[0] = 0, c.elementStrides = c.steps));
  CASE("element-stride-nine", (c.rank = 3, c.dims[2] = 4, c.strides[1] = 1 << 20,
                               c.box[2] = 2, c.steps[2] = 9,
                               c.elementStrides = c.steps));
}

/// Valid maps at the edges of the rules: each passes validation and fails
/// only because there is no driver.
static void passValidation(void) {
  CASE("valid-default", (void)0);
  CASE("valid-rank-1-no-strides", (c.rank = 1, c.globalStrides = NULL));
  CASE("valid-rank-5", (c.rank = 5, c.dims[2] = c.dims[3] = c.dims[4] = 2,
                        c.strides[1] = 1 << 20, c.strides[2] = 1 << 21,
                        c.strides[3] = 1 << 22, c.box[2] = c.box[3] = 1,
                        c.box[4] = 2));
  CASE("valid-limits", (c.dims[0] = 1ull << 32, c.strides[0] = (1ull << 40) - 16,
                        c.box[1] = 256, c.steps[1] = 8,
                        c.elementStrides = c.steps));
  CASE("valid-swizzle-none-wide-box", (c.swizzle = CROQ_RT_SWIZZLE_NONE,
                                       c.box[0] = 256));
  CASE("valid-swizzle-32", (c.swizzle = CROQ_RT_SWIZZLE_32B, c.box[0] = 16));
  CASE("valid-f8-16-bytes", (c.elementType = CROQ_RT_F8E5M2, c.box[0] = 16));
  CASE("valid-f64-nan", (c.elementType = CROQ_RT_F64, c.box[0] = 16,
                         c.oobFill = CROQ_RT_OOB_FILL_NAN));
  CASE("valid-map-64-aligned", c.map = map + 64);
}

static void checkOtherEntryPoints(void) {
  TensorMapCase c;
  initValidCase(&c, map);
  c.box[0] = 8;
  expectPointer("cached-inner-box-16-bytes", getCachedCase(&c));

  int64_t box[2] = {64, 32}; /* outermost first: 64 rows of 32 f32 */
  MemRef2D memref = {FAKE_GLOBAL_ADDRESS, FAKE_GLOBAL_ADDRESS,
                     0, {256, 128}, {128, 1}};
  const int64_t f32 = 7, f16 = 6;
  expectPointer("memref-rank-zero", mgpuTensorMapEncodeTiledMemref(
                                        0, &memref, f32, 0, 0, 0, 0, box));
  expectPointer("memref-null", mgpuTensorMapEncodeTiledMemref(
                                   2, NULL, f32, 0, 0, 0, 0, box));
  expectPointer("memref-interleave", mgpuTensorMapEncodeTiledMemref(
                                         2, &memref, f32, 2, 0, 0, 0, box));
  expectPointer("memref-data-type", mgpuTensorMapEncodeTiledMemref(
                                        2, &memref, 13, 0, 0, 0, 0, box));
  expectPointer("memref-swizzle-span", mgpuTensorMapEncodeTiledMemref(
                                           2, &memref, f32, 0, 2, 0, 0, box));
  expectPointer("memref-swizzle-huge",
                mgpuTensorMapEncodeTiledMemref(2, &memref, f32, 0,
                                               (1ll << 32) + 3, 0, 0, box));
  memref.offset = 4; /* 16 bytes of f32: still aligned */
  memref.strides[0] = 90; /* 360-byte rows */
  expectPointer("memref-stride-bytes", mgpuTensorMapEncodeTiledMemref(
                                           2, &memref, f32, 0, 0, 0, 0, box));
  memref.strides[0] = 128;
  memref.offset = 3; /* 6 bytes of f16 */
  expectPointer("memref-offset-misaligned",
                mgpuTensorMapEncodeTiledMemref(2, &memref, f16, 0, 0, 0, 0,
                                               box));
  memref.offset = 0;
  memref.strides[1] = 2;
  expectPointer("memref-inner-stride", mgpuTensorMapEncodeTiledMemref(
                                           2, &memref, f32, 0, 0, 0, 0, box));
  memref.strides[1] = 1;
  box[0] = -1;
  expectPointer("memref-box-negative", mgpuTensorMapEncodeTiledMemref(
                                           2, &memref, f32, 0, 0, 0, 0, box));
  box[0] = 64;
  expectPointer("memref-valid", mgpuTensorMapEncodeTiledMemref(
                                    2, &memref, f32, 0, 0, 0, 0, box));
}

int runValidation(void) {
  breakScalars();
  breakArrays();
  passValidation();
  checkOtherEntryPoints();
  return 0;
}
