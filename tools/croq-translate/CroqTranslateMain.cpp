//===- CroqTranslateMain.cpp - croq translation driver --------------------===//
//
// The croq translator: croq IR to PTX, cubin and host LLVM IR, plus the
// upstream translations (MLIR to LLVM IR and back).
//
//===----------------------------------------------------------------------===//

#include "../CroqToolMains.h"
#include "Croq/InitCroq.h"
#include "Croq/Target/Translations.h"

#include "mlir/InitAllTranslations.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"

int mlir::croq::croqTranslateMain(int argc, char **argv) {
  mlir::registerAllTranslations();
  mlir::croq::registerCroqTranslations();
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "croq translation driver\n"));
}
