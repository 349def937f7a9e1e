//===- ElementwiseDecline.cpp - what the elementwise kernel computes ------===//
//
// The rules that decide whether an elementwise linalg.generic, or the
// inputs and body of a reduction, can become a croq kernel, and the splat
// constants the kernels read as values.
//
//===----------------------------------------------------------------------===//

#include "Elementwise.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::croq;

TypedAttr mlir::croq::getSplatConstant(Value buffer) {
  auto get = buffer.getDefiningOp<memref::GetGlobalOp>();
  if (!get)
    return nullptr;
  auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
      get, get.getNameAttr());
  if (!global || !global.getConstant())
    return nullptr;
  auto value =
      dyn_cast_or_null<DenseElementsAttr>(global.getConstantInitValue());
  if (!value || !value.isSplat())
    return nullptr;
  return value.getSplatValue<TypedAttr>();
}

/// Whether `result` of an input map is a constant 0 (a unit dimension read
/// at 0) or a loop.
static bool isDimOrZero(AffineExpr result) {
  if (isa<AffineDimExpr>(result))
    return true;
  auto constant = dyn_cast<AffineConstantExpr>(result);
  return constant && constant.getValue() == 0;
}

std::string mlir::croq::getInputsAndBodyDecline(linalg::GenericOp op) {
  std::string reason;
  llvm::raw_string_ostream os(reason);
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (!isa<MemRefType>(input->get().getType()))
      continue;
    AffineMap map = op.getMatchingIndexingMap(input);
    if (!llvm::all_of(map.getResults(), isDimOrZero)) {
      os << "input " << input->getOperandNumber() << " is indexed by " << map
         << "; croq takes loops and constant 0s as indices";
      return reason;
    }
  }
  for (Value operand : op->getOperands()) {
    Type element = getElementTypeOrSelf(operand.getType());
    if (!element.isIntOrFloat() && isa<MemRefType>(operand.getType())) {
      os << "its operand of type " << operand.getType()
         << " has elements that are neither integers nor floats";
      return reason;
    }
  }
  // Loads, stores and conversions of 8-bit floats have no lowering in
  // these kernels yet (the GEMM reads them through TMA and the tensor
  // cores).
  auto isF8 = [](Type type) {
    auto element = dyn_cast<FloatType>(getElementTypeOrSelf(type));
    return element && element.getWidth() == 8;
  };
  auto f8Value = [&](Operation &inner) {
    return llvm::any_of(inner.getOperandTypes(), isF8) ||
           llvm::any_of(inner.getResultTypes(), isF8);
  };
  if (llvm::any_of(op->getOperandTypes(), isF8) ||
      llvm::any_of(op.getRegion().front(), f8Value)) {
    os << "it reads, writes or computes 8-bit floats, which croq's "
          "elementwise and reduction kernels do not take yet (only matrix "
          "products read them)";
    return reason;
  }
  for (Operation &inner : op.getRegion().front().without_terminator()) {
    if (isa<linalg::IndexOp>(inner))
      continue;
    if (inner.getNumRegions() != 0 || !isMemoryEffectFree(&inner)) {
      os << "its body's '" << inner.getName()
         << "' has regions or touches memory; croq computes bodies of pure "
            "operations";
      return reason;
    }
  }
  return reason;
}

std::string mlir::croq::getElementwiseDecline(linalg::GenericOp op) {
  std::string reason;
  llvm::raw_string_ostream os(reason);
  for (OpOperand &init : op.getDpsInitsMutable()) {
    AffineMap map = op.getMatchingIndexingMap(&init);
    if (!map.isPermutation()) {
      os << "output " << init.getOperandNumber() - op.getNumDpsInputs()
         << " is indexed by " << map
         << ", which is not a permutation of the loops";
      return reason;
    }
  }
  return getInputsAndBodyDecline(op);
}
