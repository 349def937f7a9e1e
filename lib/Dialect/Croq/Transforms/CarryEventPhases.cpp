//===- CarryEventPhases.cpp - event phases as SSA values ------------------===//
//
// Implements croq-carry-event-phases: a wait on an event slot waits for the
// phase of the slot's mbarrier that this thread has not seen yet, so each
// thread keeps one parity bit per slot. This pass makes those bits SSA
// values of type !croq.phases: each event array starts with the bits of
// croq.event.phases, each croq.event.wait takes the bits and returns them
// with its slot's bit flipped, and the bits are carried through scf.for
// (as an iteration argument) and scf.if (as a result) to the next wait.
// Inside croq.inthreads, croq.parallel and croq.foreach regions the waits
// continue from the bits the region starts with; such a region yields no
// values, so a later wait on the same array outside the region is an error.
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/CroqOps.h"
#include "Croq/Dialect/Croq/IR/ThreadGroups.h"
#include "Croq/Dialect/Croq/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace croq {
#define GEN_PASS_DEF_CROQCARRYEVENTPHASES
#include "Croq/Dialect/Croq/Transforms/Passes.h.inc"
} // namespace croq
} // namespace mlir

using namespace mlir;
using namespace mlir::croq;

namespace {
/// The phase bits at a point of the program: the value, and the region ops
/// whose waits advanced the bits without handing them back, after which the
/// value is stale for the threads that ran those regions.
struct Phases {
  Value bits;
  SmallVector<Operation *, 2> staleAfter = {};
};

/// Threads the phase bits of one event array through the ops that wait on
/// it.
class PhaseThreader {
public:
  PhaseThreader(Value events, IRRewriter &rewriter)
      : events(events), rewriter(rewriter) {
    for (Operation *user : events.getUsers())
      if (isa<EventWaitOp>(user))
        for (Operation *op = user->getParentOp(); op; op = op->getParentOp())
          holders.insert(op);
  }

  /// Threads `phases` through the ops of `block` from `begin` on; returns
  /// the bits at the block's end (before its terminator).
  FailureOr<Phases> threadBlock(Block &block, Block::iterator begin,
                                Phases phases) {
    for (Operation &op :
         llvm::make_early_inc_range(llvm::make_range(begin, block.end()))) {
      if (op.hasTrait<OpTrait::IsTerminator>())
        break;
      FailureOr<Phases> next = threadOp(&op, phases);
      if (failed(next))
        return failure();
      phases = *next;
    }
    return phases;
  }

private:
  FailureOr<Phases> threadOp(Operation *op, Phases phases) {
    if (auto wait = dyn_cast<EventWaitOp>(op);
        wait && wait.getEvents() == events)
      return threadWait(wait, phases);
    if (!holders.contains(op))
      return phases;
    if (auto loop = dyn_cast<scf::ForOp>(op))
      return threadFor(loop, phases);
    if (auto branch = dyn_cast<scf::IfOp>(op))
      return threadIf(branch, phases);
    if (isa<InthreadsOp, ParallelOp, ForeachOp>(op)) {
      // The region's threads start from the bits here; what they advance
      // stays inside the region.
      for (Region &region : op->getRegions())
        for (Block &block : region)
          if (failed(threadBlock(block, block.begin(), phases)))
            return failure();
      Phases after = phases;
      after.staleAfter.push_back(op);
      return after;
    }
    return op->emitOpError("waits on an event inside this op, whose region "
                           "cannot carry the event's phases; wait in "
                           "scf.for, scf.if or croq regions");
  }

  /// croq.event.wait %e[%i]  =>  %next = croq.event.wait %e[%i] phases %bits
  FailureOr<Phases> threadWait(EventWaitOp wait, Phases phases) {
    if (failed(checkFresh(wait, phases)))
      return failure();
    if (wait.getPhases())
      return wait.emitOpError("already carries phases: run "
                              "croq-carry-event-phases once");
    rewriter.setInsertionPoint(wait);
    auto phased = EventWaitOp::create(rewriter, wait.getLoc(), events,
                                      wait.getIndex(), phases.bits);
    phased->setDiscardableAttrs(wait->getDiscardableAttrDictionary());
    rewriter.eraseOp(wait);
    return Phases{phased.getNext()};
  }

  /// Adds the bits as an iteration argument of `loop`.
  FailureOr<Phases> threadFor(scf::ForOp loop, Phases phases) {
    if (failed(checkFresh(loop, phases)))
      return failure();
    // The new loop yields its argument until the body is threaded.
    FailureOr<LoopLikeOpInterface> grown =
        cast<LoopLikeOpInterface>(loop.getOperation())
            .replaceWithAdditionalYields(
                rewriter, phases.bits, /*replaceInitOperandUsesInLoop=*/false,
                [](OpBuilder &, Location, ArrayRef<BlockArgument> args) {
                  return SmallVector<Value>{args.front()};
                });
    if (failed(grown))
      return loop.emitOpError("cannot carry the phases of an event array");
    auto newLoop = cast<scf::ForOp>(grown->getOperation());
    Block *body = newLoop.getBody();
    Value start = newLoop.getRegionIterArgs().back();
    FailureOr<Phases> end = threadBlock(*body, body->begin(), Phases{start});
    if (failed(end) || failed(checkFresh(body->getTerminator(), *end)))
      return failure();
    auto yield = cast<scf::YieldOp>(body->getTerminator());
    yield.getResultsMutable()[yield.getNumOperands() - 1].assign(end->bits);
    return Phases{newLoop.getResults().back()};
  }

  /// Adds the bits as a result of `branch`, each branch yielding its own.
  FailureOr<Phases> threadIf(scf::IfOp branch, Phases phases) {
    SmallVector<Type> types(branch.getResultTypes());
    types.push_back(phases.bits.getType());
    rewriter.setInsertionPoint(branch);
    auto grown = scf::IfOp::create(rewriter, branch.getLoc(), types,
                                   branch.getCondition(),
                                   /*withElseRegion=*/true);
    SmallVector<Operation *, 2> stale;
    for (auto [from, to] :
         llvm::zip(branch->getRegions(), grown->getRegions())) {
      to.getBlocks().clear();
      if (from.empty()) {
        Block *block = rewriter.createBlock(&to);
        rewriter.setInsertionPointToEnd(block);
        scf::YieldOp::create(rewriter, branch.getLoc(), phases.bits);
        llvm::append_range(stale, phases.staleAfter);
        continue;
      }
      rewriter.inlineRegionBefore(from, to, to.end());
      Block &block = to.front();
      FailureOr<Phases> end = threadBlock(block, block.begin(), phases);
      if (failed(end))
        return failure();
      auto yield = cast<scf::YieldOp>(block.getTerminator());
      yield.getResultsMutable().append(end->bits);
      llvm::append_range(stale, end->staleAfter);
    }
    rewriter.replaceOp(branch, grown.getResults().drop_back());
    return Phases{grown.getResults().back(), std::move(stale)};
  }

  /// Whether no warpgroup runs both `region` (a croq.inthreads) and `user`,
  /// as far as their conditions can be evaluated.
  static bool runDisjoint(Operation *region, Operation *user) {
    if (!isa<InthreadsOp>(region))
      return false;
    std::optional<WarpgroupsRunning> a = getWarpgroupsRunning(region);
    std::optional<WarpgroupsRunning> b = getWarpgroupsRunning(user);
    if (!a || !b || a->warpgroups != b->warpgroups)
      return false;
    for (auto [x, y] : llvm::zip(a->running, b->running))
      if (x && y)
        return false;
    return true;
  }

  /// Fails, at `user`, where `phases` were advanced in a region that could
  /// not hand them back and that threads running `user` may have run.
  static LogicalResult checkFresh(Operation *user, const Phases &phases) {
    for (Operation *region : phases.staleAfter) {
      if (runDisjoint(region, user))
        continue;
      InFlightDiagnostic diag = user->emitOpError(
          "needs the phases of an event array after waits on it inside a "
          "region that cannot hand them back");
      diag.attachNote(region->getLoc())
          << "the waits are inside this region; wait on the array within "
             "one region, in regions that run on different warpgroups, or "
             "outside all of them";
      return failure();
    }
    return success();
  }

  Value events;
  IRRewriter &rewriter;
  /// The ops that hold waits on the array, at any depth.
  llvm::SmallPtrSet<Operation *, 16> holders;
};
} // namespace

/// Gives the waits on the array of `alloc` their phases, starting from the
/// bits of croq.event.phases placed after the allocation.
static LogicalResult carryPhases(EventAllocOp alloc, IRRewriter &rewriter) {
  Value events = alloc.getEvents();
  if (llvm::none_of(events.getUsers(), llvm::IsaPred<EventWaitOp>))
    return success();
  // More slots than a thread's 64 phase bits is the type's error.
  auto type = PhasesType::getChecked([&] { return alloc.emitOpError(); },
                                     alloc.getContext(),
                                     alloc.getEvents().getType().getCount());
  if (!type)
    return failure();
  rewriter.setInsertionPointAfter(alloc);
  auto start = EventPhasesOp::create(rewriter, alloc.getLoc(), type,
                                     alloc.getReadyAttr());
  PhaseThreader threader(events, rewriter);
  Block *block = alloc->getBlock();
  return success(succeeded(threader.threadBlock(
      *block, std::next(start->getIterator()), Phases{start.getPhases()})));
}

namespace {
struct CroqCarryEventPhasesPass
    : croq::impl::CroqCarryEventPhasesBase<CroqCarryEventPhasesPass> {
  void runOnOperation() override {
    SmallVector<EventAllocOp> allocs;
    getOperation()->walk([&](EventAllocOp alloc) { allocs.push_back(alloc); });
    IRRewriter rewriter(&getContext());
    for (EventAllocOp alloc : allocs)
      if (failed(carryPhases(alloc, rewriter)))
        return signalPassFailure();
  }
};
} // namespace
