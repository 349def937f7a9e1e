//===- IndexMath.h - index arithmetic the croq passes emit ------*- C++ -*-===//
//
// The one set of index-arithmetic builders of croq, shared by the dialect's
// view folding, the croq passes, the conversion from linalg and the
// conversion to gpu: IndexBuilder (unsigned arithmetic that folds where its
// operands are constants, on values and on OpFoldResults), and constants,
// products, comparisons, row-major delinearization and the loop in which a
// group of threads shares items.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_DIALECT_CROQ_IR_INDEXMATH_H
#define CROQ_DIALECT_CROQ_IR_INDEXMATH_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace croq {

/// Index arithmetic at the builder's insertion point. The Value members
/// create ops that fold where their operands are constants (createOrFold),
/// so a static shape gives constants and a dynamic one code; division,
/// remainder, min, max and comparison are unsigned. The OpFoldResult
/// members (`...Ofr`) return an attribute where both operands are
/// constants and the result fits in int64_t, and skip the op where one
/// operand is the identity.
struct IndexBuilder {
  OpBuilder &b;
  Location loc;

  Value c(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  Value add(Value x, Value y) { return fold<arith::AddIOp>(x, y); }
  Value sub(Value x, Value y) { return fold<arith::SubIOp>(x, y); }
  Value mul(Value x, Value y) { return fold<arith::MulIOp>(x, y); }
  Value div(Value x, Value y) { return fold<arith::DivUIOp>(x, y); }
  Value rem(Value x, Value y) { return fold<arith::RemUIOp>(x, y); }
  Value min(Value x, Value y) { return fold<arith::MinUIOp>(x, y); }
  Value max(Value x, Value y) { return fold<arith::MaxUIOp>(x, y); }
  Value ceilDiv(Value x, Value y) { return fold<arith::CeilDivUIOp>(x, y); }
  Value ceilDiv(Value x, int64_t y) { return ceilDiv(x, c(y)); }
  /// `x` rounded up to a multiple of `multiple` (`x` itself for 1).
  Value roundUp(Value x, int64_t multiple) {
    return multiple == 1 ? x : mul(ceilDiv(x, multiple), c(multiple));
  }
  Value less(Value x, Value y) {
    return b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ult, x, y);
  }
  /// Extent `d` of `tensor`: a constant where it is static.
  Value dim(Value tensor, int64_t d) {
    return b.createOrFold<memref::DimOp>(loc, tensor, d);
  }
  Value select(Value condition, Value x, Value y) {
    return b.createOrFold<arith::SelectOp>(loc, condition, x, y);
  }
  /// The product of `values`, 1 for none.
  Value product(ArrayRef<Value> values) {
    Value result = c(1);
    for (Value value : values)
      result = mul(result, value);
    return result;
  }

  /// `x + y`.
  OpFoldResult addOfr(OpFoldResult x, OpFoldResult y);
  /// `x * y`.
  OpFoldResult mulOfr(OpFoldResult x, OpFoldResult y);
  /// The signed minimum of `x` and `y` (window bounds).
  OpFoldResult minOfr(OpFoldResult x, OpFoldResult y);
  /// `x / y` rounded up, unsigned.
  OpFoldResult ceilDivOfr(OpFoldResult x, OpFoldResult y);

private:
  template <typename OpTy> Value fold(Value x, Value y) {
    return b.createOrFold<OpTy>(loc, x, y);
  }
};

/// An index constant.
Value indexConstant(OpBuilder &builder, Location loc, int64_t value);
/// The product of `values`; constant factors fold.
Value product(OpBuilder &builder, Location loc, ArrayRef<Value> values);
/// `a < b` on indices (unsigned).
Value lessThan(OpBuilder &builder, Location loc, Value a, Value b);
/// Conjunction of `conditions`; true when empty.
Value allOf(OpBuilder &builder, Location loc, ArrayRef<Value> conditions);
/// Splits a linear index into coordinates of `sizes` (row-major).
SmallVector<Value> delinearize(OpBuilder &builder, Location loc, Value linear,
                               ArrayRef<Value> sizes);
/// Emits the loop in which `groupSize` threads share `total` items: the
/// thread `threadIndex` takes items threadIndex, threadIndex + groupSize, ...
/// and the builder is left in the loop body, where the item index is
/// returned. With a static total the loop counts rounds from zero, so its
/// trip count is static and the back end can unroll it and overlap the
/// rounds' memory accesses; items past the end of the last round are
/// guarded.
Value emitDistributedLoop(OpBuilder &builder, Location loc, Value threadIndex,
                          int64_t groupSize, Value total);

} // namespace croq
} // namespace mlir

#endif // CROQ_DIALECT_CROQ_IR_INDEXMATH_H
