//===- RankZero.cpp - buffers of rank 0 viewed with one dimension ---------===//
//
// Part of convert-linalg-to-croq, before ops are sorted: a scalar that a
// frontend keeps in a buffer (a loss summed over every element, a mean, a
// 1 x 1 tensor with its unit dimensions folded) is a memref of rank 0,
// which no kernel indexes. Each linalg op of host code that reads or writes
// one reads and writes views with a dimension of extent 1 instead:
//   - an op whose output is of rank 0 (a reduction to a scalar) or that has
//     no loops gets a leading parallel loop of extent 1 that indexes a new
//     leading dimension of every buffer it touches (the reduction to a
//     scalar is a row reduction of one row);
//   - an op with loops that only reads a scalar reads it at 0 of a view of
//     one element.
// Named ops other than fills are generalized first.
//
//===----------------------------------------------------------------------===//

#include "Classify.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::croq;

static bool isRankZero(Value value) {
  auto type = dyn_cast<MemRefType>(value.getType());
  return type && type.getRank() == 0;
}

namespace {
/// The views with a leading dimension of extent 1 made so far, one per
/// buffer: the ops on one buffer (a fill and the reduction after it) then
/// still see one buffer.
using UnitViews = llvm::DenseMap<Value, Value>;
} // namespace

/// `buffer` with a leading dimension of extent 1, viewed where it is
/// defined.
static Value prependUnitDim(UnitViews &views, Value buffer) {
  if (Value view = views.lookup(buffer))
    return view;
  OpBuilder b(buffer.getContext());
  if (Operation *def = buffer.getDefiningOp())
    b.setInsertionPointAfter(def);
  else
    b.setInsertionPointToStart(cast<BlockArgument>(buffer).getOwner());
  Location loc = buffer.getLoc();
  auto type = cast<MemRefType>(buffer.getType());
  SmallVector<int64_t> shape{1};
  llvm::append_range(shape, type.getShape());
  SmallVector<OpFoldResult> sizes{b.getIndexAttr(1)};
  SmallVector<ReassociationIndices> groups;
  for (int64_t dim = 0; dim < type.getRank(); ++dim) {
    sizes.push_back(memref::getMixedSize(b, loc, buffer, dim));
    groups.push_back(dim == 0 ? ReassociationIndices{0, 1}
                              : ReassociationIndices{dim + 1});
  }
  Value view =
      memref::ExpandShapeOp::create(b, loc, shape, buffer, groups, sizes);
  views[buffer] = view;
  return view;
}

/// Gives `op` a leading parallel loop of extent 1 that indexes a leading
/// dimension of extent 1 of each buffer it touches.
static void prependUnitLoop(UnitViews &views, linalg::GenericOp op) {
  MLIRContext *context = op.getContext();
  OpBuilder b(op);
  SmallVector<AffineMap> maps;
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    AffineMap shifted = map.shiftDims(1);
    if (!isa<MemRefType>(operand.get().getType())) {
      maps.push_back(shifted);
      continue;
    }
    SmallVector<AffineExpr> results{getAffineDimExpr(0, context)};
    llvm::append_range(results, shifted.getResults());
    maps.push_back(AffineMap::get(map.getNumDims() + 1, 0, results, context));
    operand.set(prependUnitDim(views, operand.get()));
  }
  SmallVector<Attribute> iterators{
      linalg::IteratorTypeAttr::get(context, utils::IteratorType::parallel)};
  for (utils::IteratorType iterator : op.getIteratorTypesArray())
    iterators.push_back(linalg::IteratorTypeAttr::get(context, iterator));
  op.setIndexingMapsAttr(b.getAffineMapArrayAttr(maps));
  op.setIteratorTypesAttr(b.getArrayAttr(iterators));
  for (auto index : op.getRegion().front().getOps<linalg::IndexOp>())
    index.setDim(index.getDim() + 1);
}

/// Makes `op` read each input of rank 0 as element 0 of a view of one
/// element.
static void viewScalarInputs(UnitViews &views, linalg::GenericOp op) {
  OpBuilder b(op);
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (!isRankZero(input->get()))
      continue;
    AffineMap &map = maps[input->getOperandNumber()];
    map = AffineMap::get(map.getNumDims(), 0,
                         getAffineConstantExpr(0, op.getContext()));
    input->set(prependUnitDim(views, input->get()));
  }
  op.setIndexingMapsAttr(b.getAffineMapArrayAttr(maps));
}

void mlir::croq::viewRankZeroBuffers(ModuleOp module) {
  SmallVector<linalg::LinalgOp> ops;
  module.walk([&](linalg::LinalgOp op) {
    if (op.hasPureBufferSemantics() &&
        llvm::any_of(op->getOperands(), isRankZero))
      ops.push_back(op);
  });
  IRRewriter rewriter(module.getContext());
  UnitViews views;
  for (linalg::LinalgOp op : ops) {
    if (auto fill = dyn_cast<linalg::FillOp>(op.getOperation())) {
      OpOperand &out = fill.getDpsInitsMutable()[0];
      out.set(prependUnitDim(views, out.get()));
      continue;
    }
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic) {
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::GenericOp> generalized =
          linalg::generalizeNamedOp(rewriter, op);
      if (failed(generalized))
        continue; // Declined by name when ops are sorted.
      generic = *generalized;
    }
    if (generic.getNumLoops() == 0 ||
        llvm::any_of(generic.getDpsInits(), isRankZero))
      prependUnitLoop(views, generic);
    else
      viewScalarInputs(views, generic);
  }
}
