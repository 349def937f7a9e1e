//===- RegisterReallocatingKernels.cpp - setmaxnreg kernel bounds ---------===//
//
// Implements croq-register-reallocating-kernels: kernels whose warpgroups
// change their register counts get `.minnctapersm 1`, so that ptxas knows
// the register count at entry and honours setmaxnreg.
//
//===----------------------------------------------------------------------===//

#include "Croq/Conversion/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir {
namespace croq {
#define GEN_PASS_DEF_CROQREGISTERREALLOCATINGKERNELS
#include "Croq/Conversion/Passes.h.inc"
} // namespace croq
} // namespace mlir

using namespace mlir;

namespace {
struct CroqRegisterReallocatingKernelsPass
    : croq::impl::CroqRegisterReallocatingKernelsBase<
          CroqRegisterReallocatingKernelsPass> {
  void runOnOperation() override {
    getOperation().walk([](LLVM::LLVMFuncOp func) {
      if (!func->hasAttr(NVVM::NVVMDialect::getKernelFuncAttrName()))
        return;
      bool reallocates = func.walk([](NVVM::SetMaxRegisterOp) {
                               return WalkResult::interrupt();
                             })
                             .wasInterrupted();
      if (reallocates)
        func->setAttr(
            NVVM::NVVMDialect::getMinctasmAttrName(),
            IntegerAttr::get(IntegerType::get(func.getContext(), 32), 1));
    });
  }
};
} // namespace
