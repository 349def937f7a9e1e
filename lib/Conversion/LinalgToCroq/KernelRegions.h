//===- KernelRegions.h - the regions of a kernel from linalg ----*- C++ -*-===//
//
// The block grid and thread region that the elementwise, reduction and
// row-chain kernels of convert-linalg-to-croq all start with.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_LIB_CONVERSION_LINALGTOCROQ_KERNELREGIONS_H
#define CROQ_LIB_CONVERSION_LINALGTOCROQ_KERNELREGIONS_H

#include "mlir/IR/Builders.h"

namespace mlir {
namespace croq {

/// `croq.parallel (%b) in [max(cdiv(items, perBlock), 1)] : block` where `b`
/// inserts: a block for every `perBlock` items, and one (computing nothing)
/// for none. Leaves `b` inserting in its body; returns the block index.
Value createLinearGrid(OpBuilder &b, Location loc, Value items, Value perBlock);

/// `croq.parallel (%t) in [threads] : thread` where `b` inserts. Leaves `b`
/// inserting in its body; returns the thread index.
Value createThreadRegion(OpBuilder &b, Location loc, int64_t threads);

} // namespace croq
} // namespace mlir

#endif // CROQ_LIB_CONVERSION_LINALGTOCROQ_KERNELREGIONS_H
