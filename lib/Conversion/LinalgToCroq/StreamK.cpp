//===- StreamK.cpp - a linalg GEMM whose last wave shares its K steps -----===//
//
// A GEMM whose tiles leave part of a wave of blocks idle (333x4096x4096:
// 66 tiles of 128x192 on 132 SMs) spreads the K steps of the tiles past
// its whole waves evenly over one wave of blocks (planStreamK):
//
//   croq.parallel (%bm, %bn) in [tilesM, wholeCols] : block    (persistent)
//     the whole waves' tiles, as emitBlockProgram computes them
//   %ws = gpu.alloc () : memref<(slots x tilesM x rows) x (skCols x cols) x T>
//   croq.parallel (%p) in [blocks] : block
//     K steps [p x per, min((p + 1) x per, iterations)) of the tiles
//     left, numbered down their columns: for each tile t the range meets,
//     the K loop over the steps of t in the range, its partial stored by
//     TMA into slot p - first(t) of t, first(t) the block whose range
//     holds t's first step
//   croq.parallel (%bi, %bj) in [M / 16, (N - wholeCols x cols) / 32]
//     the partials of each element of the tiles left summed in slot order
//     (SplitK.cpp's reduction), the output added, the consumer, written
//   gpu.dealloc %ws
//
// The first kernel is left out where there is no whole wave. The partials
// are summed in slot order: the result does not depend on which block
// finishes first. A second launch costs about 2 us; the flags in global
// memory that would let the block finishing a tile add the others'
// partials itself are not built.
//
//===----------------------------------------------------------------------===//

#include "GemmKernel.h"
#include "IndexBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::croq;

/// The block whose range holds K step `step` of the iteration space.
static Value getRangeOwner(IndexBuilder &e, const StreamKPlan &plan,
                           Value step) {
  return e.div(step, plan.perBlock);
}

/// The kernel whose block p stores the partial of each tile its range of
/// K steps meets into that tile's slot p - first(t) of `workspace`.
static void emitRangeKernel(OpBuilder &b, Location loc, const MatmulSpec &spec,
                            const TileConfig &config, const ProductSizes &sizes,
                            const StreamKPlan &plan, Value workspace) {
  IndexBuilder e{b, loc};
  OpBuilder::InsertionGuard guard(b);
  SmallVector<Value> dynamicGrid;
  SmallVector<int64_t> staticGrid;
  dispatchIndexOpFoldResults(getAsOpFoldResult(ValueRange{plan.blocks}),
                             dynamicGrid, staticGrid);
  auto kernel =
      ParallelOp::create(b, loc, dynamicGrid, staticGrid, ParallelLevel::Block,
                         /*shared_memory=*/nullptr, /*cluster=*/nullptr);
  // Its blocks already walk their tiles: not persistent.
  setGemmAttributes(kernel, config, /*persistent=*/false);
  Block *body = b.createBlock(&kernel.getBody(), {}, {b.getIndexType()}, {loc});
  Value block = body->getArgument(0);
  // The shared tiles once per block, as croq-persistent-blocks places them.
  auto [aTile, bTile] = allocOperandTiles(b, loc, spec, config);
  Type accElement = getAccElementType(spec);
  int64_t partCols =
      config.partialPartCols ? config.partialPartCols : config.cols;
  Value partialTile = allocSharedTile(b, loc, {config.rows, partCols},
                                      accElement, Swizzle::B128);
  Value start = e.mul(block, plan.perBlock);
  Value end = e.min(e.add(start, plan.perBlock), plan.iterations);
  Value firstTile = e.div(start, sizes.kSteps);
  Value endTile = e.add(e.div(e.sub(end, e.c(1)), sizes.kSteps), e.c(1));
  auto tiles = scf::ForOp::create(b, loc, firstTile, endTile, e.c(1));
  b.setInsertionPointToStart(tiles.getBody());
  Value t = tiles.getInductionVar();
  Value tileStart = e.mul(t, sizes.kSteps);
  Value from = e.max(start, tileStart);
  Value to = e.min(end, e.add(tileStart, sizes.kSteps));
  Value blockM = e.rem(t, plan.tilesM);
  Value column = e.div(t, plan.tilesM);
  Value blockN = e.add(plan.wholeCols, column);
  auto accType =
      AccType::get(b.getContext(), {config.rows, config.cols}, accElement);
  Value acc = emitKLoop(b, loc, spec, blockM, blockN,
                        KRange{e.sub(from, tileStart), e.sub(to, from)}, aTile,
                        bTile, accType, config);
  Value slot = e.sub(block, getRangeOwner(e, plan, tileStart));
  Value slotRow = e.add(e.mul(slot, plan.tilesM), blockM);
  emitTileStoreInParts(b, loc, acc, config, partCols, partialTile, workspace,
                       slotRow, column);
}

void mlir::croq::emitStreamKKernels(OpBuilder &b, Location loc,
                                    const MatmulSpec &spec,
                                    const TileConfig &config,
                                    const ProductSizes &sizes,
                                    int64_t multiprocessors) {
  IndexBuilder e{b, loc};
  // Neither kernel is launched in clusters.
  TileConfig tile = config;
  tile.clusterRows = tile.clusterCols = 1;
  StreamKPlan plan = planStreamK(b, loc, sizes.m, sizes.n, sizes.kSteps, tile,
                                 multiprocessors);
  std::optional<int64_t> wholeCols = getConstantIntValue(plan.wholeCols);
  if (!wholeCols) {
    Value any = e.less(e.c(0), plan.wholeCols);
    auto ifOp = scf::IfOp::create(b, loc, any, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    emitBlockProgram(b, loc, spec, tile, sizes, plan.wholeCols);
  } else if (*wholeCols > 0) {
    emitBlockProgram(b, loc, spec, tile, sizes, plan.wholeCols);
  }
  Value partialRows = e.mul(plan.tilesM, e.c(tile.rows));
  Value rows = e.mul(plan.slots, partialRows);
  Value cols = e.mul(plan.skCols, e.c(tile.cols));
  Value workspace = allocWorkspace(b, loc, rows, cols, getAccElementType(spec));
  emitRangeKernel(b, loc, spec, tile, sizes, plan, workspace);
  PartialLayout layout;
  layout.workspace = workspace;
  layout.partialRows = partialRows;
  layout.firstColumnGroup = e.mul(plan.wholeCols, e.c(tile.cols / kReduceCols));
  layout.columnGroups = e.ceilDiv(
      e.sub(sizes.n, e.mul(plan.wholeCols, e.c(tile.cols))), kReduceCols);
  // The slots of the tile of reduction block (i, j): the blocks from the
  // one holding its first K step to the one holding its last.
  auto slotsOfTile = [&](OpBuilder &kb, Location kloc, Value i,
                         Value j) -> Value {
    IndexBuilder k{kb, kloc};
    Value blockM = k.div(i, k.c(tile.rows / kReduceRows));
    Value column = k.div(j, k.c(tile.cols / kReduceCols));
    Value t = k.add(k.mul(column, plan.tilesM), blockM);
    Value first = k.mul(t, sizes.kSteps);
    Value last = k.sub(k.add(first, sizes.kSteps), k.c(1));
    return k.add(
        k.sub(getRangeOwner(k, plan, last), getRangeOwner(k, plan, first)),
        k.c(1));
  };
  layout.countPartials = slotsOfTile;
  emitPartialReduction(b, loc, spec, sizes, layout);
  gpu::DeallocOp::create(b, loc, /*asyncToken=*/Type(),
                         /*asyncDependencies=*/ValueRange{}, workspace);
}
