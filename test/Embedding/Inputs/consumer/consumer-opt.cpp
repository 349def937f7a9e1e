//===- consumer-opt.cpp - a host compiler's opt tool with croq in it ------===//
//
// What a compiler that emits croq IR adds to its own *-opt: the croq dialect
// next to the upstream dialects, and croq's passes and pipeline next to the
// upstream passes. Then `consumer-opt --croq-to-nvvm kernel.mlir` lowers a
// croq kernel to host code with the kernel's PTX embedded. A compiler that
// builds its own conversion uses croq's patterns (Croq/Conversion/
// CroqToGPU.h), as consumer-lower-croq-data does here.
//
//===----------------------------------------------------------------------===//

#include "Croq/Conversion/CroqToGPU.h"
#include "Croq/Dialect/Croq/IR/TargetDescription.h"
#include "Croq/InitCroq.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

namespace {
/// The host compiler's own lowering of croq's data ops, on croq's public
/// patterns: what convert-croq-to-gpu does, in the host's conversion.
struct LowerCroqDataPass
    : mlir::PassWrapper<LowerCroqDataPass, mlir::OperationPass<mlir::ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(LowerCroqDataPass)
  llvm::StringRef getArgument() const override {
    return "consumer-lower-croq-data";
  }
  void getDependentDialects(mlir::DialectRegistry &registry) const override {
    mlir::registerAllDialects(registry);
  }
  void runOnOperation() override {
    mlir::MLIRContext *context = &getContext();
    mlir::croq::CroqTypeConverter converter(context);
    mlir::ConversionTarget target(*context);
    target.markUnknownOpDynamicallyLegal([](mlir::Operation *op) {
      // croq's regions stay for convert-croq-regions-to-gpu.
      llvm::StringRef name = op->getName().getStringRef();
      return !name.starts_with("croq.") || name == "croq.parallel" ||
             name == "croq.inthreads" || name == "croq.view";
    });
    mlir::RewritePatternSet patterns(context);
    const mlir::croq::TargetDescription *hopper =
        mlir::croq::lookupTargetDescription("sm_90a");
    mlir::croq::populateCroqToGPUConversionPatterns(converter, *hopper,
                                                    patterns);
    mlir::scf::populateSCFStructuralTypeConversionsAndLegality(
        converter, patterns, target);
    if (mlir::failed(mlir::applyPartialConversion(getOperation(), target,
                                                  std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

int main(int argc, char **argv) {
  // The host's own passes would be registered here, then croq's.
  mlir::registerAllPasses();
  mlir::croq::registerCroqPasses();
  mlir::PassRegistration<LowerCroqDataPass>();

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
