//===- LinalgToCroq.cpp - linalg matrix products to croq kernels ----------===//
//
// Tiles every linalg.matmul on memrefs into the plain croq GEMM: blocks of
// 128x128 result elements, a K loop of tma copies and one mma per 64-element
// K step, f32 accumulation, the product stored through shared memory. The
// loop is in the form croq-pipeline-loops makes a ring of.
//
//===----------------------------------------------------------------------===//

#include "FuseEpilogue.h"
#include "TileChoice.h"

#include "Croq/Conversion/Passes.h"
#include "Croq/Dialect/Croq/IR/CroqOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Matchers.h"

namespace mlir {
namespace croq {
#define GEN_PASS_DEF_CONVERTLINALGTOCROQ
#include "Croq/Conversion/Passes.h.inc"
} // namespace croq
} // namespace mlir

using namespace mlir;
using namespace mlir::croq;

namespace {
/// A linalg.matmul as the croq GEMM sees it.
struct MatmulSpec {
  Value a, b, c;
  /// Whether A is stored K x M (`col`) instead of M x K, and B N x K
  /// (`row`) instead of K x N (`col`).
  bool aTransposed = false;
  bool bTransposed = false;
  /// Whether the output was zeroed right before (the fill is dropped).
  linalg::FillOp zeroFill;
  /// The elementwise consumer computed in the epilogue, if any.
  std::optional<Epilogue> epilogue;
};
} // namespace

/// Whether `value` is a zero constant.
static bool isZero(Value value) {
  return matchPattern(value, m_AnyZeroFloat()) || matchPattern(value, m_Zero());
}

/// Reads the operand layouts from the indexing maps of `op`.
static LogicalResult getLayouts(linalg::MatmulOp op, MatmulSpec &spec) {
  MLIRContext *context = op.getContext();
  AffineExpr m, n, k;
  bindDims(context, m, n, k);
  auto map = [&](ArrayRef<AffineExpr> results) {
    return AffineMap::get(3, 0, results, context);
  };
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (maps.size() != 3 || maps[2] != map({m, n}))
    return op.emitOpError("convert-linalg-to-croq takes a product whose "
                          "output is indexed (m, n)");
  if (maps[0] == map({k, m}))
    spec.aTransposed = true;
  else if (maps[0] != map({m, k}))
    return op.emitOpError("convert-linalg-to-croq takes A indexed (m, k) "
                          "or (k, m), got ")
           << AffineMapAttr::get(maps[0]);
  if (maps[1] == map({n, k}))
    spec.bTransposed = true;
  else if (maps[1] != map({k, n}))
    return op.emitOpError("convert-linalg-to-croq takes B indexed (k, n) or "
                          "(n, k), got ")
           << AffineMapAttr::get(maps[1]);
  return success();
}

/// Checks that croq can compute `op`, and how.
static FailureOr<MatmulSpec> getSpec(linalg::MatmulOp op) {
  if (!op.hasPureBufferSemantics())
    return op.emitOpError("convert-linalg-to-croq takes products on memrefs "
                          "(bufferize first)");
  if (op->getParentOfType<ParallelOp>())
    return op.emitOpError("convert-linalg-to-croq takes products outside "
                          "croq kernels");
  MatmulSpec spec;
  spec.a = op.getDpsInputs()[0];
  spec.b = op.getDpsInputs()[1];
  spec.c = op.getDpsInits()[0];
  Type ta = getElementTypeOrSelf(spec.a.getType());
  Type tb = getElementTypeOrSelf(spec.b.getType());
  Type tc = getElementTypeOrSelf(spec.c.getType());
  bool isF8 = isa<Float8E4M3FNType, Float8E5M2Type>(ta);
  if (ta != tb || !(ta.isF16() || ta.isBF16() || isF8))
    return op.emitOpError("convert-linalg-to-croq takes f16, bf16, f8E4M3FN "
                          "or f8E5M2 operands of one type, got ")
           << ta << " and " << tb;
  if (!(tc.isF16() || tc.isBF16() || tc.isF32()))
    return op.emitOpError("convert-linalg-to-croq writes f16, bf16 or f32 "
                          "results, got ")
           << tc;
  if (failed(getLayouts(op, spec)))
    return failure();
  // wgmma reads 8-bit operands K-major only: A stored M x K, B N x K.
  if (isF8 && (spec.aTransposed || !spec.bTransposed))
    return op.emitOpError("convert-linalg-to-croq takes 8-bit float products "
                          "with A indexed (m, k) and B indexed (n, k): wgmma "
                          "reads 8-bit operands K-major only");
  if (auto fill = dyn_cast_or_null<linalg::FillOp>(op->getPrevNode());
      fill && fill.hasPureBufferSemantics() &&
      fill.getDpsInits()[0] == spec.c && isZero(fill.getDpsInputs()[0]))
    spec.zeroFill = fill;
  // A product into a zeroed temporary may carry its consumer along.
  if (spec.zeroFill)
    spec.epilogue = matchEpilogue(op, spec.c);
  return spec;
}

/// The shared tile an operand's K step is copied into, and the copy.
static Value loadOperand(OpBuilder &b, Location loc, Value tensor,
                         ArrayRef<int64_t> shape, ValueRange at, Value tile) {
  Value view = buildTileView(b, loc, tensor, shape, at);
  // Past the tensor's edge the tile is zero, which adds nothing to the
  // product.
  bool zfill = copySourceCanBeSmaller(view, shape);
  CopyOp::create(b, loc, /*future=*/Type(), CopyEngine::TMA, view, tile,
                 /*map=*/Value(), /*usable=*/Value(), zfill,
                 SwizzleAttr::get(b.getContext(), Swizzle::B128),
                 /*box=*/nullptr, /*boxOrigins=*/nullptr);
  auto tileType = cast<TileType>(tile.getType());
  auto fragType = FragType::get(b.getContext(), tileType.getShape(),
                                tileType.getElementType(),
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
  Value c = ReadOp::create(b, loc, getElementTypeOrSelf(cView.getType()), cView,
                           ValueRange{row, col}, /*inBounds=*/false);
  if (c.getType() != x.getType())
    c = arith::ExtFOp::create(b, loc, x.getType(), c);
  YieldOp::create(b, loc, ValueRange{arith::AddFOp::create(b, loc, x, c)});
  return map.getResult();
}

/// The K loop of one block: each step copies A's and B's K slices into
/// shared tiles and multiplies them into the accumulator.
static Value emitKLoop(OpBuilder &b, Location loc, const MatmulSpec &spec,
                       Value blockM, Value blockN, Value kSteps, Value aTile,
                       Value bTile, AccType accType) {
  MLIRContext *context = b.getContext();
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0));
  Value init = MmaFillOp::create(b, loc, accType, zero);
  Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
  Value c1 = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop = scf::ForOp::create(b, loc, c0, kSteps, c1, ValueRange{init});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value step = loop.getInductionVar();
  Value acc = loop.getRegionIterArgs()[0];
  auto aShape = cast<TileType>(aTile.getType()).getShape();
  auto bShape = cast<TileType>(bTile.getType()).getShape();
  Value fa = loadOperand(b, loc, spec.a, aShape,
                         spec.aTransposed ? ValueRange{step, blockM}
                                          : ValueRange{blockM, step},
                         aTile);
  Value fb = loadOperand(b, loc, spec.b, bShape,
                         spec.bTransposed ? ValueRange{blockN, step}
                                          : ValueRange{step, blockN},
                         bTile);
  auto layout = [&](bool row) {
    return MmaLayoutAttr::get(context, row ? MmaLayout::Row : MmaLayout::Col);
  };
  Value product = MmaOp::create(b, loc, accType, layout(!spec.aTransposed),
                                layout(spec.bTransposed), acc, fa, fb);
  // The tiles are copied again in the next step only after the mma that
  // reads them has completed.
  Value done = MmaCommitOp::create(b, loc, accType, product,
                                   /*pending=*/b.getI64IntegerAttr(0));
  scf::YieldOp::create(b, loc, done);
  return loop.getResult(0);
}

namespace {
/// The extents of a product.
struct ProductSizes {
  Value m, n, k;
};
} // namespace

/// Emits the croq kernel that computes `spec` in tiles of `config`.
static void emitBlockProgram(OpBuilder &b, Location loc, const MatmulSpec &spec,
                             const TileConfig &config,
                             const ProductSizes &sizes) {
  MLIRContext *context = b.getContext();
  auto ceilDiv = [&](Value v, int64_t by) -> Value {
    return b.createOrFold<arith::CeilDivUIOp>(
        loc, v, arith::ConstantIndexOp::create(b, loc, by));
  };
  int64_t tileM = config.rows, tileN = config.cols;
  Value gridM = ceilDiv(sizes.m, tileM);
  Value gridN = ceilDiv(sizes.n, tileN);
  Type element = getElementTypeOrSelf(spec.a.getType());
  int64_t tileK = kStepBytes / (element.getIntOrFloatBitWidth() / 8);
  Value kSteps = ceilDiv(sizes.k, tileK);
  SmallVector<Value> dynamicGrid;
  SmallVector<int64_t> staticGrid;
  dispatchIndexOpFoldResults(getAsOpFoldResult(ValueRange{gridM, gridN}),
                             dynamicGrid, staticGrid);
  auto kernel =
      ParallelOp::create(b, loc, dynamicGrid, staticGrid, ParallelLevel::Block,
                         /*shared_memory=*/nullptr);
  // croq-split-accumulators shares the accumulator among this many
  // consumer warpgroups.
  // croq-persistent-blocks runs it as one block per multiprocessor.
  kernel->setAttr(CroqDialect::PersistentAttrHelper::getNameStr(),
                  b.getBoolAttr(config.persistent));
  kernel->setAttr(CroqDialect::ConsumersAttrHelper::getNameStr(),
                  b.getI64IntegerAttr(config.consumers));
  OpBuilder::InsertionGuard guard(b);
  Block &body = *b.createBlock(&kernel.getBody());
  body.addArguments({b.getIndexType(), b.getIndexType()}, {loc, loc});
  Value blockM = body.getArgument(0), blockN = body.getArgument(1);

  // With a fused consumer the kernel writes the consumer's output.
  Value output = spec.epilogue ? spec.epilogue->output : spec.c;
  Type result = getElementTypeOrSelf(output.getType());
  auto tile = [&](ArrayRef<int64_t> shape, Type type, Swizzle swizzle) {
    Type tileType =
        TileType::get(context, shape, type, MemorySpace::Shared, swizzle);
    return AllocOp::create(b, loc, tileType, /*offset=*/nullptr).getResult();
  };
  SmallVector<int64_t> aShape = spec.aTransposed
                                    ? SmallVector<int64_t>{tileK, tileM}
                                    : SmallVector<int64_t>{tileM, tileK};
  SmallVector<int64_t> bShape = spec.bTransposed
                                    ? SmallVector<int64_t>{tileN, tileK}
                                    : SmallVector<int64_t>{tileK, tileN};
  Value aTile = tile(aShape, element, Swizzle::B128);
  Value bTile = tile(bShape, element, Swizzle::B128);
  // The result tile is stored by TMA from a 128B-swizzled tile: stores
  // without bank conflicts, one bulk copy per swizzle span.
  Value cTile = tile({tileM, tileN}, result, Swizzle::B128);
  auto accType = AccType::get(context, {tileM, tileN}, b.getF32Type());
  Value acc =
      emitKLoop(b, loc, spec, blockM, blockN, kSteps, aTile, bTile, accType);
  Value cView =
      buildTileView(b, loc, output, {tileM, tileN}, ValueRange{blockM, blockN});
  if (!spec.zeroFill)
    acc = addOutput(b, loc, acc, cView);
  if (spec.epilogue)
    acc = emitEpilogue(b, loc, *spec.epilogue, acc, blockM, blockN);
  MmaStoreOp::create(b, loc, acc, cTile);
  // Left in flight: in a persistent block it overlaps the next tile's main
  // loop (croq-wait-async-stores waits before the tile is written again).
  CopyOp::create(b, loc, FutureType::get(context), CopyEngine::TMA, cTile,
                 cView,
                 /*map=*/Value(), /*usable=*/Value(), /*zfill=*/false,
                 SwizzleAttr::get(context, Swizzle::B128), /*box=*/nullptr,
                 /*boxOrigins=*/nullptr);
}

/// Replaces `op` by the croq kernel that computes it: the tile of the
/// least cost among `candidates`, chosen here for a static shape and by
/// the host code (one kernel per candidate) for a dynamic one.
static void emitKernel(linalg::MatmulOp op, MatmulSpec &spec,
                       ArrayRef<TileConfig> candidates,
                       int64_t multiprocessors) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  // Static sizes fold to constants, and a static grid to static extents.
  auto dim = [&](Value tensor, int64_t d) -> Value {
    return b.createOrFold<memref::DimOp>(loc, tensor, d);
  };
  ProductSizes sizes;
  sizes.m = dim(spec.a, spec.aTransposed ? 1 : 0);
  sizes.k = dim(spec.a, spec.aTransposed ? 0 : 1);
  sizes.n = dim(spec.b, spec.bTransposed ? 0 : 1);
  Value choice =
      emitTileChoice(b, loc, sizes.m, sizes.n, candidates, multiprocessors);
  if (std::optional<int64_t> chosen = getConstantIntValue(choice)) {
    emitBlockProgram(b, loc, spec, candidates[*chosen], sizes);
  } else {
    SmallVector<int64_t> cases;
    for (int64_t i = 1, e = candidates.size(); i < e; ++i)
      cases.push_back(i);
    auto dispatch = scf::IndexSwitchOp::create(b, loc, TypeRange{}, choice,
                                               cases, cases.size());
    auto emitCase = [&](Region &region, const TileConfig &config) {
      OpBuilder::InsertionGuard guard(b);
      b.createBlock(&region);
      emitBlockProgram(b, loc, spec, config, sizes);
      scf::YieldOp::create(b, loc);
    };
    emitCase(dispatch.getDefaultRegion(), candidates[0]);
    for (auto [i, region] : llvm::enumerate(dispatch.getCaseRegions()))
      emitCase(region, candidates[i + 1]);
  }
  if (spec.epilogue)
    spec.epilogue->generic.erase();
  op.erase();
  if (spec.zeroFill)
    spec.zeroFill.erase();
  if (spec.epilogue) {
    // The temporary held only the product.
    for (Operation *dealloc : spec.epilogue->deallocs)
      dealloc->erase();
    spec.epilogue->temporary.erase();
  }
}

namespace {
struct ConvertLinalgToCroqPass
    : croq::impl::ConvertLinalgToCroqBase<ConvertLinalgToCroqPass> {
  using Base::Base;

  void runOnOperation() override {
    FailureOr<const TargetDescription *> target =
        getTargetDescription(getOperation()->getLoc(), chip);
    if (failed(target))
      return signalPassFailure();
    if ((tileM == 0) != (tileN == 0)) {
      getOperation()->emitError("convert-linalg-to-croq takes tile-m and "
                                "tile-n together");
      return signalPassFailure();
    }
    SmallVector<std::pair<linalg::MatmulOp, MatmulSpec>> products;
    bool failedAny = false;
    getOperation()->walk([&](linalg::MatmulOp op) {
      FailureOr<MatmulSpec> spec = getSpec(op);
      if (failed(spec)) {
        failedAny = true;
        return;
      }
      products.push_back({op, *spec});
    });
    if (failedAny)
      return signalPassFailure();
    for (auto &[op, spec] : products) {
      Value output = spec.epilogue ? spec.epilogue->output : spec.c;
      int64_t resultBytes =
          getElementTypeOrSelf(output.getType()).getIntOrFloatBitWidth() / 8;
      FailureOr<SmallVector<TileConfig>> candidates =
          getTileCandidates(**target, resultBytes, tileM, tileN);
      if (failed(candidates)) {
        op.emitOpError("convert-linalg-to-croq computes tiles of 128x256, "
                       "128x128 or 64x128 result elements, got ")
            << static_cast<int64_t>(tileM) << "x"
            << static_cast<int64_t>(tileN);
        return signalPassFailure();
      }
      emitKernel(op, spec, *candidates, (*target)->multiprocessors);
    }
  }
};
} // namespace
