//===- ExternDynamicSharedMemory.cpp - aligned extern dynamic smem --------===//
//
// Implements croq-extern-dynamic-shared-memory: the zero-sized shared-memory
// globals behind gpu.dynamic_shared_memory become external and aligned, so
// the PTX declares the dynamic shared memory window itself.
//
//===----------------------------------------------------------------------===//

#include "Croq/Conversion/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir {
namespace croq {
#define GEN_PASS_DEF_CROQEXTERNDYNAMICSHAREDMEMORY
#include "Croq/Conversion/Passes.h.inc"
} // namespace croq
} // namespace mlir

using namespace mlir;

namespace {
struct CroqExternDynamicSharedMemoryPass
    : croq::impl::CroqExternDynamicSharedMemoryBase<
          CroqExternDynamicSharedMemoryPass> {
  using Base::Base;
  void runOnOperation() override {
    if (alignment <= 0 || !llvm::isPowerOf2_64(alignment)) {
      getOperation().emitError("croq-extern-dynamic-shared-memory: alignment "
                               "must be a power of two, got ")
          << static_cast<int64_t>(alignment);
      return signalPassFailure();
    }
    getOperation().walk([&](LLVM::GlobalOp global) {
      auto array = dyn_cast<LLVM::LLVMArrayType>(global.getGlobalType());
      if (global.getAddrSpace() != 3 || !array || array.getNumElements() != 0)
        return;
      global.setLinkage(LLVM::Linkage::External);
      global.setAlignment(alignment);
    });
  }
};
} // namespace
