//===- UnitBatch.cpp - products of one matrix as plain products -----------===//
//
// Part of croq-specialize-contractions. A frontend's matrix product of two
// dimensions often arrives as a batch of one: TOSA's matmul is 3-D, and
// tosa-to-linalg makes it a linalg.batch_matmul of extent 1 along the
// batch. Computed as a batch, it takes none of the forms a plain product
// may (K splits, stream-K, tiles of C^T, the one-row forms); viewed as one
// matrix per operand, it is a linalg.matmul. (convert-linalg-to-croq's
// prepareProductConsumers makes the consumer that reads the batch of one
// read the matrix, for the GEMM's epilogue.)
//
//===----------------------------------------------------------------------===//

#include "Contractions.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::croq;

/// `map` over (b, m, n, k) as a map over (m, n, k) without its batch
/// result; null where the batch loop indexes anything but its first result.
static AffineMap dropBatch(AffineMap map, bool hasBatch) {
  MLIRContext *context = map.getContext();
  ArrayRef<AffineExpr> results = map.getResults();
  if (hasBatch)
    results = results.drop_front();
  for (AffineExpr expr : results)
    if (expr.isFunctionOfDim(0))
      return AffineMap();
  SmallVector<AffineExpr> dims{getAffineConstantExpr(0, context)};
  for (unsigned i = 0; i < 3; ++i)
    dims.push_back(getAffineDimExpr(i, context));
  return AffineMap::get(4, 0, results, context)
      .replaceDimsAndSymbols(dims, {}, 3, 0);
}

/// `operand` of `op`, indexed by `map`, viewed without its batch
/// dimension (its first, of extent 1): the operand itself where it has
/// none (broadcast over the batch); null where its layout does not
/// collapse.
static Value viewWithoutBatch(OpBuilder &b, Location loc, Value operand,
                              AffineMap map) {
  auto type = cast<MemRefType>(operand.getType());
  auto first = dyn_cast<AffineDimExpr>(map.getResult(0));
  if (!first || first.getPosition() != 0)
    return operand;
  if (type.getRank() < 2 || type.getDimSize(0) != 1)
    return Value();
  SmallVector<ReassociationIndices> groups{{0, 1}};
  for (int64_t dim = 2; dim < type.getRank(); ++dim)
    groups.push_back({dim});
  if (!memref::CollapseShapeOp::isGuaranteedCollapsible(type, groups))
    return Value();
  return memref::CollapseShapeOp::create(b, loc, operand, groups);
}

LogicalResult mlir::croq::collapseUnitBatch(linalg::BatchMatmulOp op,
                                            linalg::FillOp fill) {
  Value out = op.getDpsInits()[0];
  auto outType = cast<MemRefType>(out.getType());
  if (outType.getDimSize(0) != 1)
    return failure();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  SmallVector<AffineMap> newMaps;
  for (auto [operand, map] : llvm::zip(op->getOperands(), maps)) {
    auto type = cast<MemRefType>(operand.getType());
    auto first = dyn_cast<AffineDimExpr>(map.getResult(0));
    bool hasBatch = first && first.getPosition() == 0;
    if (hasBatch && type.getDimSize(0) != 1)
      return failure();
    newMaps.push_back(dropBatch(map, hasBatch));
    if (!newMaps.back())
      return failure();
  }
  // The views before the fill, which then fills C's.
  OpBuilder b(fill ? fill.getOperation() : op.getOperation());
  Location loc = op.getLoc();
  SmallVector<Value> views;
  for (auto [operand, map] : llvm::zip(op->getOperands(), maps))
    views.push_back(viewWithoutBatch(b, loc, operand, map));
  if (llvm::is_contained(views, Value())) {
    for (Value view : views)
      if (view && view.getDefiningOp<memref::CollapseShapeOp>())
        view.getDefiningOp()->erase();
    return failure();
  }
  if (fill)
    fill.getDpsInitsMutable()[0].set(views[2]);
  b.setInsertionPoint(op);
  SmallVector<NamedAttribute> attributes{NamedAttribute(
      b.getStringAttr("indexing_maps"), b.getAffineMapArrayAttr(newMaps))};
  if (Attribute cast = op->getAttr(op.getCastAttrName()))
    attributes.push_back(NamedAttribute(op.getCastAttrName(), cast));
  linalg::MatmulOp::create(b, loc, ValueRange{views[0], views[1]},
                           ValueRange{views[2]}, attributes);
  op.erase();
  return success();
}
