//===- PrefetchTensorMaps.cpp - fetch tensor maps at a kernel's entry -----===//
//
// Implements croq-prefetch-tensor-maps: the first thread of each block
// prefetches every grid-constant tensor map of its kernel at entry, so that
// the first bulk tensor copy finds its map cached instead of fetching it.
//
//===----------------------------------------------------------------------===//

#include "Croq/Conversion/Passes.h"
#include "Croq/Runtime/CroqRuntime.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir {
namespace croq {
#define GEN_PASS_DEF_CROQPREFETCHTENSORMAPS
#include "Croq/Conversion/Passes.h.inc"
} // namespace croq
} // namespace mlir

using namespace mlir;

/// Whether `arg` of kernel `func` is a tensor map passed by value as
/// croq-pass-tensor-maps-by-value makes it: a grid-constant byval pointer
/// to 128 bytes.
static bool isTensorMapParameter(LLVM::LLVMFuncOp func, BlockArgument arg) {
  if (!isa<LLVM::LLVMPointerType>(arg.getType()))
    return false;
  unsigned index = arg.getArgNumber();
  if (!func.getArgAttr(index, NVVM::NVVMDialect::getGridConstantAttrName()))
    return false;
  auto byval = func.getArgAttrOfType<TypeAttr>(
      index, LLVM::LLVMDialect::getByValAttrName());
  if (!byval)
    return false;
  auto bytes = dyn_cast<LLVM::LLVMArrayType>(byval.getValue());
  return bytes && bytes.getNumElements() == CROQ_RT_TENSOR_MAP_BYTES &&
         bytes.getElementType().isInteger(8);
}

namespace {
struct CroqPrefetchTensorMapsPass
    : croq::impl::CroqPrefetchTensorMapsBase<CroqPrefetchTensorMapsPass> {
  void runOnOperation() override {
    getOperation().walk([](LLVM::LLVMFuncOp func) {
      if (!func->hasAttr(NVVM::NVVMDialect::getKernelFuncAttrName()) ||
          func.isExternal())
        return;
      SmallVector<BlockArgument> maps;
      for (BlockArgument arg : func.getArguments())
        if (isTensorMapParameter(func, arg))
          maps.push_back(arg);
      if (maps.empty())
        return;
      Location loc = func.getLoc();
      auto b = OpBuilder::atBlockBegin(&func.getBody().front());
      Type i32 = b.getI32Type();
      Value thread = NVVM::ThreadIdXOp::create(b, loc, i32);
      Value zero = LLVM::ConstantOp::create(b, loc, i32, 0);
      Value first =
          LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, thread, zero);
      for (BlockArgument map : maps)
        NVVM::PrefetchOp::create(b, loc, /*cacheLevel=*/nullptr,
                                 /*evictPriority=*/nullptr, map,
                                 /*predicate=*/first,
                                 /*tensormap=*/b.getUnitAttr(),
                                 /*uniform=*/nullptr,
                                 /*in_param_space=*/nullptr);
    });
  }
};
} // namespace
