//===- PipelineInFlight.cpp - mma groups in flight in hand-written rings --===//
//
// croq-pipeline-loops' step for rings written by hand in the seeds' style: a
// consumer loop that waits for stage s to be full, multiplies its tiles,
// waits for the mma group (`croq.mma.commit`) and frees stage s. The rewrite
// lets each iteration's group run on into the next iteration (commit with
// pending = 1) and frees the stage the previous iteration read instead,
// once its group has completed, as the pass does in the rings it builds.
// The last stage is freed after the loop, so that the ring's phases are
// those of the loop as written.
//
//===----------------------------------------------------------------------===//

#include "Pipeliner.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::croq;
using namespace mlir::croq::pipeliner;

/// The fewest stages of a ring the rewrite takes. With a group in flight
/// the consumer holds two stages, so the producer fills N - 2 ahead instead
/// of N - 1: on an H200 the 3-stage ring of test/Integration/GPU/
/// matmul.mlir's matmul_seeds_bf16 ran at 0.31 of cuBLAS against 0.39
/// as written, where 4-stage rings gain up to 23% (bench/RESULTS.md).
static constexpr int64_t kMinStages = 4;

namespace {
/// A consumer loop of a hand-written ring, as the rewrite needs it.
struct HandWrittenRing {
  scf::ForOp loop;
  EventWaitOp full;
  EventTriggerOp empty;
  MmaCommitOp commit;
  /// The ops of the body the slot index is computed from, in order.
  SmallVector<Operation *> stageSlice;
};
} // namespace

/// The ops of `loop`'s body that compute `index`, in order, when it walks
/// the `count` slots one after another as `loop` iterates:
/// `(iv + c) % count` or `iv % count` for a loop of step 1, `c` defined
/// outside the loop, so that consecutive iterations use different slots.
static std::optional<SmallVector<Operation *>>
getSlotWalk(scf::ForOp loop, Value index, int64_t count) {
  auto rem = index.getDefiningOp<arith::RemUIOp>();
  if (!rem || rem->getBlock() != loop.getBody() ||
      getConstantIntValue(loop.getStep()) != 1 ||
      getConstantIntValue(rem.getRhs()) != count)
    return std::nullopt;
  Value iv = loop.getInductionVar(), x = rem.getLhs();
  if (x == iv)
    return SmallVector<Operation *>{rem};
  auto add = x.getDefiningOp<arith::AddIOp>();
  if (!add || add->getBlock() != loop.getBody())
    return std::nullopt;
  auto invariant = [&](Value v) { return loop.isDefinedOutsideOfLoop(v); };
  if ((add.getLhs() == iv && invariant(add.getRhs())) ||
      (add.getRhs() == iv && invariant(add.getLhs())))
    return SmallVector<Operation *>{add, rem};
  return std::nullopt;
}

/// `loop` as a hand-written consumer loop: in a thread region, no copies
/// of its own, a ring of kMinStages stages or more walked one slot per
/// iteration; one wait for a full slot at the top level of its body, then
/// mma ops and one trailing commit that waits for them all, then the
/// trigger that frees the same slot, right before the yield; no other
/// commit or wait of mma groups.
static std::optional<HandWrittenRing> matchHandWrittenRing(scf::ForOp loop) {
  if (!loop->getParentOfType<InthreadsOp>())
    return std::nullopt;
  Block *body = loop.getBody();
  auto empty =
      dyn_cast_or_null<EventTriggerOp>(body->getTerminator()->getPrevNode());
  MmaCommitOp commit = getTrailingCommit(loop);
  if (!empty || !empty.getFutures().empty() || !commit ||
      !commit->isBeforeInBlock(empty))
    return std::nullopt;
  HandWrittenRing ring{loop, nullptr, empty, commit, {}};
  bool other = false;
  body->walk([&](Operation *op) {
    if (isa<CopyOp, Im2colOp, MmaWaitOp>(op) ||
        (isa<MmaCommitOp>(op) && op != commit))
      other = true;
    if (auto wait = dyn_cast<EventWaitOp>(op)) {
      if (ring.full || op->getBlock() != body)
        other = true;
      ring.full = wait;
    }
  });
  if (other || !ring.full || ring.full.getIndex() != empty.getIndex() ||
      ring.full.getEvents() == empty.getEvents())
    return std::nullopt;
  int64_t count = cast<EventsType>(empty.getEvents().getType()).getCount();
  std::optional<SmallVector<Operation *>> walk =
      getSlotWalk(loop, empty.getIndex(), count);
  if (count < kMinStages || !walk)
    return std::nullopt;
  ring.stageSlice = std::move(*walk);
  return ring;
}

/// Frees, at `builder`, the stage of induction value `iv` (its slot
/// computed again from it) when `condition` holds.
static void emitRelease(OpBuilder &builder, Location loc, HandWrittenRing &ring,
                        Value condition, function_ref<Value(OpBuilder &)> iv) {
  auto ifOp = scf::IfOp::create(builder, loc, condition, false);
  OpBuilder b(ifOp.thenBlock()->getTerminator());
  IRMapping mapping;
  mapping.map(ring.loop.getInductionVar(), iv(b));
  for (Operation *op : ring.stageSlice)
    b.clone(*op, mapping);
  EventTriggerOp::create(b, loc, ring.empty.getEvents(),
                         mapping.lookup(ring.empty.getIndex()), ValueRange(),
                         ring.empty.getClusterAttr());
}

/// Rewrites `ring` to keep one mma group in flight. The loop's step is 1.
static void keepInFlight(HandWrittenRing &ring) {
  scf::ForOp loop = ring.loop;
  Location loc = ring.empty.getLoc();
  Value iv = loop.getInductionVar();
  Value lb = loop.getLowerBound(), ub = loop.getUpperBound(),
        step = loop.getStep();

  // In the loop: the previous iteration's stage, from the second on.
  OpBuilder b(ring.empty);
  Value notFirst =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, iv, lb);
  emitRelease(b, loc, ring, notFirst, [&](OpBuilder &ib) -> Value {
    return arith::SubIOp::create(ib, loc, iv, step);
  });

  // After the loop: its last group completes before the accumulator is
  // used, and the last iteration's stage, ub - 1's, is freed.
  MmaCommitOp last = keepGroupInFlight(loop, ring.commit);
  b.setInsertionPointAfter(last);
  Value ran = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, lb, ub);
  emitRelease(b, loc, ring, ran, [&](OpBuilder &ib) -> Value {
    return arith::SubIOp::create(ib, loc, ub, step);
  });
  // The releases above were cloned from it.
  ring.empty->erase();
}

/// In a warpgroup region of two warpgroups, `%wg == 1` is `%wg != 0`:
/// written so, the consumer's region is the complement of the producer's,
/// the two become the sides of one branch, and ptxas does not see the
/// consumer's wgmma on a divergent path (where it serializes them, C7520).
static void complementRoleTests(ParallelOp roles) {
  if (roles.getLevel() != ParallelLevel::Warpgroup ||
      !roles.getDynamicExtents().empty() ||
      roles.getStaticExtents() != ArrayRef<int64_t>{2})
    return;
  Value role = roles.getBody().getArgument(0);
  for (Operation *user : llvm::make_early_inc_range(role.getUsers())) {
    auto cmp = dyn_cast<arith::CmpIOp>(user);
    if (!cmp || cmp.getLhs() != role || !matchPattern(cmp.getRhs(), m_One()))
      continue;
    arith::CmpIPredicate predicate;
    if (cmp.getPredicate() == arith::CmpIPredicate::eq)
      predicate = arith::CmpIPredicate::ne;
    else if (cmp.getPredicate() == arith::CmpIPredicate::ne)
      predicate = arith::CmpIPredicate::eq;
    else
      continue;
    OpBuilder b(cmp);
    Value zero = arith::ConstantIndexOp::create(b, cmp.getLoc(), 0);
    cmp.replaceAllUsesWith(
        arith::CmpIOp::create(b, cmp.getLoc(), predicate, role, zero)
            .getResult());
    cmp->erase();
  }
}

void pipeliner::keepHandWrittenGroupsInFlight(Operation *root) {
  SmallVector<HandWrittenRing> rings;
  root->walk([&](scf::ForOp loop) {
    if (std::optional<HandWrittenRing> ring = matchHandWrittenRing(loop))
      rings.push_back(std::move(*ring));
  });
  for (HandWrittenRing &ring : rings) {
    if (auto roles = ring.loop->getParentOfType<ParallelOp>())
      complementRoleTests(roles);
    keepInFlight(ring);
  }
}
