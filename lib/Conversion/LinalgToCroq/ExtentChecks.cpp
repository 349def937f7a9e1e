//===- ExtentChecks.cpp - host checks of dynamic extents ------------------===//
//
// Operands whose extents disagree would make a kernel read or write past
// an operand's edge; the runtime fails the call instead, naming the
// extents, and launches nothing. A product compiled for one variant checks
// the cost model's choice the same way; a classifier reports it; the host
// code of a product of dynamic extents asks for the variant its caller
// requested.
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
/// The declaration of runtime function `name` of `type` in the module of
/// `b`'s insertion point, added at its start where missing.
static func::FuncOp getRuntimeFunction(OpBuilder &b, StringRef name,
                                       FunctionType type) {
  auto module =
      b.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto function = func::FuncOp::create(b, module.getLoc(), name, type);
  function.setPrivate();
  return function;
}

static func::FuncOp getExtentCheck(OpBuilder &b) {
  return getRuntimeFunction(b, "croqRtRequireEqualExtents",
                            b.getFunctionType({b.getI64Type(), b.getI64Type(),
                                               b.getI32Type(), b.getI32Type()},
                                              {b.getI32Type()}));
}

void mlir::croq::requireVariant(OpBuilder &b, Location loc, int64_t product,
                                Value chosen, int64_t compiled) {
  Type i64 = b.getI64Type();
  func::FuncOp require =
      getRuntimeFunction(b, "croqRtRequireVariant",
                         b.getFunctionType({i64, i64, i64}, {b.getI32Type()}));
  func::CallOp::create(
      b, loc, require,
      ValueRange{arith::ConstantIntOp::create(b, loc, product, 64),
                 arith::IndexCastOp::create(b, loc, i64, chosen),
                 arith::ConstantIntOp::create(b, loc, compiled, 64)});
}

void mlir::croq::reportVariant(OpBuilder &b, Location loc, int64_t product,
                               int64_t products, Value chosen) {
  Type i64 = b.getI64Type();
  func::FuncOp report = getRuntimeFunction(
      b, "croqRtReportVariant", b.getFunctionType({i64, i64, i64}, {}));
  func::CallOp::create(
      b, loc, report,
      ValueRange{arith::ConstantIntOp::create(b, loc, product, 64),
                 arith::ConstantIntOp::create(b, loc, products, 64),
                 arith::IndexCastOp::create(b, loc, i64, chosen)});
}

Value mlir::croq::requestedVariant(OpBuilder &b, Location loc, int64_t product,
                                   int64_t variants) {
  Type i64 = b.getI64Type();
  func::FuncOp requested = getRuntimeFunction(
      b, "croqRtRequestedVariant", b.getFunctionType({i64, i64}, {i64}));
  auto call = func::CallOp::create(
      b, loc, requested,
      ValueRange{arith::ConstantIntOp::create(b, loc, product, 64),
                 arith::ConstantIntOp::create(b, loc, variants, 64)});
  return arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                    call.getResult(0));
}

void mlir::croq::requireEqualExtents(OpBuilder &b, Location loc, Value first,
                                     Value second, int kind, int input) {
  if (getConstantIntValue(first) && getConstantIntValue(second))
    return;
  func::FuncOp check = getExtentCheck(b);
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
