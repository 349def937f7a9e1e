//===- PersistentBlocks.cpp - one block per SM walking the tiles ----------===//
//
// Implements croq-persistent-blocks: a 2-D grid of blocks becomes
// min(tiles, multiprocessors) blocks, each looping over its tiles in an
// L2-friendly order, with the block's shared buffers allocated once.
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

/// Why `block` cannot be made persistent, or an empty string.
static std::string check(ParallelOp block) {
  if (block.getCluster())
    return "it is launched in clusters, whose blocks would have to walk the "
           "tiles in step";
  if (block.getStaticExtents().size() != 2)
    return "its grid is not 2-D";
  Block &body = block.getBody().front();
  for (Operation &op : body)
    if (isa<EventAllocOp>(op))
      return "it allocates events, whose phases would run on across tiles";
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

/// Rewrites `block` into its persistent form.
static void makePersistent(ParallelOp block, int64_t multiprocessors,
                           int64_t groupRows) {
  Location loc = block.getLoc();
  OpBuilder b(block);
  SmallVector<Value> extents =
      getValueOrCreateConstantIndexOp(b, loc, block.getMixedExtents());
  Value tiles = b.createOrFold<arith::MulIOp>(loc, extents[0], extents[1]);
  Value grid = b.createOrFold<arith::MinUIOp>(
      loc, tiles, arith::ConstantIndexOp::create(b, loc, multiprocessors));
  SmallVector<Value> dynamicGrid;
  SmallVector<int64_t> staticGrid;
  dispatchIndexOpFoldResults(getAsOpFoldResult(ValueRange{grid}), dynamicGrid,
                             staticGrid);
  auto persistent =
      ParallelOp::create(b, loc, dynamicGrid, staticGrid, ParallelLevel::Block,
                         block.getSharedMemoryAttr(), /*cluster=*/nullptr);
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
  auto loop = scf::ForOp::create(b, loc, bid, tiles, grid);
  b.setInsertionPointToStart(loop.getBody());
  auto [row, col] = getTile(b, loc, loop.getInductionVar(), extents[0],
                            extents[1], groupRows);
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
        getTargetDescription(getOperation()->getLoc(), chip);
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
