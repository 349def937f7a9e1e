//===- TmaBoxes.cpp - the bulk copies a tma copy is made of --------------===//
//
// Splits a tma copy into the boxes the hardware takes: one per span-wide
// slab of a tile wider than its swizzle span, dimensions above 256 cut into
// boxes of 256; and checks, before lowering, that a tma copy can be lowered
// (its group, its tile, the number of boxes, where its event slot is
// computed).
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

using namespace mlir;
using namespace mlir::croq;

Value mlir::croq::getTmaGlobalTensor(CopyOp op) {
  bool isLoad = getMemorySpaceOf(op.getDest().getType()) == MemorySpace::Shared;
  Value global = isLoad ? op.getSource() : op.getDest();
  auto view = global.getDefiningOp<ViewOp>();
  return view ? view.getSource() : global;
}

/// The most bulk copies one tma copy is lowered to.
static constexpr int64_t kMaxTmaPieces = 256;

/// The box of the bulk copies that move a tile of `layout`: inside one slab,
/// the innermost dimensions whole, the first one (from the inside) above 256
/// cut to 256, and every dimension outside it 1, so that each box covers a
/// contiguous run of the slab.
SmallVector<int64_t> mlir::croq::getTmaBox(const SharedTileLayout &layout) {
  SmallVector<int64_t> slab = layout.getSlabShape();
  SmallVector<int64_t> box(slab.size(), 1);
  bool whole = true;
  for (int64_t d = static_cast<int64_t>(slab.size()) - 1; d >= 0 && whole;
       --d) {
    box[d] = std::min(slab[d], kMaxTmaBoxDim);
    whole = slab[d] <= kMaxTmaBoxDim;
  }
  return box;
}

/// The number of boxes of getTmaBox in one slab (verified shapes divide
/// into whole boxes).
static int64_t countTmaPiecesPerSlab(const SharedTileLayout &layout) {
  SmallVector<int64_t> slab = layout.getSlabShape();
  SmallVector<int64_t> box = getTmaBox(layout);
  int64_t count = 1;
  for (auto [size, extent] : llvm::zip(slab, box))
    count = saturatingMul(count, size / extent);
  return count;
}

/// The bulk copies that move a tile of `layout`: every box of getTmaBox in
/// every slab.
SmallVector<TmaPiece> mlir::croq::getTmaPieces(const SharedTileLayout &layout) {
  SmallVector<int64_t> slab = layout.getSlabShape();
  SmallVector<int64_t> box = getTmaBox(layout);
  int64_t rank = slab.size();
  SmallVector<int64_t> counts(rank);
  for (int64_t d = 0; d < rank; ++d)
    counts[d] = slab[d] / box[d];
  int64_t perSlab = countTmaPiecesPerSlab(layout);
  SmallVector<TmaPiece> pieces;
  for (int64_t s = 0; s < layout.numSlabs; ++s) {
    for (int64_t k = 0; k < perSlab; ++k) {
      TmaPiece piece;
      piece.coords.assign(rank, 0);
      for (int64_t d = rank - 1, rest = k; d >= 0; --d) {
        piece.coords[d] = (rest % counts[d]) * box[d];
        rest /= counts[d];
      }
      piece.coords.back() += s * layout.slabWidth;
      piece.byteOffset = layout.getLinearByteOffset(piece.coords);
      pieces.push_back(std::move(piece));
    }
  }
  return pieces;
}

LogicalResult mlir::croq::checkTmaLowerable(CopyOp op) {
  auto group = op->getParentOfType<ParallelOp>();
  bool isLoad = getMemorySpaceOf(op.getDest().getType()) == MemorySpace::Shared;
  // A load completes on an event slot; croq-lower-tma-futures gives every
  // load one.
  bool onEvent = isLoad && op.getTrigger();
  if (isLoad && !onEvent)
    return op.emitOpError("completes on no event: run "
                          "croq-lower-tma-futures first");
  // Loads and stores are issued by one thread of a block or warpgroup.
  if (!group || (group.getLevel() != ParallelLevel::Block &&
                 group.getLevel() != ParallelLevel::Warpgroup))
    return op.emitOpError("tma copies are lowered for blocks and "
                          "warpgroups: issue them directly in a "
                          "'croq.parallel ... : block' or '... : warpgroup' "
                          "region");
  auto tileType =
      dyn_cast<TileType>((isLoad ? op.getDest() : op.getSource()).getType());
  if (!tileType)
    return op.emitOpError("tma copies are lowered between a global view "
                          "and a whole shared tile");
  if (onEvent) {
    EventTriggerOp trigger = op.getTrigger();
    Value index = trigger.getIndex();
    Operation *def = index.getDefiningOp();
    Block *owner =
        def ? def->getBlock() : cast<BlockArgument>(index).getOwner();
    if (!owner->getParentOp()->isAncestor(op) ||
        (def && def->getBlock() == op->getBlock() && !def->isBeforeInBlock(op)))
      return op.emitOpError("completes on the event slot that ")
             << "a later croq.event.trigger names; compute the slot index "
                "before the copy";
  }
  SharedTileLayout layout = SharedTileLayout::get(tileType);
  int64_t pieces =
      saturatingMul(countTmaPiecesPerSlab(layout), layout.numSlabs);
  if (pieces > kMaxTmaPieces)
    return op.emitOpError("needs ")
           << pieces << " bulk copies of its largest legal box; a tma copy "
           << "is lowered to at most " << kMaxTmaPieces
           << ": make the tile's inner dimensions at most 256 elements";
  return success();
}
