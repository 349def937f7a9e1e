/*===- croq-capi.c - embed croq from C through its C API ------------------===*\
|*                                                                            *|
|* Registers the dialects, parses a croq kernel, lowers it with the           *|
|* croq-to-nvvm pipeline and prints its PTX, through libCroqCAPI.so only.     *|
|* With --cubin, lowers to cubin instead and prints the cubin's ELF magic.    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

/* RUN: croq-capi-test | FileCheck %s
 */

#include "croq-c/Croq.h"

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/RegisterEverything.h"

#include <stdio.h>
#include <string.h>

static const char *kernel =
    "func.func @copy(%a: memref<1024x1024xf32>, %b: memref<1024x1024xf32>) {\n"
    "  croq.parallel (%i, %j) in [32, 32] : block {\n"
    "    %t = croq.alloc : !croq.tile<32x32xf32, shared>\n"
    "    %v = croq.subspan %a [32, 32] at [%i, %j]"
    " : memref<1024x1024xf32> -> !croq.view<32x32xf32>\n"
    "    croq.copy dma %v -> %t"
    " : !croq.view<32x32xf32> -> !croq.tile<32x32xf32, shared>\n"
    "    %w = croq.subspan %b [32, 32] at [%i, %j]"
    " : memref<1024x1024xf32> -> !croq.view<32x32xf32>\n"
    "    croq.copy dma %t -> %w"
    " : !croq.tile<32x32xf32, shared> -> !croq.view<32x32xf32>\n"
    "  }\n"
    "  return\n"
    "}\n";

static void printToFile(MlirStringRef text, void *userData) {
  fwrite(text.data, 1, text.length, (FILE *)userData);
}

static MlirLogicalResult printDiagnostic(MlirDiagnostic diagnostic,
                                         void *userData) {
  (void)userData;
  printf("diagnostic: ");
  mlirDiagnosticPrint(diagnostic, printToFile, stdout);
  printf("\n");
  return mlirLogicalResultSuccess();
}

/* Prints the first four bytes of each cubin, which are ELF's magic. */
static void printMagic(MlirStringRef object, void *userData) {
  (void)userData;
  printf("cubin: %zu bytes, magic", object.length);
  for (size_t i = 0; i < 4 && i < object.length; ++i)
    printf(" %02x", (unsigned char)object.data[i]);
  printf("\n");
}

static MlirModule parseKernel(MlirContext context) {
  return mlirModuleCreateParse(context, mlirStringRefCreateFromCString(kernel));
}

int main(int argc, char **argv) {
  int cubin = argc > 1 && strcmp(argv[1], "--cubin") == 0;

  /* The upstream dialects croq IR uses (func, arith, memref, ...) from the
     MLIR C API, croq's through its dialect handle. */
  MlirContext context = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(context, registry);
  mlirDialectRegistryDestroy(registry);
  MlirDialectHandle croq = mlirGetDialectHandle__croq__();
  mlirDialectHandleRegisterDialect(croq, context);
  mlirContextAttachDiagnosticHandler(context, printDiagnostic, NULL, NULL);

  MlirStringRef ns = mlirDialectHandleGetNamespace(croq);
  printf("dialect: %.*s\n", (int)ns.length, ns.data);
  // CHECK: dialect: croq

  MlirModule module = parseKernel(context);
  if (mlirModuleIsNull(module)) {
    fprintf(stderr, "cannot parse the kernel\n");
    return 1;
  }

  if (cubin) {
    if (mlirLogicalResultIsFailure(croqRunPipeline(module, "format=bin")) ||
        mlirLogicalResultIsFailure(
            croqTranslateToCubin(module, printMagic, NULL)))
      return 1;
    mlirModuleDestroy(module);
    mlirContextDestroy(context);
    return 0;
  }

  /* PTX of a module before lowering: there is none. */
  MlirLogicalResult early = croqTranslateToPTX(module, printToFile, stdout);
  printf("before lowering: %s\n",
         mlirLogicalResultIsFailure(early) ? "failed" : "succeeded");
  // CHECK: diagnostic: the module has no GPU kernel to emit
  // CHECK: before lowering: failed

  /* A malformed option string is a diagnostic, not an abort. */
  MlirLogicalResult bad = croqRunPipeline(module, "chip");
  printf("bad options: %s\n",
         mlirLogicalResultIsFailure(bad) ? "failed" : "succeeded");
  // CHECK: diagnostic: invalid croq-to-nvvm options 'chip'
  // CHECK: bad options: failed

  if (mlirLogicalResultIsFailure(croqRunPipeline(module, "chip=sm_90a"))) {
    fprintf(stderr, "croq-to-nvvm failed\n");
    return 1;
  }
  if (mlirLogicalResultIsFailure(
          croqTranslateToPTX(module, printToFile, stdout)))
    return 1;
  // CHECK: //--- copy_kernel.ptx
  // CHECK: .target sm_90a
  // CHECK: .entry copy_kernel(
  // CHECK: ld.global
  // CHECK: st.shared
  // CHECK: bar.sync 0;
  // CHECK: st.global
  mlirModuleDestroy(module);

  /* croq's passes in a textual pipeline of the MLIR C API. Registering
     twice is harmless. */
  croqRegisterAllPasses();
  croqRegisterAllPasses();
  module = parseKernel(context);
  MlirPassManager pm = mlirPassManagerCreate(context);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  MlirLogicalResult parsed = mlirParsePassPipeline(
      opm,
      mlirStringRefCreateFromCString(
          "builtin.module(croq-assign-layouts,croq-normalize-views,"
          "croq-wait-async-stores,croq-distribute-copies,croq-plan-tma-boxes,"
          "croq-lower-tma-futures,"
          "croq-plan-shared-memory,croq-plan-events,croq-plan-registers,"
          "croq-carry-event-phases,"
          "convert-croq-to-gpu,convert-croq-regions-to-gpu)"),
      printToFile, stderr);
  MlirLogicalResult ran =
      mlirLogicalResultIsSuccess(parsed)
          ? mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module))
          : mlirLogicalResultFailure();
  printf("textual pipeline: %s\n",
         mlirLogicalResultIsSuccess(ran) ? "succeeded" : "failed");
  // CHECK: textual pipeline: succeeded
  mlirOperationPrint(mlirModuleGetOperation(module), printToFile, stdout);
  printf("\n");
  // CHECK: gpu.launch
  // CHECK-NOT: croq.
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  mlirContextDestroy(context);
  return 0;
}
