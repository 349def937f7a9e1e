//===- ProductKernels.cpp - a linalg product's kernels and host choice ----===//
//
// Emits the kernels of one linalg matrix product (ProductKernels.h): the
// variant the cost model chooses for static extents, or for dynamic ones
// the host code that chooses per call (asking first for a variant its
// caller requested) and the dispatch among the variants, one shape class's
// variant behind its check, or the classifier's report; the one-row forms;
// the extent checks; then the product's ops are erased.
//
//===----------------------------------------------------------------------===//

#include "ProductKernels.h"
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

LogicalResult mlir::croq::emitProductKernels(
    linalg::LinalgOp op, MatmulSpec &spec, ArrayRef<GemmVariant> variants,
    ArrayRef<RowForm> rowForms, const TargetDescription &target,
    int64_t resultBytes, int64_t splitK, HostChoices &choices) {
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
