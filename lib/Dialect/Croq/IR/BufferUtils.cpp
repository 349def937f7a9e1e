//===- BufferUtils.cpp - which buffer an op reads or writes ---------------===//
//
// Follows views, stages and reshapes to the buffer they stand for, and names
// the operand through which an op writes.
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/BufferUtils.h"
#include "Croq/Dialect/Croq/IR/ViewUtils.h"

#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::croq;

/// The value `value` is a view, stage or reshape of, or null.
static Value getViewedValue(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def)
    return Value();
  if (auto viewLike = dyn_cast<ViewLikeOpInterface>(def))
    return viewLike.getViewSource();
  if (isViewOp(def) || isa<SpanAsOp, StageOp>(def))
    return def->getOperand(0);
  return Value();
}

Value mlir::croq::getUnderlyingBuffer(Value value) {
  while (Value viewed = getViewedValue(value))
    value = viewed;
  return value;
}

OpOperand *mlir::croq::getWrittenBufferOperand(Operation *op) {
  if (auto copy = dyn_cast<CopyOp>(op))
    return &copy.getDestMutable();
  if (auto store = dyn_cast<MmaStoreOp>(op))
    return &store.getDestMutable();
  if (auto transpose = dyn_cast<TransposeOp>(op))
    return &transpose.getDestMutable();
  if (auto pad = dyn_cast<PadOp>(op))
    return &pad.getDestMutable();
  if (auto write = dyn_cast<WriteOp>(op))
    return &write.getDestMutable();
  if (auto chunk = dyn_cast<CopyChunkOp>(op))
    return &chunk.getDestMutable();
  return nullptr;
}

ParallelOp mlir::croq::getKernel(Operation *op) {
  auto parallel = op->getParentOfType<ParallelOp>();
  while (parallel && parallel.getLevel() != ParallelLevel::Block)
    parallel = parallel->getParentOfType<ParallelOp>();
  return parallel;
}

/// Whether the innermost dimension of `memref`'s layout has unit stride.
static bool hasUnitInnerStride(MemRefType memref) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(memref.getStridesAndOffset(strides, offset)))
    return false;
  return strides.empty() || strides.back() == 1;
}

/// Whether the innermost dimension of the buffer that `value` reads or
/// writes is contiguous: tiles always are; a tensor when its memref type
/// and the type of every memref it is a view of say so (a croq view of a
/// strided memref.subview of a contiguous buffer is not contiguous).
bool mlir::croq::hasContiguousRows(Value value) {
  for (; value; value = getViewedValue(value))
    if (auto memref = dyn_cast<MemRefType>(value.getType());
        memref && !hasUnitInnerStride(memref))
      return false;
  return true;
}
