//===- TmaChecks.cpp - whether a tma copy can be lowered ------------------===//
//
// Checks, before lowering, that a tma copy can be lowered: its group, its
// tile, its boxes (planned by croq-plan-tma-boxes), where its event slot is
// computed.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

using namespace mlir;
using namespace mlir::croq;

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
  if (!op.getBox())
    return op.emitOpError("has no boxes: run croq-plan-tma-boxes first");
  return success();
}
