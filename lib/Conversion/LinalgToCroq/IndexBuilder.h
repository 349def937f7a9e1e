//===- IndexBuilder.h - folding index arithmetic ----------------*- C++ -*-===//
//
// The index arithmetic convert-linalg-to-croq emits for grids, K ranges
// and the cost model: each op folds where its operands are constants, so a
// static shape gives constants and a dynamic one host code.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_LIB_CONVERSION_LINALGTOCROQ_INDEXBUILDER_H
#define CROQ_LIB_CONVERSION_LINALGTOCROQ_INDEXBUILDER_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace croq {

/// Unsigned index arithmetic at the builder's insertion point.
struct IndexBuilder {
  OpBuilder &b;
  Location loc;

  Value c(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  Value add(Value x, Value y) {
    return b.createOrFold<arith::AddIOp>(loc, x, y);
  }
  Value sub(Value x, Value y) {
    return b.createOrFold<arith::SubIOp>(loc, x, y);
  }
  Value mul(Value x, Value y) {
    return b.createOrFold<arith::MulIOp>(loc, x, y);
  }
  Value div(Value x, Value y) {
    return b.createOrFold<arith::DivUIOp>(loc, x, y);
  }
  Value rem(Value x, Value y) {
    return b.createOrFold<arith::RemUIOp>(loc, x, y);
  }
  Value min(Value x, Value y) {
    return b.createOrFold<arith::MinUIOp>(loc, x, y);
  }
  Value max(Value x, Value y) {
    return b.createOrFold<arith::MaxUIOp>(loc, x, y);
  }
  Value ceilDiv(Value x, Value y) {
    return b.createOrFold<arith::CeilDivUIOp>(loc, x, y);
  }
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
};

} // namespace croq
} // namespace mlir

#endif // CROQ_LIB_CONVERSION_LINALGTOCROQ_INDEXBUILDER_H
