//===- ExtentChecks.cpp - host checks of dynamic extents ------------------===//
//
// Operands whose extents disagree would make a kernel read or write past
// an operand's edge; the runtime fails the call instead, naming the
// extents, and launches nothing.
//
//===----------------------------------------------------------------------===//

#include "ExtentChecks.h"

#include "Croq/Runtime/CroqRuntime.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace mlir::croq;

/// The runtime's check of two extents, declared in `module` on first use.
static func::FuncOp getExtentCheck(OpBuilder &b, ModuleOp module) {
  StringRef name = "croqRtRequireEqualExtents";
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto type = b.getFunctionType(
      {b.getI64Type(), b.getI64Type(), b.getI32Type(), b.getI32Type()},
      {b.getI32Type()});
  auto check = func::FuncOp::create(b, module.getLoc(), name, type);
  check.setPrivate();
  return check;
}

void mlir::croq::requireEqualExtents(OpBuilder &b, Location loc, Value first,
                                     Value second, int kind, int input) {
  if (getConstantIntValue(first) && getConstantIntValue(second))
    return;
  auto module =
      b.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
  func::FuncOp check = getExtentCheck(b, module);
  auto i64 = [&](Value v) {
    return arith::IndexCastOp::create(b, loc, b.getI64Type(), v);
  };
  auto i32 = [&](int v) { return arith::ConstantIntOp::create(b, loc, v, 32); };
  func::CallOp::create(
      b, loc, check,
      ValueRange{i64(first), i64(second), i32(kind), i32(input)});
}

void mlir::croq::requireOperandExtents(OpBuilder &b, Location loc,
                                       linalg::LinalgOp op,
                                       ArrayRef<Value> loopExtents) {
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<MemRefType>(operand.get().getType()))
      continue;
    for (auto [i, result] :
         llvm::enumerate(op.getMatchingIndexingMap(&operand).getResults())) {
      auto dim = dyn_cast<AffineDimExpr>(result);
      if (!dim)
        continue;
      // The loop's extent may be this very dimension.
      Value loopExtent = loopExtents[dim.getPosition()];
      if (auto same = loopExtent.getDefiningOp<memref::DimOp>();
          same && same.getSource() == operand.get() &&
          same.getConstantIndex() == static_cast<int64_t>(i))
        continue;
      Value extent = b.createOrFold<memref::DimOp>(loc, operand.get(), i);
      if (extent != loopExtent)
        requireEqualExtents(b, loc, extent, loopExtents[dim.getPosition()],
                            CROQ_RT_EXTENTS_OPERAND,
                            operand.getOperandNumber());
    }
  }
}
