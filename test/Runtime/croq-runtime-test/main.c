/*===- main.c - croq-runtime-test: the runtime's GPU-free checks ----------===*\
|*                                                                            *|
|* Runs one section of checks of libCroqRuntime, named on the command line,   *|
|* printing a record per call for FileCheck (see Common.h).                   *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "Common.h"

#include <stdio.h>
#include <string.h>

void expectStatus(const char *name, int status) {
  const char *error = croqRtGetLastError();
  printf("== %s\nstatus %d: %s\n", name, status, *error ? error : "(no error)");
  croqRtClearLastError();
}

void expectPointer(const char *name, const void *result) {
  const char *error = croqRtGetLastError();
  printf("== %s\n%s: %s\n", name, result ? "non-null" : "null",
         *error ? error : "(no error)");
  croqRtClearLastError();
}

void expectDone(const char *name) {
  const char *error = croqRtGetLastError();
  printf("== %s\ndone: %s\n", name, *error ? error : "(no error)");
  croqRtClearLastError();
}

int failingTensorMapEncoder(void *map, int elementType, uint32_t rank,
                            const void *globalAddress,
                            const uint64_t *globalDims,
                            const uint64_t *globalStrides,
                            const uint32_t *boxDims,
                            const uint32_t *elementStrides, int swizzle,
                            int l2Promotion, int oobFill) {
  (void)map, (void)elementType, (void)rank, (void)globalAddress,
      (void)globalDims, (void)globalStrides, (void)boxDims,
      (void)elementStrides, (void)swizzle, (void)l2Promotion, (void)oobFill;
  return CROQ_RT_ERROR_DRIVER;
}

void initValidCase(TensorMapCase *c, void *map) {
  memset(c, 0, sizeof(*c));
  c->map = map;
  c->elementType = CROQ_RT_F16;
  c->rank = 2;
  c->globalAddress = FAKE_GLOBAL_ADDRESS;
  c->dims[0] = 512;
  c->dims[1] = 1024;
  c->strides[0] = 512 * 2;
  c->box[0] = 64;
  c->box[1] = 128;
  for (int i = 0; i < 5; ++i)
    c->steps[i] = 1;
  c->globalDims = c->dims;
  c->globalStrides = c->strides;
  c->boxDims = c->box;
  c->elementStrides = NULL;
  c->swizzle = CROQ_RT_SWIZZLE_128B;
  c->l2Promotion = CROQ_RT_L2_PROMOTION_128B;
  c->oobFill = CROQ_RT_OOB_FILL_ZERO;
}

int encodeCase(const TensorMapCase *c) {
  return croqRtTensorMapEncodeTiled(
      c->map, c->elementType, c->rank, c->globalAddress, c->globalDims,
      c->globalStrides, c->boxDims, c->elementStrides, c->swizzle,
      c->l2Promotion, c->oobFill);
}

const void *getCachedCase(const TensorMapCase *c) {
  return croqRtTensorMapGetCached(
      c->elementType, c->rank, c->globalAddress, c->globalDims,
      c->globalStrides, c->boxDims, c->elementStrides, c->swizzle,
      c->l2Promotion, c->oobFill);
}

int main(int argc, char **argv) {
  static const struct {
    const char *name;
    int (*run)(void);
  } sections[] = {
      {"validation", runValidation}, {"cache", runCache},
      {"no-driver", runNoDriver},    {"fake-driver", runFakeDriver},
      {"init", runInit},             {"strided", runStrided},
      {"staged", runStaged},         {"im2col", runIm2col},
  };
  if (argc == 2) {
    for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); ++i) {
      if (strcmp(argv[1], sections[i].name) == 0) {
        int failed = sections[i].run();
        printf("== end of %s\n", argv[1]);
        return failed;
      }
    }
  }
  fprintf(stderr,
          "usage: croq-runtime-test "
          "validation|cache|no-driver|fake-driver|init|strided|staged|im2col\n");
  return 2;
}
