//===- GemmVariants.cpp - the kernels a linalg GEMM may run ---------------===//
//
// The variants of a GEMM from linalg: its candidate tiles whole, in
// clusters, with the K loop split through a workspace, in stream-K form or
// split among the blocks of a cluster, as the options force or the cost
// model may choose (TileChoice.cpp weighs them); and the plan of a
// stream-K grid.
//
//===----------------------------------------------------------------------===//

#include "IndexBuilder.h"
#include "TileChoice.h"

#include "Croq/Dialect/Croq/IR/ThreadGroups.h"

using namespace mlir;
using namespace mlir::croq;

/// The fewest K steps a block of a stream-K grid takes (planStreamK).
static constexpr int64_t kMinStreamKSteps = 8;
/// The blocks of a cluster whose K loop is split that the cost model tries
/// (ClusterSplitK.cpp), on tiles of 64x128 elements only (64x128 and 128x64).
/// Measured on an H200 (cuBLAS ms / croq ms, bench/RESULTS.md): 64x128 in
/// clusters of 2 ran 0.80-0.95 where main's whole tiles ran 0.78-1.01
/// (1x8192x8192 0.950 against 0.885, 128x4096x4096 with B stored N x K 0.820
/// against 0.779, 16x8192x8192 with B stored N x K 0.893 against 0.915);
/// 128x128 in clusters of 2 lost at 256x4096x8192 (0.874 against 0.950), and
/// every tile in clusters of 4 lost everywhere (0.25-0.78). 128x64 on one
/// consumer warpgroup in clusters of 2: 0.914 at 128x4096x4096 against 0.798
/// for 64x128 (hand-written kernels).
static constexpr int64_t kClusterSplitCounts[] = {2};
static constexpr int64_t kClusterSplitElements = 64 * 128;

/// Whether the model considers `tile` in clusters of two along M: the
/// 128x192 and 128x256 tiles measured faster so where B's rows are not
/// 128-byte multiples, and the 64x128 and 128x128 tiles where pairs of rows
/// of tiles read B once instead of twice from memory (128x8192x8192 with
/// 64x128: 0.99 of cuBLAS against 0.90 with 128x128 split in two;
/// 192x8192x8192 and 256x8192x8192 with 128x128: 0.83 and 0.94 against
/// 0.53 and 0.49 with 64x128; 4095x4097x4093: 2.84 against 2.53 with
/// 128x192 in clusters; H200, bench_tiles.py). The widths between were
/// not measured in clusters.
static bool mayCluster(const TileConfig &tile) {
  // 192x192 in clusters of two along M: 0.47 of cuBLAS at 576x8192x8192
  // against 0.94 alone (H200).
  if (tile.rows > 128)
    return false;
  return tile.cols == 128 || tile.cols == 192 || tile.cols == 256;
}

/// Whether the model considers `tile` in stream-K form: the 128-row tiles
/// of 128 columns or more whose width is whole 32-column groups of the
/// reduction kernel (SplitK.cpp), so that each group's partials belong to
/// one tile. (128x64 is given to products of at most 128 rows, too few
/// tiles for stream-K.)
static bool mayStreamK(const TileConfig &tile) {
  return tile.rows == 128 && tile.cols >= 128 && tile.cols % 32 == 0;
}

/// `tile` for the stream-K form: its accumulator shared among consumer
/// warpgroups of 64 rows each. The kernel of a 128x128 tile's ranges on
/// one consumer warpgroup has its wgmma serialized by ptxas (C7520).
static TileConfig getStreamKTile(TileConfig tile) {
  tile.consumers = std::max(tile.consumers, tile.rows / kWarpgroupRows);
  return tile;
}

SmallVector<GemmVariant>
mlir::croq::getGemmVariants(ArrayRef<TileConfig> tiles, int64_t splitK,
                            int64_t streamK, int64_t clusterM, int64_t clusterN,
                            int64_t clusterK) {
  SmallVector<GemmVariant> variants;
  auto clusterSplit = [&](const TileConfig &tile, int64_t splits) {
    GemmVariant variant{tile, GemmForm::ClusterSplitK};
    variant.clusterSplits = splits;
    variants.push_back(variant);
  };
  if (clusterK > 1) {
    for (const TileConfig &tile : tiles)
      if (tile.splittable)
        clusterSplit(tile, clusterK);
    return variants;
  }
  for (const TileConfig &tile : tiles) {
    bool streamKForm = splitK == 0 && clusterM == 0 && clusterN == 1 &&
                       streamK != 1 && mayStreamK(tile);
    if (streamK == 2) {
      if (streamKForm)
        variants.push_back({getStreamKTile(tile), GemmForm::StreamK,
                            /*withoutWholeWave=*/true});
      continue;
    }
    if (splitK <= 1) {
      TileConfig whole = tile;
      whole.clusterRows = std::max<int64_t>(clusterM, 1);
      whole.clusterCols = clusterN;
      variants.push_back({whole, GemmForm::Whole});
      if (clusterM == 0 && clusterN == 1 && mayCluster(tile)) {
        TileConfig clustered = tile;
        clustered.clusterRows = 2;
        variants.push_back({clustered, GemmForm::Whole});
      }
    }
    if (splitK != 1 && tile.splittable)
      variants.push_back({tile, GemmForm::SplitK});
    if (streamKForm)
      variants.push_back({getStreamKTile(tile), GemmForm::StreamK});
  }
  // Last, so that the other variants keep their numbers (the shape
  // classes of compile on first call).
  bool clusterSplitForm = clusterK == 0 && splitK == 0 && streamK != 2 &&
                          clusterM == 0 && clusterN == 1;
  if (clusterSplitForm)
    for (const TileConfig &tile : tiles)
      if (tile.splittable && tile.rows * tile.cols == kClusterSplitElements)
        appendClusterSplitVariants(tile, variants);
  return variants;
}

void mlir::croq::appendClusterSplitVariants(
    const TileConfig &tile, SmallVector<GemmVariant> &variants) {
  for (int64_t splits : kClusterSplitCounts) {
    GemmVariant variant{tile, GemmForm::ClusterSplitK};
    variant.clusterSplits = splits;
    variants.push_back(variant);
  }
}

StreamKPlan mlir::croq::planStreamK(OpBuilder &b, Location loc, Value m,
                                    Value n, Value kSteps,
                                    const TileConfig &tile,
                                    int64_t multiprocessors) {
  IndexBuilder e{b, loc};
  StreamKPlan plan;
  plan.tilesM = e.ceilDiv(m, tile.rows);
  plan.tilesN = e.ceilDiv(n, tile.cols);
  Value tiles = e.mul(plan.tilesM, plan.tilesN);
  // The whole waves, as whole columns of tiles: at most as many tiles (an
  // empty product, M of 0, divides by 1 here, not by 0).
  Value wholeWaves = e.div(tiles, e.c(multiprocessors));
  Value wholeTiles = e.mul(wholeWaves, e.c(multiprocessors));
  plan.wholeCols = e.div(wholeTiles, e.max(plan.tilesM, e.c(1)));
  plan.skCols = e.sub(plan.tilesN, plan.wholeCols);
  plan.skTiles = e.mul(plan.skCols, plan.tilesM);
  plan.iterations = e.mul(plan.skTiles, kSteps);
  plan.perBlock =
      e.max(e.ceilDiv(plan.iterations, multiprocessors), e.c(kMinStreamKSteps));
  plan.blocks = e.ceilDiv(plan.iterations, plan.perBlock);
  // A tile's kSteps steps meet at most (kSteps - 1) / perBlock + 2 ranges.
  plan.slots = e.add(e.div(e.sub(kSteps, e.c(1)), plan.perBlock), e.c(2));
  return plan;
}
