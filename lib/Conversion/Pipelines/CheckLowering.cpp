//===- CheckLowering.cpp - nothing left unlowered by croq-to-nvvm ---------===//
//
// Implements croq-check-lowering: every op that the croq-to-nvvm pipeline
// left outside the LLVM dialect (and the GPU ops the LLVM translation
// handles) is reported at its location, and the pass fails.
//
//===----------------------------------------------------------------------===//

#include "Croq/Conversion/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir {
namespace croq {
#define GEN_PASS_DEF_CROQCHECKLOWERING
#include "Croq/Conversion/Passes.h.inc"
} // namespace croq
} // namespace mlir

using namespace mlir;

/// Whether `op` may stay after croq-to-nvvm: LLVM dialect ops anywhere,
/// NVVM ops in device code, and the GPU ops the LLVM translation takes.
static bool isLowered(Operation *op) {
  Dialect *dialect = op->getDialect();
  if (isa_and_nonnull<LLVM::LLVMDialect>(dialect) ||
      isa<ModuleOp, gpu::BinaryOp, gpu::GPUModuleOp, gpu::LaunchFuncOp>(op))
    return true;
  return isa_and_nonnull<NVVM::NVVMDialect>(dialect) &&
         op->getParentOfType<gpu::GPUModuleOp>();
}

namespace {
struct CroqCheckLoweringPass
    : croq::impl::CroqCheckLoweringBase<CroqCheckLoweringPass> {
  void runOnOperation() override {
    bool ok = true;
    getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isLowered(op))
        return WalkResult::advance();
      op->emitOpError("was not lowered to the LLVM dialect by croq-to-nvvm; "
                      "no conversion in the pipeline handles it");
      ok = false;
      // One error per op: its nested ops are part of what was not lowered.
      return WalkResult::skip();
    });
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
