//===- ClusterSplitK.cpp - a GEMM's K loop split in a thread block cluster ===//
//
// A GEMM whose tiles leave most of a wave idle (small M, large N and K)
// splits each tile's K loop among the S blocks of a thread block cluster
// and sums their partial accumulators in the cluster's first block through
// distributed shared memory:
//
//   croq.parallel (%row, %bn) in [S x tilesM, tilesN] : block cluster [S, 1]
//     part s = row mod S, tile (row / S, bn), K steps
//     [s x steps / S, (s + 1) x steps / S): the K loop
//     %sum = croq.mma.cluster_sum %acc scratch %slots
//     scf.if s == 0: + the output where linalg.matmul accumulates, the
//       fused consumer, the TMA store of the tile
//
// Against the split of SplitK.cpp: no f32 workspace in global memory and
// no second kernel; the partials cross the cluster's network once, into
// a scratch tile of S - 1 accumulator-sized slots in the first block. The
// slots are summed in rank order, so the result does not depend on which
// block finishes first.
//
//===----------------------------------------------------------------------===//

#include "GemmKernel.h"
#include "IndexBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::croq;

void mlir::croq::emitClusterSplitProgram(OpBuilder &b, Location loc,
                                         const MatmulSpec &spec,
                                         const TileConfig &config,
                                         const ProductSizes &sizes,
                                         int64_t splits) {
  IndexBuilder e{b, loc};
  Value tilesM = e.ceilDiv(sizes.m, config.rows);
  Value tilesN = e.ceilDiv(sizes.n, config.cols);
  OpBuilder::InsertionGuard guard(b);
  // The blocks of one tile are consecutive rows of the grid: one cluster.
  ParallelOp kernel =
      createBlockGrid(b, loc, ValueRange{e.mul(tilesM, e.c(splits)), tilesN});
  kernel.setClusterAttr(b.getDenseI64ArrayAttr({splits, 1}));
  // One tile per block: croq.mma.cluster_sum runs once per launch.
  setGemmAttributes(kernel, config, /*persistent=*/false);
  Value row = kernel.getBody().front().getArgument(0);
  Value blockN = kernel.getBody().front().getArgument(1);
  Value part = e.rem(row, e.c(splits));
  Value blockM = e.div(row, e.c(splits));
  // Part s takes steps [s x K / S, (s + 1) x K / S): none is empty where
  // K has S steps or more.
  Value first = e.div(e.mul(part, sizes.kSteps), e.c(splits));
  Value end = e.div(e.mul(e.add(part, e.c(1)), sizes.kSteps), e.c(splits));
  Value count = e.sub(end, first);
  auto [aTile, bTile] = allocOperandTiles(b, loc, spec, config);
  Value cTile = allocResultTile(b, loc, spec, config);
  Type accElement = getAccElementType(spec);
  // A slot of the accumulator's shape for each other block, in the
  // accumulator's element type; unswizzled, as croq.mma.cluster_sum lays
  // its chunks out itself.
  Value slots =
      allocSharedTile(b, loc, {(splits - 1) * config.rows, config.cols},
                      accElement, Swizzle::None);
  auto accType =
      AccType::get(b.getContext(), {config.rows, config.cols}, accElement);
  std::optional<EpilogueOperands> epilogue;
  if (spec.epilogue)
    epilogue = loadEpilogueInputs(b, loc, *spec.epilogue, config.rows,
                                  config.cols, blockM, blockN, Value());
  // The blocks of a cluster share no operand: no multicast.
  TileConfig unclustered = config;
  unclustered.clusterRows = unclustered.clusterCols = 1;
  Value acc = emitKLoop(b, loc, spec, blockM, blockN, KRange{first, count},
                        aTile, bTile, accType, unclustered);
  acc = MmaClusterSumOp::create(b, loc, accType, acc, slots);
  Value leader =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, part, e.c(0));
  auto ifLeader = scf::IfOp::create(b, loc, leader, /*withElse=*/false);
  b.setInsertionPointToStart(ifLeader.thenBlock());
  emitTileResult(b, loc, spec, config, acc, cTile,
                 epilogue ? &*epilogue : nullptr, blockM, blockN);
}
