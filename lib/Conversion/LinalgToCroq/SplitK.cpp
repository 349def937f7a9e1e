//===- SplitK.cpp - a linalg GEMM with its K loop split among blocks ------===//
//
// A GEMM whose tiles are too few to fill the chip (small M and N, long K)
// splits each tile's K loop among S blocks:
//
//   %ws = gpu.alloc () : memref<(S x Mt) x Nt x T>    (host, on the stream)
//   croq.parallel (%row, %bn) in [S x tilesM, tilesN] : block
//     split s = row / tilesM, tile (row mod tilesM, bn), K steps
//     [s x per, min((s + 1) x per, steps)): the K loop, the partial
//     stored by TMA at tile (row, bn) of %ws
//   croq.parallel (%bi, %bj) in [M / 16, N / 32] : block
//     each thread four columns: the sums of their S partials (16-byte
//     reads), each element + the output where linalg.matmul accumulates,
//     the fused consumer, rounded and written
//   gpu.dealloc %ws
//
// T is the accumulator's type: f32, or i32 for i8 operands (whose sums
// are exact in any order). Mt and Nt are M and N rounded up to the tile,
// so every partial tile is whole. The partials are summed in split order:
// the result does not depend on which block finishes first.
//
//===----------------------------------------------------------------------===//

#include "GemmKernel.h"
#include "IndexBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::croq;

/// The columns one thread reads at once: 16 bytes of f32 or i32 partials.
static constexpr int64_t kReduceVector = 4;
/// The splits one loop step of the reduction reads at once.
static constexpr int64_t kReduceUnroll = 4;

Value mlir::croq::allocWorkspace(OpBuilder &b, Location loc, Value rows,
                                 Value cols, Type element) {
  SmallVector<Value> dynamicSizes;
  SmallVector<int64_t> shape;
  dispatchIndexOpFoldResults(getAsOpFoldResult(ValueRange{rows, cols}),
                             dynamicSizes, shape);
  auto type = MemRefType::get(shape, element);
  return gpu::AllocOp::create(b, loc, type, /*asyncToken=*/Type(),
                              /*asyncDependencies=*/ValueRange{}, dynamicSizes,
                              /*symbolOperands=*/ValueRange{},
                              /*hostShared=*/false)
      .getMemref();
}

/// The kernel whose block (row, bn) stores the partial product of split
/// row / tilesM of tile (row mod tilesM, bn) at tile (row, bn) of
/// `workspace`.
static void emitPartialKernel(OpBuilder &b, Location loc,
                              const MatmulSpec &spec, const TileConfig &config,
                              const ProductSizes &sizes, Value splits,
                              Value workspace) {
  IndexBuilder e{b, loc};
  Value tilesM = e.ceilDiv(sizes.m, config.rows);
  Value tilesN = e.ceilDiv(sizes.n, config.cols);
  Value steps = e.ceilDiv(sizes.kSteps, splits);
  OpBuilder::InsertionGuard guard(b);
  ParallelOp kernel =
      createBlockGrid(b, loc, ValueRange{e.mul(splits, tilesM), tilesN});
  // Blocks of splits do not walk tiles: not persistent.
  setGemmAttributes(kernel, config, /*persistent=*/false);
  Value row = kernel.getBody().front().getArgument(0);
  Value blockN = kernel.getBody().front().getArgument(1);
  Value split = e.div(row, tilesM);
  Value blockM = e.rem(row, tilesM);
  Value first = e.mul(split, steps);
  Value count = e.min(steps, e.sub(sizes.kSteps, first));
  auto [aTile, bTile] = allocOperandTiles(b, loc, spec, config);
  Type accElement = getAccElementType(spec);
  Value partialTile = allocSharedTile(b, loc, {config.rows, config.cols},
                                      accElement, Swizzle::B128);
  auto accType =
      AccType::get(b.getContext(), {config.rows, config.cols}, accElement);
  // The split kernel's blocks are not launched in clusters.
  TileConfig unclustered = config;
  unclustered.clusterRows = unclustered.clusterCols = 1;
  Value acc = emitKLoop(b, loc, spec, blockM, blockN, KRange{first, count},
                        aTile, bTile, accType, unclustered);
  Value partial = buildTileView(b, loc, workspace, {config.rows, config.cols},
                                ValueRange{row, blockN});
  emitTileStore(b, loc, acc, partialTile, partial);
}

/// `x` + `y`, vectors of partials: addi on integers, addf on floats.
static Value addPartials(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<IntegerType>(getElementTypeOrSelf(x.getType())))
    return arith::AddIOp::create(b, loc, x, y);
  return arith::AddFOp::create(b, loc, x, y);
}

/// Adds `parts` as a tree: independent loads, short dependence chains.
static Value addTree(OpBuilder &b, Location loc, SmallVector<Value> parts) {
  while (parts.size() > 1) {
    SmallVector<Value> next;
    for (size_t p = 0; p + 1 < parts.size(); p += 2)
      next.push_back(addPartials(b, loc, parts[p], parts[p + 1]));
    if (parts.size() % 2)
      next.push_back(parts.back());
    parts = std::move(next);
  }
  return parts[0];
}

/// The sums of the `splits` partials of elements (i, j .. j + 3) of
/// reduction tile (bi, bj), in split order, as a vector; `partialRows` is
/// the workspace rows of one split. Four splits per loop step, one 16-byte
/// read each, then the splits left one by one.
static Value emitPartialSum(OpBuilder &b, Location loc, Value workspace,
                            Value splits, Value partialRows, Value blockI,
                            Value blockJ, Value i, Value j) {
  IndexBuilder e{b, loc};
  Type element = getElementTypeOrSelf(workspace.getType());
  auto vectorType = VectorType::get({kReduceVector}, element);
  Value zero = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(vectorType, b.getZeroAttr(element)));
  // Reduction tiles of one split.
  Value tilesPerSplit = e.div(partialRows, e.c(kReduceRows));
  auto read = [&](Value split) -> Value {
    Value tileRow = e.add(e.mul(split, tilesPerSplit), blockI);
    Value window = buildTileView(b, loc, workspace, {kReduceRows, kReduceCols},
                                 ValueRange{tileRow, blockJ});
    return ReadOp::create(b, loc, vectorType, window, ValueRange{i, j},
                          /*inBounds=*/true);
  };
  Value grouped = e.sub(splits, e.rem(splits, e.c(kReduceUnroll)));
  auto groups = scf::ForOp::create(b, loc, e.c(0), grouped, e.c(kReduceUnroll),
                                   ValueRange{zero});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(groups.getBody());
    SmallVector<Value> parts;
    for (int64_t u = 0; u < kReduceUnroll; ++u)
      parts.push_back(read(e.add(groups.getInductionVar(), e.c(u))));
    Value sum = addPartials(b, loc, groups.getRegionIterArgs()[0],
                            addTree(b, loc, parts));
    scf::YieldOp::create(b, loc, ValueRange{sum});
  }
  auto rest = scf::ForOp::create(b, loc, grouped, splits, e.c(1),
                                 ValueRange{groups.getResult(0)});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(rest.getBody());
  Value sum = addPartials(b, loc, rest.getRegionIterArgs()[0],
                          read(rest.getInductionVar()));
  scf::YieldOp::create(b, loc, ValueRange{sum});
  return rest.getResult(0);
}

void mlir::croq::emitPartialReduction(OpBuilder &b, Location loc,
                                      const MatmulSpec &spec,
                                      const ProductSizes &sizes,
                                      const PartialLayout &layout) {
  IndexBuilder e{b, loc};
  Value gridI = e.ceilDiv(sizes.m, kReduceRows);
  OpBuilder::InsertionGuard guard(b);
  ParallelOp kernel =
      createBlockGrid(b, loc, ValueRange{gridI, layout.columnGroups});
  Value blockI = kernel.getBody().front().getArgument(0);
  Value localJ = kernel.getBody().front().getArgument(1);
  Value splits = layout.countPartials(b, loc, blockI, localJ);
  Value blockJ = localJ;
  if (layout.firstColumnGroup)
    blockJ = e.add(layout.firstColumnGroup, localJ);
  Value workspace = layout.workspace;
  Value partialRows = layout.partialRows;
  Value output = spec.getOutput();
  Type result = getElementTypeOrSelf(output.getType());
  Value outView = buildTileView(b, loc, output, {kReduceRows, kReduceCols},
                                ValueRange{blockI, blockJ});
  EpilogueInputs inputs;
  if (spec.epilogue)
    inputs = prepareEpilogueInputs(b, loc, *spec.epilogue, kReduceRows,
                                   kReduceCols, blockI, blockJ);
  auto foreach = ForeachOp::create(
      b, loc, /*dynamicExtents=*/ValueRange{},
      b.getDenseI64ArrayAttr({kReduceRows, kReduceCols / kReduceVector}));
  Block &body = foreach.getBody().emplaceBlock();
  body.addArguments({b.getIndexType(), b.getIndexType()}, {loc, loc});
  b.setInsertionPointToStart(&body);
  Value i = body.getArgument(0);
  Value first = e.mul(body.getArgument(1), e.c(kReduceVector));
  Value sums = emitPartialSum(b, loc, workspace, splits, partialRows, blockI,
                              localJ, i, first);
  // Each element on its own from here: the output, the consumer's inputs
  // and the writes may be unaligned or past the edge.
  for (int64_t lane = 0; lane < kReduceVector; ++lane) {
    Value j = e.add(first, e.c(lane));
    Value x = vector::ExtractOp::create(b, loc, sums, lane);
    if (!spec.zeroFill) {
      // linalg.matmul accumulates into its output.
      Value c = ReadOp::create(b, loc, result, outView, ValueRange{i, j},
                               /*inBounds=*/false);
      x = addToAccumulator(b, loc, x, c);
    }
    if (spec.epilogue)
      x = emitEpilogueElement(b, loc, *spec.epilogue, inputs, i, j, x);
    // An i32 result is the accumulator's type (getSpec).
    if (x.getType() != result)
      x = arith::TruncFOp::create(b, loc, result, x);
    WriteOp::create(b, loc, x, outView, ValueRange{i, j}, /*inBounds=*/false);
  }
}

void mlir::croq::emitSplitKernels(OpBuilder &b, Location loc,
                                  const MatmulSpec &spec,
                                  const TileConfig &config,
                                  const ProductSizes &sizes, Value splits) {
  IndexBuilder e{b, loc};
  Value rows =
      e.mul(e.mul(splits, e.ceilDiv(sizes.m, config.rows)), e.c(config.rows));
  Value cols = e.roundUp(sizes.n, config.cols);
  Value workspace = allocWorkspace(b, loc, rows, cols, getAccElementType(spec));
  emitPartialKernel(b, loc, spec, config, sizes, splits, workspace);
  PartialLayout layout;
  layout.workspace = workspace;
  layout.partialRows = e.roundUp(sizes.m, config.rows);
  layout.columnGroups = e.ceilDiv(sizes.n, kReduceCols);
  auto everySplit = [&](OpBuilder &, Location, Value, Value) { return splits; };
  layout.countPartials = everySplit;
  emitPartialReduction(b, loc, spec, sizes, layout);
  gpu::DeallocOp::create(b, loc, /*asyncToken=*/Type(),
                         /*asyncDependencies=*/ValueRange{}, workspace);
}
