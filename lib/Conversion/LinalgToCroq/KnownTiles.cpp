//===- KnownTiles.cpp - the block tiles of linalg GEMMs -------------------===//
//
// The tiles convert-linalg-to-croq computes GEMMs in, with their measured
// efficiencies, the operand stages each fits in shared memory next to its
// result tile, and the candidates a product takes (TileChoice.cpp weighs
// them).
//
//===----------------------------------------------------------------------===//

#include "TileChoice.h"

#include "Croq/Dialect/Croq/IR/ThreadGroups.h"

#include "llvm/Support/raw_ostream.h"

#include <limits>
#include <optional>

using namespace mlir;
using namespace mlir::croq;

static constexpr TileConfig kKnownTiles[] = {
    {128, 256, 2, true, false, 100, 100},
    // For problems of about one wave of 128x256 tiles or a wave and a
    // fraction, where a third more blocks fill the chip: 1536^3 and
    // 1000x3000x7000 measured 0.78 and 0.73 of cuBLAS against 0.50 and 0.65
    // with 128x256 (H200, bench_tiles.py). On many waves it is about as fast
    // per element as 128x256 (3000x5000x2000 in clusters: 0.95 against
    // 0.89; 8192x8192x1024: 1.00 against 0.98), a little slower where both
    // fill their waves (4096^3: 0.87 against 0.97, by waves too).
    {128, 192, 2, true, false, 98, 98},
    // Widths between, for the numbers of tiles that fill a wave where 192
    // and 256 leave SMs idle (1536^3 with B stored N x K: 11 x 12 tiles of
    // 128x144 on 132 SMs, 0.91 of cuBLAS against 0.80 with 128x192; H200).
    // A width that is not a multiple of 64 computes more slowly per element
    // (TFLOP/s against 128x256 on grids of whole waves, H100,
    // bench/RESULTS.md): 0.83-0.93 with B's tile K-major, whatever the
    // width's 128-byte swizzle spans. Where B's tile is N-major it is
    // padded to whole 128-byte spans (its rows would otherwise take the
    // 64B or 32B swizzle: 0.57-0.87) and loads more than it uses: 0.75
    // (144) to 0.95 (224) against 128x256 on one wave of 1536 x 1584 x
    // 2048 (H200, bench_tiles.py), where 1536^3 runs 0.84-0.86 of cuBLAS
    // with 128x144 or 128x160 against 0.80 with 128x192. 128x144 N-major:
    // 71 percent since (75 before), where 128x160 ran 1536^3 at 0.907 /
    // 0.902 of cuBLAS (B stored K x N / A stored K x M) against 0.892 /
    // 0.871, 2019x1088x5120 at 0.886 against 0.851 and 1536x1536x4096 (A
    // K x M) at 0.913 against 0.869, and 1280x1728x4096 at 0.904 / 0.907
    // against 0.914 / 0.925 (static kernels, H200).
    {128, 224, 2, true, false, 91, 90},
    {128, 176, 2, true, false, 90, 84},
    {128, 160, 2, true, false, 87, 82},
    {128, 144, 2, true, false, 86, 71},
    {128, 128, 2, true, true, 90, 90},
    // Chosen when every tile fits in one or two waves: the tile loop gains
    // nothing there, and measured 0.59 of cuBLAS at 1024^3 against 0.72
    // without it. One wave of it computes about 87% as fast as one of
    // 128x128 (2048x512x8192: 0.89 of cuBLAS; 512x4096x4096 with 128x128:
    // 0.90, the same product size; H200, bench/RESULTS.md).
    {64, 128, 1, false, true, 80, 80},
    // Three consumer warpgroups of 64 rows (152 registers each, the producer
    // 56): for M of about 192 x the waves' row count, where 128-row tiles
    // leave a wave part filled or pad a third of a tile. One wave of them,
    // against the model's choice before (H200, f16 B stored K x N / bf16
    // B stored N x K): 576x8192x8192 0.942 / 0.903 of cuBLAS against
    // 0.806 / 0.855, 320x12288x4096 0.972 against 0.907 (B N-major),
    // 1152x4096x4096 0.923 against 0.726 (N-major); with B K-major at
    // 1152x4096x4096 it ran 0.888 against 0.916 for 128x144, and at
    // 384x8192x8192 and 192x8192x8192 0.50-0.68 (where 128-row tiles
    // reach 0.78-0.96), which the efficiencies below reproduce. Last in
    // the table, so the variant numbers of the other tiles stay. With its
    // result stored in thirds (four stages; kMaxResultParts) and B K-major
    // it ran 320x12288x4096 at 0.930 against 0.888 for 192x160 tiles of
    // C^T and 645x5952x3456 / 1152x4096x4096 at 0.891 / 0.950 against
    // 0.833 / 0.918 for 128x144 (static kernels, H200): 92 percent
    // K-major, 84 when it had three stages.
    {192, 192, 3, true, false, 92, 95},
    // One consumer warpgroup on 128 rows of 64 columns, for M of 65 to 128
    // rows, where 64x128 tiles take two rows of tiles and 128x128 ones leave
    // most multiprocessors idle: 128x4096x4096 with its K loop split in
    // clusters of two ran 0.918 / 0.955 / 0.910 of cuBLAS (B stored K x N /
    // N x K, A stored K x M) against 0.797 / 0.844 / 0.788 with 64x128 (H200,
    // bench_linalg.py). Elsewhere the model does not give it: at 64 rows
    // (half of it padding) it ran 0.65-0.79 where 64x128 runs 0.98-1.02, and
    // at 512^3, 1024^3 and 2048x512x8192 2-5% slower than 64x128. With
    // its K loop split through a workspace it is the model's for products
    // of at most 64 columns whatever the rows: it computes half the padding
    // columns of 64x128 per row and fills the wave with shorter K ranges
    // (2048x24x8192 split in eight: 1.00 / 1.03 / 0.98 of cuBLAS, B stored
    // K x N / N x K, A K x M, where 64x128 split in four ran 0.75 / 0.86 /
    // 0.76 and 64x32 in clusters of two 0.75; 2048x40x16384 1.02 against
    // 0.73; 1024x48x8192 0.97 / 1.00 against 0.86 / 0.96; static kernels,
    // H200). Whole or split in clusters it is not: 8192x64x8192 in
    // clusters ran 0.95-0.99 where 64x64 whole runs 0.99-1.04, 11008x16x4096
    // whole 0.99 against 64x16's 1.00.
    {128, 64, 1, false, true, 85, 85, /*minModelRows=*/65,
     /*maxModelRows=*/128, /*unboundedRowsMaxCols=*/64},
};

/// The stages of operands past which a deeper ring gains little: a tile
/// whose whole result tile leaves fewer stores its result in parts
/// (128x256 with 3 stages: tensor pipes busy 86% of the time against
/// cuBLAS's 93% with 4, the consumers waiting for full stages; H100,
/// bench/RESULTS.md). At 2da1563 tiles split for a ninth stage too, and
/// the 64x128 tiles of 512^3 and 1024^3 lost 4-5% (H200). Split for a
/// fifth, 128x192 (B N-major) ran 2-3% faster than whole with four
/// (3000x5000x2000, 512x11008x4096; B K-major: 3% slower at 3000x5000x2000,
/// 3% faster at 1000x3000x7000; H200, static kernels).
static constexpr int64_t kEnoughStages = 5;
/// The most parts a result tile is stored in: four for a 4-byte result
/// (128x256 with f32 or i32 elements: 4 stages of operands next to a
/// 128x64 shared tile, 3 next to a half, 2 next to the whole); three for
/// 192x192 with a 16-bit result (4 stages next to a third, 3 next to a
/// half or the whole: 576x8192x8192 ran 0.978 of cuBLAS against 0.948,
/// 320x12288x4096 1.057 against 0.975; H200, static kernels). In quarters
/// the tf32 product ran 2-5% faster than in halves on the large shapes
/// (4096^3: 0.347 against 0.353 ms; 8192^3: 2.90 against 3.05; H200,
/// bench/RESULTS.md).
static constexpr int64_t kMaxResultParts = 4;

/// The fewest stages of operands a tile of the cost model's leaves room
/// for next to its result tile.
static constexpr int64_t kMinModelStages = 3;

/// A ring for each operand (A and B) next to a shared result tile of
/// `resultCols` columns, as croq-pipeline-loops counts them (without its
/// cap on stages), in `capacity` bytes (0: one block's maximum).
static int64_t countStages(const TargetDescription &target, int64_t resultBytes,
                           const TileConfig &tile, int64_t resultCols,
                           int64_t capacity = 0) {
  return countRingStages(capacity ? capacity : target.sharedMemoryPerBlock,
                         {tile.rows * resultCols * resultBytes},
                         {tile.rows * kStepBytes, tile.cols * kStepBytes},
                         std::numeric_limits<int64_t>::max());
}

/// The fewest columns a part of a result of `resultBytes`-byte elements
/// may have, 0 for none: 16 for 16-bit results, which stmatrix stores in
/// pairs of 8-column groups; a 128-byte swizzle span (32 columns) for
/// 4-byte ones, whose shared tile then keeps the 128B swizzle.
static int64_t getMinPartCols(int64_t resultBytes) {
  if (resultBytes == 2)
    return 16;
  if (resultBytes == 4)
    return kStepBytes / resultBytes;
  return 0;
}

int64_t mlir::croq::getResultPartCols(const TargetDescription &target,
                                      int64_t resultBytes,
                                      const TileConfig &tile) {
  int64_t minCols = getMinPartCols(resultBytes);
  int64_t best = tile.cols;
  int64_t bestStages = countStages(target, resultBytes, tile, best);
  if (minCols == 0)
    return best;
  // The fewest equal parts that give more stages, up to kEnoughStages.
  for (int64_t parts = 2;
       parts <= kMaxResultParts && bestStages < kEnoughStages; ++parts) {
    int64_t cols = tile.cols / parts;
    if (tile.cols % parts != 0 || cols % minCols != 0)
      continue;
    int64_t stages = countStages(target, resultBytes, tile, cols);
    if (stages <= bestStages)
      continue;
    best = cols;
    bestStages = stages;
  }
  return best;
}

int64_t mlir::croq::getClusterSplitStages(const TargetDescription &target,
                                          int64_t resultBytes,
                                          const TileConfig &tile,
                                          int64_t splits) {
  int64_t resultCols = getResultPartCols(target, resultBytes, tile);
  return countRingStages(target.sharedMemoryPerBlock,
                         {tile.rows * resultCols * resultBytes,
                          (splits - 1) * tile.rows * tile.cols * 4},
                         {tile.rows * kStepBytes, tile.cols * kStepBytes},
                         std::numeric_limits<int64_t>::max());
}

int64_t mlir::croq::getStagesThatFit(const TargetDescription &target,
                                     int64_t resultBytes,
                                     const TileConfig &tile) {
  return countStages(target, resultBytes, tile,
                     getResultPartCols(target, resultBytes, tile));
}

int64_t mlir::croq::getPipelineStages(const TargetDescription &target,
                                      int64_t resultBytes,
                                      const TileConfig &tile) {
  return std::min(getStagesThatFit(target, resultBytes, tile), kMaxAutoStages);
}

int64_t mlir::croq::getStagesForTwoBlocks(const TargetDescription &target,
                                          int64_t resultBytes,
                                          const TileConfig &tile) {
  int64_t half = target.sharedMemoryPerMultiprocessor / 2 -
                 target.sharedMemoryReservedPerBlock;
  int64_t stages =
      std::min(countStages(target, resultBytes, tile,
                           getResultPartCols(target, resultBytes, tile), half),
               kMaxAutoStages);
  return stages < kMinModelStages ? 0 : stages;
}

/// A tile of C^T: `rows` over N (64 per consumer warpgroup, whose
/// transposed store writes 64 columns of C's tile; croq-split-accumulators
/// splits the shared result tile by columns), `width` over M, and its
/// tensor-core efficiency in percent.
struct SwappedTile {
  int64_t rows;
  int64_t width;
  int64_t efficiency;
};

/// The tiles of C^T, in variant order. One consumer (64 rows): where a
/// product's rows fill one or two widths, its blocks fill the
/// multiprocessors without computing padding rows: hand-written kernels of
/// the swapped loop (H200, f16 A and B stored M x K and K x N / bf16 B
/// stored N x K; bench/RESULTS.md) ran 336x4096x4096 in 64x168 tiles at
/// 1.063 / 1.047 of cuBLAS against 0.924 / 0.877 in 128x128,
/// 200x8192x8192 in 64x200 at 0.942 / 0.942 against 0.800 / 0.752,
/// 16x8192x8192 in 64x16 at 1.114 / 0.982 against 1.035 / 0.897 (64x128,
/// K split in clusters), 64x8192x8192 in 64x64 at 0.993 / 1.022 against
/// 0.952 / 0.985 and 256x4096x8192 in 64x128 at 1.015 / 1.025 against
/// 0.923 / 0.924; 512x4096x4096 in 64x256 ran 0.936 / 0.910 against
/// 0.988 / 0.926 and 80x5000x3000 in 64x80 (79 blocks) 0.735 against
/// 0.759, which the model's costs reproduce with an efficiency of 80 (as
/// 64x128's). 160 after the fact: the static kernels of 140x8192x8192 and
/// 300x4000x2000 in 64x160 ran 0.875 / 0.905 and 0.908 / 0.880, where the
/// dynamic 64x176 ones ran 0.741 / 0.725 and 0.722 / 0.713.
///
/// Two and three consumers (128 and 192 rows): for a few hundred rows and
/// N of thousands, where tiles of 64 rows of C^T take two or three waves
/// and the plain tiles pad a quarter of their rows. The efficiencies are
/// those the H200 measured (static kernels, bench/RESULTS.md) against the
/// plain tiles' of the table: 128x160 ran 300x8192x8192 at 0.908 / 0.891
/// of cuBLAS where 128x192 ran 0.818 / 0.783 (91 and 93 percent), 192x160
/// ran 320x12288x4096 at 0.885 with B stored N x K against 0.860 for
/// 128x144 (73 percent) and 0.892 with B stored K x N against 0.976 for
/// 192x192 (72 percent); 128x208 ran 400x8192x4096 as the plain tiles do
/// (0.944 / 0.931), 192x128 at 256x12288x4096 0.893 / 0.871 against
/// 0.951 / 0.943 (left out). Three consumers hold at most 64x160 f32 each
/// (64x208 leaves ptxas short of registers).
///
/// Last, the widths cuBLAS runs for 70 to 180 rows (64x80, 128x96, ...):
/// 80, 96 and 112 on one and two consumers, at the efficiency of 64x128.
/// Static kernels of the model's choice before and after they were added
/// (H200, f16 B stored K x N / bf16 B stored N x K, bench/RESULTS.md):
/// 160x4096x4096 in 64x80 1.08 / 1.03 against 0.66 / 0.68 (64x128 of C^T,
/// a third of its columns padding), 80x8192x8192 in 64x80 1.00 / 0.99
/// against 0.73 / 0.70 (128x64), 72x6144x4096 in 64x80 0.87 / 0.95 against
/// 0.68 / 0.68, 176x4096x8192 in 64x96 1.04 / 0.93 against 0.64 / 0.55,
/// 96x12288x4096 in 128x96 0.97 / 0.95 against 0.96 / 0.93, 88x11008x4096
/// 1.03 / 0.97 against 0.97 / 0.94, 104x8192x4096 and 112x7168x7168 in
/// 64x112 0.97-1.00 against 0.93-0.97; no choice of the sweep changed.
static constexpr SwappedTile kSwappedTiles[] = {
    {64, 16, 80},   {64, 64, 80},   {64, 128, 80},  {64, 160, 80},
    {64, 176, 80},  {64, 208, 80},  {128, 160, 91}, {128, 176, 91},
    {128, 208, 91}, {192, 160, 73}, {64, 80, 80},   {64, 96, 80},
    {64, 112, 80},  {128, 80, 80},  {128, 96, 80},  {128, 112, 80}};

/// A tile of the variants added after the table's (tiles of C^T, narrow
/// tiles): `rows` x `width` on rows / 64 consumer warpgroups, not
/// persistent, not split through a workspace, its result stored whole; or
/// none where its operands would have fewer than kMinModelStages stages.
static std::optional<TileConfig> makeAddedTile(const TargetDescription &target,
                                               int64_t resultBytes,
                                               int64_t rows, int64_t width,
                                               int64_t efficiency) {
  TileConfig tile{rows,
                  width,
                  /*consumers=*/rows / kWarpgroupRows,
                  /*persistent=*/false,
                  /*splittable=*/false,
                  efficiency,
                  efficiency};
  // A tile of C^T's accumulator is stored transposed whole: its column
  // parts would be row parts of the result.
  tile.resultPartCols = width;
  if (countStages(target, resultBytes, tile, width) < kMinModelStages)
    return std::nullopt;
  return tile;
}

SmallVector<TileConfig>
mlir::croq::getSwappedTiles(const TargetDescription &target,
                            int64_t resultBytes) {
  SmallVector<TileConfig> tiles;
  for (const SwappedTile &swapped : kSwappedTiles) {
    std::optional<TileConfig> tile = makeAddedTile(
        target, resultBytes, swapped.rows, swapped.width, swapped.efficiency);
    if (!tile)
      continue;
    // The model gives it products of at most two columns of tiles.
    tile->maxModelRows = 2 * swapped.width;
    tile->swapped = true;
    tiles.push_back(*tile);
  }
  return tiles;
}

/// The narrow tiles (getNarrowTiles): 64 rows by `width` columns. A
/// product of few columns pads the 128-row-wide tiles' columns and reads
/// A, its one large operand, in few blocks; in 64 x width blocks its grid
/// has a block for each 64 rows (whole, or with the K loop split in
/// clusters of two where that leaves too few). Static kernels against the
/// model's choice before (64x128 tiles split in clusters, or 128x192 in
/// clusters; H200, f16 B stored K x N / bf16 B stored N x K, cuBLAS ms /
/// croq ms, bench/RESULTS.md): 4096x8x4096 in 64x16 split in clusters
/// 0.876 / 1.091 against 0.710 / 0.634, 8192x16x8192 in 64x16 0.978 /
/// 0.980 against 0.638 / 0.422, 11008x16x4096 0.837 against 0.601,
/// 4096x32x4096 in 64x32 split in clusters 1.017 against 0.801,
/// 8192x64x8192 in 64x64 1.031 / 1.022 against 0.675 / 0.524. Split
/// through a workspace, 64x16 ran 3-8% slower than in clusters. The model
/// gives each one column of tiles: at 3000x24x3000 64x32 ran 0.74 of
/// cuBLAS where two columns of 64x16 ran 0.59 (0.71 against 0.54 with A
/// stored K x M; each column of blocks reads all of A).
static constexpr int64_t kNarrowTileWidths[] = {16, 32, 64};
static constexpr int64_t kNarrowTileEfficiency = 80;

SmallVector<TileConfig>
mlir::croq::getNarrowTiles(const TargetDescription &target,
                           int64_t resultBytes) {
  SmallVector<TileConfig> tiles;
  for (int64_t width : kNarrowTileWidths) {
    std::optional<TileConfig> tile = makeAddedTile(
        target, resultBytes, kWarpgroupRows, width, kNarrowTileEfficiency);
    if (!tile)
      continue;
    tile->maxModelCols = width;
    tiles.push_back(*tile);
  }
  return tiles;
}

std::string mlir::croq::getKnownTileNames() {
  SmallVector<std::pair<int64_t, int64_t>> shapes;
  for (const TileConfig &tile : kKnownTiles)
    shapes.push_back({tile.rows, tile.cols});
  for (int64_t width : kNarrowTileWidths)
    shapes.push_back({kWarpgroupRows, width});
  std::string names;
  llvm::raw_string_ostream os(names);
  for (auto [index, shape] : llvm::enumerate(shapes)) {
    if (index != 0)
      os << (index + 1 == shapes.size() ? " or " : ", ");
    os << shape.first << "x" << shape.second;
  }
  return names;
}

FailureOr<SmallVector<TileConfig>>
mlir::croq::getTileCandidates(const TargetDescription &target,
                              int64_t resultBytes, bool bKMajor, int64_t rows,
                              int64_t cols) {
  SmallVector<TileConfig> candidates;
  for (TileConfig tile : kKnownTiles) {
    if (!bKMajor)
      tile.efficiency = tile.nMajorEfficiency;
    if (rows != 0 && (tile.rows != rows || tile.cols != cols))
      continue;
    if (rows == 0 &&
        (tile.efficiency == 0 ||
         getStagesThatFit(target, resultBytes, tile) < kMinModelStages))
      continue;
    // A forced tile runs, however slowly its layout computes.
    tile.efficiency = std::max<int64_t>(tile.efficiency, 1);
    tile.resultPartCols = getResultPartCols(target, resultBytes, tile);
    tile.partialPartCols = getResultPartCols(target, /*resultBytes=*/4, tile);
    candidates.push_back(tile);
  }
  // A forced narrow tile (the model's are variants of their own,
  // addNarrowVariants).
  if (rows != 0 && candidates.empty())
    for (TileConfig tile : getNarrowTiles(target, resultBytes))
      if (tile.rows == rows && tile.cols == cols) {
        tile.maxModelCols = 0;
        candidates.push_back(tile);
      }
  if (candidates.empty())
    return failure();
  return candidates;
}
