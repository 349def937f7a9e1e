//===- CroqOptMain.cpp - croq optimizer driver ----------------------------===//
//
// The croq optimizer: MlirOptMain with the croq dialect and passes, plus the
// upstream dialects and passes the lowering pipeline uses, and croq's test
// passes (test/lib).
//
//===----------------------------------------------------------------------===//

#include "../CroqToolMains.h"
#include "Croq/InitCroq.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

namespace mlir {
namespace croq {
namespace test {
void registerTestTileLayoutPass();
} // namespace test
} // namespace croq
} // namespace mlir

int mlir::croq::croqOptMain(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::croq::registerCroqPasses();
  mlir::croq::test::registerTestTileLayoutPass();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  mlir::croq::registerCroqDialects(registry);

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "croq optimizer driver\n", registry));
}
