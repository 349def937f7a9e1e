//===- PipelineLoops.cpp - multi-stage rings for tma load loops -----------===//
//
// Implements croq-pipeline-loops: a loop of a block that loads shared tiles
// with synchronous tma copies and then reads them becomes an N-stage ring of
// stage arrays, `full` and `empty` events and asynchronous loads, issued
// either by a producer warpgroup (warp-specialized) or by the block's own
// threads N - 1 iterations ahead.
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/CroqOps.h"
#include "Croq/Dialect/Croq/IR/TargetDescription.h"
#include "Croq/Dialect/Croq/Transforms/Layouts.h"
#include "Croq/Dialect/Croq/Transforms/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace croq {
#define GEN_PASS_DEF_CROQPIPELINELOOPS
#include "Croq/Dialect/Croq/Transforms/Passes.h.inc"
} // namespace croq
} // namespace mlir

using namespace mlir;
using namespace mlir::croq;

/// The most stages the pass chooses by itself.
static constexpr int64_t kMaxAutoStages = 8;

/// The most stages a ring may have: one event slot per stage, and event
/// arrays have at most 64 slots.
static constexpr int64_t kMaxStages = EventsType::kMaxLoweredSlots;

/// The loop attribute that fixes a loop's stage count.
static constexpr llvm::StringLiteral kStagesAttrName = "croq.stages";

/// The loop attribute that chooses the warp-specialized form or not.
static constexpr llvm::StringLiteral kWarpSpecializeAttrName =
    "croq.warp_specialize";

namespace {
/// A synchronous tma load of the loop into a shared tile of the block.
struct TileLoad {
  CopyOp copy;
  AllocOp alloc;
};

/// A loop the pass can pipeline, and what it needs to know about it.
struct PipelineCandidate {
  ParallelOp block;
  scf::ForOp loop;
  SmallVector<TileLoad> loads;
  /// The ops of the loop body the loads' views are computed from, in order.
  SmallVector<Operation *> loadSlice;
  /// The ops of the block before the loop that the loop bounds and the load
  /// views use, in order.
  SetVector<Operation *> outerSlice;
};
} // namespace

/// The tile `alloc` allocates.
static TileType getTile(AllocOp alloc) {
  return dyn_cast<TileType>(alloc.getResult().getType());
}

/// Bytes a shared buffer of `type` takes, with room for its alignment (1024
/// bytes at most, for 128B swizzle).
static int64_t getPaddedSharedBytes(Type type) {
  constexpr int64_t kMaxAlignment = 1024;
  if (auto tile = dyn_cast<TileType>(type))
    return tile.isShared() ? tile.getSizeInBytes() + kMaxAlignment : 0;
  if (auto tiles = dyn_cast<TilesType>(type))
    return tiles.getMemorySpace() == MemorySpace::Shared
               ? tiles.getTileType().getSizeInBytes() * tiles.getNumStages() +
                     kMaxAlignment
               : 0;
  return 0;
}

/// The synchronous tma loads at the top level of `loop`'s body into shared
/// tiles allocated in `block`'s body.
static SmallVector<TileLoad> findTileLoads(ParallelOp block, scf::ForOp loop) {
  SmallVector<TileLoad> loads;
  for (auto copy : loop.getBody()->getOps<CopyOp>()) {
    if (copy.getEngine() != CopyEngine::TMA || copy.isAsync())
      continue;
    auto alloc = copy.getDest().getDefiningOp<AllocOp>();
    if (!alloc || alloc->getBlock() != &block.getBody().front())
      continue;
    TileType tile = getTile(alloc);
    if (!tile || !tile.isShared())
      continue;
    loads.push_back({copy, alloc});
  }
  return loads;
}

/// Why `candidate`'s loop cannot be pipelined, or an empty string. Fills
/// the slices the rewrite clones or keeps in place.
static std::string analyze(PipelineCandidate &candidate) {
  scf::ForOp loop = candidate.loop;
  Block *body = loop.getBody();
  Block *blockBody = &candidate.block.getBody().front();

  // Every loaded tile is written once per iteration by its load, and read
  // only after it in the same iteration.
  for (TileLoad &load : candidate.loads) {
    for (OpOperand &use : load.alloc.getResult().getUses()) {
      Operation *user = use.getOwner();
      if (user == load.copy)
        continue;
      Operation *inBody = body->findAncestorOpInBlock(*user);
      if (!inBody)
        return "a loaded tile is used outside the loop";
      if (!load.copy->isBeforeInBlock(inBody))
        return "a loaded tile is used before its load in the iteration";
      if (auto copy = dyn_cast<CopyOp>(user);
          copy && copy.getDest() == load.alloc.getResult())
        return "a loaded tile is written by another copy in the loop";
    }
  }

  // A loop that already synchronizes through events or futures is
  // pipelined by hand; commits with pending groups keep a stage busy past
  // its iteration.
  WalkResult walk = loop.walk([&](Operation *op) -> WalkResult {
    if (isa<EventAllocOp, EventTriggerOp, EventWaitOp, WaitOp>(op))
      return WalkResult::interrupt();
    if (auto commit = dyn_cast<MmaCommitOp>(op); commit && commit.getPending())
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return "the loop already synchronizes through events or futures, or "
           "commits mma groups with pending > 0";

  // The loads' views: pure ops of the loop body, from the induction
  // variable and values defined before the loop.
  SetVector<Operation *> inLoop;
  SmallVector<Value> worklist;
  for (TileLoad &load : candidate.loads)
    worklist.push_back(load.copy.getSource());
  auto addOuter = [&](Value value) -> bool {
    Operation *def = value.getDefiningOp();
    if (!def || def->getBlock() != blockBody)
      return true;
    if (!isPure(def) || def->getNumRegions() != 0)
      return false;
    if (candidate.outerSlice.contains(def))
      return true;
    // Operands first, so that the slice is in dominance order.
    for (Value operand : def->getOperands())
      worklist.push_back(operand);
    candidate.outerSlice.insert(def);
    return true;
  };
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (value == loop.getInductionVar())
      continue;
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (arg.getOwner() == body)
        return "a load's view depends on the loop's iteration values";
      continue;
    }
    Operation *def = value.getDefiningOp();
    if (def->getBlock() == body) {
      if (!isPure(def) || def->getNumRegions() != 0)
        return "a load's view is computed by an op with side effects";
      if (inLoop.insert(def))
        llvm::append_range(worklist, def->getOperands());
      continue;
    }
    if (!addOuter(value))
      return "a load's view uses a value computed with side effects in the "
             "block";
  }
  for (Value bound :
       {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()}) {
    worklist.push_back(bound);
    while (!worklist.empty())
      if (!addOuter(worklist.pop_back_val()))
        return "the loop bounds are computed with side effects in the block";
  }
  candidate.loadSlice.assign(inLoop.begin(), inLoop.end());
  llvm::sort(candidate.loadSlice,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  SmallVector<Operation *> outer(candidate.outerSlice.begin(),
                                 candidate.outerSlice.end());
  llvm::sort(outer,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  candidate.outerSlice = SetVector<Operation *>(outer.begin(), outer.end());
  return "";
}

/// Whether the block's threads can be split into a producer and a consumer
/// warpgroup: the block has no thread regions of its own.
static bool canWarpSpecialize(PipelineCandidate &candidate) {
  bool nested = false;
  candidate.block.getBody().walk([&](Operation *op) {
    if (isa<ParallelOp, InthreadsOp>(op))
      nested = true;
  });
  return !nested;
}

/// The number of stages: the loop's attribute, the pass option, or as many
/// as fit next to the block's other shared buffers. 0 if fewer than two
/// fit.
static int64_t chooseStages(PipelineCandidate &candidate, int64_t option,
                            const TargetDescription &target, std::string &why) {
  if (auto attr = candidate.loop->getAttrOfType<IntegerAttr>(kStagesAttrName))
    return attr.getInt();
  if (option == 1)
    return 1;
  if (option > 1)
    return option;
  int64_t perStage = 0, other = 0;
  for (TileLoad &load : candidate.loads)
    perStage += getPaddedSharedBytes(load.alloc.getResult().getType());
  candidate.block.walk([&](AllocOp alloc) {
    if (llvm::none_of(candidate.loads,
                      [&](TileLoad &load) { return load.alloc == alloc; }))
      other += getPaddedSharedBytes(alloc.getResult().getType());
  });
  int64_t left = std::max<int64_t>(target.sharedMemoryPerBlock - other, 0);
  int64_t stages = std::min(left / perStage, kMaxAutoStages);
  if (stages < 2) {
    why = "two stages of the loaded tiles need " +
          std::to_string(2 * perStage) + " bytes of shared memory and " +
          std::to_string(left) + " are left next to the block's other buffers";
    return 0;
  }
  return stages;
}

namespace {
/// Rewrites one candidate loop into a ring of `stages` stages.
class RingBuilder {
public:
  RingBuilder(PipelineCandidate &candidate, int64_t stages)
      : c(candidate), stages(stages), loc(candidate.loop.getLoc()),
        builder(candidate.loop) {}

  void rewrite(bool warpSpecialize);

private:
  /// Replaces the loaded tiles by stage arrays and allocates the events.
  void allocateRing();
  /// The iteration number of loop induction value `iv`.
  Value getIteration(OpBuilder &b, Value iv);
  /// The stage of iteration `t`.
  Value getStage(OpBuilder &b, Value t);
  /// Waits until `stage` is free, issues the loads of the iteration whose
  /// induction value is `iv` into it and triggers `full` after them.
  void emitLoads(OpBuilder &b, Value iv, Value stage);
  /// Makes the loop read its tiles from stage `t % N` once it is full, and
  /// free the stage at the end of the iteration.
  void consumeInLoop(OpBuilder &b);
  /// In the warp-specialized consumer, lets the iteration's mma groups run
  /// on into the next iteration (commit with pending = 1) and frees the
  /// previous iteration's stage instead of this one's.
  void keepOneGroupInFlight();
  /// Erases the synchronous loads, their tiles and what only they used.
  void eraseSynchronousLoads();
  /// The single-group form: a prologue and loads N - 1 iterations ahead.
  void rewriteInPlace();
  /// The warp-specialized form: producer and consumer warpgroups.
  void rewriteWarpSpecialized();

  PipelineCandidate &c;
  int64_t stages;
  Location loc;
  OpBuilder builder;
  SmallVector<Value> stageArrays;
  Value full, empty;
  /// The consumer loop's iteration number, set by consumeInLoop.
  Value consumerIteration;
};
} // namespace

void RingBuilder::allocateRing() {
  for (TileLoad &load : c.loads) {
    TileType tile = getTile(load.alloc);
    builder.setInsertionPoint(load.alloc);
    auto tiles = TilesType::get(tile.getContext(), stages, tile.getShape(),
                                tile.getElementType(), tile.getMemorySpace(),
                                tile.getSwizzle());
    auto ring = AllocOp::create(builder, load.alloc.getLoc(), tiles,
                                /*offset=*/IntegerAttr());
    ring->setAttrs(load.alloc->getAttrs());
    stageArrays.push_back(ring.getResult());
  }
  // The events go right after the last stage array.
  builder.setInsertionPointAfter(stageArrays.back().getDefiningOp());
  auto eventsType = EventsType::get(builder.getContext(), stages);
  full = EventAllocOp::create(builder, loc, eventsType, UnitAttr(),
                              /*arrivals=*/IntegerAttr());
  empty = EventAllocOp::create(builder, loc, eventsType, builder.getUnitAttr(),
                               /*arrivals=*/IntegerAttr());
}

Value RingBuilder::getIteration(OpBuilder &b, Value iv) {
  scf::ForOp loop = c.loop;
  Value offset = arith::SubIOp::create(b, loc, iv, loop.getLowerBound());
  return arith::DivUIOp::create(b, loc, offset, loop.getStep());
}

Value RingBuilder::getStage(OpBuilder &b, Value t) {
  Value n = arith::ConstantIndexOp::create(b, loc, stages);
  return arith::RemUIOp::create(b, loc, t, n);
}

void RingBuilder::emitLoads(OpBuilder &b, Value iv, Value stage) {
  EventWaitOp::create(b, loc, empty, stage);
  IRMapping mapping;
  mapping.map(c.loop.getInductionVar(), iv);
  for (Operation *op : c.loadSlice)
    b.clone(*op, mapping);
  SmallVector<Value> futures;
  for (auto [load, ring] : llvm::zip_equal(c.loads, stageArrays)) {
    CopyOp copy = load.copy;
    Value dest = StageOp::create(b, copy.getLoc(), ring, stage);
    auto async = CopyOp::create(
        b, copy.getLoc(), FutureType::get(b.getContext()), copy.getEngineAttr(),
        mapping.lookupOrDefault(copy.getSource()), dest, /*map=*/Value(),
        /*usable=*/Value(), copy.getZfillAttr(), copy.getSwizzleAttr(),
        copy.getBoxAttr(), copy.getBoxOriginsAttr());
    futures.push_back(async.getFuture());
  }
  EventTriggerOp::create(b, loc, full, stage, futures);
}

void RingBuilder::consumeInLoop(OpBuilder &b) {
  scf::ForOp loop = c.loop;
  Block *body = loop.getBody();
  b.setInsertionPointToStart(body);
  Value t = getIteration(b, loop.getInductionVar());
  consumerIteration = t;
  Value stage = getStage(b, t);
  EventWaitOp::create(b, loc, full, stage);
  for (auto [load, ring] : llvm::zip_equal(c.loads, stageArrays)) {
    Value tile = StageOp::create(b, load.alloc.getLoc(), ring, stage);
    Operation *copy = load.copy;
    load.alloc.getResult().replaceUsesWithIf(
        tile, [copy](OpOperand &use) { return use.getOwner() != copy; });
  }
  b.setInsertionPoint(body->getTerminator());
  EventTriggerOp::create(b, loc, empty, stage, ValueRange());
}

/// The commit at the end of `loop`'s body that waits for all of the
/// iteration's mma groups, when its accumulator goes only to the next
/// iteration: `%done = croq.mma.commit %sum` yielded and used nowhere else.
static MmaCommitOp getTrailingCommit(scf::ForOp loop) {
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (auto commit : loop.getBody()->getOps<MmaCommitOp>()) {
    if (commit.getPending() != 0 || !commit.getResult().hasOneUse() ||
        *commit.getResult().getUsers().begin() != yield)
      continue;
    return commit;
  }
  return nullptr;
}

void RingBuilder::keepOneGroupInFlight() {
  scf::ForOp loop = c.loop;
  MmaCommitOp commit = getTrailingCommit(loop);
  if (!commit)
    return;
  // The trigger consumeInLoop put before the yield frees this iteration's
  // stage; with one group left running, the stage the previous iteration's
  // mma read is the one that is free.
  Block *body = loop.getBody();
  auto trigger = cast<EventTriggerOp>(body->getTerminator()->getPrevNode());
  OpBuilder b(trigger);
  Value t = consumerIteration;
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value hasPrevious =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, t, zero);
  auto ifPrevious = scf::IfOp::create(b, loc, hasPrevious, false);
  b.setInsertionPointToStart(ifPrevious.thenBlock());
  Value previous = arith::SubIOp::create(
      b, loc, t, arith::ConstantIndexOp::create(b, loc, 1));
  EventTriggerOp::create(b, loc, empty, getStage(b, previous), ValueRange());
  trigger->erase();
  commit.setPending(1);

  // After the loop, the last group completes before the accumulator is
  // used.
  unsigned index = 0;
  for (OpOperand &use : commit.getResult().getUses())
    index = use.getOperandNumber();
  Value result = loop.getResult(index);
  b.setInsertionPointAfter(loop);
  auto last = MmaCommitOp::create(b, commit.getLoc(), result);
  result.replaceAllUsesExcept(last.getResult(), last);
}

void RingBuilder::eraseSynchronousLoads() {
  for (TileLoad &load : c.loads) {
    load.copy->erase();
    load.alloc->erase();
  }
  // The ops of the load views are dead in the loop now.
  for (Operation *op : llvm::reverse(c.loadSlice))
    if (op->use_empty())
      op->erase();
}

void RingBuilder::rewriteInPlace() {
  scf::ForOp loop = c.loop;
  Value lb = loop.getLowerBound(), ub = loop.getUpperBound(),
        step = loop.getStep();

  // T, the number of iterations.
  builder.setInsertionPoint(loop);
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value nonEmpty =
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sgt, ub, lb);
  Value span = arith::SubIOp::create(builder, loc, ub, lb);
  Value count = arith::SelectOp::create(
      builder, loc, nonEmpty,
      arith::CeilDivUIOp::create(builder, loc, span, step), zero);

  consumeInLoop(builder);

  // Iteration 0 issues the loads of iterations 0 .. N - 1 (the prologue),
  // iteration t > 0 those of iteration t + N - 1, the last N - 1 iterations
  // none (the drain). One issuing loop keeps one trigger of `full`, so that
  // each phase of a slot expects one arrival.
  OpBuilder b = OpBuilder::atBlockBegin(loop.getBody());
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value ahead = arith::ConstantIndexOp::create(b, loc, stages - 1);
  Value t = getIteration(b, loop.getInductionVar());
  Value isFirst =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, t, zero);
  Value from = arith::SelectOp::create(b, loc, isFirst, zero,
                                       arith::AddIOp::create(b, loc, t, ahead));
  Value to = arith::MinUIOp::create(
      b, loc,
      arith::AddIOp::create(b, loc, t,
                            arith::ConstantIndexOp::create(b, loc, stages)),
      count);
  auto issue = scf::ForOp::create(b, loc, from, to, one);
  OpBuilder ib = OpBuilder::atBlockBegin(issue.getBody());
  Value j = issue.getInductionVar();
  Value iv = arith::AddIOp::create(ib, loc, lb,
                                   arith::MulIOp::create(ib, loc, j, step));
  emitLoads(ib, iv, getStage(ib, j));
}

void RingBuilder::rewriteWarpSpecialized() {
  ParallelOp block = c.block;
  Block *blockBody = &block.getBody().front();
  scf::ForOp loop = c.loop;

  // Everything but the buffers, the events and what the loads need from
  // the block moves to the consumer.
  SmallVector<Operation *> consumerOps;
  for (Operation &op : *blockBody) {
    if (isa<AllocOp, EventAllocOp>(op) || c.outerSlice.contains(&op))
      continue;
    consumerOps.push_back(&op);
  }

  OpBuilder b = OpBuilder::atBlockEnd(blockBody);
  MLIRContext *ctx = b.getContext();
  auto roles =
      ParallelOp::create(b, loc, ValueRange(), b.getDenseI64ArrayAttr({2}),
                         ParallelLevelAttr::get(ctx, ParallelLevel::Warpgroup),
                         /*shared_memory=*/IntegerAttr());
  Block *rolesBody =
      b.createBlock(&roles.getBody(), {}, {b.getIndexType()}, {loc});
  b.setInsertionPointToStart(rolesBody);
  Value role = rolesBody->getArgument(0);
  // The consumer is "not the producer" rather than "warpgroup 1": the two
  // conditions are complements, so the roles become the two sides of one
  // branch, and ptxas does not see the consumer's wgmma on a divergent path
  // (where it would serialize them, C7520).
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value isProducer =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, role, zero);
  Value isConsumer =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, role, zero);

  auto producer = InthreadsOp::create(b, loc, isProducer, b.getUnitAttr(),
                                      /*registers=*/IntegerAttr());
  b.createBlock(&producer.getBody());
  auto producerLoop = scf::ForOp::create(b, loc, loop.getLowerBound(),
                                         loop.getUpperBound(), loop.getStep());
  {
    OpBuilder pb = OpBuilder::atBlockBegin(producerLoop.getBody());
    Value iv = producerLoop.getInductionVar();
    emitLoads(pb, iv, getStage(pb, getIteration(pb, iv)));
  }

  b.setInsertionPointAfter(producer);
  auto consumer = InthreadsOp::create(b, loc, isConsumer, b.getUnitAttr(),
                                      /*registers=*/IntegerAttr());
  Block *consumerBody = b.createBlock(&consumer.getBody());
  for (Operation *op : consumerOps)
    op->moveBefore(consumerBody, consumerBody->end());
  consumeInLoop(b);
  keepOneGroupInFlight();
}

void RingBuilder::rewrite(bool warpSpecialize) {
  allocateRing();
  c.loop->removeAttr(kStagesAttrName);
  c.loop->removeAttr(kWarpSpecializeAttrName);
  if (warpSpecialize)
    rewriteWarpSpecialized();
  else
    rewriteInPlace();
  eraseSynchronousLoads();
}

namespace {
struct CroqPipelineLoopsPass
    : croq::impl::CroqPipelineLoopsBase<CroqPipelineLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    FailureOr<const TargetDescription *> target =
        getTargetDescription(getOperation()->getLoc(), chip);
    if (failed(target))
      return signalPassFailure();
    SmallVector<PipelineCandidate> candidates;
    getOperation()->walk([&](scf::ForOp loop) {
      auto block = dyn_cast<ParallelOp>(loop->getParentOp());
      if (!block || block.getLevel() != ParallelLevel::Block)
        return;
      SmallVector<TileLoad> loads = findTileLoads(block, loop);
      if (loads.empty())
        return;
      if (auto attr = loop->getAttrOfType<IntegerAttr>(kStagesAttrName);
          attr && attr.getInt() == 1) {
        loop->removeAttr(kStagesAttrName);
        return;
      }
      candidates.push_back({block, loop, std::move(loads), {}, {}});
    });

    for (PipelineCandidate &candidate : candidates) {
      std::string why = analyze(candidate);
      int64_t count = 0;
      if (why.empty())
        count = chooseStages(candidate, stages, **target, why);
      if (count == 1)
        continue;
      if (!why.empty()) {
        candidate.loop.emitWarning("not pipelined: ") << why;
        continue;
      }
      if (count < 2 || count > kMaxStages) {
        candidate.loop.emitError("needs 2 to ")
            << kMaxStages << " stages to be pipelined, got " << count;
        return signalPassFailure();
      }
      bool specialize = warpSpecialize;
      if (auto attr =
              candidate.loop->getAttrOfType<BoolAttr>(kWarpSpecializeAttrName))
        specialize = attr.getValue();
      specialize = specialize && canWarpSpecialize(candidate);
      RingBuilder(candidate, count).rewrite(specialize);
    }
  }
};
} // namespace
