//===- TileChoice.h - block tiles and K splits of linalg GEMMs --*- C++ -*-===//
//
// The block tiles convert-linalg-to-croq can give a GEMM, whether it splits
// the K loop among several blocks per tile, and the cost model that
// chooses: statically where the shape is known, in the host code by shape
// where it is not.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_LIB_CONVERSION_LINALGTOCROQ_TILECHOICE_H
#define CROQ_LIB_CONVERSION_LINALGTOCROQ_TILECHOICE_H

#include "Croq/Dialect/Croq/IR/TargetDescription.h"

#include "mlir/IR/Builders.h"

namespace mlir {
namespace croq {

/// A block tile of the result and how the block computes it.
struct TileConfig {
  int64_t rows;
  int64_t cols;
  /// Consumer warpgroups sharing the accumulator by rows (64 each).
  int64_t consumers;
  /// Whether blocks walk the tiles, one per multiprocessor: for the large
  /// tiles, chosen for problems of several waves, where the store of one
  /// tile overlaps the next tile's main loop.
  bool persistent;
  /// Whether the tile's K loop may be split among blocks: for the tiles
  /// that small problems with a long K get.
  bool splittable;
  /// How well the tile keeps the tensor cores busy, in percent, with B's
  /// tile K-major (B stored N x K) and N-major (B stored K x N; 0: not a
  /// candidate of the cost model). getTileCandidates sets `efficiency` to
  /// the one of the product's layout.
  int64_t efficiency;
  int64_t nMajorEfficiency;
  /// The rows of the product the cost model gives the tile, where either
  /// bound is not 0 (a forced tile runs whatever the rows).
  int64_t minModelRows = 0;
  int64_t maxModelRows = 0;
  /// The most columns of a product to which the row bounds do not apply
  /// where the K loop is split through a workspace (0: they apply to
  /// all).
  int64_t unboundedRowsMaxCols = 0;
  /// The most columns of the product the cost model gives the tile (0: no
  /// bound): the narrow tiles of few columns (getNarrowTiles).
  int64_t maxModelCols = 0;
  /// The thread block cluster of the unsplit kernel, in tiles: rows x 1
  /// blocks share the B operand's K steps (multicast), 1 x cols blocks A's.
  int64_t clusterRows = 1;
  int64_t clusterCols = 1;
  /// The columns of each part the result tile is stored in, through a
  /// shared tile that wide (getResultPartCols; 0: the whole tile at once).
  int64_t resultPartCols = 0;
  /// The same for the f32 or i32 partial tiles of a split or stream-K K
  /// loop (getResultPartCols with 4-byte elements).
  int64_t partialPartCols = 0;
  /// Whether the block computes a tile of C^T = B^T A^T instead: `rows`
  /// over N and `cols` over M, B's K steps as wgmma's A operand and A's as
  /// its B operand, the accumulator stored transposed into C's `cols` x
  /// `rows` tile (croq.mma.store transpose). A product with few rows puts
  /// them in wgmma's N dimension, which takes widths in steps of 8 where
  /// its M dimension takes 64 rows (KnownTiles.cpp, getSwappedTiles).
  bool swapped = false;
  /// For a narrow tile (getNarrowTiles) of a product whose B is stored
  /// K x N: the model gives it in clusters of two along M (B's K steps
  /// multicast) exactly where N is not a multiple of its width, and alone
  /// exactly where N is (addNarrowVariants).
  bool clusteredWhereClipped = false;
  /// For a narrow tile with its K loop split in a cluster, of a product
  /// whose B is stored K x N: the model asks for more K steps a block
  /// where N is not a multiple of its width (kMinClippedClusterSplitSteps).
  bool longerSplitWhereClipped = false;
  /// The stage count of the K loop's rings (the loop's croq.stages; 0: as
  /// many as fit, croq-pipeline-loops' own choice), and the blocks of the
  /// tile that run on one multiprocessor at once, which the cost model
  /// counts (1 or 2): 2 for the narrow tiles (addNarrowVariants).
  int64_t stages = 0;
  int64_t blocksPerMultiprocessor = 1;
  /// Whether `stages` is fewer than a block alone would get, for two
  /// blocks to fit: the model gives the tile only grids of more blocks
  /// than multiprocessors.
  bool stagesCut = false;

  int64_t getClusterBlocks() const { return clusterRows * clusterCols; }
};

/// How the blocks of a GEMM share its K loops.
enum class GemmForm {
  /// Each block computes whole tiles.
  Whole,
  /// Each tile's K loop is split among S blocks (S a value the host code
  /// computes), their partials reduced by a second kernel (SplitK.cpp).
  SplitK,
  /// Whole waves of tiles computed whole; the K steps of the tiles left
  /// spread evenly over one wave of blocks, their partials reduced by a
  /// further kernel (StreamK.cpp).
  StreamK,
  /// Each tile's K loop is split among the S blocks of a thread block
  /// cluster (S = GemmVariant::clusterSplits), their partial accumulators
  /// summed in the cluster's first block through distributed shared
  /// memory (croq.mma.cluster_sum; ClusterSplitK.cpp): no workspace, no
  /// second kernel.
  ClusterSplitK,
};

/// A kernel convert-linalg-to-croq can emit for a GEMM: a tile and the
/// form of its K loops.
struct GemmVariant {
  TileConfig tile;
  GemmForm form;
  /// For the stream-K form: whether the model may take it without a whole
  /// wave before the ranges (stream-k=2 forces the form on every shape).
  bool withoutWholeWave = false;
  /// For the cluster split form: the blocks of a cluster, S.
  int64_t clusterSplits = 0;
};

/// Appends to `variants` `tile` with its K loop split among the blocks of
/// a cluster (GemmForm::ClusterSplitK), in each cluster size the cost model
/// tries.
void appendClusterSplitVariants(const TileConfig &tile,
                                SmallVector<GemmVariant> &variants);

/// The decomposition of a stream-K GEMM (GemmForm::StreamK) of `tiles` =
/// tilesM x tilesN tiles of `kSteps` K steps each, as index values. The
/// first `wholeCols` columns of tiles are computed whole, by a persistent
/// grid, in at most the whole waves of the grid; the other `skCols`
/// columns' tiles, numbered down their columns first (t = column x tilesM +
/// row), form an iteration space of `iterations` = skTiles x kSteps K
/// steps that `blocks` blocks take in contiguous ranges of `perBlock`
/// steps (the last fewer). A tile's K steps are then shared by at most
/// `slots` blocks, each of which stores its partial in its own slot of the
/// workspace.
struct StreamKPlan {
  Value tilesM, tilesN, wholeCols, skCols, skTiles;
  Value iterations, perBlock, blocks, slots;
};

/// The stream-K plan of an M x N product with `kSteps` K steps in tiles of
/// `tile` on `multiprocessors` SMs. Each block takes at least
/// kMinStreamKSteps steps.
StreamKPlan planStreamK(OpBuilder &builder, Location loc, Value m, Value n,
                        Value kSteps, const TileConfig &tile,
                        int64_t multiprocessors);

/// The bytes one K step of a tile loads: one 128-byte swizzle span of
/// each operand row.
constexpr int64_t kStepBytes = 128;

/// The stages of operands of `tile` that fit in `target`'s shared memory
/// next to its result tile of `resultBytes`-byte elements, or the shared
/// tile of one part of it (getResultPartCols).
int64_t getStagesThatFit(const TargetDescription &target, int64_t resultBytes,
                         const TileConfig &tile);

/// The stages croq-pipeline-loops gives the rings of `tile` by itself: as
/// many as fit (getStagesThatFit), at most 8.
int64_t getPipelineStages(const TargetDescription &target, int64_t resultBytes,
                          const TileConfig &tile);

/// The stages of operands of `tile` that leave room for two blocks on one
/// of `target`'s multiprocessors (each in half its shared memory, less
/// what the hardware keeps for a block), at most as many as
/// croq-pipeline-loops gives where more fit; 0 where fewer than the cost
/// model's fewest fit.
int64_t getStagesForTwoBlocks(const TargetDescription &target,
                              int64_t resultBytes, const TileConfig &tile);

/// The columns of each part the result tile of `tile` is stored in
/// (croq.mma.slice), through a shared tile of that many columns: where the
/// whole one leaves room for fewer than five stages of operands, the tile
/// in the fewest equal parts (two to four) that each leave room for more
/// stages than the parts before, until five fit (128x256: four stages in
/// halves with a 16-bit result, in quarters with a 4-byte one; 192x192:
/// four in thirds); else the whole width. 16-bit and 4-byte results only.
int64_t getResultPartCols(const TargetDescription &target, int64_t resultBytes,
                          const TileConfig &tile);

/// The tiles croq can compute, for diagnostics: "128x256, ..., or 64x128".
std::string getKnownTileNames();

/// The tiles of C^T (TileConfig::swapped) a plain product writing
/// `resultBytes`-byte elements can have on `target`: 64 rows over N (one
/// consumer warpgroup) by 16 to 208 columns over M, 128 rows (two) by 160
/// to 208 and 192 rows (three) by 160; blocks not persistent, the result
/// tile stored whole; those with room for three stages of operands.
SmallVector<TileConfig> getSwappedTiles(const TargetDescription &target,
                                        int64_t resultBytes);

/// The narrow plain tiles, for products of few columns (N of 1 to 64, M
/// and K large): 64 rows (one consumer warpgroup) by 16, 32 or 64
/// columns, blocks not persistent, not split through a workspace; the
/// cost model gives each to products of at most two of its widths.
SmallVector<TileConfig> getNarrowTiles(const TargetDescription &target,
                                       int64_t resultBytes);

/// The tiles a GEMM writing `resultBytes`-byte elements can have on
/// `target`, largest first: those with room for three stages of operands
/// next to the result tile in shared memory and an efficiency for B's
/// layout (`bKMajor`: B stored N x K). With `rows` and `cols` not 0, that
/// tile only (a narrow one too), or failure if it is not one croq can
/// compute.
FailureOr<SmallVector<TileConfig>>
getTileCandidates(const TargetDescription &target, int64_t resultBytes,
                  bool bKMajor, int64_t rows, int64_t cols);

/// The kernels to choose among: each candidate tile whole, split where
/// the tile allows it and `splitK` (the pass option) is not 1, and in
/// stream-K form where it has 128 rows and whole 32-column groups and
/// neither the splits nor the clusters are forced (`splitK` and
/// `clusterM` 0, `clusterN` 1); `streamK` (the pass option) 1 leaves the
/// stream-K form out, 2 the others. The whole ones are launched in
/// clusters of `clusterM` x `clusterN` blocks; with `clusterM` = 0 (the
/// model's choice) they are not, and the 128x192 and 128x256 tiles are
/// also candidates in clusters of 2 x 1. The 64x128 tile is also a
/// candidate with its K loop split in clusters of 2 blocks
/// (GemmForm::ClusterSplitK) where nothing else is forced; `clusterK` (the
/// pass option) 1 leaves it out, S > 1 takes only the splittable tiles
/// (128x128, 64x128 and 128x64) in that form, with S blocks.
SmallVector<GemmVariant> getGemmVariants(ArrayRef<TileConfig> tiles,
                                         int64_t splitK, int64_t streamK,
                                         int64_t clusterM, int64_t clusterN,
                                         int64_t clusterK);

/// The stages of operands of `tile` that fit next to its result tile (or
/// part) and the scratch tile of a K loop split in clusters of `splits`
/// blocks ((splits - 1) x the f32 or i32 accumulator).
int64_t getClusterSplitStages(const TargetDescription &target,
                              int64_t resultBytes, const TileConfig &tile,
                              int64_t splits);

/// The choice among `variants` for an M x N result with `kSteps` K steps:
/// the index of the variant and, for a split one, the number of splits
/// (1 otherwise).
struct GemmChoice {
  Value variant;
  Value splits;
};

/// Emits the cost model, in SM cycles, and the least-cost choice (the first
/// of equal costs); everything folds to constants for a static shape.
///   cost = waves x (K steps per block x step cycles + tile cycles)
///        + for a split: launch cycles + (workspace + result) / bandwidth
///        + rereads of an operand larger than the L2 / bandwidth
/// The waves are blocks (tiles x splits, a clustered grid rounded up to
/// whole clusters; `batch` times that for a batch of products, which has
/// no split variants) over the multiprocessors; a step takes rows x cols x
/// K-step x 2 / (mma rate x efficiency), longer where B's rows
/// (`bRowBytes`) are not 128-byte multiples and the block loads all of B,
/// and a little longer in a cluster. A split K loop writes f32 partial
/// tiles that a second kernel reads back and reduces, in one wave of
/// blocks. An operand larger than the L2 is read from memory again, half
/// of it, by each row (B) or column (A) of tiles of a one-wave grid, a
/// cluster of them counting once, and once per wave by a grid that is not
/// persistent. Each block moves its bytes at one multiprocessor's share of
/// the rate (less for the halves of B a block of a persistent cluster
/// multicasts), so a grid takes as long as its waves full, and a grid that
/// is not persistent pays a ramp for each wave after its first; a grid
/// whose clusters span more tiles than the product has is never taken.
/// `splitK` > 1 forces that many splits (at most one per K
/// step). A swapped tile's grid, traffic and step are those of the product
/// C^T = B^T A^T: N x M, its B operand's rows A's (`aRowBytes`).
/// `requested` (an index; none where null) is a variant the caller asks for
/// (croqRtRequestedVariant: an autotuner timing each variant): it is the
/// choice wherever the model could take it (its cost is not "never"), with
/// the splits the model gives that variant; elsewhere the model's choice
/// stands.
GemmChoice emitGemmChoice(OpBuilder &builder, Location loc, Value batch,
                          Value m, Value n, Value kSteps, Value aRowBytes,
                          Value bRowBytes, ArrayRef<GemmVariant> variants,
                          const TargetDescription &target, int64_t resultBytes,
                          int64_t splitK, Value requested = Value());

} // namespace croq
} // namespace mlir

#endif // CROQ_LIB_CONVERSION_LINALGTOCROQ_TILECHOICE_H
