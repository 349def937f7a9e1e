//===- GemmKernel.cpp - the block program of a linalg GEMM ----------------===//
//
// The croq kernel of one GEMM tile: a K loop of tma copies and one mma per
// K step, f32 accumulation (i32 for i8 operands), the output added where
// linalg.matmul accumulates, the fused consumer, and the product stored through
// a swizzled shared tile by an async tma copy. The loop is in the form
// croq-pipeline-loops makes a ring of.
//
//===----------------------------------------------------------------------===//

#include "GemmKernel.h"
#include "Convolution.h"
#include "IndexBuilder.h"

#include "Croq/Dialect/Croq/Transforms/Layouts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::croq;

Value mlir::croq::getMatrixTile(OpBuilder &b, Location loc, Value tile) {
  auto type = cast<TileType>(tile.getType());
  if (type.getShape().size() == 2)
    return tile;
  auto matrix = TileType::get(b.getContext(), type.getShape().drop_front(),
                              type.getElementType(), type.getMemorySpace(),
                              type.getSwizzle());
  return SpanAsOp::create(b, loc, matrix, tile).getResult();
}

/// The swizzle attribute of a tma copy to or from the shared `tile`: the
/// tile's own.
static SwizzleAttr getCopySwizzle(Value tile) {
  return SwizzleAttr::get(tile.getContext(),
                          cast<TileType>(tile.getType()).getSwizzle());
}

/// The shared tile an operand's K step is copied into, and the copy: the
/// operand's tile of `shape` at `at`, in the matrix `batch` of a batched
/// operand (`tile` is then 1 x `shape`). A tile wider than `shape` (an
/// N-major B tile padded to whole swizzle spans) takes the window of its
/// own width at the tile's origin, and the mma reads its first columns.
/// With `steps`, tile `at` starts at element `at * steps` (a convolution's
/// filters, whose K steps start at element columns, not whole tiles).
/// `multicastDim`: the cluster dimension whose blocks share the load (A's
/// along N, 1, B's along M, 0), or none; in a cluster of one dimension with
/// more than one block the load is shared by the whole cluster.
static Value loadOperand(OpBuilder &b, Location loc, Value tensor,
                         ArrayRef<int64_t> shape, ValueRange at, Value batch,
                         Value tile, const TileConfig &config,
                         std::optional<int64_t> multicastDim,
                         ArrayRef<int64_t> steps = {}) {
  auto tileShape = cast<TileType>(tile.getType()).getShape().take_back(2);
  bool padded = tileShape != shape;
  if (steps.empty() && padded)
    steps = shape;
  Value view = buildTileView(b, loc, tensor, tileShape, at, batch, steps);
  // Past the tensor's edge the tile is zero, which adds nothing to the
  // product.
  bool zfill =
      copySourceCanBeSmaller(view, cast<ViewType>(view.getType()).getShape());
  int64_t sharing = !multicastDim        ? 1
                    : *multicastDim == 0 ? config.clusterRows
                                         : config.clusterCols;
  bool multicast = sharing > 1;
  // Named only where the other dimension has blocks too.
  IntegerAttr along;
  if (multicast && sharing != config.getClusterBlocks())
    along = b.getI64IntegerAttr(*multicastDim);
  CopyOp::create(b, loc, /*future=*/Type(), CopyEngine::TMA, view, tile,
                 /*map=*/Value(), /*usable=*/Value(), zfill,
                 getCopySwizzle(tile),
                 /*box=*/nullptr, /*boxOrigins=*/nullptr, multicast, along);
  tile = getMatrixTile(b, loc, tile);
  auto tileType = cast<TileType>(tile.getType());
  if (padded) {
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    auto used = ViewType::get(b.getContext(), shape, tileType.getElementType(),
                              MemorySpace::Shared, tileType.getSwizzle());
    tile = SubspanOp::create(b, loc, used, tile, /*sizes=*/ValueRange{}, shape,
                             /*steps=*/ValueRange{}, /*staticSteps=*/nullptr,
                             ValueRange{zero, zero})
               .getResult();
  }
  auto fragType =
      FragType::get(b.getContext(), shape, tileType.getElementType(),
                    /*inRegisters=*/false);
  return MmaLoadOp::create(b, loc, fragType, tile).getResult();
}

/// Adds, in registers, the output's elements at the block's tile to the
/// complete accumulator `acc` (linalg.matmul accumulates into its output):
/// zero past the output's edge.
static Value addOutput(OpBuilder &b, Location loc, Value acc, Value cView) {
  auto map = MmaMapOp::create(b, loc, acc);
  Block &body = map.getBody().front();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&body);
  Value row = body.getArgument(0), col = body.getArgument(1);
  Value x = body.getArgument(2);
  Value c = readTileElement(b, loc, getElementTypeOrSelf(cView.getType()),
                            cView, row, col);
  YieldOp::create(b, loc, ValueRange{addToAccumulator(b, loc, x, c)});
  return map.getResult();
}

/// The matrix shapes of one K step of A and B of an M x N block tile, as
/// the mma reads them: K-major or M/N-major as the operands are stored.
static std::pair<SmallVector<int64_t>, SmallVector<int64_t>>
getOperandShapes(const MatmulSpec &spec, const TileConfig &config) {
  int64_t tileK = getStepElements(spec);
  SmallVector<int64_t> aShape = spec.aTransposed
                                    ? SmallVector<int64_t>{tileK, config.rows}
                                    : SmallVector<int64_t>{config.rows, tileK};
  SmallVector<int64_t> bShape = spec.bTransposed
                                    ? SmallVector<int64_t>{config.cols, tileK}
                                    : SmallVector<int64_t>{tileK, config.cols};
  return {aShape, bShape};
}

/// The product of A's rows and B's columns of K step `step`, scaled, as a
/// rows vector: sa[row, step] * sb[blockN, step] for each row of the block
/// (a block-scaled product's tile is 128 columns, one block of B's
/// scales).
static Value loadStepScales(OpBuilder &b, Location loc, const MatmulSpec &spec,
                            Value blockM, Value blockN, Value step,
                            int64_t rows) {
  Type f32 = b.getF32Type();
  Value sbView =
      buildTileView(b, loc, spec.bScales, {1, 1}, ValueRange{blockN, step});
  Value zeroIndex = arith::ConstantIndexOp::create(b, loc, 0);
  // The view's columns count in scales: one column at `step`.
  Value saView =
      buildTileView(b, loc, spec.aScales, {rows, 1}, ValueRange{blockM, step});
  auto type = VecType::get(b.getContext(), rows, f32, AccAxis::Rows);
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(f32));
  auto map = VecMapOp::create(b, loc, VecFillOp::create(b, loc, type, zero));
  Block &body = map.getBody().front();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&body);
  Value sa =
      readTileElement(b, loc, f32, saView, body.getArgument(0), zeroIndex);
  // Read in the body, where croq-split-accumulators shares it among the
  // consumers; the unrolled body's reads of it are one load.
  Value sb = readTileElement(b, loc, f32, sbView, zeroIndex, zeroIndex);
  YieldOp::create(b, loc, ValueRange{arith::MulFOp::create(b, loc, sa, sb)});
  return map.getResult();
}

/// `main` + `partial` (times the rows vector `scales` where not null), in
/// registers: the promotion of a partial sum into the main accumulator.
static Value addPartial(OpBuilder &b, Location loc, Value main, Value partial,
                        Value scales) {
  SmallVector<Value> inputs{partial};
  if (scales)
    inputs.push_back(scales);
  auto map = MmaMapOp::create(b, loc, main, inputs);
  Block &body = map.getBody().front();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&body);
  Value x = map.getElement(), p = map.getInputElement(0);
  // One fma per element for a scaled partial: arith's mulf and addf stay
  // two rounded instructions in PTX.
  Value sum = scales ? math::FmaOp::create(b, loc, p, map.getInputElement(1), x)
                           .getResult()
                     : arith::AddFOp::create(b, loc, x, p).getResult();
  YieldOp::create(b, loc, ValueRange{sum});
  return map.getResult();
}

/// The values a K loop with partials of `promote` > 1 steps yields: the
/// main accumulator `main` and the partial `partial` (complete), the
/// partial added into the main accumulator and zeroed after every
/// `promote` steps of `loop` and after its last.
static SmallVector<Value> emitGroupPromotion(OpBuilder &b, Location loc,
                                             scf::ForOp loop, Value main,
                                             Value partial, int64_t promote,
                                             Value count) {
  IndexBuilder e{b, loc};
  Type accType = main.getType();
  Value next = e.add(loop.getInductionVar(), e.c(1));
  Value groupEnd = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         e.rem(next, e.c(promote)), e.c(0));
  Value last =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, next, count);
  Value now = arith::OrIOp::create(b, loc, groupEnd, last);
  auto ifPromote = scf::IfOp::create(b, loc, TypeRange{accType, accType}, now,
                                     /*withElse=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifPromote.getThenRegion().front());
  Value sum = addPartial(b, loc, main, partial, Value());
  Value zero = arith::ConstantOp::create(
      b, loc, b.getZeroAttr(cast<AccType>(accType).getElementType()));
  Value fresh = MmaFillOp::create(b, loc, accType, zero);
  scf::YieldOp::create(b, loc, ValueRange{sum, fresh});
  b.setInsertionPointToStart(&ifPromote.getElseRegion().front());
  scf::YieldOp::create(b, loc, ValueRange{main, partial});
  return SmallVector<Value>(ifPromote.getResults());
}

/// The K loop of one block: each step copies A's and B's K slices into
/// shared tiles and multiplies them into the accumulator. With
/// `spec.promoteSteps` (8-bit floats), wgmma accumulates into a partial
/// accumulator that is added into the f32 main one every promoteSteps K
/// steps and at the loop's last: wgmma's f8 accumulation keeps fewer
/// mantissa bits than f32, and its error grows with K (bench/RESULTS.md),
/// as cuBLAS and DeepGEMM promote too. A partial of one K step (the
/// default, and every block-scaled product) starts each step from zeros
/// (wgmma's scale-d = 0, no register writes) and is added once its group
/// completes; a longer one is added and zeroed in a branch.
///
/// Carried into the next step and added there, after that step's mma is
/// issued, the partial ran slower (0.71-0.89 of torch._scaled_mm against
/// 0.83-0.95; H200): ptxas waits for the in-flight group where the loop
/// copies it into the carried registers.
Value mlir::croq::emitKLoop(OpBuilder &b, Location loc, const MatmulSpec &spec,
                            Value blockM, Value blockN, const KRange &range,
                            Value aTile, Value bTile, AccType accType,
                            const TileConfig &config, Value batch) {
  MLIRContext *context = b.getContext();
  int64_t promote = spec.aScales ? 1 : spec.promoteSteps;
  Value zero = arith::ConstantOp::create(
      b, loc, b.getZeroAttr(accType.getElementType()));
  Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
  Value c1 = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<Value> inits{MmaFillOp::create(b, loc, accType, zero)};
  if (promote > 1)
    inits.push_back(MmaFillOp::create(b, loc, accType, zero));
  // A block-scaled product reads each step's scales one step ahead, so
  // that their latency is hidden behind a step's mma.
  if (spec.aScales)
    inits.push_back(loadStepScales(b, loc, spec, blockM, blockN,
                                   range.first ? range.first : c0,
                                   config.rows));
  // A convolution's im2col column starts at the pixel of the block's first
  // output position, the same for every K step.
  bool im2col = spec.conv && !spec.conv->plain;
  SmallVector<Value> im2colStart;
  if (im2col)
    im2colStart = getIm2colStart(b, loc, *spec.conv, blockM, config.rows);
  auto loop = scf::ForOp::create(b, loc, c0, range.count, c1, inits);
  // The rings' stage count where the tile fixes it (TileConfig::stages).
  if (config.stages != 0)
    loop->setAttr(CroqDialect::StagesAttrHelper::getNameStr(),
                  b.getI64IntegerAttr(config.stages));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value step = loop.getInductionVar();
  if (range.first)
    step = arith::AddIOp::create(b, loc, range.first, step);
  ValueRange carried = loop.getRegionIterArgs();
  Value acc = carried[0];
  // The matrix shapes the mma reads (an N-major B tile may be wider).
  auto [aShape, bShape] = getOperandShapes(spec, config);
  Value fa =
      im2col ? loadIm2colOperand(b, loc, *spec.conv, im2colStart, step, aTile)
             : loadOperand(b, loc, spec.a, aShape,
                           spec.aTransposed ? ValueRange{step, blockM}
                                            : ValueRange{blockM, step},
                           batch, aTile, config, /*multicastDim=*/1);
  // A convolution whose channels are not whole K steps reads its filters
  // from the element column of the step's tap and channel block.
  Value bStep = step;
  SmallVector<int64_t> bSteps;
  if (im2col && !hasWholeChannelSteps(*spec.conv)) {
    bStep = getFilterColumn(b, loc, *spec.conv, step);
    bSteps = spec.bTransposed ? SmallVector<int64_t>{bShape[0], 1}
                              : SmallVector<int64_t>{1, bShape[1]};
  }
  Value fb = loadOperand(b, loc, spec.b, bShape,
                         spec.bTransposed ? ValueRange{blockN, bStep}
                                          : ValueRange{bStep, blockN},
                         batch, bTile, config, /*multicastDim=*/0, bSteps);
  Value nextScales;
  if (spec.aScales)
    nextScales =
        loadStepScales(b, loc, spec, blockM, blockN,
                       arith::AddIOp::create(b, loc, step, c1), config.rows);
  auto layout = [&](bool row) {
    return MmaLayoutAttr::get(context, row ? MmaLayout::Row : MmaLayout::Col);
  };
  Value into = acc;
  if (promote == 1)
    into = MmaFillOp::create(b, loc, accType, zero);
  else if (promote > 1)
    into = carried[1];
  Value product = MmaOp::create(b, loc, accType, layout(!spec.aTransposed),
                                layout(spec.bTransposed), into, fa, fb);
  // The tiles are copied again in the next step only after the mma that
  // reads them has completed.
  Value done = MmaCommitOp::create(b, loc, accType, product,
                                   /*pending=*/b.getI64IntegerAttr(0));
  SmallVector<Value> results{done};
  if (promote == 1)
    results = {
        addPartial(b, loc, acc, done, spec.aScales ? carried[1] : Value())};
  else if (promote > 1)
    results = emitGroupPromotion(b, loc, loop, acc, done, promote, range.count);
  if (nextScales)
    results.push_back(nextScales);
  scf::YieldOp::create(b, loc, results);
  return loop.getResult(0);
}

MatmulSpec mlir::croq::getSwappedSpec(const MatmulSpec &spec) {
  MatmulSpec swapped = spec;
  swapped.a = spec.b;
  swapped.b = spec.a;
  // B stored K x N is B^T stored K x N' (A' stored K x M'); A stored M x K
  // is A^T stored N' x K.
  swapped.aTransposed = !spec.bTransposed;
  swapped.bTransposed = !spec.aTransposed;
  return swapped;
}

Type mlir::croq::getAccElementType(const MatmulSpec &spec) {
  Builder b(spec.a.getContext());
  Type operand = getElementTypeOrSelf(spec.a.getType());
  return operand.isInteger(8) ? Type(b.getI32Type()) : Type(b.getF32Type());
}

Value mlir::croq::addToAccumulator(OpBuilder &b, Location loc, Value x,
                                   Value c) {
  if (isa<IntegerType>(x.getType())) {
    if (c.getType() != x.getType())
      c = arith::ExtSIOp::create(b, loc, x.getType(), c);
    return arith::AddIOp::create(b, loc, x, c);
  }
  if (c.getType() != x.getType())
    c = arith::ExtFOp::create(b, loc, x.getType(), c);
  return arith::AddFOp::create(b, loc, x, c);
}

int64_t mlir::croq::getStepElements(const MatmulSpec &spec) {
  Type element = getElementTypeOrSelf(spec.a.getType());
  return kStepBytes / (element.getIntOrFloatBitWidth() / 8);
}

Value mlir::croq::allocSharedTile(OpBuilder &b, Location loc,
                                  ArrayRef<int64_t> shape, Type element,
                                  Swizzle swizzle) {
  Type tileType = TileType::get(b.getContext(), shape, element,
                                MemorySpace::Shared, swizzle);
  return AllocOp::create(b, loc, tileType, /*offset=*/nullptr).getResult();
}

/// The swizzled shared tile of a matrix tile of `shape` of `spec`'s operands
/// or result: 1 x `shape` for a batched product, as its TMA copies move it.
/// Its rows take the largest swizzle whose span divides them: 128B for
/// multiples of 128 bytes, 64B for 160 or 224 16-bit columns, 32B for 144
/// or 176.
static Value allocMatrixTile(OpBuilder &b, Location loc, const MatmulSpec &spec,
                             ArrayRef<int64_t> shape, Type element) {
  SmallVector<int64_t> tileShape(shape);
  if (spec.batched)
    tileShape.insert(tileShape.begin(), 1);
  Swizzle swizzle =
      chooseSwizzle(shape.back() * element.getIntOrFloatBitWidth() / 8,
                    /*stageBytes=*/0);
  return allocSharedTile(b, loc, tileShape, element, swizzle);
}

std::pair<Value, Value>
mlir::croq::allocOperandTiles(OpBuilder &b, Location loc,
                              const MatmulSpec &spec,
                              const TileConfig &config) {
  auto [aShape, bShape] = getOperandShapes(spec, config);
  // An N-major B tile whose rows are not whole 128-byte spans (a K step's
  // elements) is padded to them: 128B-swizzled slabs of 64 16-bit columns,
  // the last loaded whole and read in part, where its own width would take
  // the 32B or 64B swizzle, which wgmma reads far more slowly
  // (bench/RESULTS.md).
  if (!spec.bTransposed)
    bShape[1] = llvm::alignTo(bShape[1], getStepElements(spec));
  Type element = getElementTypeOrSelf(spec.a.getType());
  return {allocMatrixTile(b, loc, spec, aShape, element),
          allocMatrixTile(b, loc, spec, bShape, element)};
}

ParallelOp mlir::croq::createBlockGrid(OpBuilder &b, Location loc,
                                       ValueRange extents) {
  SmallVector<Value> dynamicGrid;
  SmallVector<int64_t> staticGrid;
  dispatchIndexOpFoldResults(getAsOpFoldResult(extents), dynamicGrid,
                             staticGrid);
  auto kernel =
      ParallelOp::create(b, loc, dynamicGrid, staticGrid, ParallelLevel::Block,
                         /*shared_memory=*/nullptr, /*cluster=*/nullptr);
  Block &body = *b.createBlock(&kernel.getBody());
  body.addArguments({b.getIndexType(), b.getIndexType()}, {loc, loc});
  return kernel;
}

void mlir::croq::setGemmAttributes(ParallelOp kernel, const TileConfig &config,
                                   bool persistent) {
  Builder b(kernel.getContext());
  // croq-persistent-blocks runs it as one block per multiprocessor.
  kernel->setAttr(CroqDialect::PersistentAttrHelper::getNameStr(),
                  b.getBoolAttr(persistent));
  // croq-split-accumulators shares the accumulator among this many
  // consumer warpgroups.
  kernel->setAttr(CroqDialect::ConsumersAttrHelper::getNameStr(),
                  b.getI64IntegerAttr(config.consumers));
}

void mlir::croq::emitTileStore(OpBuilder &b, Location loc, Value acc,
                               Value tile, Value view, bool transpose) {
  MmaStoreOp::create(b, loc, acc, getMatrixTile(b, loc, tile), /*relu=*/false,
                     transpose);
  // Left in flight: in a persistent block it overlaps the next tile's main
  // loop (croq-wait-async-stores waits before the tile is written again).
  CopyOp::create(b, loc, FutureType::get(b.getContext()), CopyEngine::TMA, tile,
                 view,
                 /*map=*/Value(), /*usable=*/Value(), /*zfill=*/false,
                 getCopySwizzle(tile),
                 /*box=*/nullptr, /*boxOrigins=*/nullptr);
}

void mlir::croq::emitBlockProgram(OpBuilder &b, Location loc,
                                  const MatmulSpec &gemm,
                                  const TileConfig &config,
                                  const ProductSizes &sizes, Value tileCols) {
  IndexBuilder e{b, loc};
  // A convolution's im2col loads read columns of the tile's rows through
  // the input's im2col map, made on the host.
  MatmulSpec spec = gemm;
  if (spec.conv && !spec.conv->plain)
    spec.conv->map = createIm2colMap(b, loc, *spec.conv, config.rows);
  int64_t tileM = config.rows, tileN = config.cols;
  // A grid in clusters covers whole clusters: the blocks past the edge
  // load zeros and store nothing (TMA clips), but share their operand
  // slices with the cluster.
  Value matrixGridM = e.roundUp(e.ceilDiv(sizes.m, tileM), config.clusterRows);
  Value gridN = e.roundUp(tileCols ? tileCols : e.ceilDiv(sizes.n, tileN),
                          config.clusterCols);
  // A batched product's grid has the rows of tiles of every matrix, one
  // matrix after another.
  Value gridM = spec.batched ? e.mul(sizes.batch, matrixGridM) : matrixGridM;
  OpBuilder::InsertionGuard guard(b);
  ParallelOp kernel = createBlockGrid(b, loc, ValueRange{gridM, gridN});
  if (config.getClusterBlocks() > 1)
    kernel.setClusterAttr(
        b.getDenseI64ArrayAttr({config.clusterRows, config.clusterCols}));
  // A persistent grid's cluster has one dimension, in which loads shared
  // along one dimension of a cluster of two cannot be named.
  bool bothMulticast = config.clusterRows > 1 && config.clusterCols > 1;
  setGemmAttributes(kernel, config, config.persistent && !bothMulticast);
  Value blockM = kernel.getBody().front().getArgument(0);
  Value blockN = kernel.getBody().front().getArgument(1);
  Value batch;
  if (spec.batched) {
    batch = e.div(blockM, matrixGridM);
    blockM = e.rem(blockM, matrixGridM);
  }
  auto [aTile, bTile] = allocOperandTiles(b, loc, spec, config);
  Value cTile = allocResultTile(b, loc, spec, config);
  Type accElement = getAccElementType(spec);
  auto accType = AccType::get(b.getContext(), {tileM, tileN}, accElement);
  std::optional<EpilogueOperands> epilogue;
  bool implicitGemm = spec.conv && !spec.conv->plain;
  if (spec.epilogue && !implicitGemm)
    epilogue = loadEpilogueInputs(b, loc, *spec.epilogue, tileM, tileN, blockM,
                                  blockN, batch);
  Value acc =
      emitKLoop(b, loc, spec, blockM, blockN, KRange{Value(), sizes.kSteps},
                aTile, bTile, accType, config, batch);
  if (spec.epilogue && implicitGemm)
    epilogue = loadEpilogueInputs(b, loc, *spec.epilogue, tileM, tileN, blockM,
                                  blockN, batch);
  emitTileResult(b, loc, spec, config, acc, cTile,
                 epilogue ? &*epilogue : nullptr, blockM, blockN, batch);
}

Value mlir::croq::allocResultTile(OpBuilder &b, Location loc,
                                  const MatmulSpec &spec,
                                  const TileConfig &config) {
  int64_t partN = config.resultPartCols ? config.resultPartCols : config.cols;
  Type result = getElementTypeOrSelf(spec.getOutput().getType());
  // A tile of C^T is stored as C's tile.
  if (config.swapped)
    return allocMatrixTile(b, loc, spec, {config.cols, config.rows}, result);
  return allocMatrixTile(b, loc, spec, {config.rows, partN}, result);
}

void mlir::croq::emitTileResult(OpBuilder &b, Location loc,
                                const MatmulSpec &spec,
                                const TileConfig &config, Value acc,
                                Value cTile, const EpilogueOperands *epilogue,
                                Value blockM, Value blockN, Value batch) {
  int64_t tileM = config.rows, tileN = config.cols;
  int64_t partN = config.resultPartCols ? config.resultPartCols : tileN;
  Value output = spec.getOutput();
  if (config.swapped) {
    // Block (blockM, blockN) of C^T writes C's tile (blockN, blockM), the
    // accumulator transposed (getSwappedSpec: a plain product into a zeroed
    // output).
    Value cView = buildTileView(b, loc, output, {tileN, tileM},
                                ValueRange{blockN, blockM}, batch);
    emitTileStore(b, loc, acc, cTile, cView, /*transpose=*/true);
    return;
  }
  Value cView = buildTileView(b, loc, output, {tileM, tileN},
                              ValueRange{blockM, blockN}, batch);
  if (!spec.zeroFill)
    acc = addOutput(b, loc, acc, cView);
  if (spec.epilogue)
    acc = emitEpilogue(b, loc, *spec.epilogue, *epilogue, acc);
  if (partN == tileN) {
    emitTileStore(b, loc, acc, cTile, cView);
    return;
  }
  emitTileStoreInParts(b, loc, acc, config, partN, cTile, output, blockM,
                       blockN, batch);
}

void mlir::croq::emitTileStoreInParts(OpBuilder &b, Location loc, Value acc,
                                      const TileConfig &config,
                                      int64_t partCols, Value tile,
                                      Value tensor, Value row, Value col,
                                      Value batch) {
  IndexBuilder e{b, loc};
  int64_t tileM = config.rows, tileN = config.cols;
  if (partCols == tileN) {
    Value view = buildTileView(b, loc, tensor, {tileM, tileN},
                               ValueRange{row, col}, batch);
    emitTileStore(b, loc, acc, tile, view);
    return;
  }
  // Part p is the tile of partCols columns at column tile col * parts + p
  // of the tensor; croq-wait-async-stores makes the second part's store
  // into the shared tile wait until the first part's copy has read it.
  int64_t parts = tileN / partCols;
  auto accType = cast<AccType>(acc.getType());
  auto partType =
      AccType::get(b.getContext(), {tileM, partCols}, accType.getElementType());
  for (int64_t part = 0; part < parts; ++part) {
    Value slice = MmaSliceOp::create(b, loc, partType, acc,
                                     b.getI64IntegerAttr(part * partCols));
    Value partView = buildTileView(
        b, loc, tensor, {tileM, partCols},
        ValueRange{row, e.add(e.mul(col, e.c(parts)), e.c(part))}, batch);
    emitTileStore(b, loc, slice, tile, partView);
  }
}
