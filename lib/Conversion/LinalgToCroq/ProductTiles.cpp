//===- ProductTiles.cpp - the tiles a product's kind allows ---------------===//
//
// What a product's kind rules out of the cost model's candidates: tiles
// whose consumers have no room for promoted 8-bit float sums or a block
// of B's scales, the 192-row tile for anything but a plain 16-bit product
// (its consumers spill otherwise), and the forms an implicit GEMM lacks;
// the one consumer warpgroup a plain 16-bit product runs 128x128 on; and
// which products may take tiles of C^T (A and B's roles swapped) and the
// narrow tiles of few columns.
//
//===----------------------------------------------------------------------===//

#include "ProductTiles.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::croq;

/// The largest tile whose consumer warpgroups hold two f32 accumulators of
/// 64 rows each (main and partial): 2 x 96 registers of 128x192 fit next
/// to the addresses in the 232 of each of two consumers, 2 x 128 of
/// 128x256 do not, and neither does 2 x 96 in the 152 of each of the
/// three consumers of a 192-row tile.
static constexpr int64_t kMaxPromotedRows = 128;
static constexpr int64_t kMaxPromotedCols = 192;

/// Keeps the tiles of `candidates` a product with promoted partial sums
/// can take (kMaxPromotedRows x kMaxPromotedCols; a block-scaled one, whose
/// tile takes one block of B's scales, 128 columns), or declines a forced
/// tile that is not one.
LogicalResult
mlir::croq::keepPromotedTiles(linalg::LinalgOp op, const MatmulSpec &spec,
                              SmallVector<TileConfig> &candidates) {
  if (spec.promoteSteps == 0 && !spec.aScales)
    return success();
  auto fits = [&](const TileConfig &tile) {
    if (tile.rows > kMaxPromotedRows)
      return false;
    return spec.aScales ? tile.cols == 128 : tile.cols <= kMaxPromotedCols;
  };
  TileConfig first = candidates.front();
  llvm::erase_if(candidates,
                 [&](const TileConfig &tile) { return !fits(tile); });
  if (!candidates.empty())
    return success();
  if (spec.aScales)
    return op.emitOpError("convert-linalg-to-croq computes block-scaled "
                          "products in tiles of at most ")
           << kMaxPromotedRows
           << " rows and 128 columns (one block of B's scales), got "
           << first.rows << "x" << first.cols;
  return op.emitOpError("convert-linalg-to-croq computes 8-bit float "
                        "products with promoted partial sums in tiles of at "
                        "most ")
         << kMaxPromotedRows << "x" << kMaxPromotedCols
         << " (two f32 accumulators in registers), got " << first.rows << "x"
         << first.cols << " (f8-promote-steps=0 takes it)";
}

/// Whether `spec` is a plain product of 16-bit floats: into a zeroed
/// output, with no fused consumer, not batched, not a convolution (16-bit
/// operands have no promoted sums or block scales).
static bool isPlain16BitProduct(const MatmulSpec &spec) {
  Type operand = getElementTypeOrSelf(spec.a.getType());
  return spec.zeroFill && !spec.epilogue && !spec.batched && !spec.conv &&
         isa<Float16Type, BFloat16Type>(operand);
}

/// The most rows of a tile the cost model gives a product that accumulates
/// into its output, computes a fused consumer in its epilogue, is batched,
/// is a convolution or multiplies other than 16-bit floats (tf32, s8 and
/// 8-bit floats with the tile were not run). The three consumers of a 192-row
/// tile have 152 registers each: the plain product's kernels with dynamic
/// extents spill 0-168 bytes and ran 0.90-0.97 of cuBLAS where the model takes
/// them (H200), but with the output accumulated or a consumer's vectors and
/// tensors they spill 160-2000 bytes (ptxas on linalg_matmul.mlir's forms
/// with the tile forced); the batched ones spill 120-236, not measured,
/// and implicit GEMMs were not tried.
static constexpr int64_t kMaxRowsUnlessPlain = 128;

/// Drops the model's candidates of more than kMaxRowsUnlessPlain rows
/// for `spec` unless it is a plain product of 16-bit floats into a zeroed
/// output.
void mlir::croq::dropTallTilesUnlessPlain(const MatmulSpec &spec,
                                          SmallVector<TileConfig> &candidates) {
  if (isPlain16BitProduct(spec))
    return;
  llvm::erase_if(candidates, [](const TileConfig &tile) {
    return tile.rows > kMaxRowsUnlessPlain;
  });
}

/// The tile whose accumulator one consumer warpgroup holds (128 registers
/// a thread) where that runs faster than two of 64 rows each.
static constexpr int64_t kOneConsumerRows = 128;
static constexpr int64_t kOneConsumerCols = 128;

/// One consumer warpgroup on the whole 128x128 accumulator, blocks not
/// persistent, against two of 64 rows, persistent (H200, bench/RESULTS.md):
/// hand-written kernels of the same loop with B stored K x N ran 0.976 of
/// cuBLAS against 0.915 at 512x4096x4096, 0.972 against 0.893 at
/// 512x4096x16384 and 0.854 against 0.818 at 4096^3; the dynamic kernels of
/// linalg_matmul.mlir 0.982 / 0.984 (A stored M x K / K x M) against 0.916 /
/// 0.918 at 512x4096x4096, 0.981 / 1.006 against 0.927 / 0.913 at
/// 768x768x12288. With B stored N x K the whole tile ran slower (0.863
/// against 0.942 at 512x4096x4096), and one consumer made persistent ran
/// 0.46-0.50. Products with promoted sums keep two accumulators (two
/// consumers); those with a fused consumer's vectors, batched ones and
/// implicit GEMMs were not measured so (silu+residual spills 648 bytes).
void mlir::croq::useOneConsumerWhereFaster(
    const MatmulSpec &spec, SmallVector<TileConfig> &candidates) {
  if (!isPlain16BitProduct(spec) || spec.bTransposed)
    return;
  for (TileConfig &tile : candidates) {
    if (tile.rows != kOneConsumerRows || tile.cols != kOneConsumerCols)
      continue;
    tile.consumers = 1;
    tile.persistent = false;
  }
}

/// The tiles of C^T whose B operand (A's tile) may be N-major: A stored
/// K x M makes it a K x width tile padded to whole 128-byte spans
/// (`spanCols`), which must leave at most an eighth of it padding, and at
/// least 128 columns. Against the plain tiles (H200, f16, bench/RESULTS.md):
/// 64x128 at 256x4096x8192 1.010 of cuBLAS against 0.936 and 64x176 (192
/// loaded) at 336x4096x4096 0.924 against 0.875, but 64x208 (256 loaded)
/// at 192x8192x8192 0.670 against 0.872, 64x16 at 1x8192x8192 0.637
/// against 0.831 and 64x64 at 40x8000x1000 0.735 against 0.804.
static constexpr int64_t kMinNMajorSwappedCols = 128;
static bool mayBeNMajorSwapped(const TileConfig &tile, int64_t spanCols) {
  int64_t padding = llvm::alignTo(tile.cols, spanCols) - tile.cols;
  return tile.cols >= kMinNMajorSwappedCols && padding * 8 <= tile.cols;
}

/// The widest tile of C^T whose K loop the model may split among the
/// blocks of a cluster of two (the 64x128 accumulator's scratch slot and
/// stages are those of the plain tiles split so, TileChoice.cpp). A
/// product of few rows whose N gives fewer tiles of 64 rows than the chip
/// has multiprocessors runs on twice the blocks so (H200, static kernels,
/// bench/RESULTS.md): f16 1x4096x11008 in 64x16 1.061 of cuBLAS against
/// 0.866 whole (bf16, B stored N x K: 1.048 against 0.859), 32x4096x4096
/// in 64x64 1.009 against 0.954, 64x4096x4096 0.903 against 0.811. 64x128
/// split so ran as the 128x64 tiles split so, which the model weighs
/// already (0.941 against 0.938 at 128x4096x4096, 0.837 against 0.829 at
/// 100x4096x4096 with B stored N x K), and the model ties the two: left
/// out, one kernel less for every dynamic product.
static constexpr int64_t kMaxClusterSplitSwappedCols = 64;

/// Whether the model may take `tile` of C^T whole in clusters of two along
/// C^T's rows (A's K steps multicast). Two consumers, 160 and 176 columns:
/// 128x160 and 128x176 so ran 0.85-0.95 of cuBLAS where the model's choice
/// before (128x192 in clusters, 128x144, or the same tile alone) ran
/// 0.66-0.80 at 144x12288x4096, 300x8000x5000, 290x6000x3000 and
/// 340x8104x3000 (B stored K x N and N x K), 0.70 against 0.60-0.62 at
/// 280x7000x7000, 0.99 against 0.85 alone at 160x9288x5464 (B stored
/// N x K), but 0.78-0.80 against 0.83-0.86 alone at 290x8200x4000; 128x208
/// so ran 0.90-0.96 against 0.93-1.03 alone at 199 and 200 rows (N of
/// 16384, K of 4096 to 8192), 128x80 to 128x112 0.66-0.93 against
/// 0.83-1.01 alone. One consumer, 80 to 112 columns: 64x80 so ran 0.81 /
/// 0.82 at 77x5000x3000 against 0.77 / 0.76 for 64x128 tiles of C in
/// clusters, 64x112 0.80 / 0.78 against 0.78 / 0.75 at 200x3000x3000; the
/// other one-consumer tiles of C^T so ran slower than alone (64x128 and
/// 64x208 at 200x8192x8192, 77x5000x3000 and 100x4096x4096: 0.67-0.80
/// against 0.71-0.87; H200, static kernels, bench/RESULTS.md).
static bool mayClusterSwapped(const TileConfig &tile) {
  if (tile.consumers == 2)
    return tile.cols >= 160 && tile.cols <= 176;
  return tile.consumers == 1 && tile.cols >= 80 && tile.cols <= 112;
}

/// Adds the tiles of C^T (TileConfig::swapped) the model may compute
/// `spec` in after `variants` (whose numbers stay): whole, then, where
/// `clusters` allows them, with the K loop split in clusters where at most
/// kMaxClusterSplitSwappedCols wide and, those of mayClusterSwapped, whole
/// in clusters of two along C^T's rows. None unless it is a plain product of
/// 16-bit floats into a zeroed 16-bit output (stored transposed by
/// stmatrix.trans); with A stored K x M, those of mayBeNMajorSwapped.
void mlir::croq::addSwappedVariants(const MatmulSpec &spec,
                                    const TargetDescription &target,
                                    int64_t resultBytes, bool clusters,
                                    SmallVector<GemmVariant> &variants) {
  if (!isPlain16BitProduct(spec) || resultBytes != 2)
    return;
  SmallVector<TileConfig> tiles;
  for (const TileConfig &tile : getSwappedTiles(target, resultBytes))
    if (!spec.aTransposed || mayBeNMajorSwapped(tile, getStepElements(spec)))
      tiles.push_back(tile);
  for (const TileConfig &tile : tiles)
    variants.push_back({tile, GemmForm::Whole});
  if (!clusters)
    return;
  for (TileConfig tile : tiles) {
    if (tile.consumers != 1 || tile.cols > kMaxClusterSplitSwappedCols)
      continue;
    // One column of tiles only: at 90x2000x8000 the 64x64 tiles split so
    // ran 0.757 of cuBLAS where the 128x64 ones split in four (a workspace
    // and a reduction) ran 0.951 (H200).
    tile.maxModelRows = tile.cols;
    appendClusterSplitVariants(tile, variants);
  }
  for (TileConfig tile : tiles) {
    if (!mayClusterSwapped(tile))
      continue;
    tile.clusterRows = 2;
    variants.push_back({tile, GemmForm::Whole});
  }
}

/// B stored K x N: where N is not a multiple of a narrow tile's width,
/// every row of B's box in every block ends past the product's edge, and
/// blocks in clusters of two along M, each loading half of the box
/// (multicast), run faster: 64x64 tiles so ran 0.88 of cuBLAS at
/// 6000x40x6000 (0.90 with A stored K x M) where alone they ran 0.70
/// (0.72), 64x16 0.84 against 0.75 at 4096x8x4096. Where N is a multiple
/// of the width they ran slower than alone (11008x16x4096: 0.74 against
/// 0.81; 8192x64x8192: 1.00 against 1.03; H200, static kernels,
/// bench/RESULTS.md): TileConfig::clusteredWhereClipped.
void mlir::croq::addNarrowVariants(const MatmulSpec &spec,
                                   const TargetDescription &target,
                                   int64_t resultBytes, bool clusters,
                                   SmallVector<GemmVariant> &variants) {
  if (!isPlain16BitProduct(spec))
    return;
  SmallVector<TileConfig> tiles = getNarrowTiles(target, resultBytes);
  bool clipped = clusters && !spec.bTransposed;
  // Whole, two blocks to a multiprocessor: a narrow tile's one consumer
  // warpgroup leaves the tensor cores idle between its steps, which a
  // second block's fill. 64x16 and 64x32 fit two with the stages
  // croq-pipeline-loops gives them (8). 64x64 fits two with 6 (eight take
  // 136 KB): it is also a variant of its own that way, which the model
  // gives only grids of more blocks than multiprocessors. On such grids
  // two 64x64 blocks to a multiprocessor, six stages each, ran up to 1.15x
  // as fast as one of eight (9000x48x3000: 0.67 -> 0.77 of cuBLAS,
  // 16384x64x1024: 0.90 -> 1.00, 12000x56x4096: 0.82 / 0.92 -> 0.89 /
  // 1.02), but on one wave of them slower (6000x40x6000, 94 blocks: 0.90
  // -> 0.78; 8192x64x8192, 128 blocks: 1.02 -> 0.96; H200, static
  // kernels, bench/RESULTS.md).
  auto whole = [&](TileConfig tile) {
    int64_t stages = getStagesForTwoBlocks(target, resultBytes, tile);
    bool cut =
        stages != 0 && stages < getPipelineStages(target, resultBytes, tile);
    // One block alone, with the stages croq-pipeline-loops gives it.
    if (stages == 0 || cut)
      variants.push_back({tile, GemmForm::Whole});
    if (stages == 0)
      return;
    tile.stages = stages;
    tile.blocksPerMultiprocessor = 2;
    tile.stagesCut = cut;
    variants.push_back({tile, GemmForm::Whole});
  };
  for (TileConfig tile : tiles) {
    tile.clusteredWhereClipped = clipped;
    whole(tile);
  }
  if (!clusters)
    return;
  for (TileConfig tile : tiles) {
    // One column of tiles only, as for the tiles of C^T.
    tile.maxModelCols = tile.cols;
    tile.longerSplitWhereClipped = clipped;
    appendClusterSplitVariants(tile, variants);
  }
  if (!clipped)
    return;
  for (TileConfig tile : tiles) {
    tile.clusteredWhereClipped = true;
    tile.clusterRows = 2;
    whole(tile);
  }
}

/// Keeps the variants an implicit GEMM takes: whole K loops (its split
/// and stream-K forms are not built), A not multicast (im2col loads have
/// no multicast); declines forced options that leave none.
LogicalResult
mlir::croq::keepConvolutionVariants(linalg::LinalgOp op,
                                    SmallVector<GemmVariant> &variants) {
  llvm::erase_if(variants, [](const GemmVariant &variant) {
    return variant.form != GemmForm::Whole || variant.tile.clusterCols > 1;
  });
  if (!variants.empty())
    return success();
  return op.emitOpError("convert-linalg-to-croq computes convolutions with "
                        "whole K loops (no split-k or stream-k) and without "
                        "clusters along N (im2col loads are not multicast)");
}
