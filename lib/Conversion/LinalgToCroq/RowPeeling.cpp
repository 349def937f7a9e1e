//===- RowPeeling.cpp - rows peeled to their first aligned chunk ----------===//
//
// Misalignments from buffer addresses, and rows split into head, aligned
// chunks and tail.
//
//===----------------------------------------------------------------------===//

#include "RowPeeling.h"
#include "IndexBuilder.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::croq;

int64_t mlir::croq::getVectorBytes(Value value) {
  Type element = getElementTypeOrSelf(value.getType());
  if (!element.isIntOrFloat())
    return 0;
  unsigned bits = element.getIntOrFloatBitWidth();
  if (bits < 8 || bits > 64 || !llvm::isPowerOf2_32(bits))
    return 0;
  return bits / 8;
}

Value mlir::croq::emitMisalignment(OpBuilder &b, Location loc, Value buffer,
                                   ArrayRef<Value> indices, int64_t width) {
  IndexBuilder e{b, loc};
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, buffer);
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
  Value linear = metadata.getOffset();
  for (auto [index, stride] : llvm::zip(indices, metadata.getStrides()))
    linear = e.add(linear, e.mul(index, stride));
  Value first = e.add(e.div(base, e.c(getVectorBytes(buffer))), linear);
  return e.rem(first, e.c(width));
}

PeeledRow PeeledRow::create(OpBuilder &b, Location loc, Value shift,
                            Value columns, int64_t width) {
  IndexBuilder e{b, loc};
  PeeledRow row;
  row.head = e.min(e.rem(e.sub(e.c(width), shift), e.c(width)), columns);
  row.chunks = e.div(e.sub(columns, row.head), e.c(width));
  row.tail = e.add(row.head, e.mul(row.chunks, e.c(width)));
  row.edges = e.add(row.head, e.sub(columns, row.tail));
  return row;
}

Value PeeledRow::getEdgeColumn(OpBuilder &b, Location loc, Value index) const {
  IndexBuilder e{b, loc};
  return e.select(e.less(index, head), index, e.add(tail, e.sub(index, head)));
}
