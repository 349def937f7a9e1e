//===- TileChoice.cpp - block tiles of linalg GEMMs -----------------------===//
//
// The cost of a tile is (waves of blocks) x (time of one tile). Per K step
// a tile of R x C elements takes about R * C / efficiency of tensor-core
// time; K is the same for every candidate, so it drops out. The
// efficiencies are measured ratios on an H100 (bench/RESULTS.md): a 64-row
// block has one consumer warpgroup and half the operand reuse of a
// 128-row one.
//
//===----------------------------------------------------------------------===//

#include "TileChoice.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::croq;

namespace {
/// A tile croq computes, with the efficiency it reaches, in percent.
struct KnownTile {
  int64_t rows, cols, consumers, efficiency;
  bool persistent;
};
} // namespace

static constexpr KnownTile kKnownTiles[] = {
    {128, 256, 2, 100, true},
    {128, 128, 2, 90, true},
    // Chosen when every tile fits in one or two waves: the tile loop gains
    // nothing there, and measured 0.59 of cuBLAS at 1024^3 against 0.72
    // without it.
    {64, 128, 1, 70, false},
};

/// Shared bytes of an N-stage ring of `bytes`-byte stages, or of one
/// buffer: with room for 1024-byte alignment.
static int64_t padded(int64_t bytes) { return bytes + 1024; }

FailureOr<SmallVector<TileConfig>>
mlir::croq::getTileCandidates(const TargetDescription &target,
                              int64_t resultBytes, int64_t rows, int64_t cols) {
  constexpr int64_t kMinStages = 3;
  SmallVector<TileConfig> candidates;
  for (const KnownTile &tile : kKnownTiles) {
    if (rows != 0 && (tile.rows != rows || tile.cols != cols))
      continue;
    int64_t stage = (tile.rows + tile.cols) * kStepBytes;
    int64_t result = padded(tile.rows * tile.cols * resultBytes);
    // Two rings (A and B), each with its own alignment room.
    int64_t fit = (target.sharedMemoryPerBlock - result - 2 * 1024) / stage;
    if (rows == 0 && fit < kMinStages)
      continue;
    candidates.push_back({tile.rows, tile.cols, tile.consumers, tile.persistent,
                          tile.rows * tile.cols * 100 / tile.efficiency});
  }
  if (candidates.empty())
    return failure();
  return candidates;
}

Value mlir::croq::emitTileChoice(OpBuilder &b, Location loc, Value m, Value n,
                                 ArrayRef<TileConfig> candidates,
                                 int64_t multiprocessors) {
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(b, loc, value);
  };
  auto ceilDiv = [&](Value v, int64_t by) -> Value {
    return b.createOrFold<arith::CeilDivUIOp>(loc, v, constant(by));
  };
  Value best, bestCost;
  for (auto [index, tile] : llvm::enumerate(candidates)) {
    Value blocks = b.createOrFold<arith::MulIOp>(loc, ceilDiv(m, tile.rows),
                                                 ceilDiv(n, tile.cols));
    Value waves = ceilDiv(blocks, multiprocessors);
    Value cost =
        b.createOrFold<arith::MulIOp>(loc, waves, constant(tile.weight));
    if (!best) {
      best = constant(index);
      bestCost = cost;
      continue;
    }
    Value better = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ult,
                                                 cost, bestCost);
    best = b.createOrFold<arith::SelectOp>(loc, better, constant(index), best);
    bestCost = b.createOrFold<arith::SelectOp>(loc, better, cost, bestCost);
  }
  return best;
}
