//===- TileBounds.cpp - where the cost model never takes a variant --------===//
//
// The bounds of the GEMM cost model (TileChoice.cpp) that rule a variant out
// whatever its cycles: clusters wider than the product, narrow tiles on a
// clipped box or not, tiles of C^T in clusters on a sparse M, and a tile's
// own row and column bounds. Each keeps the cost it is given or makes it
// "never" (kNeverCycles), with the measurement that set it.
//
//===----------------------------------------------------------------------===//

#include "TileBounds.h"

using namespace mlir;
using namespace mlir::croq;

static constexpr int64_t kNever = kNeverCycles;

/// `cost`, or never where a cluster of `tile` spans more tiles than the
/// rows x cols product has along its rows or columns: its other blocks
/// would load and multiply tiles of no element of the product (48 rows in
/// 128x192 tiles in clusters of 2 x 1 ran 0.64 of cuBLAS at
/// 48x11008x4096, where 64x128 tiles alone ran 1.02; H200).
Value mlir::croq::emitIdleClusterCost(IndexBuilder &e, Value rows, Value cols,
                                      const TileConfig &tile, Value cost) {
  auto never = [&](Value extent, int64_t tileSize, int64_t clusterSize) {
    if (clusterSize == 1)
      return;
    Value tiles = e.ceilDiv(extent, tileSize);
    cost = e.select(e.less(tiles, e.c(clusterSize)), e.c(kNever), cost);
  };
  never(rows, tile.rows, tile.clusterRows);
  never(cols, tile.cols, tile.clusterCols);
  return cost;
}

/// `cost`, or never for a narrow tile alone where the product's `cols`
/// are not a multiple of its width, and in clusters where they are
/// (TileConfig::clusteredWhereClipped).
Value mlir::croq::emitClippedBoxCost(IndexBuilder &e, Value cols,
                                     const TileConfig &tile, Value cost) {
  Value clipped = e.less(e.c(0), e.rem(cols, e.c(tile.cols)));
  if (tile.getClusterBlocks() > 1)
    return e.select(clipped, cost, e.c(kNever));
  return e.select(clipped, e.c(kNever), cost);
}

/// `cost`, or never for a tile of C^T in clusters where the product's M
/// (`cols`, C^T's columns) fills less than 7/8 of its columns of tiles:
/// where M filled 0.9-1.0 of them, 128x160 and 128x176 tiles of C^T in
/// clusters ran 0.85-0.95 of cuBLAS against 0.66-0.80 for the model's
/// choice before (mayClusterSwapped, ProductTiles.cpp), but at M of 48 to 128
/// (0.27-0.80 filled) 0.59-0.85 where 64x128, 128x128 and 128x64 tiles of
/// C ran 0.84-1.03 (H200, static kernels, bench/RESULTS.md).
Value mlir::croq::emitSwappedClusterFillCost(IndexBuilder &e, Value cols,
                                             const TileConfig &tile,
                                             Value cost) {
  Value covered = e.roundUp(cols, tile.cols);
  Value sparse = e.less(e.mul(cols, e.c(8)), e.mul(covered, e.c(7)));
  return e.select(sparse, e.c(kNever), cost);
}

/// `cost`, or never where `variant`'s tile is outside its bounds on the
/// product's `m` rows and `n` columns (TileConfig) or, a plain tile, a
/// whole span of 64 columns wider than the product. `hasNarrowTile`: the
/// variants have the narrow tiles (getNarrowTiles).
Value mlir::croq::emitModelBoundsCost(IndexBuilder &e, Value m, Value n,
                                      const GemmVariant &variant,
                                      bool hasNarrowTile, Value cost) {
  const TileConfig &tile = variant.tile;
  Value unboundedRows = cost;
  if (tile.minModelRows != 0)
    cost = e.select(e.less(m, e.c(tile.minModelRows)), e.c(kNever), cost);
  if (tile.maxModelRows != 0)
    cost = e.select(e.less(e.c(tile.maxModelRows), m), e.c(kNever), cost);
  if (tile.unboundedRowsMaxCols != 0 && variant.form == GemmForm::SplitK)
    cost = e.select(e.less(e.c(tile.unboundedRowsMaxCols), n), cost,
                    unboundedRows);
  if (tile.maxModelCols != 0)
    cost = e.select(e.less(e.c(tile.maxModelCols), n), e.c(kNever), cost);
  // A plain tile a whole span of 64 columns wider than a product of more
  // than 64 columns computes and stores that span of padding in every
  // block, for nothing a tile of 128 columns (every kind of product has
  // one) lacks: at 12288x128x12288 128x192 tiles in clusters ran 0.77 of
  // cuBLAS (B stored K x N; 0.73 A stored K x M) where 128x128 ones ran
  // 0.97 (0.95), the model's memory term taking the clusters' shares of
  // B for a saving (H200, static kernels).
  //
  // The same for products of at most 64 columns where the variants have
  // the narrow tiles: 128x192 tiles in clusters ran 0.58 of cuBLAS at
  // 9000x48x3000 and 0.62 at 12000x56x4096 (128x128 in clusters, B
  // stored N x K: 0.67, 0.88) where 64x64 tiles ran 0.65-0.72 and
  // 0.81-0.91 (H200, static kernels).
  if (!tile.swapped) {
    constexpr int64_t kSpan = 64;
    Value padded = e.add(e.roundUp(n, kSpan), e.c(kSpan));
    Value wide = e.less(padded, e.c(tile.cols + 1));
    Value never = e.c(kNever);
    if (!hasNarrowTile)
      never = e.select(e.less(e.c(kSpan), n), never, cost);
    cost = e.select(wide, never, cost);
  }
  return cost;
}
