//===- KernelRegions.cpp - the regions of a kernel from linalg ------------===//

#include "KernelRegions.h"
#include "IndexBuilder.h"

#include "Croq/Dialect/Croq/IR/CroqOps.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::croq;

Value mlir::croq::createLinearGrid(OpBuilder &b, Location loc, Value items,
                                   Value perBlock) {
  IndexBuilder e{b, loc};
  Value grid = e.max(e.ceilDiv(items, perBlock), e.c(1));
  SmallVector<Value> dynamicGrid;
  SmallVector<int64_t> staticGrid;
  dispatchIndexOpFoldResults(getAsOpFoldResult(ValueRange{grid}), dynamicGrid,
                             staticGrid);
  auto kernel =
      ParallelOp::create(b, loc, dynamicGrid, staticGrid, ParallelLevel::Block,
                         /*shared_memory=*/nullptr, /*cluster=*/nullptr);
  return b.createBlock(&kernel.getBody(), {}, {b.getIndexType()}, {loc})
      ->getArgument(0);
}

Value mlir::croq::createThreadRegion(OpBuilder &b, Location loc,
                                     int64_t threads) {
  auto region = ParallelOp::create(
      b, loc, ValueRange{}, b.getDenseI64ArrayAttr({threads}),
      ParallelLevel::Thread, /*shared_memory=*/nullptr, /*cluster=*/nullptr);
  return b.createBlock(&region.getBody(), {}, {b.getIndexType()}, {loc})
      ->getArgument(0);
}
