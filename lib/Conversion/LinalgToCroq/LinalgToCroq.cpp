//===- LinalgToCroq.cpp - linalg matrix products to croq kernels ----------===//
//
// Makes every linalg.matmul and linalg.batch_matmul on memrefs croq
// kernels: the plain croq GEMM
// in the block tile (and, for few tiles and a long K, the K split) the
// cost model of TileChoice.cpp chooses, with the zero fill and the
// elementwise consumer folded in (ProductKernels.cpp: the variant chosen
// statically or by the host code; GemmKernel.cpp and SplitK.cpp emit the
// kernels).
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
#include "ProductKernels.h"
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
        std::max<int64_t>(clusterM, 1) * clusterN >
            ParallelOp::kMaxClusterBlocks) {
      getOperation()->emitError("convert-linalg-to-croq takes clusters of "
                                "cluster-m x cluster-n blocks (cluster-m 0: "
                                "chosen), at most ")
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
    return emitProductKernels(op, spec, *variants, rowForms, target,
                              resultBytes, getProductSplitK(spec), choices);
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
