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

#include "BlockScaled.h"
#include "Classify.h"
#include "Convolution.h"
#include "Elementwise.h"
#include "ExtentChecks.h"
#include "GemmKernel.h"
#include "IndexBuilder.h"
#include "OneRowProducts.h"
#include "ProductTiles.h"
#include "Reduction.h"
#include "RowChains.h"
#include "ShapeClassifier.h"

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
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir {
namespace croq {
#define GEN_PASS_DEF_CONVERTLINALGTOCROQ
#include "Croq/Conversion/Passes.h.inc"
} // namespace croq
} // namespace mlir

using namespace mlir;
using namespace mlir::croq;

/// Emits the kernels of `variant`: `splits` is the number of K splits of a
/// split one.
static void emitVariant(OpBuilder &b, Location loc, const MatmulSpec &spec,
                        const GemmVariant &variant, const ProductSizes &sizes,
                        Value splits, const TargetDescription &target) {
  if (variant.tile.swapped) {
    // A tile of C^T computes the product B^T A^T, whole or split in
    // clusters (addSwappedVariants).
    ProductSizes swapped = sizes;
    std::swap(swapped.m, swapped.n);
    MatmulSpec swappedSpec = getSwappedSpec(spec);
    if (variant.form == GemmForm::ClusterSplitK) {
      emitClusterSplitProgram(b, loc, swappedSpec, variant.tile, swapped,
                              variant.clusterSplits);
      return;
    }
    assert(variant.form == GemmForm::Whole &&
           "tiles of C^T are whole or split in clusters");
    emitBlockProgram(b, loc, swappedSpec, variant.tile, swapped);
    return;
  }
  switch (variant.form) {
  case GemmForm::Whole:
    emitBlockProgram(b, loc, spec, variant.tile, sizes);
    return;
  case GemmForm::SplitK:
    emitSplitKernels(b, loc, spec, variant.tile, sizes, splits);
    return;
  case GemmForm::StreamK:
    emitStreamKKernels(b, loc, spec, variant.tile, sizes,
                       target.multiprocessors);
    return;
  case GemmForm::ClusterSplitK:
    emitClusterSplitProgram(b, loc, spec, variant.tile, sizes,
                            variant.clusterSplits);
    return;
  }
}

/// The cost model's choice for `spec`, built in a scratch block when the
/// shape is static, so that only the chosen constants remain. Where the
/// host code chooses, it asks the runtime first for a variant its caller
/// requested for product `product` (croqRtRequestedVariant: an autotuner
/// timing each), which the choice takes where the model could.
static GemmChoice chooseVariant(OpBuilder &b, Location loc,
                                const ProductSizes &sizes, Value aRowBytes,
                                Value bRowBytes, ArrayRef<GemmVariant> variants,
                                const TargetDescription &target,
                                int64_t resultBytes, int64_t splitK,
                                int64_t product) {
  std::optional<int64_t> batch = getConstantIntValue(sizes.batch);
  std::optional<int64_t> m = getConstantIntValue(sizes.m);
  std::optional<int64_t> n = getConstantIntValue(sizes.n);
  std::optional<int64_t> kSteps = getConstantIntValue(sizes.kSteps);
  std::optional<int64_t> aRow = getConstantIntValue(aRowBytes);
  std::optional<int64_t> bRow = getConstantIntValue(bRowBytes);
  if (!batch || !m || !n || !kSteps || !aRow || !bRow) {
    // One variant leaves nothing to request.
    Value requested;
    if (variants.size() > 1)
      requested = requestedVariant(b, loc, product, variants.size());
    return emitGemmChoice(b, loc, sizes.batch, sizes.m, sizes.n, sizes.kSteps,
                          aRowBytes, bRowBytes, variants, target, resultBytes,
                          splitK, requested);
  }
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
                     constant(*n), constant(*kSteps), constant(*aRow),
                     constant(*bRow), variants, target, resultBytes, splitK);
  int64_t variant = *getConstantIntValue(choice.variant);
  int64_t splits = *getConstantIntValue(choice.splits);
  for (Operation *op : llvm::reverse(recorder.created))
    op->erase();
  return {arith::ConstantIndexOp::create(b, loc, variant),
          arith::ConstantIndexOp::create(b, loc, splits)};
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
  auto require = [&](Value first, Value second, int kind, int input = 0) {
    requireEqualExtents(b, loc, first, second, kind, input);
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
  if (spec.aScales) {
    // A's scales are M x ceil(K / 128), B's ceil(N / 128) x ceil(K / 128).
    auto operand = [&](Value scales) {
      return static_cast<int>(
          llvm::find_if(op->getOpOperands(), [&](OpOperand &o) {
            return o.get() == scales;
          })->getOperandNumber());
    };
    Value kBlocks = e.ceilDiv(sizes.k, kScaleBlock);
    int a = operand(spec.aScales), b = operand(spec.bScales);
    require(e.dim(spec.aScales, 0), sizes.m, CROQ_RT_EXTENTS_OPERAND, a);
    require(e.dim(spec.aScales, 1), kBlocks, CROQ_RT_EXTENTS_OPERAND, a);
    require(e.dim(spec.bScales, 0), e.ceilDiv(sizes.n, kScaleBlock),
            CROQ_RT_EXTENTS_OPERAND, b);
    require(e.dim(spec.bScales, 1), kBlocks, CROQ_RT_EXTENTS_OPERAND, b);
  }
  if (!spec.epilogue)
    return;
  Value productExtents[] = {sizes.batch, sizes.m, sizes.n};
  for (const EpilogueExtent &extent : getEpilogueExtents(*spec.epilogue))
    require(e.dim(extent.tensor, extent.dim), productExtents[extent.productDim],
            CROQ_RT_EXTENTS_EPILOGUE_INPUT, extent.operand);
}

/// What the pass emits for the products whose variant the host code
/// chooses (dynamic extents, several variants): every variant and the
/// dispatch among them, the variant of one shape class each (`variants`),
/// or the report of the choice (`classify`).
struct HostChoices {
  ArrayRef<int64_t> variants;
  bool classify = false;
  /// The products seen so far whose variant the host code chooses, and
  /// where the last one was.
  int64_t count = 0;
  std::optional<Location> last;
  /// For `classify`: each such product's choice, reported once the count
  /// is known (emitVariantReports).
  SmallVector<Value> choices;
};

/// Emits the kernels of the variant of `spec` that `choice` chooses on the
/// host, as `choices` says: a dispatch among all `variants` (the variant
/// taken reported, croqRtReportVariant), the one of a
/// shape class after the check that the call's extents chose it, or no
/// kernel (the classifier's report is emitted after, by
/// emitVariantReports).
static LogicalResult
emitHostChoice(OpBuilder &b, Location loc, linalg::LinalgOp op,
               const MatmulSpec &spec, ArrayRef<GemmVariant> variants,
               const ProductSizes &sizes, const GemmChoice &choice,
               const TargetDescription &target, HostChoices &choices) {
  int64_t product = choices.count++;
  choices.last = loc;
  if (choices.classify) {
    choices.choices.push_back(choice.variant);
    return success();
  }
  if (!choices.variants.empty()) {
    if (product >= static_cast<int64_t>(choices.variants.size()))
      return op.emitOpError("convert-linalg-to-croq: variants lists ")
             << choices.variants.size() << " products, but this is product "
             << product << " whose variant the host code chooses";
    int64_t compiled = choices.variants[product];
    if (compiled < -1 || compiled >= static_cast<int64_t>(variants.size()))
      return op.emitOpError("convert-linalg-to-croq: variants gives product ")
             << product << " variant " << compiled << "; it has "
             << variants.size() << " (0 to " << variants.size() - 1
             << ", or -1 for none)";
    requireVariant(b, loc, product, choice.variant, compiled);
    if (compiled >= 0)
      emitVariant(b, loc, spec, variants[compiled], sizes, choice.splits,
                  target);
    return success();
  }
  // The variant taken, for an autotuner to tell a request the model could
  // not take from one it took.
  reportVariant(b, loc, product, product + 1, choice.variant);
  SmallVector<int64_t> cases;
  for (int64_t i = 1, e = variants.size(); i < e; ++i)
    cases.push_back(i);
  auto dispatch = scf::IndexSwitchOp::create(
      b, loc, TypeRange{}, choice.variant, cases, cases.size());
  auto emitCase = [&](Region &region, const GemmVariant &variant) {
    OpBuilder::InsertionGuard guard(b);
    b.createBlock(&region);
    emitVariant(b, loc, spec, variant, sizes, choice.splits, target);
    scf::YieldOp::create(b, loc);
  };
  emitCase(dispatch.getDefaultRegion(), variants[0]);
  for (auto [i, region] : llvm::enumerate(dispatch.getCaseRegions()))
    emitCase(region, variants[i + 1]);
  return success();
}

/// Emits at `b`'s insertion point the croq kernels that compute `spec`'s
/// product: those of the variant of least cost, chosen here for a static
/// shape and by the host code (one set of kernels per variant, or those
/// `choices` keeps) for a dynamic one. A classifier keeps none.
static LogicalResult
emitProduct(OpBuilder &b, Location loc, linalg::LinalgOp op, MatmulSpec &spec,
            ArrayRef<GemmVariant> variants, const TargetDescription &target,
            int64_t resultBytes, int64_t splitK, HostChoices &choices) {
  // Static sizes fold to constants, and a static grid to static extents.
  IndexBuilder e{b, loc};
  // A batched operand's matrix dimensions follow the batch's.
  int64_t first = spec.batched ? 1 : 0;
  ProductSizes sizes;
  if (spec.conv) {
    // The convolution's operands seen as matrices, its extents constants.
    sizes = prepareConvolution(b, loc, spec);
  } else {
    sizes.m = e.dim(spec.a, first + (spec.aTransposed ? 1 : 0));
    sizes.k = e.dim(spec.a, first + (spec.aTransposed ? 0 : 1));
    sizes.n = e.dim(spec.b, first + (spec.bTransposed ? 0 : 1));
    sizes.batch = spec.batched ? e.dim(spec.a, 0) : e.c(1);
    sizes.kSteps = e.ceilDiv(sizes.k, getStepElements(spec));
  }
  // The bytes of B's stored rows: N elements, or K where B is N x K; and
  // of A's: K elements, or M where A is K x M.
  int64_t elementBytes =
      getElementTypeOrSelf(spec.b.getType()).getIntOrFloatBitWidth() / 8;
  Value bRowBytes =
      e.mul(spec.bTransposed ? sizes.k : sizes.n, e.c(elementBytes));
  Value aRowBytes =
      e.mul(spec.aTransposed ? sizes.m : sizes.k, e.c(elementBytes));
  emitExtentChecks(b, loc, op, spec, sizes);
  GemmChoice choice =
      chooseVariant(b, loc, sizes, aRowBytes, bRowBytes, variants, target,
                    resultBytes, splitK, /*product=*/choices.count);
  if (std::optional<int64_t> chosen = getConstantIntValue(choice.variant)) {
    if (!choices.classify)
      emitVariant(b, loc, spec, variants[*chosen], sizes, choice.splits,
                  target);
    return success();
  }
  return emitHostChoice(b, loc, op, spec, variants, sizes, choice, target,
                        choices);
}

/// Erases `op` and what its kernels took in: the zero fill, the consumer
/// and its temporary, a convolution's padded copy.
static void eraseProduct(linalg::LinalgOp op, MatmulSpec &spec) {
  if (spec.epilogue)
    spec.epilogue->generic.erase();
  op->erase();
  if (spec.zeroFill)
    spec.zeroFill.erase();
  if (spec.conv)
    erasePaddedCopy(*spec.conv);
  if (spec.epilogue && spec.epilogue->temporary) {
    // The temporary held only the product; a convolution's views of it
    // are left unused.
    for (Operation *dealloc : spec.epilogue->deallocs)
      dealloc->erase();
    for (Operation *user :
         llvm::make_early_inc_range(spec.epilogue->temporary->getUsers()))
      if (isa<ViewLikeOpInterface>(user) && user->use_empty())
        user->erase();
    spec.epilogue->temporary.erase();
  }
}

/// A one-row form a product may take (OneRowProducts.h), and the variants
/// its product of one row is chosen among.
struct RowForm {
  OneRowForm form;
  SmallVector<GemmVariant> variants;
};

/// Replaces `op` by the kernels of `spec`'s product (emitProduct). Where an
/// operand may be one column (OneRowProducts.h), the kernels of the
/// one-row form compute it when it is, each of `rowForms` in turn: in the
/// product's place where the types tell, in the then-branch of an scf.if
/// on the host otherwise (the next form, or the product as stored, in its
/// else-branch).
static LogicalResult emitKernel(linalg::LinalgOp op, MatmulSpec &spec,
                                ArrayRef<GemmVariant> variants,
                                ArrayRef<RowForm> rowForms,
                                const TargetDescription &target,
                                int64_t resultBytes, int64_t splitK,
                                HostChoices &choices) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  auto emit = [&](MatmulSpec &product, ArrayRef<GemmVariant> productVariants) {
    return emitProduct(b, loc, op, product, productVariants, target,
                       resultBytes, splitK, choices);
  };
  // Each form in turn; the next one (or the product as stored) goes where
  // the form does not hold: nowhere where the types say it does, in the
  // else-branch of its scf.if where they do not tell.
  auto emitAll = [&]() -> LogicalResult {
    for (const RowForm &rowForm : rowForms) {
      Value holds = emitOneRowCondition(b, loc, spec, rowForm.form);
      std::optional<int64_t> known = getConstantIntValue(holds);
      if (known && !*known)
        continue;
      scf::IfOp branch;
      if (!known) {
        branch = scf::IfOp::create(b, loc, holds, /*withElse=*/true);
        b.setInsertionPoint(branch.thenBlock()->getTerminator());
      }
      MatmulSpec row = emitOneRowSpec(b, loc, spec, rowForm.form);
      if (failed(emit(row, rowForm.variants)))
        return failure();
      if (known)
        return success();
      b.setInsertionPoint(branch.elseBlock()->getTerminator());
    }
    return emit(spec, variants);
  };
  if (failed(emitAll()))
    return failure();
  eraseProduct(op, spec);
  return success();
}

namespace {
struct ConvertLinalgToCroqPass
    : croq::impl::ConvertLinalgToCroqBase<ConvertLinalgToCroqPass> {
  using Base::Base;

  void runOnOperation() override {
    FailureOr<const TargetDescription *> target =
        getModuleTarget(getOperation());
    if (failed(target))
      return signalPassFailure();
    if ((tileM == 0) != (tileN == 0)) {
      getOperation()->emitError("convert-linalg-to-croq takes tile-m and "
                                "tile-n together");
      return signalPassFailure();
    }
    if (splitK < 0) {
      getOperation()->emitError("convert-linalg-to-croq takes split-k >= 0, "
                                "got ")
          << static_cast<int64_t>(splitK);
      return signalPassFailure();
    }
    if (streamK < 0 || streamK > 2) {
      getOperation()->emitError("convert-linalg-to-croq takes stream-k of 0 "
                                "(chosen), 1 (never) or 2 (always), got ")
          << static_cast<int64_t>(streamK);
      return signalPassFailure();
    }
    if (clusterK < 0 || clusterK > ParallelOp::kMaxClusterBlocks) {
      getOperation()->emitError("convert-linalg-to-croq takes cluster-k of 0 "
                                "(chosen), 1 (never) or the blocks of a "
                                "cluster that split the K loop, at most ")
          << ParallelOp::kMaxClusterBlocks << ", got "
          << static_cast<int64_t>(clusterK);
      return signalPassFailure();
    }
    if (clusterK > 1 &&
        (splitK != 0 || streamK == 2 || clusterM > 1 || clusterN > 1)) {
      getOperation()->emitError("convert-linalg-to-croq: cluster-k=")
          << static_cast<int64_t>(clusterK)
          << " splits the K loop in clusters of its own; it takes no "
             "split-k, stream-k=2, cluster-m or cluster-n";
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
    // Every op is sorted, or declined by name, before anything changes.
    ModuleOp module = getOperation();
    elideCopiesIntoBuffers(module);
    rewriteHostCopies(module);
    viewRankZeroBuffers(module);
    rewriteDynamicExpands(module);
    // Consumers of products read them as epilogues do.
    prepareProductConsumers(module);
    // NCHW convolutions become NHWC ones between transposes.
    rewriteNchwConvolutions(module);
    HostWork work;
    if (failed(classifyHostCode(module, work)))
      return signalPassFailure();
    HostChoices choices;
    choices.variants = variants;
    choices.classify = classify;
    for (auto &[op, spec] : work.products)
      if (failed(convertProduct(op, spec, **target, choices)))
        return signalPassFailure();
    if (!variants.empty() &&
        static_cast<int64_t>(variants.size()) != choices.count) {
      // At the last such product (erased by now): the module's location
      // would print the whole module with the error.
      mlir::emitError(choices.last.value_or(module.getLoc()),
                      "convert-linalg-to-croq: variants lists ")
          << variants.size() << " products; the module has " << choices.count
          << " whose variant the host code chooses";
      return signalPassFailure();
    }
    if (classify) {
      // The classifier launches nothing: the other ops that would become
      // kernels are dropped.
      emitVariantReports(module, choices.choices);
      for (linalg::GenericOp generic : work.elementwise)
        generic.erase();
      for (auto [generic, start] : work.reductions) {
        generic.erase();
        if (start)
          start.erase();
      }
      keepOnlyHostCode(module);
      return;
    }
    // Row-wise chains (softmax, norms) take a kernel of a block per row.
    SmallVector<RowChain> chains;
    formRowChains(work, chains);
    for (const RowChain &chain : chains) {
      OpBuilder b(chain.members.back().op);
      emitRowChainKernel(b, chain);
      for (RowMember member : chain.members) {
        member.op.erase();
        if (member.start)
          member.start.erase();
      }
    }
    for (linalg::GenericOp generic : work.elementwise) {
      OpBuilder b(generic);
      emitElementwiseKernel(b, generic);
      generic.erase();
    }
    for (auto [generic, start] : work.reductions) {
      OpBuilder b(generic);
      emitReductionKernel(b, generic,
                          start ? start.getDpsInputs()[0] : Value());
      generic.erase();
      if (start)
        start.erase();
    }
  }

  /// Replaces `op` by its kernels, or says why it cannot.
  LogicalResult convertProduct(linalg::LinalgOp op, MatmulSpec &spec,
                               const TargetDescription &target,
                               HostChoices &choices) {
    int64_t resultBytes = getElementTypeOrSelf(spec.getOutput().getType())
                              .getIntOrFloatBitWidth() /
                          8;
    if (f8PromoteSteps < 0)
      return op.emitOpError("convert-linalg-to-croq takes f8-promote-steps "
                            ">= 0, got ")
             << static_cast<int64_t>(f8PromoteSteps);
    if (isa<Float8E4M3FNType, Float8E5M2Type>(
            getElementTypeOrSelf(spec.a.getType())))
      spec.promoteSteps = f8PromoteSteps;
    FailureOr<SmallVector<GemmVariant>> variants =
        getVariants(op, spec, target, resultBytes);
    if (failed(variants))
      return failure();
    // An A stored K x M or a B that may be one column: the variants of
    // each one-row form, among those that suit one row where the model
    // chooses. A product of one column is computed as its transpose, a
    // product of one row, only where the model chooses: forced options
    // give the kernels of the product as written.
    SmallVector<RowForm> rowForms;
    for (OneRowForm form : {OneRowForm::ColumnA, OneRowForm::ColumnB}) {
      if (!mayTakeOneRowForm(spec, form) ||
          (form == OneRowForm::ColumnB && !modelChooses()))
        continue;
      FailureOr<SmallVector<GemmVariant>> row =
          getVariants(op, getOneRowLayout(spec, form), target, resultBytes);
      if (failed(row))
        return failure();
      if (modelChooses())
        keepOneRowVariants(*row);
      rowForms.push_back({form, std::move(*row)});
    }
    return emitKernel(op, spec, *variants, rowForms, target, resultBytes,
                      getProductSplitK(spec), choices);
  }

  /// The K splits forced on `spec`'s product: none for a batch, whose
  /// matrices fill the grid (getVariants declines a forced split there).
  int64_t getProductSplitK(const MatmulSpec &spec) const {
    return spec.batched ? 1 : static_cast<int64_t>(splitK);
  }

  /// Whether no tile, split, form or cluster is forced (cluster-m=1 asks
  /// for no clusters).
  bool modelChooses() const {
    return tileM == 0 && splitK == 0 && streamK == 0 && clusterM <= 1 &&
           clusterN == 1 && clusterK == 0;
  }

  /// The variants that may compute `spec`'s product, writing `resultBytes`
  /// bytes per element: the forced ones, or the cost model's candidates;
  /// or why there are none, naming `op`.
  FailureOr<SmallVector<GemmVariant>>
  getVariants(linalg::LinalgOp op, const MatmulSpec &spec,
              const TargetDescription &target, int64_t resultBytes) {
    FailureOr<SmallVector<TileConfig>> candidates =
        getTileCandidates(target, resultBytes, spec.bTransposed, tileM, tileN);
    if (failed(candidates))
      return op.emitOpError("convert-linalg-to-croq computes tiles of ")
             << getKnownTileNames() << " result elements, got "
             << static_cast<int64_t>(tileM) << "x"
             << static_cast<int64_t>(tileN);
    if (failed(keepPromotedTiles(op, spec, *candidates)))
      return failure();
    if (tileM == 0)
      dropTallTilesUnlessPlain(spec, *candidates);
    useOneConsumerWhereFaster(spec, *candidates);
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
    int64_t productSplitK = getProductSplitK(spec);
    // The matrices of a batch fill the grid: no stream-K form either.
    if (spec.batched && streamK == 2)
      return op.emitOpError("convert-linalg-to-croq has no stream-K form "
                            "of a batched product, got stream-k=2");
    // Nor do 8-bit float products take it, forced or not: its ranges with
    // promoted (or block-scaled) partial sums were neither measured nor
    // run on a GPU.
    bool eightBit = isa<Float8E4M3FNType, Float8E5M2Type>(
        getElementTypeOrSelf(spec.a.getType()));
    int64_t productStreamK =
        spec.batched || eightBit ? 1 : static_cast<int64_t>(streamK);
    // Nor is the K loop of either split in clusters (8-bit float
    // products: not measured with promoted sums), forced or not.
    if (spec.batched && clusterK > 1)
      return op.emitOpError("convert-linalg-to-croq does not split the K "
                            "loop of a batched product, got cluster-k=")
             << static_cast<int64_t>(clusterK);
    int64_t productClusterK =
        spec.batched || eightBit ? 1 : static_cast<int64_t>(clusterK);
    SmallVector<GemmVariant> variants =
        getGemmVariants(*candidates, productSplitK, productStreamK, clusterM,
                        clusterN, productClusterK);
    // The K loop split in clusters where its scratch tile leaves room for
    // a ring: three stages for the model, two where forced.
    int64_t minStages = productClusterK > 1 ? 2 : 3;
    llvm::erase_if(variants, [&](const GemmVariant &variant) {
      return variant.form == GemmForm::ClusterSplitK &&
             getClusterSplitStages(target, resultBytes, variant.tile,
                                   variant.clusterSplits) < minStages;
    });
    if (productClusterK > 1 && variants.empty())
      return op.emitOpError("convert-linalg-to-croq splits the K loop in "
                            "clusters of ")
             << productClusterK
             << " blocks for 128x128, 64x128 and 128x64 tiles whose scratch "
                "tile "
                "leaves shared memory for two stages of operands, got a "
                "tile of "
             << candidates->front().rows << "x" << candidates->front().cols;
    // Implicit GEMMs take whole K loops only.
    if (spec.conv && !spec.conv->plain &&
        failed(keepConvolutionVariants(op, variants)))
      return failure();
    if (productStreamK == 2 && variants.empty())
      return op.emitOpError("convert-linalg-to-croq has the stream-K form "
                            "for 128-row tiles of whole 32-column groups "
                            "only, without forced splits or clusters; got "
                            "a tile of ")
             << candidates->front().rows << "x" << candidates->front().cols
             << ", split-k=" << productSplitK
             << ", cluster-m=" << static_cast<int64_t>(clusterM)
             << ", cluster-n=" << static_cast<int64_t>(clusterN);
    if (variants.empty())
      return op.emitOpError("convert-linalg-to-croq splits the K loop of "
                            "128x128, 64x128 and 128x64 tiles only, got "
                            "split-k=")
             << productSplitK << " with a tile of " << candidates->front().rows
             << "x" << candidates->front().cols;
    // Tiles of C^T, last (the other variants keep their numbers), where
    // no tile, split, form or cluster is forced (cluster-m=1 asks for no
    // clusters: the whole tiles of C^T have none, their K loops split in
    // clusters are left out).
    // Then the narrow tiles of few columns (the same way).
    if (modelChooses()) {
      addSwappedVariants(spec, target, resultBytes, /*clusters=*/clusterM == 0,
                         variants);
      addNarrowVariants(spec, target, resultBytes, /*clusters=*/clusterM == 0,
                        variants);
    }
    return variants;
  }
};
} // namespace
