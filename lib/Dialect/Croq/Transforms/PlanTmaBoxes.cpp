//===- PlanTmaBoxes.cpp - the boxes each tma copy is made of --------------===//
//
// The tiling stage of tma copies: a tile moves as the boxes the hardware
// takes, one per swizzle-span-wide slab of a tile wider than its span, and
// dimensions above 256 cut into boxes of 256. The pass records the box and
// the boxes' origins on each tma copy; croq-emit-tensor-maps makes the
// tensor maps for that box and the conversion issues one bulk copy per
// origin, under one fence, barrier and bulk group for a store.
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
  int64_t count = countTmaPieces(layout);
  if (count > kMaxTmaPieces)
    return copy.emitOpError("needs ")
           << count << " bulk copies of its largest legal box; a tma copy "
           << "is made of at most " << kMaxTmaPieces
           << ": make the tile's inner dimensions at most 256 elements";
  SmallVector<int64_t> origins;
  for (const TmaPiece &piece : getTmaPieces(layout))
    llvm::append_range(origins, piece.coords);
  Builder builder(copy.getContext());
  copy.setBoxAttr(builder.getDenseI64ArrayAttr(getTmaBox(layout)));
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
