//===- TileChoice.cpp - block tiles and K splits of linalg GEMMs ----------===//
//
// The cost of a kernel is the longer of the cycles its waves of blocks
// compute and the cycles its traffic with memory takes (the operands, their
// rereads where larger than half the L2, the result), plus a part of the
// shorter; for a split K loop, plus the launch of the reduction and the
// workspace traffic. The tiles and their efficiencies (KnownTiles.cpp) are
// measured ratios on an H100 (bench/RESULTS.md): a 64-row block has one
// consumer warpgroup and half the operand reuse of a 128-row one. The
// variants it weighs are GemmVariants.cpp's; the bounds that rule a
// variant out ("never") whatever its cycles are TileBounds.cpp's.
//
//===----------------------------------------------------------------------===//

#include "TileChoice.h"
#include "IndexBuilder.h"
#include "TileBounds.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/Support/Debug.h"

#include <limits>

#define DEBUG_TYPE "convert-linalg-to-croq"

using namespace mlir;
using namespace mlir::croq;

/// Cycles a tile spends besides its K steps: the first loads' latency and
/// the store of the result (about 1 us).
static constexpr int64_t kTileCycles = 2000;
/// Cycles between two kernels on one stream, and the reduction's own
/// ramp: a split K loop pays them once. At 77x5000x3000 (H200) 128x128
/// split in three (120 blocks) ran 0.751 of cuBLAS against 0.775 for
/// 64x128 whole in clusters of two (80 blocks), where 4000 cycles here had
/// the model take the split.
static constexpr int64_t kLaunchCycles = 7000;
/// The memory cycles each wave of a grid after its first costs a grid whose
/// blocks do not walk tiles: the next wave's blocks fill their rings before
/// they stream again (kTileCycles for the first loads' latency, twice:
/// one wave's tail and the next one's start). Tiles of C^T in two waves
/// ran 0.71-0.80 of cuBLAS where plain tiles in one ran 0.97-1.02
/// (24x15008x5376 and 48x9752x11200 in 64x64 against 64x128,
/// 128x10056x10936 with A stored K x M in 64x128 against 128x128; H200),
/// the two grids' reads equal in emitMemoryCycles' count without it. With
/// a short K the two waves of 64x16 tiles of C^T still ran faster
/// (8x15240x1296: 0.94 against 0.87), which it gives up.
static constexpr int64_t kWaveRampCycles = 2 * kTileCycles;
/// The fewest K steps a block of a split K loop takes: fewer leave its
/// pipeline mostly empty.
static constexpr int64_t kMinStepsPerSplit = 4;
/// The fewest K steps a block of a K loop split in a cluster takes. On the
/// H200 the split won with 32 to 64 steps a block (128x4096x4096,
/// 1x8192x8192) and lost with 4 (512x512x512: 0.65 of cuBLAS against 0.94
/// for whole tiles, where kMinStepsPerSplit let the model take it).
static constexpr int64_t kMinClusterSplitSteps = 16;
/// The same for the narrow tiles of few columns (getNarrowTiles), whose
/// blocks compute a step in a fraction of a 64x128 block's time: with 24
/// steps a block, 64x32 and 64x64 split in clusters ran 0.77-0.82 of
/// cuBLAS at 3000x24x3000 and 2000x40x3000 (B stored K x N, A K x M),
/// where the 128x64 tiles split through a workspace that the model takes
/// instead ran 0.95-0.96 (B stored N x K: 1.04 against 1.01, and 1.01
/// against 1.05; H200, static kernels, bench/RESULTS.md). For the other
/// tiles 32 lost: 1x4096x3000 in 64x16 tiles of C^T split in clusters
/// ran 1.07, 64x128 split through a workspace 0.99.
static constexpr int64_t kMinNarrowClusterSplitSteps = 32;
/// The same where the narrow tile's box of B (stored K x N) is clipped, N
/// not a multiple of its width (TileConfig::longerSplitWhereClipped): with
/// 32 steps a block, 64x16, 64x32 and 64x64 split in clusters ran
/// 0.71-0.85 of cuBLAS at 4096x8x4096, 4104x24x4104 and 4104x40x4104 (B
/// stored K x N or A K x M) where 128x64 tiles split through a workspace
/// ran 0.80-1.06, and at 4000x8x8000 (62 steps a block) 0.83 against 0.97;
/// with B stored N x K, or N a multiple of the width, they won (4096x8x4096
/// 1.09 against 1.02, 3000x64x4096 0.94 against 0.89; H200, static
/// kernels, bench/RESULTS.md).
static constexpr int64_t kMinClippedClusterSplitSteps = 64;
/// The most f32 workspace a split K loop may use (256 MiB).
static constexpr int64_t kMaxWorkspaceBytes = int64_t(256) << 20;
/// Cycles the cluster's first block spends summing the others' partial
/// accumulators (a 64x128 f32 fragment is 32 KiB a peer, stored into its
/// shared memory through the cluster's network and read back): counted
/// as a third of a tile's fixed cycles per peer.
static constexpr int64_t kClusterSumCycles = kTileCycles / 3;
/// The numbers of splits the cost model tries.
static constexpr int64_t kSplitCounts[] = {2, 3, 4, 6, 8, 12, 16, 24, 32};
/// How much longer a K step takes when B's rows are not 128-byte multiples
/// and the block loads all of B's K step, in percent; and a block in a
/// cluster (stepping with its cluster, loading half of B). Measured on an
/// H200 (bench_tiles.py, bench/RESULTS.md): 128x192 and 128x256 tiles ran
/// 8-16% slower alone than in clusters of two at 1000x3000x7168,
/// 3000x5000x2048 and 6000^3, and 1-7% faster alone at 3072x5120x2048,
/// 4096^3 and 8192^3, whose rows are multiples of 128 bytes.
static constexpr int64_t kMisalignedPercent = 15;
static constexpr int64_t kClusterPercent = 5;
/// The part of an operand larger than half the L2 that the rows of tiles of one
/// wave read again each: one in kOneWaveRereadParts (emitMemoryCycles).
static constexpr int64_t kOneWaveRereadParts = 10;
/// The L2's partitions: each keeps the lines that the multiprocessors
/// attached to it read, so an operand that all of them read has half the
/// L2 to stay in (3072x1024x8192, A of 48 MiB read by eight columns of
/// tiles: 64x128 blocks on three waves, not persistent, at 0.72 of cuBLAS,
/// one wave of 128x256 at 0.81; H200, bench_tiles.py).
static constexpr int64_t kL2Partitions = 2;
/// The part of the shorter of a kernel's compute and memory traffic that
/// does not overlap with the longer, in percent (emitKernelCycles).
static constexpr int64_t kUnhiddenPercent = 30;
/// How fast two blocks of a narrow tile (TileConfig::blocksPerMultiprocessor)
/// step together on one multiprocessor against one alone, in percent: 64x64
/// tiles ran 1.12-1.17x as fast two to an SM (five stages each) as one (eight
/// stages) on grids of 141 and 188 blocks (H200, static kernels).
static constexpr int64_t kTwoBlocksPercent = 115;
/// How much more than one multiprocessor's share of the memory rate
/// (emitMemoryCycles) a block of a multicast cluster (countsMulticast) moves
/// where the grid leaves multiprocessors idle, in percent. Counted at its
/// share, the 128x160 tiles of C^T in clusters (74 blocks) lost to 128x192
/// in clusters and 128x144 alone (98 and 130 blocks) at 144 and 160 rows by
/// 9288 columns, where they ran 1.15-1.52x as fast (144x9288x8192: 0.983 of
/// cuBLAS against 0.782, 160x9288x4096 1.197 against 1.039, 160x9288x5464
/// 1.303 against 1.032, and with B stored N x K 144x9288x5464 0.829 against
/// 0.546 and 160x9288x5464 0.961 against 0.642; H200, static kernels,
/// bench/RESULTS.md). At 176 rows 128x176 of C^T in clusters ran 0.73-1.23
/// against 0.82-1.18 for 128x192 in clusters, which 120 keeps; 130 gave
/// them 176 rows too. Of the 714 shapes and layouts of the notes, the
/// benchmarks and bench/RESULTS.md it moves those two (160x9288x5464 with
/// B stored either way); applied to every block's share (150), 56, most of
/// them splits measured the other way.
static constexpr int64_t kMulticastSharePercent = 120;
/// The cost of a plan that cannot run (TileBounds.h).
static constexpr int64_t kNever = kNeverCycles;

/// The cycles of one K step of `tile`.
static int64_t getStepCycles(const TileConfig &tile,
                             const TargetDescription &target) {
  // A K step is 128 bytes of each operand row: 64 16-bit elements, 128
  // 8-bit ones at twice the rate or 32 tf32 ones at half of it, so the same
  // time.
  int64_t flops = tile.rows * tile.cols * 64 * 2;
  return flops * 100 / (target.mmaFlopsPerCycle * tile.efficiency);
}

/// The cycles of one K step of `tile` for a B whose rows are not 128-byte
/// multiples where `bMisaligned` (an i1) holds: a box row of B then spans
/// two L2 lines, and a block that loads all of B's K step waits for them
/// (kMisalignedPercent more); blocks in clusters load half each
/// (multicast) and pay kClusterPercent for stepping together either way.
static Value emitStepCycles(IndexBuilder &e, const TileConfig &tile,
                            const TargetDescription &target,
                            Value bMisaligned) {
  Value base = e.c(getStepCycles(tile, target));
  Value percent =
      tile.getClusterBlocks() > 1
          ? e.c(100 + kClusterPercent)
          : e.select(bMisaligned, e.c(100 + kMisalignedPercent), e.c(100));
  return e.div(e.mul(base, percent), e.c(100));
}

/// The cycles `blocks` blocks with `steps` K steps of `stepCycles` each
/// take on the chip: waves x (steps x step cycles + the tile's fixed
/// cycles). A tile that runs two blocks to a multiprocessor
/// (TileConfig::blocksPerMultiprocessor) runs its blocks in waves of twice
/// as many, each step of the two together kTwoBlocksPercent as fast as one
/// block's, but for a last wave of at most one block a multiprocessor.
static Value emitWaveCycles(IndexBuilder &e, Value blocks, Value steps,
                            Value stepCycles, const TargetDescription &target,
                            int64_t blocksPerMultiprocessor = 1) {
  if (blocksPerMultiprocessor == 1) {
    Value waves = e.ceilDiv(blocks, target.multiprocessors);
    return e.mul(waves, e.add(e.mul(steps, stepCycles), e.c(kTileCycles)));
  }
  Value one = e.add(e.mul(steps, stepCycles), e.c(kTileCycles));
  assert(blocksPerMultiprocessor == 2 && "one or two blocks an SM");
  Value pairStep = e.div(e.mul(stepCycles, e.c(200)), e.c(kTwoBlocksPercent));
  Value two = e.add(e.mul(steps, pairStep), e.c(kTileCycles));
  int64_t perWave = 2 * target.multiprocessors;
  Value full = e.div(blocks, e.c(perWave));
  Value rest = e.sub(blocks, e.mul(full, e.c(perWave)));
  Value last = e.select(e.less(e.c(target.multiprocessors), rest), two, one);
  last = e.select(e.less(e.c(0), rest), last, e.c(0));
  return e.add(e.mul(full, two), last);
}

/// Whether blocks of `tile` in clusters move their multicast operand's
/// bytes in shares (emitMemoryCycles): persistent tiles and tiles of C^T of
/// two consumers. Those of one consumer, not persistent (64x128, 128x128,
/// and 64-row tiles of C^T), ran slower than the shares count (H200,
/// bench/RESULTS.md).
static bool countsMulticast(const TileConfig &tile) {
  if (tile.getClusterBlocks() == 1)
    return false;
  return tile.persistent || (tile.swapped && tile.consumers > 1);
}

/// The cycles the grid's traffic with memory takes: each operand read once,
/// `writtenBytes` written, and the rereads of an operand larger than half the
/// L2 (each row of tiles reads all of B, each column all of A). In one wave
/// the rows read it at about the same time and share it in the L2 but for
/// a tenth of each read again (512x8192x8192 in four rows of 128x256
/// blocks, B of 128 MiB: 0.99 of cuBLAS; 128x8192x8192 in two rows of
/// 64x128 blocks: 0.74, in clusters of two along M, which read B once,
/// 0.97; H200, bench_tiles.py). A persistent grid of several waves walks
/// its tiles in an order that keeps the shared slices in L2; a grid that is
/// not persistent reads the operand once per wave (384x8192x8192 and
/// 320x8192x4096 in three and two waves of 64x128 blocks: 0.43 and 0.47 of
/// cuBLAS). `copies` is the number of matrices of a batched product (`m`
/// and `n` are C^T's, N x M, for a grid of tiles of C^T).
///
/// A block moves its bytes at one multiprocessor's share of the rate (of
/// `busy` blocks where given: the blocks of a grid of tiles of C^T in
/// clusters that are inside the product; counting the ones past its edge,
/// the model took 64x80 tiles of C^T in clusters at 160x4104x2048, 65 rows
/// of tiles rounded to 66, where they ran 0.75 / 0.80 of cuBLAS and alone
/// 0.92 / 0.94; H200), so a
/// wave of fewer blocks than multiprocessors reads more slowly, and a grid
/// of waves takes as long as its waves full (ceil(blocks / SMs) x SMs /
/// blocks times the cycles above): where that decided between a K loop
/// split among two blocks of a cluster and among four blocks through a
/// workspace (64 against 128 blocks at 90x2000x8000 with B stored N x K:
/// 0.71 against 0.99 of cuBLAS), a 64x128 tile whole and 64x16 tiles of
/// C^T (1x11072x12008: 87 against 173 blocks, 0.83 against 1.01), the
/// model without it took the wrong one (H200, 211 choices timed against
/// cuBLAS, bench/RESULTS.md). Blocks in clusters of persistent tiles
/// (128x192 and 128x256 in clusters of 2 x 1) and of two-consumer tiles of
/// C^T (countsMulticast) issue B's loads in halves, multicast to both:
/// such a block moves (rows + cols / 2) / (rows + cols) of the bytes of a
/// lone one, and its share counts that much less (at 160x9288x5464
/// 128x192 in clusters on 98 blocks ran 1.01 of cuBLAS, 128x144 alone on
/// 130 blocks 0.76; the 64x128 and 128x128 tiles in clusters, not
/// persistent, ran slower than that count gave them); in a wave part
/// filled such a block moves kMulticastSharePercent of its share. It counts
/// the rows and columns a tile loads inside the product (TMA loads none past
/// its edge): at 11008x16x4096 128x192 tiles in clusters ran 0.60 of cuBLAS
/// where their whole width's count had them ahead of 64x16 tiles, which ran
/// 0.84 (H200, static kernels). A grid that does not walk tiles pays
/// kWaveRampCycles for each wave after its first.
static Value emitMemoryCycles(IndexBuilder &e, Value blocks, Value m, Value n,
                              Value kSteps, Value copies, Value writtenBytes,
                              const TileConfig &tile,
                              const TargetDescription &target,
                              Value busy = Value()) {
  // Values are built one statement at a time: the order of a call's
  // arguments is unspecified, and the IR should not depend on the compiler.
  Value aBytes = e.mul(e.mul(m, kSteps), e.c(kStepBytes));
  Value bBytes = e.mul(e.mul(n, kSteps), e.c(kStepBytes));
  auto extra = [&](Value bytes, Value readers) {
    Value again = e.mul(bytes, e.sub(readers, e.c(1)));
    return e.select(e.less(e.c(target.l2Bytes / kL2Partitions), bytes), again,
                    e.c(0));
  };
  Value rowsOfTiles = e.ceilDiv(e.ceilDiv(m, tile.rows), tile.clusterRows);
  Value colsOfTiles = e.ceilDiv(e.ceilDiv(n, tile.cols), tile.clusterCols);
  // A wave of a tile that runs two blocks to a multiprocessor has twice as
  // many blocks (emitWaveCycles).
  int64_t perWave = target.multiprocessors * tile.blocksPerMultiprocessor;
  Value oneWave = e.less(blocks, e.c(perWave + 1));
  Value aAgain = extra(aBytes, colsOfTiles);
  Value bAgain = extra(bBytes, rowsOfTiles);
  Value sameWave = e.div(e.add(aAgain, bAgain), e.c(kOneWaveRereadParts));
  Value severalWaves = e.c(0);
  if (!tile.persistent) {
    Value waves = e.ceilDiv(blocks, perWave);
    Value aPerWave = extra(aBytes, e.min(colsOfTiles, waves));
    Value bPerWave = extra(bBytes, e.min(rowsOfTiles, waves));
    severalWaves = e.add(aPerWave, bPerWave);
  }
  Value again = e.select(oneWave, sameWave, severalWaves);
  Value bytes = e.add(e.add(e.add(aBytes, bBytes), writtenBytes), again);
  Value cycles = e.div(e.mul(bytes, copies), e.c(target.memoryBytesPerCycle));
  Value waves = e.ceilDiv(blocks, perWave);
  Value slots = e.mul(waves, e.c(target.multiprocessors));
  if (!busy && tile.blocksPerMultiprocessor > 1) {
    // The multiprocessors with a block: all of them in each wave but the
    // last, and in the last as many as it has blocks (at most all).
    Value before = e.sub(waves, e.c(1));
    Value last = e.sub(blocks, e.mul(before, e.c(perWave)));
    busy = e.add(e.mul(before, e.c(target.multiprocessors)),
                 e.min(last, e.c(target.multiprocessors)));
  }
  Value shared = e.div(e.mul(cycles, slots), busy ? busy : blocks);
  if (countsMulticast(tile)) {
    // A tile past the product's edge loads none of its rows or columns
    // there (TMA fills them with zeros).
    Value rows = e.min(m, e.c(tile.rows)), cols = e.min(n, e.c(tile.cols));
    Value lone = e.add(rows, cols);
    Value issued = e.add(e.div(rows, e.c(tile.clusterCols)),
                         e.div(cols, e.c(tile.clusterRows)));
    // It moves kMulticastSharePercent of its share; the max with `cycles`
    // keeps a full wave at the whole rate, so only a part-filled one gains.
    // One operation a statement (the order of a call's arguments is
    // unspecified).
    Value scaled = e.mul(shared, issued);
    scaled = e.mul(scaled, e.c(100));
    Value divisor = e.max(lone, e.c(1));
    divisor = e.mul(divisor, e.c(kMulticastSharePercent));
    shared = e.max(cycles, e.div(scaled, divisor));
  }
  if (tile.persistent)
    return shared;
  Value later = e.sub(waves, e.c(1));
  return e.add(shared, e.mul(later, e.c(kWaveRampCycles)));
}

/// The cycles of a kernel that computes for `compute` cycles and moves
/// data with memory for `memory`: the longer of the two and 30% of the
/// shorter, which the longer does not hide. Where B takes longer to read
/// than any tile computes, the tile that computes faster still runs faster
/// (128x12288x4096, B of 96 MiB: 128x128 at 0.96 of cuBLAS, 128x192 at
/// 0.87); where the two are close the kernel runs longer than either
/// (128x8192x8192 with 128x128 alone: 64 steps of compute about as long as
/// reading B, 0.80, where split in two, half the steps on 128 blocks, it
/// runs at 0.88; 256x256x16384 split in 16 ran 2-7% faster than in 12;
/// H200, bench_tiles.py and bench_linalg.py).
static Value emitKernelCycles(IndexBuilder &e, Value compute, Value memory) {
  Value shorter = e.min(compute, memory);
  Value longer = e.max(compute, memory);
  Value unhidden = e.div(e.mul(shorter, e.c(kUnhiddenPercent)), e.c(100));
  return e.add(longer, unhidden);
}

/// The least cost of `tile` with its K loop split, and the splits. `output`
/// is the bytes of the result.
static std::pair<Value, Value>
emitSplitCost(IndexBuilder &e, Value m, Value n, Value kSteps,
              const TileConfig &tile, const TargetDescription &target,
              Value output, int64_t splitK, Value stepCycles) {
  Value tiles = e.mul(e.ceilDiv(m, tile.rows), e.ceilDiv(n, tile.cols));
  Value best, bestSplits;
  ArrayRef<int64_t> counts = kSplitCounts;
  if (splitK > 1)
    counts = ArrayRef<int64_t>(splitK);
  for (int64_t count : counts) {
    // Every split gets steps; the last may get fewer.
    Value steps = e.ceilDiv(kSteps, count);
    Value splits = e.ceilDiv(kSteps, steps);
    Value blocks = e.mul(tiles, splits);
    Value waveCycles = emitWaveCycles(e, blocks, steps, stepCycles, target);
    Value memoryCycles =
        emitMemoryCycles(e, blocks, m, n, kSteps, e.c(1), e.c(0), tile, target);
    Value compute = emitKernelCycles(e, waveCycles, memoryCycles);
    // The partial tiles are written and read back once, mostly in L2 (they
    // are a few MiB): counted once at the memory's rate. That matched the
    // split choices measured on an H200 (bench/RESULTS.md); twice
    // overestimated them.
    Value workspace =
        e.mul(e.mul(splits, tiles), e.c(tile.rows * tile.cols * 4));
    Value traffic = e.add(workspace, output);
    Value trafficCycles = e.div(traffic, e.c(target.memoryBytesPerCycle));
    Value cost = e.add(compute, e.add(e.c(kLaunchCycles), trafficCycles));
    if (splitK <= 1) {
      // One wave at most: a split grid of several waves ran far slower
      // than the model counted (256x4096x8192, 128x128 split in four, two
      // waves: 0.74 of cuBLAS, where 64x128 in clusters runs at 0.93;
      // 192x8192x8192, 64x128 split in two, three waves: 0.53 against 0.83
      // with 128x128 in clusters; H200, bench_tiles.py).
      Value severalWaves = e.less(e.c(target.multiprocessors), blocks);
      cost = e.select(severalWaves, e.c(kNever), cost);
      Value tooShort = e.less(steps, e.c(kMinStepsPerSplit));
      Value tooLarge = e.less(e.c(kMaxWorkspaceBytes), workspace);
      cost = e.select(tooShort, e.c(kNever), cost);
      cost = e.select(tooLarge, e.c(kNever), cost);
    }
    if (!best) {
      best = cost;
      bestSplits = splits;
      continue;
    }
    Value better = e.less(cost, best);
    bestSplits = e.select(better, splits, bestSplits);
    best = e.select(better, cost, best);
  }
  return {best, bestSplits};
}

/// The cost of `tile` in stream-K form (planStreamK): the whole waves' K
/// loops, then one range of K steps per block, which pays a tile's fixed
/// cycles for each tile it meets; the product's traffic with memory as for
/// a wave of persistent blocks; the reduction's launch and the partials,
/// counted once at the memory's rate as for a split K loop, and the
/// launch of the ranges' kernel after the whole waves'. Never without a
/// whole wave (unless `variant` allows it), where every tile is in the
/// whole waves or where the workspace exceeds kMaxWorkspaceBytes.
static Value emitStreamKCost(IndexBuilder &e, Value m, Value n, Value kSteps,
                             const GemmVariant &variant,
                             const TargetDescription &target, Value output,
                             Value stepCycles) {
  const TileConfig &tile = variant.tile;
  StreamKPlan plan =
      planStreamK(e.b, e.loc, m, n, kSteps, tile, target.multiprocessors);
  Value wholeTiles = e.mul(plan.wholeCols, plan.tilesM);
  Value wholeCycles = emitWaveCycles(e, wholeTiles, kSteps, stepCycles, target);
  Value met = e.add(e.ceilDiv(plan.perBlock, kSteps), e.c(1));
  Value rangeCycles =
      e.add(e.mul(plan.perBlock, stepCycles), e.mul(met, e.c(kTileCycles)));
  Value compute = e.add(wholeCycles, rangeCycles);
  Value tiles = e.mul(plan.tilesM, plan.tilesN);
  Value grid = e.min(tiles, e.c(target.multiprocessors));
  Value memoryCycles =
      emitMemoryCycles(e, grid, m, n, kSteps, e.c(1), output, tile, target);
  Value cost = emitKernelCycles(e, compute, memoryCycles);
  // A range boundary inside a tile adds one partial to the tiles' own.
  Value partials = e.add(plan.skTiles, e.sub(plan.blocks, e.c(1)));
  Value workspace = e.mul(partials, e.c(tile.rows * tile.cols * 4));
  cost = e.add(cost, e.add(e.c(kLaunchCycles),
                           e.div(workspace, e.c(target.memoryBytesPerCycle))));
  cost = e.add(cost, e.c(kLaunchCycles));
  // Only after a whole wave: with every tile in the ranges (no whole
  // wave), the form measured 0.53-0.90 of the best whole tiles' speed on
  // the 15 shapes of bench_linalg.py's waves table (333x4096x4096 0.63,
  // 1536^3 0.63, 1000x3000x7000 0.61; H200, bench/RESULTS.md), far below
  // what this count of its partials' traffic gives; after one (576 x 8192
  // x 8192 and 320 x 12288 x 4096, 30 and 12 tiles in the ranges) it ran
  // 1.12-1.21x faster than any whole variant.
  if (!variant.withoutWholeWave) {
    Value noWholeWave = e.less(plan.wholeCols, e.c(1));
    cost = e.select(noWholeWave, e.c(kNever), cost);
  }
  Value allWhole = e.less(plan.skCols, e.c(1));
  Value tooLarge =
      e.less(e.c(kMaxWorkspaceBytes), e.mul(e.mul(plan.slots, plan.skTiles),
                                            e.c(tile.rows * tile.cols * 4)));
  cost = e.select(allWhole, e.c(kNever), cost);
  return e.select(tooLarge, e.c(kNever), cost);
}

/// The cost of `variant`'s tile with its K loop split among the S blocks
/// of a cluster: S x tiles blocks of ceil(K steps / S) steps, the sum of
/// the S - 1 peers' partials in the first block, the product's traffic
/// with memory; no workspace and no second launch. Never past one wave of
/// blocks (a split grid of several waves ran far slower than counted:
/// emitSplitCost), with fewer than kMinClusterSplitSteps steps a block
/// (kMinNarrowClusterSplitSteps for a narrow tile,
/// kMinClippedClusterSplitSteps where its box of B is clipped), or
/// with fewer than three stages of operands next to the scratch tile.
static Value emitClusterSplitCost(IndexBuilder &e, Value m, Value n,
                                  Value kSteps, const GemmVariant &variant,
                                  const TargetDescription &target,
                                  int64_t resultBytes, Value output,
                                  Value stepCycles) {
  const TileConfig &tile = variant.tile;
  int64_t splits = variant.clusterSplits;
  Value tiles = e.mul(e.ceilDiv(m, tile.rows), e.ceilDiv(n, tile.cols));
  Value blocks = e.mul(tiles, e.c(splits));
  Value steps = e.ceilDiv(kSteps, splits);
  Value waveCycles = emitWaveCycles(e, blocks, steps, stepCycles, target);
  Value compute = e.add(waveCycles, e.c((splits - 1) * kClusterSumCycles));
  Value memoryCycles =
      emitMemoryCycles(e, blocks, m, n, kSteps, e.c(1), output, tile, target);
  Value cost = emitKernelCycles(e, compute, memoryCycles);
  Value severalWaves = e.less(e.c(target.multiprocessors), blocks);
  bool narrow = !tile.swapped && tile.maxModelCols != 0;
  Value minSteps =
      e.c(narrow ? kMinNarrowClusterSplitSteps : kMinClusterSplitSteps);
  if (narrow && tile.longerSplitWhereClipped) {
    Value clipped = e.less(e.c(0), e.rem(n, e.c(tile.cols)));
    minSteps = e.select(clipped, e.c(kMinClippedClusterSplitSteps), minSteps);
  }
  Value tooShort = e.less(steps, minSteps);
  cost = e.select(severalWaves, e.c(kNever), cost);
  cost = e.select(tooShort, e.c(kNever), cost);
  constexpr int64_t kMinStages = 3;
  if (getClusterSplitStages(target, resultBytes, tile, splits) < kMinStages)
    return e.c(kNever);
  return cost;
}

/// The cost of `variant`'s tile with whole K loops on its grid of `rows` x
/// `cols` (C^T's for a tile of C^T), `batch` matrices. A grid in clusters
/// is whole clusters, for each matrix of a batch; a grid of tiles of C^T
/// counts only its blocks inside the product for the memory's rate
/// (emitMemoryCycles). Plain 64x128 tiles in clusters of two ran 0.94-0.97
/// of cuBLAS at 160 rows with A stored K x M, a fourth row of tiles past
/// the edge, where without it counted the model took 64x128 tiles of C^T,
/// 0.86-0.90 (H200).
static Value emitWholeCost(IndexBuilder &e, Value batch, Value rows, Value cols,
                           Value kSteps, const TileConfig &tile,
                           const TargetDescription &target, Value output,
                           Value stepCycles) {
  Value tileRows = e.ceilDiv(rows, tile.rows);
  Value tileCols = e.ceilDiv(cols, tile.cols);
  Value blocks = e.mul(e.roundUp(tileRows, tile.clusterRows),
                       e.roundUp(tileCols, tile.clusterCols));
  blocks = e.mul(blocks, batch);
  Value busy;
  if (tile.swapped && tile.getClusterBlocks() > 1)
    busy = e.mul(e.mul(tileRows, tileCols), batch);
  Value waveCycles = emitWaveCycles(e, blocks, kSteps, stepCycles, target,
                                    tile.blocksPerMultiprocessor);
  Value memoryCycles = emitMemoryCycles(e, blocks, rows, cols, kSteps, batch,
                                        output, tile, target, busy);
  Value cost = emitKernelCycles(e, waveCycles, memoryCycles);
  cost = emitIdleClusterCost(e, rows, cols, tile, cost);
  if (tile.clusteredWhereClipped)
    cost = emitClippedBoxCost(e, cols, tile, cost);
  if (tile.swapped && tile.getClusterBlocks() > 1)
    cost = emitSwappedClusterFillCost(e, cols, tile, cost);
  // Cut stages help only blocks that share a multiprocessor.
  if (tile.stagesCut)
    cost = e.select(e.less(e.c(target.multiprocessors), blocks), cost,
                    e.c(kNever));
  return cost;
}

/// Prints `cycles` for -debug-only: its value where the shape is static.
[[maybe_unused]] static void printCycles(llvm::raw_ostream &os, Value cycles) {
  if (std::optional<int64_t> value = getConstantIntValue(cycles))
    os << *value;
  else
    os << "(computed on the host)";
}

GemmChoice mlir::croq::emitGemmChoice(OpBuilder &b, Location loc, Value batch,
                                      Value m, Value n, Value kSteps,
                                      Value aRowBytes, Value bRowBytes,
                                      ArrayRef<GemmVariant> variants,
                                      const TargetDescription &target,
                                      int64_t resultBytes, int64_t splitK,
                                      Value requested) {
  IndexBuilder e{b, loc};
  auto misaligned = [&](Value rowBytes) {
    return b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ne,
                                         e.rem(rowBytes, e.c(128)), e.c(0));
  };
  Value bMisaligned = misaligned(bRowBytes);
  Value aMisaligned;
  // The bytes of one matrix of the result, which every plan writes.
  Value output = e.mul(e.mul(m, n), e.c(resultBytes));
  // The narrow tiles (getNarrowTiles) take any rows.
  bool hasNarrowTile = llvm::any_of(variants, [](const GemmVariant &variant) {
    return variant.tile.maxModelCols != 0;
  });
  Value best, bestCost, bestSplits;
  // Whether the requested variant can be taken, and its splits.
  Value takeRequested, requestedSplits;
  for (auto [index, variant] : llvm::enumerate(variants)) {
    const TileConfig &tile = variant.tile;
    if (tile.swapped && !aMisaligned)
      aMisaligned = misaligned(aRowBytes);
    Value stepCycles = emitStepCycles(e, tile, target,
                                      tile.swapped ? aMisaligned : bMisaligned);
    // A swapped tile's grid covers C^T = B^T A^T, N x M.
    Value rows = tile.swapped ? n : m, cols = tile.swapped ? m : n;
    Value cost, splits;
    if (variant.form == GemmForm::SplitK) {
      std::tie(cost, splits) = emitSplitCost(e, m, n, kSteps, tile, target,
                                             output, splitK, stepCycles);
    } else if (variant.form == GemmForm::StreamK) {
      cost =
          emitStreamKCost(e, m, n, kSteps, variant, target, output, stepCycles);
      splits = e.c(1);
    } else if (variant.form == GemmForm::ClusterSplitK) {
      cost = emitClusterSplitCost(e, rows, cols, kSteps, variant, target,
                                  resultBytes, output, stepCycles);
      splits = e.c(variant.clusterSplits);
    } else {
      cost = emitWholeCost(e, batch, rows, cols, kSteps, tile, target, output,
                           stepCycles);
      splits = e.c(1);
    }
    cost = emitModelBoundsCost(e, m, n, variant, hasNarrowTile, cost);
    LLVM_DEBUG({
      llvm::dbgs() << "[" DEBUG_TYPE "] variant " << index << ": tile "
                   << tile.rows << "x" << tile.cols
                   << (tile.swapped ? " of C^T" : "") << ", cluster "
                   << tile.clusterRows << "x" << tile.clusterCols
                   << (variant.form == GemmForm::SplitK    ? ", split K"
                       : variant.form == GemmForm::StreamK ? ", stream-K"
                       : variant.form == GemmForm::ClusterSplitK
                           ? ", K split in the cluster"
                           : "")
                   << ": cost ";
      printCycles(llvm::dbgs(), cost);
      llvm::dbgs() << " cycles, splits ";
      printCycles(llvm::dbgs(), splits);
      llvm::dbgs() << "\n";
    });
    if (requested) {
      Value asked = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq,
                                                  requested, e.c(index));
      Value possible = e.less(cost, e.c(kNever));
      Value take = b.createOrFold<arith::AndIOp>(loc, asked, possible);
      takeRequested =
          takeRequested ? b.createOrFold<arith::OrIOp>(loc, takeRequested, take)
                        : take;
      requestedSplits =
          requestedSplits ? e.select(take, splits, requestedSplits) : splits;
    }
    if (!best) {
      best = e.c(index);
      bestCost = cost;
      bestSplits = splits;
      continue;
    }
    Value better = e.less(cost, bestCost);
    best = e.select(better, e.c(index), best);
    bestSplits = e.select(better, splits, bestSplits);
    bestCost = e.select(better, cost, bestCost);
  }
  if (requested) {
    best = e.select(takeRequested, requested, best);
    bestSplits = e.select(takeRequested, requestedSplits, bestSplits);
  }
  LLVM_DEBUG({
    llvm::dbgs() << "[" DEBUG_TYPE "] chosen variant ";
    printCycles(llvm::dbgs(), best);
    llvm::dbgs() << " of " << variants.size() << "\n";
  });
  return {best, bestSplits};
}
