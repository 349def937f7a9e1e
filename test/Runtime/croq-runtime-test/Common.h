/*===- Common.h - helpers shared by croq-runtime-test's sections -*- C -*-===*\
|*                                                                            *|
|* Each section calls runtime functions and prints one record per call:      *|
|*   == <case>                                                                *|
|*   <outcome>: <last error, or "(no error)">                                 *|
|* which the lit tests under test/Runtime check with FileCheck.               *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef CROQ_TEST_RUNTIME_COMMON_H
#define CROQ_TEST_RUNTIME_COMMON_H

#include "Croq/Runtime/CroqRuntime.h"

#include <stdint.h>

/// Prints the record of a call that returned `status`, and clears the error.
void expectStatus(const char *name, int status);
/// Same for a call that returned a pointer: the outcome is null or non-null.
void expectPointer(const char *name, const void *result);
/// Same for a call that returns nothing.
void expectDone(const char *name);

/// A fake device address: the runtime only checks its alignment.
#define FAKE_GLOBAL_ADDRESS ((void *)(uintptr_t)0x7f0000000000ull)

/// Tensor-map parameters, laid out to be changed one at a time.
typedef struct TensorMapCase {
  void *map;
  int elementType;
  uint32_t rank;
  const void *globalAddress;
  const uint64_t *globalDims;
  const uint64_t *globalStrides;
  const uint32_t *boxDims;
  const uint32_t *elementStrides;
  int swizzle;
  int l2Promotion;
  int oobFill;
  /// Storage the pointers above point into by default.
  uint64_t dims[5];
  uint64_t strides[4];
  uint32_t box[5];
  uint32_t steps[5];
} TensorMapCase;

/// A valid 2-D map: a 1024x512 f16 row-major matrix, 128x64 boxes (128
/// bytes wide), 128B swizzle, 128B L2 promotion, zero fill.
void initValidCase(TensorMapCase *c, void *map);
int encodeCase(const TensorMapCase *c);
const void *getCachedCase(const TensorMapCase *c);

/// A tensor-map encoder for croqRtSetTensorMapEncoderForTesting that fails
/// every encoding with CROQ_RT_ERROR_DRIVER.
int failingTensorMapEncoder(void *map, int elementType, uint32_t rank,
                            const void *globalAddress,
                            const uint64_t *globalDims,
                            const uint64_t *globalStrides,
                            const uint32_t *boxDims,
                            const uint32_t *elementStrides, int swizzle,
                            int l2Promotion, int oobFill);

/// A ranked memref descriptor of rank 2 as MLIR lays it out.
typedef struct MemRef2D {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizes[2];
  int64_t strides[2];
} MemRef2D;

int runValidation(void);
int runCache(void);
int runNoDriver(void);
int runFakeDriver(void);
int runInit(void);
int runStrided(void);
int runStaged(void);
int runIm2col(void);

#endif /* CROQ_TEST_RUNTIME_COMMON_H */
