//===- PersistentBlocks.cpp - one block per SM walking the tiles ----------===//
//
// Implements croq-persistent-blocks: a 2-D grid of blocks becomes
// min(tiles, multiprocessors) blocks, each looping over its tiles in an
// L2-friendly order, with the block's shared buffers allocated once. Blocks
// launched in clusters walk the tiles a cluster at a time.
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/CroqOps.h"
#include "Croq/Dialect/Croq/IR/TargetDescription.h"
#include "Croq/Dialect/Croq/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace mlir {
namespace croq {
#define GEN_PASS_DEF_CROQPERSISTENTBLOCKS
#include "Croq/Dialect/Croq/Transforms/Passes.h.inc"
} // namespace croq
} // namespace mlir

using namespace mlir;
using namespace mlir::croq;

/// Whether `value` is a multiple of `factor` by construction: a constant
/// multiple, or a product with one.
static bool isMultipleOf(Value value, int64_t factor) {
  if (factor == 1)
    return true;
  if (std::optional<int64_t> constant = getConstantIntValue(value))
    return *constant % factor == 0;
  auto mul = value.getDefiningOp<arith::MulIOp>();
  return mul && (isMultipleOf(mul.getLhs(), factor) ||
                 isMultipleOf(mul.getRhs(), factor));
}

/// Why `block` cannot be made persistent, or an empty string.
static std::string check(ParallelOp block) {
  if (block.getStaticExtents().size() != 2)
    return "its grid is not 2-D";
  // The tiles are walked a cluster at a time, so the grid must be whole
  // clusters, which the launch checks only for the grid it launches.
  if (std::optional<ArrayRef<int64_t>> cluster = block.getCluster())
    for (auto [extent, size] : llvm::zip(block.getMixedExtents(), *cluster))
      if (auto value = dyn_cast<Value>(extent);
          value && !isMultipleOf(value, size))
        return "it is launched in clusters over an extent known only at run "
               "time that is not a multiple of the cluster's size by "
               "construction";
  Block &body = block.getBody().front();
  for (Operation &op : body)
    if (isa<EventAllocOp>(op))
      return "it allocates events, whose phases would run on across tiles";
  // The persistent grid's cluster has one dimension.
  WalkResult along = block.walk([](CopyOp copy) {
    return copy.getMulticastDim() ? WalkResult::interrupt()
                                  : WalkResult::advance();
  });
  if (along.wasInterrupted())
    return "its loads are multicast along one dimension of its cluster, "
           "and the cluster of a persistent grid has one dimension";
  return "";
}

/// The tile coordinates of linear tile `t` of a `rows` x `cols` grid, in
/// groups of `groupRows` tile rows walked down the rows first.
static std::pair<Value, Value> getTile(OpBuilder &b, Location loc, Value t,
                                       Value rows, Value cols,
                                       int64_t groupRows) {
  Value group = arith::ConstantIndexOp::create(b, loc, groupRows);
  Value inGroup = arith::MulIOp::create(b, loc, cols, group);
  Value groupIndex = arith::DivUIOp::create(b, loc, t, inGroup);
  Value firstRow = arith::MulIOp::create(b, loc, groupIndex, group);
  Value rowsLeft = arith::SubIOp::create(b, loc, rows, firstRow);
  Value groupSize = arith::MinUIOp::create(b, loc, rowsLeft, group);
  Value within = arith::RemUIOp::create(b, loc, t, inGroup);
  Value row = arith::AddIOp::create(
      b, loc, firstRow, arith::RemUIOp::create(b, loc, within, groupSize));
  Value col = arith::DivUIOp::create(b, loc, within, groupSize);
  return {row, col};
}

/// Rewrites `block` into its persistent form. A block launched in clusters
/// of cr x cc keeps its cluster shape on the tiles: the cluster (now of
/// cr * cc blocks on a 1-D grid) walks tiles of cr x cc tiles, and its
/// blocks take their places in each, so that they work on the same tiles'
/// rows and columns in step.
static void makePersistent(ParallelOp block, int64_t multiprocessors,
                           int64_t groupRows) {
  Location loc = block.getLoc();
  OpBuilder b(block);
  SmallVector<Value> extents =
      getValueOrCreateConstantIndexOp(b, loc, block.getMixedExtents());
  SmallVector<int64_t> clusterShape = {1, 1};
  if (std::optional<ArrayRef<int64_t>> cluster = block.getCluster())
    clusterShape.assign(cluster->begin(), cluster->end());
  int64_t clusterBlocks = clusterShape[0] * clusterShape[1];
  Value rows = b.createOrFold<arith::DivUIOp>(
      loc, extents[0], arith::ConstantIndexOp::create(b, loc, clusterShape[0]));
  Value cols = b.createOrFold<arith::DivUIOp>(
      loc, extents[1], arith::ConstantIndexOp::create(b, loc, clusterShape[1]));
  Value tiles = b.createOrFold<arith::MulIOp>(loc, rows, cols);
  Value clusters = b.createOrFold<arith::MinUIOp>(
      loc, tiles,
      arith::ConstantIndexOp::create(
          b, loc, std::max<int64_t>(1, multiprocessors / clusterBlocks)));
  Value grid = b.createOrFold<arith::MulIOp>(
      loc, clusters, arith::ConstantIndexOp::create(b, loc, clusterBlocks));
  SmallVector<Value> dynamicGrid;
  SmallVector<int64_t> staticGrid;
  dispatchIndexOpFoldResults(getAsOpFoldResult(ValueRange{grid}), dynamicGrid,
                             staticGrid);
  DenseI64ArrayAttr cluster;
  if (block.getCluster())
    cluster = b.getDenseI64ArrayAttr({clusterBlocks});
  auto persistent =
      ParallelOp::create(b, loc, dynamicGrid, staticGrid, ParallelLevel::Block,
                         block.getSharedMemoryAttr(), cluster);
  for (NamedAttribute attr : block->getDiscardableAttrs())
    if (attr.getName() != CroqDialect::PersistentAttrHelper::getNameStr())
      persistent->setAttr(attr.getName(), attr.getValue());
  Block *body =
      b.createBlock(&persistent.getBody(), {}, {b.getIndexType()}, {loc});
  Value bid = body->getArgument(0);

  // The shared buffers, once per block; everything else once per tile.
  Block &old = block.getBody().front();
  for (Operation &op : llvm::make_early_inc_range(old))
    if (isa<AllocOp>(op))
      op.moveBefore(body, body->end());
  b.setInsertionPointToEnd(body);
  Value first = bid;
  Value rowInCluster, colInCluster;
  if (clusterBlocks > 1) {
    // The block's cluster and its rank there (a 1-D cluster's rank is the
    // block index modulo the cluster's size).
    Value size = arith::ConstantIndexOp::create(b, loc, clusterBlocks);
    first = arith::DivUIOp::create(b, loc, bid, size);
    Value rank = arith::RemUIOp::create(b, loc, bid, size);
    Value clusterCols = arith::ConstantIndexOp::create(b, loc, clusterShape[1]);
    rowInCluster = b.createOrFold<arith::DivUIOp>(loc, rank, clusterCols);
    colInCluster = b.createOrFold<arith::RemUIOp>(loc, rank, clusterCols);
  }
  auto loop = scf::ForOp::create(b, loc, first, tiles, clusters);
  b.setInsertionPointToStart(loop.getBody());
  auto [row, col] = getTile(b, loc, loop.getInductionVar(), rows, cols,
                            std::max<int64_t>(1, groupRows / clusterShape[0]));
  if (clusterBlocks > 1) {
    auto place = [&](Value tile, int64_t size, Value offset) -> Value {
      Value first = b.createOrFold<arith::MulIOp>(
          loc, tile, arith::ConstantIndexOp::create(b, loc, size));
      return b.createOrFold<arith::AddIOp>(loc, first, offset);
    };
    row = place(row, clusterShape[0], rowInCluster);
    col = place(col, clusterShape[1], colInCluster);
  }
  old.getArgument(0).replaceAllUsesWith(row);
  old.getArgument(1).replaceAllUsesWith(col);
  Operation *yield = loop.getBody()->getTerminator();
  for (Operation &op : llvm::make_early_inc_range(old))
    op.moveBefore(yield);
  block.erase();
}

namespace {
struct CroqPersistentBlocksPass
    : croq::impl::CroqPersistentBlocksBase<CroqPersistentBlocksPass> {
  using Base::Base;

  void runOnOperation() override {
    FailureOr<const TargetDescription *> target =
        getModuleTarget(getOperation());
    if (failed(target))
      return signalPassFailure();
    if (groupRows < 1) {
      getOperation()->emitError("croq-persistent-blocks takes group-rows of "
                                "1 or more, got ")
          << static_cast<int64_t>(groupRows);
      return signalPassFailure();
    }
    SmallVector<ParallelOp> blocks;
    bool failedAny = false;
    getOperation()->walk([&](ParallelOp block) {
      if (block.getLevel() != ParallelLevel::Block)
        return;
      StringRef name = CroqDialect::PersistentAttrHelper::getNameStr();
      bool asked = persistent;
      bool forced = false;
      if (auto attr = block->getAttrOfType<BoolAttr>(name)) {
        asked = attr.getValue();
        forced = asked;
        block->removeAttr(name);
      }
      if (!asked)
        return;
      std::string why = check(block);
      if (why.empty()) {
        blocks.push_back(block);
      } else if (forced) {
        block.emitError("cannot make the block persistent: ") << why;
        failedAny = true;
      }
    });
    if (failedAny)
      return signalPassFailure();
    for (ParallelOp block : blocks)
      makePersistent(block, (*target)->multiprocessors, groupRows);
  }
};
} // namespace
