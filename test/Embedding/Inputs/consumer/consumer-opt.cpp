//===- consumer-opt.cpp - a host compiler's opt tool with croq in it ------===//
//
// What a compiler that emits croq IR adds to its own *-opt: the croq dialect
// next to the upstream dialects, and croq's passes and pipeline next to the
// upstream passes. Then `consumer-opt --croq-to-nvvm kernel.mlir` lowers a
// croq kernel to host code with the kernel's PTX embedded.
//
//===----------------------------------------------------------------------===//

#include "Croq/InitCroq.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  // The host's own passes would be registered here, then croq's.
  mlir::registerAllPasses();
  mlir::croq::registerCroqPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary, at the end of croq-to-nvvm, translates the GPU
  // modules to LLVM IR.
  mlir::registerAllToLLVMIRTranslations(registry);
  mlir::croq::registerCroqDialects(registry);

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "an MLIR compiler's opt tool, with croq\n", registry));
}
