//===- PassTensorMapsByValue.cpp - grid-constant tensor-map parameters ----===//
//
// Implements croq-pass-tensor-maps-by-value: a kernel parameter that carries
// a tensor map's 128 bytes and is only cast to the pointer the bulk copies
// read becomes a grid-constant byval parameter, whose address is that
// pointer.
//
//===----------------------------------------------------------------------===//

#include "Croq/Conversion/Passes.h"
#include "Croq/Runtime/CroqRuntime.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir {
namespace croq {
#define GEN_PASS_DEF_CROQPASSTENSORMAPSBYVALUE
#include "Croq/Conversion/Passes.h.inc"
} // namespace croq
} // namespace mlir

using namespace mlir;

/// Whether `type` is how a tensor map's bytes reach a kernel.
static bool isTensorMapValue(Type type) {
  auto vector = dyn_cast<VectorType>(type);
  return vector && vector.getRank() == 1 &&
         vector.getElementType().isInteger(64) &&
         vector.getNumElements() * 8 == CROQ_RT_TENSOR_MAP_BYTES;
}

/// Collects the casts that end the cast chains from `value` in a pointer.
/// Fails if `value` or a cast in between has any other user.
static LogicalResult
collectPointerCasts(Value value,
                    SmallVectorImpl<UnrealizedConversionCastOp> &chain,
                    SmallVectorImpl<UnrealizedConversionCastOp> &ends) {
  for (Operation *user : value.getUsers()) {
    auto cast = dyn_cast<UnrealizedConversionCastOp>(user);
    if (!cast || cast->getNumOperands() != 1 || cast->getNumResults() != 1)
      return failure();
    chain.push_back(cast);
    if (isa<LLVM::LLVMPointerType>(cast.getResult(0).getType())) {
      ends.push_back(cast);
      continue;
    }
    if (failed(collectPointerCasts(cast.getResult(0), chain, ends)))
      return failure();
  }
  return success();
}

namespace {
struct CroqPassTensorMapsByValuePass
    : croq::impl::CroqPassTensorMapsByValueBase<CroqPassTensorMapsByValuePass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    auto pointer = LLVM::LLVMPointerType::get(context);
    auto bytes = LLVM::LLVMArrayType::get(IntegerType::get(context, 8),
                                          CROQ_RT_TENSOR_MAP_BYTES);
    getOperation().walk([&](LLVM::LLVMFuncOp func) {
      if (!func->hasAttr(NVVM::NVVMDialect::getKernelFuncAttrName()) ||
          func.isExternal())
        return;
      SmallVector<Type> inputs(func.getFunctionType().getParams());
      for (BlockArgument arg : func.getArguments()) {
        if (!isTensorMapValue(arg.getType()))
          continue;
        SmallVector<UnrealizedConversionCastOp> chain, ends;
        if (failed(collectPointerCasts(arg, chain, ends)))
          continue;
        unsigned index = arg.getArgNumber();
        arg.setType(pointer);
        inputs[index] = pointer;
        for (UnrealizedConversionCastOp end : ends)
          end.getResult(0).replaceAllUsesWith(arg);
        // Users first: the chain was collected from the parameter outwards.
        for (UnrealizedConversionCastOp cast : llvm::reverse(chain))
          cast->erase();
        func.setArgAttr(index, LLVM::LLVMDialect::getByValAttrName(),
                        TypeAttr::get(bytes));
        func.setArgAttr(index, LLVM::LLVMDialect::getAlignAttrName(),
                        IntegerAttr::get(IntegerType::get(context, 64), 64));
        func.setArgAttr(index, NVVM::NVVMDialect::getGridConstantAttrName(),
                        UnitAttr::get(context));
      }
      func.setFunctionType(LLVM::LLVMFunctionType::get(
          func.getFunctionType().getReturnType(), inputs,
          func.getFunctionType().isVarArg()));
    });
  }
};
} // namespace
