//===- LowerTmaFutures.cpp - tma loads complete on events -----------------===//
//
// Implements croq-lower-tma-futures: a tma load completes on an mbarrier
// that expects its bytes. A load that already triggers an event completes
// on that event's slot; every other tma load gets a one-slot event array of
// its own at the start of its kernel, is issued async, triggers the slot
// right after it is issued, and its synchronous completion (or the croq.wait
// of its future) becomes a croq.event.wait on the slot. After this pass a
// tma load's future has one meaning, an event slot, and the phases of every
// mbarrier are those of event arrays.
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/BufferUtils.h"
#include "Croq/Dialect/Croq/IR/CroqOps.h"
#include "Croq/Dialect/Croq/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir {
namespace croq {
#define GEN_PASS_DEF_CROQLOWERTMAFUTURES
#include "Croq/Dialect/Croq/Transforms/Passes.h.inc"
} // namespace croq
} // namespace mlir

using namespace mlir;
using namespace mlir::croq;

static bool isMulticast(CopyOp copy) { return copy.getMulticast(); }
static bool isMulticast(Im2colOp) { return false; }

/// `copy` issued async.
static CopyOp createAsync(OpBuilder &builder, CopyOp copy) {
  return CopyOp::create(
      builder, copy.getLoc(), FutureType::get(copy.getContext()),
      copy.getEngineAttr(), copy.getSource(), copy.getDest(), copy.getMap(),
      copy.getUsable(), copy.getZfillAttr(), copy.getSwizzleAttr(),
      copy.getBoxAttr(), copy.getBoxOriginsAttr(), copy.getMulticastAttr(),
      copy.getMulticastDimAttr());
}

/// `load` issued async.
static Im2colOp createAsync(OpBuilder &builder, Im2colOp load) {
  return Im2colOp::create(builder, load.getLoc(),
                          FutureType::get(load.getContext()), load.getTensor(),
                          load.getDest(), load.getCoords(), load.getOffsets(),
                          load.getMap());
}

/// Rewrites the tma load `copy`, which triggers no event, into an async
/// load on a one-slot event array of its own:
///
///   croq.copy tma %v -> %t              gpu.barrier
///                                 =>    %f = croq.copy tma async %v -> %t
///                                       croq.event.trigger %e[%c0] after (%f)
///                                       croq.event.wait %e[%c0]
///
/// An async load's croq.wait becomes the croq.event.wait. The barrier before
/// the load keeps the block's earlier readers of the tile ahead of the
/// engine's writes, as a synchronous copy promises (a cluster barrier for a
/// multicast load, which writes the tiles of the whole cluster).
///
/// An im2col load (croq.im2col) is rewritten the same way.
template <typename LoadOp> static LogicalResult lowerTmaFuture(LoadOp copy) {
  Location loc = copy.getLoc();
  Operation *op = copy;
  auto group = op->getParentOfType<ParallelOp>();
  if (!group || group.getLevel() != ParallelLevel::Block)
    return copy.emitOpError(
        "tma loads that trigger no event are lowered for block-level groups "
        "(the whole block waits for them): issue it directly in a "
        "'croq.parallel ... : block' region, or trigger an event after it");
  WaitOp wait;
  if (Value future = copy.getFuture()) {
    if (!future.use_empty()) {
      wait = dyn_cast<WaitOp>(*future.getUsers().begin());
      if (!future.hasOneUse() || !wait)
        return copy.emitOpError("the future of a tma load is consumed by one "
                                "croq.wait or one croq.event.trigger");
    }
  }
  MLIRContext *context = copy.getContext();
  OpBuilder builder(context);
  ParallelOp kernel = getKernel(copy);
  if (!kernel)
    return copy.emitOpError("is not inside a kernel (a 'croq.parallel ... : "
                            "block' region)");
  builder.setInsertionPointToStart(&kernel.getBody().front());
  Value events = EventAllocOp::create(builder, loc, EventsType::get(context, 1),
                                      /*ready=*/UnitAttr(),
                                      /*arrivals=*/IntegerAttr());

  builder.setInsertionPoint(copy);
  // A multicast load writes every block of the cluster: all of them are
  // done with the tile before any issues its share.
  if (isMulticast(copy))
    ClusterBarrierOp::create(builder, loc);
  else
    gpu::BarrierOp::create(builder, loc);
  Value slot = arith::ConstantIndexOp::create(builder, loc, 0);
  auto load = createAsync(builder, copy);
  EventTriggerOp::create(builder, loc, events, slot,
                         ValueRange{load.getFuture()}, /*cluster=*/nullptr);
  if (!copy.isAsync()) {
    EventWaitOp::create(builder, loc, events, slot);
  } else if (wait) {
    builder.setInsertionPoint(wait);
    Value waitSlot = arith::ConstantIndexOp::create(builder, loc, 0);
    EventWaitOp::create(builder, wait.getLoc(), events, waitSlot);
    wait.erase();
  }
  copy.erase();
  return success();
}

namespace {
struct CroqLowerTmaFuturesPass
    : croq::impl::CroqLowerTmaFuturesBase<CroqLowerTmaFuturesPass> {
  void runOnOperation() override {
    SmallVector<CopyOp> loads;
    getOperation()->walk([&](CopyOp copy) {
      if (copy.isTmaLoad() && !copy.getTrigger())
        loads.push_back(copy);
    });
    for (CopyOp copy : loads)
      if (failed(lowerTmaFuture(copy)))
        return signalPassFailure();
    SmallVector<Im2colOp> im2colLoads;
    getOperation()->walk([&](Im2colOp load) {
      if (!load.getTrigger())
        im2colLoads.push_back(load);
    });
    for (Im2colOp load : im2colLoads)
      if (failed(lowerTmaFuture(load)))
        return signalPassFailure();
  }
};
} // namespace
