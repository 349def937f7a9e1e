//===- LinalgToCroq.cpp - linalg matrix products to croq kernels ----------===//
//
// Makes every linalg.matmul and linalg.batch_matmul on memrefs croq
// kernels: the plain croq GEMM
// in the block tile (and, for few tiles and a long K, the K split) the
// cost model of TileChoice.cpp chooses, with the zero fill and the
// elementwise consumer folded in. GemmKernel.cpp and SplitK.cpp emit the
// kernels.
//
//===----------------------------------------------------------------------===//

#include "GemmKernel.h"
#include "IndexBuilder.h"

#include "Croq/Conversion/Passes.h"
#include "Croq/Runtime/CroqRuntime.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
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

/// Whether `value` is a zero constant.
static bool isZero(Value value) {
  return matchPattern(value, m_AnyZeroFloat()) || matchPattern(value, m_Zero());
}

/// Reads the operand layouts from the indexing maps of `op`: over (m, n, k),
/// or (b, m, n, k) for a batched product, whose operands are all indexed by
/// the batch b first.
static LogicalResult getLayouts(linalg::LinalgOp op, MatmulSpec &spec) {
  MLIRContext *context = op.getContext();
  unsigned loops = spec.batched ? 4 : 3;
  AffineExpr m = getAffineDimExpr(loops - 3, context);
  AffineExpr n = getAffineDimExpr(loops - 2, context);
  AffineExpr k = getAffineDimExpr(loops - 1, context);
  auto map = [&](AffineExpr i, AffineExpr j) {
    SmallVector<AffineExpr> results{i, j};
    if (spec.batched)
      results.insert(results.begin(), getAffineDimExpr(0, context));
    return AffineMap::get(loops, 0, results, context);
  };
  StringRef batch = spec.batched ? "b, " : "";
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (maps.size() != 3 || maps[2] != map(m, n))
    return op.emitOpError("convert-linalg-to-croq takes a product whose "
                          "output is indexed (")
           << batch << "m, n)";
  if (maps[0] == map(k, m))
    spec.aTransposed = true;
  else if (maps[0] != map(m, k))
    return op.emitOpError("convert-linalg-to-croq takes A indexed (")
           << batch << "m, k) or (" << batch << "k, m), got "
           << AffineMapAttr::get(maps[0]);
  if (maps[1] == map(n, k))
    spec.bTransposed = true;
  else if (maps[1] != map(k, n))
    return op.emitOpError("convert-linalg-to-croq takes B indexed (")
           << batch << "k, n) or (" << batch << "n, k), got "
           << AffineMapAttr::get(maps[1]);
  return success();
}

/// Checks that croq can compute `op`, and how.
static FailureOr<MatmulSpec> getSpec(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics())
    return op.emitOpError("convert-linalg-to-croq takes products on memrefs "
                          "(bufferize first)");
  if (op->getParentOfType<ParallelOp>())
    return op.emitOpError("convert-linalg-to-croq takes products outside "
                          "croq kernels");
  MatmulSpec spec;
  spec.batched = isa<linalg::BatchMatmulOp>(op);
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

/// Emits the kernels of `variant`: `splits` is the number of K splits of a
/// split one.
static void emitVariant(OpBuilder &b, Location loc, const MatmulSpec &spec,
                        const GemmVariant &variant, const ProductSizes &sizes,
                        Value splits) {
  if (variant.split)
    emitSplitKernels(b, loc, spec, variant.tile, sizes, splits);
  else
    emitBlockProgram(b, loc, spec, variant.tile, sizes);
}

/// The cost model's choice for `spec`, built in a scratch block when the
/// shape is static, so that only the chosen constants remain.
static GemmChoice chooseVariant(OpBuilder &b, Location loc,
                                const ProductSizes &sizes, Value bRowBytes,
                                ArrayRef<GemmVariant> variants,
                                const TargetDescription &target,
                                int64_t resultBytes, int64_t splitK) {
  std::optional<int64_t> batch = getConstantIntValue(sizes.batch);
  std::optional<int64_t> m = getConstantIntValue(sizes.m);
  std::optional<int64_t> n = getConstantIntValue(sizes.n);
  std::optional<int64_t> kSteps = getConstantIntValue(sizes.kSteps);
  std::optional<int64_t> bRow = getConstantIntValue(bRowBytes);
  if (!batch || !m || !n || !kSteps || !bRow)
    return emitGemmChoice(b, loc, sizes.batch, sizes.m, sizes.n, sizes.kSteps,
                          bRowBytes, variants, target, resultBytes, splitK);
  // The cost model's ops fold; those it leaves are erased after.
  struct Recorder : OpBuilder::Listener {
    SmallVector<Operation *> created;
    void notifyOperationInserted(Operation *op,
                                 OpBuilder::InsertPoint) override {
      created.push_back(op);
    }
  } recorder;
  OpBuilder scratchBuilder(b.getInsertionBlock(), b.getInsertionPoint(),
                           &recorder);
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(scratchBuilder, loc, value);
  };
  GemmChoice choice =
      emitGemmChoice(scratchBuilder, loc, constant(*batch), constant(*m),
                     constant(*n), constant(*kSteps), constant(*bRow), variants,
                     target, resultBytes, splitK);
  int64_t variant = *getConstantIntValue(choice.variant);
  int64_t splits = *getConstantIntValue(choice.splits);
  for (Operation *op : llvm::reverse(recorder.created))
    op->erase();
  return {arith::ConstantIndexOp::create(b, loc, variant),
          arith::ConstantIndexOp::create(b, loc, splits)};
}

/// The runtime's check of two extents (croqRtRequireEqualExtents), declared
/// in `module` on first use.
static func::FuncOp getExtentCheck(OpBuilder &b, ModuleOp module) {
  StringRef name = "croqRtRequireEqualExtents";
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto type = b.getFunctionType(
      {b.getI64Type(), b.getI64Type(), b.getI32Type(), b.getI32Type()},
      {b.getI32Type()});
  auto check = func::FuncOp::create(b, module.getLoc(), name, type);
  check.setPrivate();
  return check;
}

/// Checks on the host, before the kernels, that the extents of `op`'s
/// operands agree where they are dynamic: A's K and B's, the output's rows
/// and columns and the product's, the batches, the fused generic's inputs.
/// Operands that disagree would be read past their edges as zeros (TMA
/// clips); the runtime fails the call instead, naming the extents, and
/// refuses its launches. Static extents need no check: linalg's verifier
/// has checked them.
static void emitExtentChecks(OpBuilder &b, Location loc, linalg::LinalgOp op,
                             const MatmulSpec &spec,
                             const ProductSizes &sizes) {
  IndexBuilder e{b, loc};
  func::FuncOp check;
  auto require = [&](Value first, Value second, int kind, int input = 0) {
    if (getConstantIntValue(first) && getConstantIntValue(second))
      return;
    if (!check)
      check = getExtentCheck(b, op->getParentOfType<ModuleOp>());
    auto i64 = [&](Value v) {
      return arith::IndexCastOp::create(b, loc, b.getI64Type(), v);
    };
    auto i32 = [&](int v) {
      return arith::ConstantIntOp::create(b, loc, v, 32);
    };
    func::CallOp::create(
        b, loc, check,
        ValueRange{i64(first), i64(second), i32(kind), i32(input)});
  };
  int64_t first = spec.batched ? 1 : 0;
  Value output = spec.getOutput();
  require(sizes.k, e.dim(spec.b, first + (spec.bTransposed ? 1 : 0)),
          CROQ_RT_EXTENTS_K);
  require(sizes.m, e.dim(output, first), CROQ_RT_EXTENTS_M);
  require(sizes.n, e.dim(output, first + 1), CROQ_RT_EXTENTS_N);
  if (spec.batched) {
    require(sizes.batch, e.dim(spec.b, 0), CROQ_RT_EXTENTS_BATCH);
    require(sizes.batch, e.dim(output, 0), CROQ_RT_EXTENTS_BATCH_OUTPUT);
  }
  if (!spec.epilogue)
    return;
  Value productExtents[] = {sizes.batch, sizes.m, sizes.n};
  for (const EpilogueExtent &extent : getEpilogueExtents(*spec.epilogue))
    require(e.dim(extent.tensor, extent.dim), productExtents[extent.productDim],
            CROQ_RT_EXTENTS_EPILOGUE_INPUT, extent.operand);
}

/// Replaces `op` by the croq kernels that compute it: those of the variant
/// of least cost, chosen here for a static shape and by the host code (one
/// set of kernels per variant) for a dynamic one.
static void emitKernel(linalg::LinalgOp op, MatmulSpec &spec,
                       ArrayRef<GemmVariant> variants,
                       const TargetDescription &target, int64_t resultBytes,
                       int64_t splitK) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  // Static sizes fold to constants, and a static grid to static extents.
  IndexBuilder e{b, loc};
  // A batched operand's matrix dimensions follow the batch's.
  int64_t first = spec.batched ? 1 : 0;
  ProductSizes sizes;
  sizes.m = e.dim(spec.a, first + (spec.aTransposed ? 1 : 0));
  sizes.k = e.dim(spec.a, first + (spec.aTransposed ? 0 : 1));
  sizes.n = e.dim(spec.b, first + (spec.bTransposed ? 0 : 1));
  sizes.batch = spec.batched ? e.dim(spec.a, 0) : e.c(1);
  sizes.kSteps = e.ceilDiv(sizes.k, getStepElements(spec));
  // The bytes of B's stored rows: N elements, or K where B is N x K.
  int64_t elementBytes =
      getElementTypeOrSelf(spec.b.getType()).getIntOrFloatBitWidth() / 8;
  Value bRowBytes =
      e.mul(spec.bTransposed ? sizes.k : sizes.n, e.c(elementBytes));
  emitExtentChecks(b, loc, op, spec, sizes);
  GemmChoice choice = chooseVariant(b, loc, sizes, bRowBytes, variants, target,
                                    resultBytes, splitK);
  if (std::optional<int64_t> chosen = getConstantIntValue(choice.variant)) {
    emitVariant(b, loc, spec, variants[*chosen], sizes, choice.splits);
  } else {
    SmallVector<int64_t> cases;
    for (int64_t i = 1, e = variants.size(); i < e; ++i)
      cases.push_back(i);
    auto dispatch = scf::IndexSwitchOp::create(
        b, loc, TypeRange{}, choice.variant, cases, cases.size());
    auto emitCase = [&](Region &region, const GemmVariant &variant) {
      OpBuilder::InsertionGuard guard(b);
      b.createBlock(&region);
      emitVariant(b, loc, spec, variant, sizes, choice.splits);
      scf::YieldOp::create(b, loc);
    };
    emitCase(dispatch.getDefaultRegion(), variants[0]);
    for (auto [i, region] : llvm::enumerate(dispatch.getCaseRegions()))
      emitCase(region, variants[i + 1]);
  }
  if (spec.epilogue)
    spec.epilogue->generic.erase();
  op->erase();
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
    SmallVector<std::pair<linalg::LinalgOp, MatmulSpec>> products;
    bool failedAny = false;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (!isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op))
        return;
      FailureOr<MatmulSpec> spec = getSpec(op);
      if (failed(spec)) {
        failedAny = true;
        return;
      }
      products.push_back({op, *spec});
    });
    if (failedAny)
      return signalPassFailure();
    if (splitK < 0) {
      getOperation()->emitError("convert-linalg-to-croq takes split-k >= 0, "
                                "got ")
          << static_cast<int64_t>(splitK);
      return signalPassFailure();
    }
    if (clusterM < 0 || clusterN < 1 ||
        clusterM * clusterN > ParallelOp::kMaxClusterBlocks ||
        (clusterM > 1 && clusterN > 1)) {
      getOperation()->emitError("convert-linalg-to-croq takes clusters of "
                                "cluster-m x 1 (0: chosen) or 1 x cluster-n "
                                "blocks, at most ")
          << ParallelOp::kMaxClusterBlocks << ", got "
          << static_cast<int64_t>(clusterM) << "x"
          << static_cast<int64_t>(clusterN);
      return signalPassFailure();
    }
    for (auto &[op, spec] : products)
      if (failed(convertProduct(op, spec, **target)))
        return signalPassFailure();
  }

  /// Replaces `op` by its kernels, or says why it cannot.
  LogicalResult convertProduct(linalg::LinalgOp op, MatmulSpec &spec,
                               const TargetDescription &target) {
    int64_t resultBytes = getElementTypeOrSelf(spec.getOutput().getType())
                              .getIntOrFloatBitWidth() /
                          8;
    FailureOr<SmallVector<TileConfig>> candidates =
        getTileCandidates(target, resultBytes, spec.bTransposed, tileM, tileN);
    if (failed(candidates))
      return op.emitOpError("convert-linalg-to-croq computes tiles of ")
             << getKnownTileNames() << " result elements, got "
             << static_cast<int64_t>(tileM) << "x"
             << static_cast<int64_t>(tileN);
    // A forced tile must leave room for a ring of two stages.
    if (tileM != 0) {
      const TileConfig &tile = candidates->front();
      if (int64_t stages = getStagesThatFit(target, resultBytes, tile);
          stages < 2)
        return op.emitOpError("convert-linalg-to-croq: a ")
               << tile.rows << "x" << tile.cols << " tile of " << resultBytes
               << "-byte results leaves shared memory for "
               << std::max<int64_t>(stages, 0)
               << " of the 2 operand stages a pipeline needs on "
               << target.chip;
    }
    // The matrices of a batch fill the grid: their K loops stay whole.
    if (spec.batched && splitK > 1)
      return op.emitOpError("convert-linalg-to-croq does not split the K "
                            "loop of a batched product, got split-k=")
             << static_cast<int64_t>(splitK);
    int64_t productSplitK = spec.batched ? 1 : static_cast<int64_t>(splitK);
    SmallVector<GemmVariant> variants =
        getGemmVariants(*candidates, productSplitK, clusterM, clusterN);
    if (variants.empty())
      return op.emitOpError("convert-linalg-to-croq splits the K loop of "
                            "128x128 and 64x128 tiles only, got split-k=")
             << productSplitK << " with a tile of " << candidates->front().rows
             << "x" << candidates->front().cols;
    emitKernel(op, spec, variants, target, resultBytes, productSplitK);
    return success();
  }
};
} // namespace
