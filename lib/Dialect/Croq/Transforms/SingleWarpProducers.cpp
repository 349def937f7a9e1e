//===- SingleWarpProducers.cpp - producer loops on one warp ---------------===//
//
// Implements croq-single-warp-producers: a loop of a warp-specialized
// producer role that only waits on events and issues tma loads (with
// indices that may come from global tensors it reads, such as a paged
// cache's block table) runs on the first warp of its warpgroup. The loads and the arrivals that expect their
// bytes come from the group's first thread either way; the other warps
// would only wait, and nothing keeps a warp that only waits within a phase
// of the ring: one that falls two phases behind on a slot waits for a
// parity that has come and gone, and its block never ends.
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/CroqOps.h"
#include "Croq/Dialect/Croq/IR/ThreadGroups.h"
#include "Croq/Dialect/Croq/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir {
namespace croq {
#define GEN_PASS_DEF_CROQSINGLEWARPPRODUCERS
#include "Croq/Dialect/Croq/Transforms/Passes.h.inc"
} // namespace croq
} // namespace mlir

using namespace mlir;
using namespace mlir::croq;

/// Whether `copy` is a tma load the group's first thread issues alone: no
/// software copy, or one whose answer is a non-zero constant (the version
/// croq-unswitch-tma-fallbacks makes for tensors TMA takes).
static bool isBulkLoad(CopyOp copy) {
  if (!copy.isTmaLoad())
    return false;
  Value usable = copy.getUsable();
  if (!usable)
    return true;
  std::optional<int64_t> answer = getConstantIntValue(usable);
  return answer && *answer != 0;
}

/// Whether nothing reads `value` but the yields of branches whose results
/// nothing reads (as the two versions of croq-unswitch-tma-fallbacks yield
/// a loop's results).
static bool isDead(Value value) {
  return llvm::all_of(value.getUses(), [](OpOperand &use) {
    auto yield = dyn_cast<scf::YieldOp>(use.getOwner());
    auto branch = yield ? dyn_cast<scf::IfOp>(yield->getParentOp()) : nullptr;
    return branch && isDead(branch.getResult(use.getOperandNumber()));
  });
}

/// Whether `loop` waits on events and issues tma loads (completing on event
/// slots) and does nothing else but compute indices (also from elements of
/// global tensors it reads) and branch: nothing in it needs the
/// warpgroup's other warps, and nothing reads its results.
static bool isIssueLoop(scf::ForOp loop) {
  if (!llvm::all_of(loop->getResults(), isDead))
    return false;
  bool waits = false, loads = false;
  WalkResult result = loop->walk([&](Operation *op) {
    if (isa<scf::ForOp, scf::IfOp, scf::YieldOp>(op))
      return WalkResult::advance();
    if (isa<EventWaitOp>(op)) {
      waits = true;
      return WalkResult::advance();
    }
    if (auto trigger = dyn_cast<EventTriggerOp>(op))
      return trigger.getFutures().empty() || trigger.getCluster()
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    if (auto copy = dyn_cast<CopyOp>(op)) {
      if (!isBulkLoad(copy))
        return WalkResult::interrupt();
      loads = true;
      return WalkResult::advance();
    }
    // An im2col load is always a bulk load (it has no software copy).
    if (isa<Im2colOp>(op)) {
      loads = true;
      return WalkResult::advance();
    }
    // A read of a global tensor (a block table entry, a sequence's length
    // that the loop's indices depend on) is each thread's own load: the
    // first warp reads what it needs.
    if (auto read = dyn_cast<ReadOp>(op))
      return getMemorySpaceOf(read.getSource().getType()) ==
                     MemorySpace::Global
                 ? WalkResult::advance()
                 : WalkResult::interrupt();
    if (op->getNumRegions() == 0 && isMemoryEffectFree(op))
      return WalkResult::advance();
    return WalkResult::interrupt();
  });
  return !result.wasInterrupted() && waits && loads;
}

/// Whether an op after `loop` in `role` (after it or after an op around it,
/// not in another branch) waits on an event array the loop waits on: that
/// wait would need the phases the loop's waits leave, which a
/// croq.inthreads region cannot hand back (croq-carry-event-phases).
static bool isWaitedOnAfter(scf::ForOp loop, InthreadsOp role) {
  llvm::SmallPtrSet<Value, 4> events;
  loop->walk([&](EventWaitOp wait) { events.insert(wait.getEvents()); });
  for (Operation *at = loop; at != role; at = at->getParentOp()) {
    for (Operation *next = at->getNextNode(); next; next = next->getNextNode())
      if (next->walk([&](EventWaitOp wait) {
                return events.contains(wait.getEvents())
                           ? WalkResult::interrupt()
                           : WalkResult::advance();
              })
              .wasInterrupted())
        return true;
  }
  return false;
}

/// Moves `loop` into `croq.inthreads async` on the first warp of its
/// warpgroup (a croq.warp_index, which the compiler knows to be the same
/// for the warp's threads: the loop's indices stay in the warp's uniform
/// registers, where a branch on the thread index spilled them past the
/// producer's 56 registers). The yields that pass its results on (which
/// nothing reads) pass its initial values instead.
static void runOnFirstWarp(scf::ForOp loop) {
  Location loc = loop.getLoc();
  loop->replaceAllUsesWith(loop.getInitArgs());
  OpBuilder b(loop);
  Value warp = WarpIndexOp::create(b, loc, ParallelLevel::Warpgroup);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value first =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, warp, zero);
  auto region = InthreadsOp::create(b, loc, first, b.getUnitAttr(),
                                    /*registers=*/IntegerAttr());
  Block *body = b.createBlock(&region.getBody());
  loop->moveBefore(body, body->end());
}

/// Runs the issue loops of `block` (in `role`) on one warp, looking into
/// the branches that hold them. Not into loops: a loop around the narrowed
/// one would need its waits' phases on the next iteration, which a
/// croq.inthreads region cannot hand back (croq-carry-event-phases); nor
/// a loop whose events are waited on after it.
static void narrowIssueLoops(Block &block, InthreadsOp role) {
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (auto loop = dyn_cast<scf::ForOp>(op);
        loop && isIssueLoop(loop) && !isWaitedOnAfter(loop, role)) {
      runOnFirstWarp(loop);
      continue;
    }
    if (!isa<scf::IfOp>(op))
      continue;
    for (Region &region : op.getRegions())
      for (Block &nested : region)
        narrowIssueLoops(nested, role);
  }
}

namespace {
struct CroqSingleWarpProducersPass
    : croq::impl::CroqSingleWarpProducersBase<CroqSingleWarpProducersPass> {
  void runOnOperation() override {
    // The roles: async regions of warpgroups, outermost in them.
    SmallVector<InthreadsOp> roles;
    getOperation()->walk([&](InthreadsOp region) {
      if (isWarpgroupRole(region))
        roles.push_back(region);
    });
    for (InthreadsOp role : roles)
      narrowIssueLoops(role.getBody().front(), role);
  }
};
} // namespace
