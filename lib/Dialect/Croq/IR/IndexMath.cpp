//===- IndexMath.cpp - index arithmetic the croq passes emit --------------===//
//
// IndexBuilder's arithmetic on OpFoldResults (the window arithmetic of
// views), constants, products, comparisons and the distributed loop over a
// group's threads.
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/IndexMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::croq;

/// `OpTy` on `x` and `y`, their constants materialized.
template <typename OpTy>
static OpFoldResult createOnValues(OpBuilder &b, Location loc, OpFoldResult x,
                                   OpFoldResult y) {
  return OpTy::create(b, loc, getValueOrCreateConstantIndexOp(b, loc, x),
                      getValueOrCreateConstantIndexOp(b, loc, y))
      .getResult();
}

// Constants fold only where the result fits in int64_t; otherwise the sum
// or product is left to the (wrapping) index arithmetic of the IR.
OpFoldResult IndexBuilder::addOfr(OpFoldResult x, OpFoldResult y) {
  std::optional<int64_t> cx = getConstantIntValue(x);
  std::optional<int64_t> cy = getConstantIntValue(y);
  if (cx && cy)
    if (std::optional<int64_t> sum = llvm::checkedAdd(*cx, *cy))
      return b.getIndexAttr(*sum);
  if (cx && *cx == 0)
    return y;
  if (cy && *cy == 0)
    return x;
  return createOnValues<arith::AddIOp>(b, loc, x, y);
}

OpFoldResult IndexBuilder::mulOfr(OpFoldResult x, OpFoldResult y) {
  std::optional<int64_t> cx = getConstantIntValue(x);
  std::optional<int64_t> cy = getConstantIntValue(y);
  if (cx && cy)
    if (std::optional<int64_t> product = llvm::checkedMul(*cx, *cy))
      return b.getIndexAttr(*product);
  if ((cx && *cx == 0) || (cy && *cy == 0))
    return b.getIndexAttr(0);
  if (cx && *cx == 1)
    return y;
  if (cy && *cy == 1)
    return x;
  return createOnValues<arith::MulIOp>(b, loc, x, y);
}

OpFoldResult IndexBuilder::minOfr(OpFoldResult x, OpFoldResult y) {
  std::optional<int64_t> cx = getConstantIntValue(x);
  std::optional<int64_t> cy = getConstantIntValue(y);
  if (cx && cy)
    return b.getIndexAttr(std::min(*cx, *cy));
  if (x == y)
    return x;
  return createOnValues<arith::MinSIOp>(b, loc, x, y);
}

OpFoldResult IndexBuilder::ceilDivOfr(OpFoldResult x, OpFoldResult y) {
  std::optional<int64_t> cx = getConstantIntValue(x);
  std::optional<int64_t> cy = getConstantIntValue(y);
  if (cx && cy && *cy > 0)
    return b.getIndexAttr(llvm::divideCeil(*cx, *cy));
  if (cy && *cy == 1)
    return x;
  return createOnValues<arith::CeilDivUIOp>(b, loc, x, y);
}

Value mlir::croq::indexConstant(OpBuilder &builder, Location loc,
                                int64_t value) {
  return arith::ConstantIndexOp::create(builder, loc, value);
}

Value mlir::croq::product(OpBuilder &builder, Location loc,
                          ArrayRef<Value> values) {
  // Constant factors fold, so a static product stays a constant, as long as
  // the folded value fits in int64_t.
  int64_t constant = 1;
  Value result;
  for (Value v : values) {
    std::optional<int64_t> c = getConstantIntValue(v);
    std::optional<int64_t> folded = c ? llvm::checkedMul(constant, *c) : c;
    if (folded) {
      constant = *folded;
      continue;
    }
    result =
        result ? arith::MulIOp::create(builder, loc, result, v).getResult() : v;
  }
  Value factor = indexConstant(builder, loc, constant);
  if (!result)
    return factor;
  if (constant == 1)
    return result;
  return arith::MulIOp::create(builder, loc, result, factor);
}

Value mlir::croq::lessThan(OpBuilder &builder, Location loc, Value a, Value b) {
  return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult, a, b);
}

Value mlir::croq::allOf(OpBuilder &builder, Location loc,
                        ArrayRef<Value> conditions) {
  Value result;
  for (Value c : conditions)
    result =
        result ? arith::AndIOp::create(builder, loc, result, c).getResult() : c;
  if (!result)
    result = arith::ConstantIntOp::create(builder, loc, 1, 1);
  return result;
}

Value mlir::croq::emitDistributedLoop(OpBuilder &builder, Location loc,
                                      Value threadIndex, int64_t groupSize,
                                      Value total) {
  Value step = indexConstant(builder, loc, groupSize);
  std::optional<int64_t> items = getConstantIntValue(total);
  if (!items) {
    auto loop = scf::ForOp::create(builder, loc, threadIndex, total, step);
    builder.setInsertionPointToStart(loop.getBody());
    return loop.getInductionVar();
  }
  int64_t rounds = llvm::divideCeil(*items, groupSize);
  auto loop = scf::ForOp::create(builder, loc, indexConstant(builder, loc, 0),
                                 indexConstant(builder, loc, rounds),
                                 indexConstant(builder, loc, 1));
  builder.setInsertionPointToStart(loop.getBody());
  Value item = arith::AddIOp::create(
      builder, loc, threadIndex,
      arith::MulIOp::create(builder, loc, loop.getInductionVar(), step));
  if (*items % groupSize != 0) {
    auto guard =
        scf::IfOp::create(builder, loc, lessThan(builder, loc, item, total),
                          /*withElse=*/false);
    builder.setInsertionPointToStart(guard.thenBlock());
  }
  return item;
}

SmallVector<Value> mlir::croq::delinearize(OpBuilder &builder, Location loc,
                                           Value linear,
                                           ArrayRef<Value> sizes) {
  SmallVector<Value> coords(sizes.size());
  Value rest = linear;
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    if (d == 0) {
      coords[d] = rest;
      break;
    }
    coords[d] = arith::RemUIOp::create(builder, loc, rest, sizes[d]);
    rest = arith::DivUIOp::create(builder, loc, rest, sizes[d]);
  }
  return coords;
}
