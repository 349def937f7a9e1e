//===- RowPeeling.h - rows peeled to their first aligned chunk --*- C++ -*-===//
//
// The arithmetic that lets a kernel read and write a row's bulk in 16-byte
// vectors whatever the row's alignment: the misalignment of a row's first
// element, taken from its buffer's address, and the split of the row into
// head columns (before the first aligned chunk), full chunks and tail
// columns. The row-chain kernels (RowRegisters.cpp) and the elementwise
// kernel (Elementwise.cpp) share it.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_LIB_CONVERSION_LINALGTOCROQ_ROWPEELING_H
#define CROQ_LIB_CONVERSION_LINALGTOCROQ_ROWPEELING_H

#include "mlir/IR/Builders.h"

namespace mlir {
namespace croq {

/// The byte width of `value`'s elements where a vector access can move
/// them (a power of two from 1 to 8), or 0.
int64_t getVectorBytes(Value value);

/// The address of `buffer[indices]` (a memref) in elements, modulo `width`
/// elements: 0 where a vector of `width` elements there is aligned.
Value emitMisalignment(OpBuilder &b, Location loc, Value buffer,
                       ArrayRef<Value> indices, int64_t width);

/// A row of `columns` columns whose first element is `shift` elements past
/// an aligned address (modulo the chunk width V): `head` columns up to the
/// first aligned chunk (at most V - 1 and at most `columns`), `chunks` full
/// chunks of V columns from column `head`, then the columns from `tail` to
/// the row's end; `edges` columns in all outside the chunks (head and tail,
/// at most 2 * V - 2).
struct PeeledRow {
  Value head, chunks, tail, edges;

  /// Emits the split of a row of `columns` columns misaligned by `shift`
  /// into chunks of `width` columns.
  static PeeledRow create(OpBuilder &b, Location loc, Value shift,
                          Value columns, int64_t width);

  /// The column of edge `index` (below `edges`): a head column, then the
  /// tail's.
  Value getEdgeColumn(OpBuilder &b, Location loc, Value index) const;
};

} // namespace croq
} // namespace mlir

#endif // CROQ_LIB_CONVERSION_LINALGTOCROQ_ROWPEELING_H
