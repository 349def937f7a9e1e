//===- FoldUnitViews.cpp - unit-dimension reshapes read through maps ------===//
//
// Frontends reshape buffers to add or drop dimensions of extent 1 (a row
// vector of N elements read as N x 1 to broadcast it); a generic that reads
// or writes such a view reads its source just as well, through its
// indexing map. Read so, ops on the same buffer see the same buffer, which
// fusion and the row chains of convert-linalg-to-croq need.
//
//===----------------------------------------------------------------------===//

#include "FoldUnitViews.h"

#include "Croq/Dialect/Croq/IR/CroqOps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::croq;

/// `map` (indexing `view`) as the map of `view`'s source, where `view` is a
/// reshape that only adds or drops dimensions of extent 1; null otherwise.
static AffineMap foldReshape(Operation *view, AffineMap map) {
  MLIRContext *context = map.getContext();
  auto expand = dyn_cast<memref::ExpandShapeOp>(view);
  auto collapse = dyn_cast<memref::CollapseShapeOp>(view);
  if (!expand && !collapse)
    return AffineMap();
  // The expanded side's dimensions in groups, one group per dimension of
  // the collapsed side.
  MemRefType expanded = expand ? expand.getResultType() : collapse.getSrcType();
  SmallVector<ReassociationIndices> groups =
      expand ? expand.getReassociationIndices()
             : collapse.getReassociationIndices();
  SmallVector<AffineExpr> results;
  if (expand) {
    // Each group of the view's dimensions becomes one of the source's: the
    // result of its one dimension of extent above 1 (0 where it has none).
    for (const ReassociationIndices &group : groups) {
      std::optional<int64_t> wide;
      for (int64_t dim : group)
        if (expanded.getDimSize(dim) != 1) {
          if (wide)
            return AffineMap();
          wide = dim;
        }
      if (!wide && group.size() == 1)
        wide = group.front();
      results.push_back(wide ? map.getResult(*wide)
                             : getAffineConstantExpr(0, context));
    }
  } else if (groups.empty()) {
    // A source of one element viewed as a scalar (rank 0): each of its
    // dimensions, all of extent 1, read at 0.
    results.assign(expanded.getRank(), getAffineConstantExpr(0, context));
  } else {
    // Each of the view's dimensions becomes its group of the source's: the
    // view's result at its one dimension of extent above 1, 0 elsewhere.
    for (auto [index, group] : llvm::enumerate(groups)) {
      unsigned wide = 0;
      for (int64_t dim : group)
        wide += expanded.getDimSize(dim) != 1;
      if (wide > 1)
        return AffineMap();
      for (int64_t dim : group)
        results.push_back(expanded.getDimSize(dim) != 1 || group.size() == 1
                              ? map.getResult(index)
                              : getAffineConstantExpr(0, context));
    }
  }
  return AffineMap::get(map.getNumDims(), 0, results, context);
}

/// Reads `op`'s operands that are unit-dimension reshapes through their
/// sources (its outputs too where `withInits`); returns whether it changed
/// `op`.
static bool foldOperands(linalg::GenericOp op, bool withInits) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  SmallVector<AffineMap> before = maps;
  SmallVector<Value> operands(op->getOperands());
  bool changed = false;
  for (auto [index, operand] : llvm::enumerate(operands)) {
    bool isInit = index >= op.getNumDpsInputs();
    Operation *view = operand.getDefiningOp();
    AffineMap folded = view && (withInits || !isInit)
                           ? foldReshape(view, maps[index])
                           : AffineMap();
    if (!folded || (isInit && !folded.isProjectedPermutation()))
      continue;
    maps[index] = folded;
    operands[index] = view->getOperand(0);
    changed = true;
  }
  if (!changed)
    return false;
  // Loops of extent 1 that no operand is indexed by any more are dropped
  // (where the body does not read loop indices).
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  llvm::SmallBitVector unused = getUnusedDimsBitVector(maps);
  // An output keeps indexing each loop it did that stays (a reduction's
  // output read through a view that adds a unit dimension must not lose
  // the loop over it while an input still walks it).
  for (unsigned index = op.getNumDpsInputs(); index < maps.size(); ++index)
    for (unsigned loop = 0; loop < op.getNumLoops(); ++loop)
      if (!unused.test(loop) && before[index].isFunctionOfDim(loop) &&
          !maps[index].isFunctionOfDim(loop))
        return false;
  if (unused.any()) {
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    if (!op.getRegion().front().getOps<linalg::IndexOp>().empty() ||
        llvm::any_of(unused.set_bits(),
                     [&](unsigned loop) { return ranges[loop] != 1; }))
      return false;
    maps = compressUnusedDims(maps);
    SmallVector<utils::IteratorType> kept;
    for (auto [loop, iterator] : llvm::enumerate(iterators))
      if (!unused.test(loop))
        kept.push_back(iterator);
    iterators = kept;
  }
  // Every loop must still index an operand's dimension, from which its
  // extent comes, and an output indexed by every loop once still is.
  if (maps.front().getNumDims() == 0 ||
      !inversePermutation(concatAffineMaps(maps, op.getContext())))
    return false;
  for (unsigned index = op.getNumDpsInputs(); index < maps.size(); ++index)
    if (before[index].isPermutation() && !maps[index].isPermutation())
      return false;
  Builder b(op);
  op->setOperands(operands);
  op.setIndexingMapsAttr(b.getAffineMapArrayAttr(maps));
  SmallVector<Attribute> iteratorAttrs;
  for (utils::IteratorType iterator : iterators)
    iteratorAttrs.push_back(
        linalg::IteratorTypeAttr::get(op.getContext(), iterator));
  op.setIteratorTypesAttr(b.getArrayAttr(iteratorAttrs));
  return true;
}

void mlir::croq::foldUnitViews(ModuleOp module) {
  module.walk([&](linalg::GenericOp op) {
    if (op->getParentOfType<ParallelOp>() || !op.hasPureBufferSemantics())
      return;
    while (foldOperands(op, /*withInits=*/true) ||
           foldOperands(op, /*withInits=*/false)) {
    }
  });
  // A fill of a reshape right before a generic that now writes the
  // reshape's source fills the source (all of it, the same elements), so
  // that the generic still finds its starting value right before it.
  module.walk([&](linalg::FillOp fill) {
    // Views between them (pure) do not count.
    Operation *after = fill->getNextNode();
    while (isa_and_nonnull<ViewLikeOpInterface>(after))
      after = after->getNextNode();
    auto next = dyn_cast_or_null<linalg::GenericOp>(after);
    OpOperand &out = fill.getDpsInitsMutable()[0];
    Value source = out.get();
    while (isa_and_nonnull<memref::ExpandShapeOp, memref::CollapseShapeOp>(
        source.getDefiningOp()))
      source = source.getDefiningOp()->getOperand(0);
    if (next && source != out.get() &&
        llvm::is_contained(next.getDpsInits(), source)) {
      out.set(source);
      fill->moveBefore(next);
    }
  });
}
