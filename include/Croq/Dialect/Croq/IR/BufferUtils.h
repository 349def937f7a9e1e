//===- BufferUtils.h - which buffer an op reads or writes -------*- C++ -*-===//
//
// The buffer a view, stage or reshape stands for, and the operand through
// which an op writes a buffer: what the passes that reason about buffers
// (read-only tensors, async stores in flight) share.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_DIALECT_CROQ_IR_BUFFERUTILS_H
#define CROQ_DIALECT_CROQ_IR_BUFFERUTILS_H

#include "Croq/Dialect/Croq/IR/CroqOps.h"

namespace mlir {
namespace croq {

/// The buffer `value` is a view of: its source through croq views, span_as,
/// stages and memref view-like ops (a global tensor, or a shared
/// allocation).
Value getUnderlyingBuffer(Value value);

/// The operand through which `op` writes a buffer: the destination of a
/// copy, transpose, pad, mma.store or croq.write; null for other ops.
OpOperand *getWrittenBufferOperand(Operation *op);

/// The block-level croq.parallel around `op` (the kernel), or null.
ParallelOp getKernel(Operation *op);

/// Whether the innermost dimension of the buffer that `value` (a tensor,
/// tile, or view of one) reads or writes has unit stride: tiles always; a
/// tensor when its memref type says so.
bool hasContiguousRows(Value value);

} // namespace croq
} // namespace mlir

#endif // CROQ_DIALECT_CROQ_IR_BUFFERUTILS_H
