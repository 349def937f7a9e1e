//===- PlanTmaBoxes.cpp - the boxes each tma copy is made of --------------===//
//
// The tiling stage of tma copies: a tile moves as the boxes the hardware
// takes, one per swizzle-span-wide slab of a tile wider than its span, and
// dimensions above 256 cut into boxes of 256. The pass records the box and
// the boxes' origins on each tma copy (a multicast copy's box cut further,
// so that its cluster's blocks issue equal shares); croq-emit-tensor-maps
// makes the tensor maps for that box and the conversion issues one bulk
// copy per origin, under one fence, barrier and bulk group for a store.
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/CroqOps.h"
#include "Croq/Dialect/Croq/IR/TileLayout.h"
#include "Croq/Dialect/Croq/Transforms/Passes.h"

namespace mlir {
namespace croq {
#define GEN_PASS_DEF_CROQPLANTMABOXES
#include "Croq/Dialect/Croq/Transforms/Passes.h.inc"
} // namespace croq
} // namespace mlir

using namespace mlir;
using namespace mlir::croq;

/// Records the boxes of the tma copy `copy`, or reports why it has none.
static LogicalResult planBoxes(CopyOp copy) {
  bool isLoad =
      getMemorySpaceOf(copy.getDest().getType()) == MemorySpace::Shared;
  Type sharedType = (isLoad ? copy.getDest() : copy.getSource()).getType();
  auto tile = dyn_cast<TileType>(sharedType);
  if (!tile)
    return copy.emitOpError("tma copies move between a global view and a "
                            "whole shared tile, got ")
           << sharedType;
  if (tile.getSwizzle() == Swizzle::Auto)
    return copy.emitOpError("its tile has no layout yet (swizzle = auto): "
                            "run croq-assign-layouts first");
  SharedTileLayout layout = SharedTileLayout::get(tile);
  // A multicast copy's boxes divide equally among its cluster's blocks.
  int64_t shares = copy.getShares();
  std::optional<SmallVector<int64_t>> box = getTmaShareBox(layout, shares);
  if (!box)
    return copy.emitOpError("cannot share its boxes equally among the ")
           << shares << " blocks of the cluster: the outer dimension of "
           << "its box does not cut into equal shares that start on a "
           << "swizzle atom";
  int64_t count = countTmaPieces(layout, *box);
  if (count > kMaxTmaPieces)
    return copy.emitOpError("needs ")
           << count << " bulk copies of its largest legal box; a tma copy "
           << "is made of at most " << kMaxTmaPieces
           << ": make the tile's inner dimensions at most 256 elements";
  SmallVector<int64_t> origins;
  for (const TmaPiece &piece : getTmaPieces(layout, *box))
    llvm::append_range(origins, piece.coords);
  Builder builder(copy.getContext());
  copy.setBoxAttr(builder.getDenseI64ArrayAttr(*box));
  copy.setBoxOriginsAttr(builder.getDenseI64ArrayAttr(origins));
  return success();
}

namespace {
struct CroqPlanTmaBoxesPass
    : croq::impl::CroqPlanTmaBoxesBase<CroqPlanTmaBoxesPass> {
  void runOnOperation() override {
    bool failedAny = false;
    getOperation()->walk([&](CopyOp copy) {
      if (copy.getEngine() == CopyEngine::TMA && !copy.getBox())
        failedAny |= failed(planBoxes(copy));
    });
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
