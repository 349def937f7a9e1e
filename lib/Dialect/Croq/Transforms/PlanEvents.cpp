//===- PlanEvents.cpp - arrival counts of event arrays --------------------===//
//
// Implements croq-plan-events: each croq.event.alloc gets the number of
// arrivals that complete a phase of its slots (the mbarrier's count),
// computed from its triggers: a trigger after tma loads is one arrival (the
// issuing thread, the first of its group, which expects the loads' bytes;
// groups that run one trigger are taken to trigger different slots), a
// plain trigger one per warp that runs it, each warp or issuing thread
// counted once however many triggers it runs, and a cluster trigger once in
// every block of the cluster.
// Event arrays the lowering cannot take are reported.
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/BufferUtils.h"
#include "Croq/Dialect/Croq/IR/CroqOps.h"
#include "Croq/Dialect/Croq/IR/ThreadGroups.h"
#include "Croq/Dialect/Croq/Transforms/Passes.h"

namespace mlir {
namespace croq {
#define GEN_PASS_DEF_CROQPLANEVENTS
#include "Croq/Dialect/Croq/Transforms/Passes.h.inc"
} // namespace croq
} // namespace mlir

using namespace mlir;
using namespace mlir::croq;

/// The arrivals that complete a phase of the slots of `alloc`, or an error.
/// Each warp that triggers the event arrives once per phase, however many
/// triggers it runs (a loop's and the one after it are different phases),
/// and so does each issuing thread (the first of its group) of triggers
/// after tma loads: triggers that run on different warps of the same
/// groups (a producer loop on its first warp and its version with software
/// copies on the whole warpgroup) arrive from the same thread.
static FailureOr<int64_t> countArrivals(EventAllocOp alloc) {
  int64_t slots = alloc.getEvents().getType().getCount();
  if (slots > EventsType::kMaxLoweredSlots)
    return alloc.emitOpError("event arrays of more than ")
           << EventsType::kMaxLoweredSlots << " slots are not lowered, got "
           << slots;
  llvm::BitVector plainWarps;
  SmallVector<llvm::BitVector> tmaIssuers;
  std::optional<bool> cluster;
  for (Operation *user : alloc.getEvents().getUsers()) {
    if (isa<EventWaitOp>(user))
      continue;
    auto trigger = dyn_cast<EventTriggerOp>(user);
    if (!trigger)
      return user->emitOpError("uses an event array; only "
                               "croq.event.trigger and croq.event.wait can "
                               "be lowered");
    for (Value future : trigger.getFutures()) {
      auto copy = future.getDefiningOp<CopyOp>();
      if (future.getDefiningOp<Im2colOp>())
        continue;
      if (!copy || copy.getEngine() != CopyEngine::TMA)
        return trigger.emitOpError("is lowered after tma loads only; wait "
                                   "for a dma copy with croq.wait before "
                                   "triggering");
    }
    if (cluster && *cluster != static_cast<bool>(trigger.getCluster()))
      return trigger.emitOpError("mixes cluster and block triggers of one "
                                 "event array; its slots count the "
                                 "arrivals of one kind");
    cluster = static_cast<bool>(trigger.getCluster());
    if (!trigger.getFutures().empty()) {
      // The first thread of the group arrives and expects the loads' bytes.
      FailureOr<llvm::BitVector> issuing = getIssuingWarps(trigger);
      if (failed(issuing))
        return failure();
      if (!llvm::is_contained(tmaIssuers, *issuing))
        tmaIssuers.push_back(*issuing);
      continue;
    }
    FailureOr<llvm::BitVector> warps = getWarpsRunning(trigger);
    if (failed(warps))
      return failure();
    if (plainWarps.size() < warps->size())
      plainWarps.resize(warps->size());
    plainWarps |= *warps;
  }
  int64_t count = static_cast<int64_t>(plainWarps.count() + tmaIssuers.size());
  // A cluster trigger arrives on the slot of every block of the cluster.
  if (cluster && *cluster)
    count *= getKernel(alloc).getClusterBlocks();
  if (count == 0)
    return alloc.emitOpError("is never triggered, so waiting on it would "
                             "hang");
  return count;
}

namespace {
struct CroqPlanEventsPass : croq::impl::CroqPlanEventsBase<CroqPlanEventsPass> {
  using Base::Base;

  void runOnOperation() override {
    Builder builder(&getContext());
    WalkResult result = getOperation()->walk([&](EventAllocOp alloc) {
      FailureOr<int64_t> arrivals = countArrivals(alloc);
      if (failed(arrivals))
        return WalkResult::interrupt();
      alloc.setArrivalsAttr(builder.getI64IntegerAttr(*arrivals));
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
