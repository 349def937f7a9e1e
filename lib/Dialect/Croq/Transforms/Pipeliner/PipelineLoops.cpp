//===- PipelineLoops.cpp - multi-stage rings for tma load loops -----------===//
//
// Implements croq-pipeline-loops: a loop of a block that loads shared tiles
// with synchronous tma copies and then reads them becomes an N-stage ring of
// stage arrays, `full` and `empty` events and asynchronous loads, issued
// either by a producer warpgroup (warp-specialized) or by the block's own
// threads N - 1 iterations ahead.
//
//===----------------------------------------------------------------------===//

#include "Pipeliner.h"

#include "Croq/Dialect/Croq/Transforms/Layouts.h"
#include "Croq/Dialect/Croq/Transforms/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"

namespace mlir {
namespace croq {
#define GEN_PASS_DEF_CROQPIPELINELOOPS
#include "Croq/Dialect/Croq/Transforms/Passes.h.inc"
} // namespace croq
} // namespace mlir

#define DEBUG_TYPE "croq-pipeline-loops"

using namespace mlir;
using namespace mlir::croq;
using namespace mlir::croq::pipeliner;

/// The most stages a ring may have: one event slot per stage, and event
/// arrays have at most 64 slots.
static constexpr int64_t kMaxStages = EventsType::kMaxLoweredSlots;

/// The loop attribute that chooses the warp-specialized form or not.
static constexpr llvm::StringLiteral kWarpSpecializeAttrName =
    "croq.warp_specialize";

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
  /// The iteration number of loop induction value `iv`, counted across
  /// the tiles of a tile loop whose induction value is `tileIv`; the
  /// loop's bounds looked up in `mapping`.
  Value getIteration(OpBuilder &b, Value iv, const IRMapping &mapping,
                     Value tileIv, Value base = Value());
  /// Where the loop's bounds change from tile to tile: makes the consumer's
  /// tile loop carry the iterations of the tiles before (consumerBase).
  void carryConsumerBase();
  /// The stage of iteration `t`.
  Value getStage(OpBuilder &b, Value t);
  /// Waits until `stage` is free, issues the loads of the iteration whose
  /// induction value is `iv` into it and triggers `full` after them; the
  /// values of the tile the loads use looked up in `mapping`.
  void emitLoads(OpBuilder &b, Value iv, Value stage, IRMapping &mapping);
  /// Makes the loop read its tiles from stage `t % N` once it is full, and
  /// free the stage at the end of the iteration.
  void consumeInLoop(OpBuilder &b);
  /// In the warp-specialized consumer, lets the iteration's mma groups run
  /// on into the next iteration (commit with pending = 1) and frees the
  /// previous iteration's stage instead of this one's.
  void keepOneGroupInFlight();
  /// `cluster` where a stage's loads are multicast: a stage is free to
  /// refill when every block of the cluster is done with it, so its release
  /// arrives in every block.
  UnitAttr getReleaseScope();
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
  /// The iterations of the consumer's tiles before the current one, where
  /// the loop's bounds change from tile to tile (carryConsumerBase).
  Value consumerBase;
};
} // namespace

void RingBuilder::allocateRing() {
  for (TileLoad &load : c.loads) {
    auto tile = cast<TileType>(load.alloc.getResult().getType());
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

/// The number of iterations of a loop from `lb` to `ub` by `step`: 0 when
/// `ub` <= `lb`.
static Value getTripCount(OpBuilder &b, Location loc, Value lb, Value ub,
                          Value step, Value zero) {
  Value nonEmpty =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, ub, lb);
  Value span = arith::SubIOp::create(b, loc, ub, lb);
  return arith::SelectOp::create(
      b, loc, nonEmpty, arith::CeilDivUIOp::create(b, loc, span, step), zero);
}

Value RingBuilder::getIteration(OpBuilder &b, Value iv,
                                const IRMapping &mapping, Value tileIv,
                                Value base) {
  scf::ForOp loop = c.loop;
  Value lb = mapping.lookupOrDefault(loop.getLowerBound());
  Value step = mapping.lookupOrDefault(loop.getStep());
  Value offset = arith::SubIOp::create(b, loc, iv, lb);
  Value k = arith::DivUIOp::create(b, loc, offset, step);
  if (!c.tileLoop)
    return k;
  if (base)
    return arith::AddIOp::create(b, loc, base, k);
  // Iteration k of the n-th tile of the block: n * count + k, where every
  // tile runs `count` iterations.
  scf::ForOp tiles = c.tileLoop;
  Value n = arith::DivUIOp::create(
      b, loc, arith::SubIOp::create(b, loc, tileIv, tiles.getLowerBound()),
      tiles.getStep());
  Value ub = mapping.lookupOrDefault(loop.getUpperBound());
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value count = getTripCount(b, loc, lb, ub, step, zero);
  return arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, n, count),
                               k);
}

Value RingBuilder::getStage(OpBuilder &b, Value t) {
  Value n = arith::ConstantIndexOp::create(b, loc, stages);
  return arith::RemUIOp::create(b, loc, t, n);
}

void RingBuilder::emitLoads(OpBuilder &b, Value iv, Value stage,
                            IRMapping &mapping) {
  EventWaitOp::create(b, loc, empty, stage);
  mapping.map(c.loop.getInductionVar(), iv);
  for (Operation *op : c.loadSlice)
    b.clone(*op, mapping);
  SmallVector<Value> futures;
  for (auto [load, ring] : llvm::zip_equal(c.loads, stageArrays)) {
    Value dest = StageOp::create(b, load.copy->getLoc(), ring, stage);
    auto futureType = FutureType::get(b.getContext());
    if (auto im2col = dyn_cast<Im2colOp>(load.copy)) {
      auto lookup = [&](ValueRange values) {
        return llvm::map_to_vector(
            values, [&](Value v) { return mapping.lookupOrDefault(v); });
      };
      auto async = Im2colOp::create(b, im2col.getLoc(), futureType,
                                    mapping.lookupOrDefault(im2col.getTensor()),
                                    dest, lookup(im2col.getCoords()),
                                    lookup(im2col.getOffsets()),
                                    mapping.lookupOrDefault(im2col.getMap()));
      futures.push_back(async.getFuture());
      continue;
    }
    auto copy = cast<CopyOp>(load.copy);
    auto async = CopyOp::create(
        b, copy.getLoc(), futureType, copy.getEngineAttr(),
        mapping.lookupOrDefault(copy.getSource()), dest, /*map=*/Value(),
        /*usable=*/Value(), copy.getZfillAttr(), copy.getSwizzleAttr(),
        copy.getBoxAttr(), copy.getBoxOriginsAttr(), copy.getMulticastAttr(),
        copy.getMulticastDimAttr());
    futures.push_back(async.getFuture());
  }
  EventTriggerOp::create(b, loc, full, stage, futures, /*cluster=*/nullptr);
}

UnitAttr RingBuilder::getReleaseScope() {
  for (TileLoad &load : c.loads)
    if (auto copy = dyn_cast<CopyOp>(load.copy); copy && copy.getMulticast())
      return builder.getUnitAttr();
  return nullptr;
}

void RingBuilder::carryConsumerBase() {
  IRRewriter rewriter(c.tileLoop.getContext());
  rewriter.setInsertionPoint(c.tileLoop);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  scf::ForOp loop = c.loop;
  auto yieldBase = [&](OpBuilder &b, Location yieldLoc,
                       ArrayRef<BlockArgument> args) -> SmallVector<Value> {
    Value none = arith::ConstantIndexOp::create(b, yieldLoc, 0);
    Value count = getTripCount(b, yieldLoc, loop.getLowerBound(),
                               loop.getUpperBound(), loop.getStep(), none);
    return {arith::AddIOp::create(b, yieldLoc, args[0], count)};
  };
  FailureOr<LoopLikeOpInterface> carried =
      c.tileLoop.replaceWithAdditionalYields(
          rewriter, ValueRange{zero}, /*replaceInitOperandUsesInLoop=*/false,
          yieldBase);
  assert(succeeded(carried) && "scf.for always takes more iteration values");
  c.tileLoop = cast<scf::ForOp>(carried->getOperation());
  consumerBase = c.tileLoop.getRegionIterArgs().back();
}

void RingBuilder::consumeInLoop(OpBuilder &b) {
  scf::ForOp loop = c.loop;
  Block *body = loop.getBody();
  b.setInsertionPointToStart(body);
  Value t = getIteration(b, loop.getInductionVar(), IRMapping(),
                         c.tileLoop ? c.tileLoop.getInductionVar() : Value(),
                         consumerBase);
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
  EventTriggerOp::create(b, loc, empty, stage, ValueRange(), getReleaseScope());
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
  EventTriggerOp::create(b, loc, empty, getStage(b, previous), ValueRange(),
                         getReleaseScope());
  trigger->erase();
  keepGroupInFlight(loop, commit);
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
  Value count = getTripCount(builder, loc, lb, ub, step, zero);

  consumeInLoop(builder);

  // Iteration 0 issues the loads of iterations 0 .. N - 1 (the prologue),
  // iteration t > 0 those of iteration t + N - 1, the last N - 1 iterations
  // none (the drain). One issuing loop keeps one trigger of `full`, so that
  // each phase of a slot expects one arrival.
  OpBuilder b = OpBuilder::atBlockBegin(loop.getBody());
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value ahead = arith::ConstantIndexOp::create(b, loc, stages - 1);
  Value t = getIteration(b, loop.getInductionVar(), IRMapping(), Value());
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
  IRMapping mapping;
  emitLoads(ib, iv, getStage(ib, j), mapping);
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
  // croq-split-accumulators chooses how many consumers the block gets,
  // unless it says.
  StringRef consumersName = CroqDialect::ConsumersAttrHelper::getNameStr();
  if (!block->hasAttr(consumersName))
    block->setAttr(consumersName, b.getI64IntegerAttr(0));
  auto roles =
      ParallelOp::create(b, loc, ValueRange(), b.getDenseI64ArrayAttr({2}),
                         ParallelLevelAttr::get(ctx, ParallelLevel::Warpgroup),
                         /*shared_memory=*/IntegerAttr(),
                         /*cluster=*/DenseI64ArrayAttr());
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
  {
    // In a persistent block the producer walks the same tiles, computing
    // what the loads need of each.
    OpBuilder pb(b.getContext());
    pb.setInsertionPoint(b.getInsertionBlock(), b.getInsertionPoint());
    IRMapping mapping;
    Value tileIv, base;
    scf::ForOp producerTiles;
    if (scf::ForOp tiles = c.tileLoop) {
      // Where the bounds change from tile to tile, the producer's tile
      // loop carries the iterations of the tiles before, as the
      // consumer's does.
      SmallVector<Value> carried;
      if (c.varyingBounds)
        carried.push_back(arith::ConstantIndexOp::create(pb, loc, 0));
      producerTiles =
          scf::ForOp::create(pb, loc, tiles.getLowerBound(),
                             tiles.getUpperBound(), tiles.getStep(), carried);
      tileIv = producerTiles.getInductionVar();
      if (c.varyingBounds)
        base = producerTiles.getRegionIterArgs()[0];
      mapping.map(tiles.getInductionVar(), tileIv);
      pb.setInsertionPointToStart(producerTiles.getBody());
      for (Operation *op : c.tileSlice)
        pb.clone(*op, mapping);
    }
    Value lb = mapping.lookupOrDefault(loop.getLowerBound());
    Value ub = mapping.lookupOrDefault(loop.getUpperBound());
    Value step = mapping.lookupOrDefault(loop.getStep());
    auto producerLoop = scf::ForOp::create(pb, loc, lb, ub, step);
    if (base) {
      pb.setInsertionPointAfter(producerLoop);
      Value zero = arith::ConstantIndexOp::create(pb, loc, 0);
      Value count = getTripCount(pb, loc, lb, ub, step, zero);
      scf::YieldOp::create(
          pb, loc, ValueRange{arith::AddIOp::create(pb, loc, base, count)});
    }
    pb.setInsertionPointToStart(producerLoop.getBody());
    Value iv = producerLoop.getInductionVar();
    emitLoads(pb, iv, getStage(pb, getIteration(pb, iv, mapping, tileIv, base)),
              mapping);
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
  if (c.tileLoop && c.varyingBounds)
    carryConsumerBase();
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
        getModuleTarget(getOperation());
    if (failed(target))
      return signalPassFailure();
    // Rings written by hand first: the loops the pass builds rings of have
    // tma loads of their own, which those consumer loops have not.
    keepHandWrittenGroupsInFlight(getOperation());
    SmallVector<PipelineCandidate, 0> candidates;
    getOperation()->walk([&](scf::ForOp loop) {
      // Directly in a block, or in the tile loop of a persistent block.
      auto tileLoop = dyn_cast<scf::ForOp>(loop->getParentOp());
      auto block = dyn_cast<ParallelOp>(tileLoop ? tileLoop->getParentOp()
                                                 : loop->getParentOp());
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
      candidates.push_back(
          {block, loop, tileLoop, std::move(loads), {}, {}, {}});
    });

    for (PipelineCandidate &candidate : candidates) {
      std::string why = analyze(candidate);
      int64_t count = 0;
      if (why.empty())
        count = chooseStages(candidate, stages, **target, why);
      if (count == 1)
        continue;
      if (!why.empty()) {
        LLVM_DEBUG(llvm::dbgs()
                   << "[" DEBUG_TYPE "] " << candidate.loop.getLoc()
                   << ": not pipelined: " << why << "\n");
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
      LLVM_DEBUG(llvm::dbgs()
                 << "[" DEBUG_TYPE "] " << candidate.loop.getLoc()
                 << ": ring of " << count << " stages, "
                 << candidate.loads.size() << " loads, "
                 << (specialize ? "warp-specialized" : "in place") << "\n");
      if (candidate.tileLoop && !specialize) {
        candidate.loop.emitWarning("not pipelined: a loop in a tile loop is "
                                   "pipelined warp-specialized only");
        continue;
      }
      RingBuilder(candidate, count).rewrite(specialize);
    }
  }
};
} // namespace
