//===- IndexMath.h - index arithmetic the croq passes emit ------*- C++ -*-===//
//
// Small builders of index arithmetic shared by the croq passes and the
// conversion to gpu: constants, products, comparisons, row-major
// delinearization, and the loop in which a group of threads shares items.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_DIALECT_CROQ_IR_INDEXMATH_H
#define CROQ_DIALECT_CROQ_IR_INDEXMATH_H

#include "mlir/IR/Builders.h"

namespace mlir {
namespace croq {

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
