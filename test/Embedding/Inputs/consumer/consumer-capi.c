/*===- consumer-capi.c - a C host that lowers croq IR in-process ----------===*\
|*                                                                            *|
|* Parses the croq module named on the command line, lowers it with the       *|
|* croq-to-nvvm pipeline and prints the PTX of its kernels, through the       *|
|* installed libCroqCAPI.so (CMake target Croq::CAPI) alone.                  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "croq-c/Croq.h"

#include <stdio.h>
#include <stdlib.h>

static void printToFile(MlirStringRef text, void *userData) {
  fwrite(text.data, 1, text.length, (FILE *)userData);
}

static char *readFile(const char *path) {
  FILE *file = fopen(path, "rb");
  if (!file)
    return NULL;
  fseek(file, 0, SEEK_END);
  long size = ftell(file);
  fseek(file, 0, SEEK_SET);
  char *text = malloc((size_t)size + 1);
  if (text && fread(text, 1, (size_t)size, file) != (size_t)size) {
    free(text);
    text = NULL;
  }
  if (text)
    text[size] = '\0';
  fclose(file);
  return text;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: consumer-capi <kernel.mlir>\n");
    return 2;
  }
  char *source = readFile(argv[1]);
  if (!source) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }

  MlirContext context = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  croqRegisterPipelineDialects(registry);
  mlirContextAppendDialectRegistry(context, registry);
  mlirDialectRegistryDestroy(registry);

  MlirModule module =
      mlirModuleCreateParse(context, mlirStringRefCreateFromCString(source));
  free(source);
  int status = 1;
  if (!mlirModuleIsNull(module) &&
      mlirLogicalResultIsSuccess(croqRunPipeline(module, NULL)) &&
      mlirLogicalResultIsSuccess(
          croqTranslateToPTX(module, printToFile, stdout)))
    status = 0;
  if (!mlirModuleIsNull(module))
    mlirModuleDestroy(module);
  mlirContextDestroy(context);
  return status;
}
