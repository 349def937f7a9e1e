//===- ViewWindows.cpp - windows of croq views ----------------------------===//
//
// The window arithmetic of croq views: the window (offsets, sizes, bounds)
// each view op selects, their composition along a chain of views, the
// canonicalizations that fold a chain into one croq.view, and
// normalizeViews (croq-normalize-views).
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/CroqOps.h"
#include "Croq/Dialect/Croq/IR/IndexMath.h"
#include "Croq/Dialect/Croq/IR/ViewUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::croq;

//===----------------------------------------------------------------------===//
// Windows
//===----------------------------------------------------------------------===//

bool mlir::croq::isViewOp(Operation *op) {
  return isa_and_nonnull<ChunkatOp, SubspanOp, ViewOp>(op);
}

/// Whether the sizes of `value` can be computed without failing.
static bool hasComputableSizes(Value value) {
  auto type = cast<ShapedType>(value.getType());
  if (type.hasStaticShape() || isa<MemRefType>(type))
    return true;
  Operation *def = value.getDefiningOp();
  if (auto chunk = dyn_cast_or_null<ChunkatOp>(def))
    return llvm::all_of(chunk.getMixedCounts(),
                        [](OpFoldResult c) { return bool(c); }) &&
           hasComputableSizes(chunk.getSource());
  return isa_and_nonnull<SubspanOp, ViewOp>(def);
}

/// Whether getViewWindow succeeds on `op` without building anything.
static bool hasComputableWindow(Operation *op) {
  if (auto chunk = dyn_cast<ChunkatOp>(op))
    return hasComputableSizes(chunk.getResult());
  return isViewOp(op);
}

FailureOr<SmallVector<OpFoldResult>>
mlir::croq::getBufferSizes(OpBuilder &builder, Location loc, Value value) {
  auto type = cast<ShapedType>(value.getType());
  if (!hasComputableSizes(value))
    return failure();
  SmallVector<OpFoldResult> sizes;
  std::optional<ViewWindow> window;
  if (!type.hasStaticShape() && isViewOp(value.getDefiningOp())) {
    FailureOr<ViewWindow> w = getViewWindow(builder, value.getDefiningOp());
    if (failed(w))
      return failure();
    window = *w;
  }
  for (auto [dim, size] : llvm::enumerate(type.getShape())) {
    if (!ShapedType::isDynamic(size))
      sizes.push_back(builder.getIndexAttr(size));
    else if (window)
      sizes.push_back(window->sizes[dim]);
    else
      sizes.push_back(
          memref::DimOp::create(builder, loc, value, dim).getResult());
  }
  return sizes;
}

FailureOr<ViewWindow> mlir::croq::getViewWindow(OpBuilder &builder,
                                                Operation *op) {
  Location loc = op->getLoc();
  IndexBuilder e{builder, loc};
  ViewWindow window;
  if (auto view = dyn_cast<ViewOp>(op)) {
    window.source = view.getSource();
    window.offsets = view.getMixedOffsets();
    window.sizes = view.getMixedSizes();
    window.bounds = view.getMixedBounds();
    return window;
  }
  if (auto subspan = dyn_cast<SubspanOp>(op)) {
    window.source = subspan.getSource();
    window.sizes = subspan.getMixedSizes();
    for (auto [index, step] :
         llvm::zip(subspan.getIndices(), subspan.getMixedSteps()))
      window.offsets.push_back(e.mulOfr(index, step));
    return window;
  }
  auto chunk = dyn_cast<ChunkatOp>(op);
  if (!chunk || !hasComputableWindow(op))
    return failure();
  window.source = chunk.getSource();
  FailureOr<SmallVector<OpFoldResult>> sourceSizes =
      getBufferSizes(builder, loc, chunk.getSource());
  if (failed(sourceSizes))
    return failure();
  ArrayRef<int64_t> resultShape = chunk.getResult().getType().getShape();
  for (auto [dim, index, count] :
       llvm::enumerate(chunk.getIndexPerDim(), chunk.getMixedCounts())) {
    OpFoldResult size =
        ShapedType::isDynamic(resultShape[dim])
            ? e.ceilDivOfr((*sourceSizes)[dim], count)
            : OpFoldResult(builder.getIndexAttr(resultShape[dim]));
    window.sizes.push_back(size);
    window.offsets.push_back(index ? e.mulOfr(index, size)
                                   : OpFoldResult(builder.getIndexAttr(0)));
  }
  return window;
}

ViewWindow mlir::croq::composeWindows(OpBuilder &builder, Location loc,
                                      const ViewWindow &inner,
                                      const ViewWindow &outer) {
  IndexBuilder e{builder, loc};
  ViewWindow result;
  result.source = inner.source;
  result.sizes = outer.sizes;
  bool needsBounds = !inner.bounds.empty() || !outer.bounds.empty();
  SmallVector<OpFoldResult> bounds;
  for (size_t dim = 0; dim < outer.sizes.size(); ++dim) {
    OpFoldResult o1 = inner.offsets[dim], s1 = inner.sizes[dim];
    OpFoldResult o2 = outer.offsets[dim], s2 = outer.sizes[dim];
    result.offsets.push_back(e.addOfr(o1, o2));
    // The outer window may only see what lies inside the inner one.
    OpFoldResult bound;
    if (!inner.bounds.empty())
      bound = inner.bounds[dim];
    if (!outer.bounds.empty()) {
      OpFoldResult b = e.addOfr(o1, outer.bounds[dim]);
      bound = bound ? e.minOfr(bound, b) : b;
    }
    std::optional<int64_t> c1 = getConstantIntValue(s1);
    std::optional<int64_t> co2 = getConstantIntValue(o2);
    std::optional<int64_t> c2 = getConstantIntValue(s2);
    std::optional<int64_t> end =
        co2 && c2 ? llvm::checkedAdd(*co2, *c2) : std::nullopt;
    bool staticallyInside = c1 && end && *co2 >= 0 && *end <= *c1;
    if (!staticallyInside) {
      OpFoldResult b = e.addOfr(o1, s1);
      bound = bound ? e.minOfr(bound, b) : b;
      needsBounds = true;
    }
    bounds.push_back(bound);
  }
  if (!needsBounds)
    return result;
  // Dimensions without a bound of their own are bounded by the source.
  FailureOr<SmallVector<OpFoldResult>> sourceSizes = failure();
  if (llvm::any_of(bounds, [](OpFoldResult b) { return !b; }))
    sourceSizes = getBufferSizes(builder, loc, inner.source);
  for (auto [dim, bound] : llvm::enumerate(bounds)) {
    if (bound)
      continue;
    bound = succeeded(sourceSizes) ? (*sourceSizes)[dim]
                                   : OpFoldResult(builder.getIndexAttr(
                                         std::numeric_limits<int32_t>::max()));
  }
  result.bounds = std::move(bounds);
  return result;
}

namespace {
/// view_op(view_op(x)) -> croq.view x [sizes] from [offsets] within [bounds]
template <typename OpTy> struct FoldViewChain : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Operation *inner = op.getSource().getDefiningOp();
    if (!isViewOp(inner))
      return rewriter.notifyMatchFailure(op, "source is not a view op");
    if (!hasComputableWindow(inner) || !hasComputableWindow(op))
      return rewriter.notifyMatchFailure(op, "chunk counts are unknown");
    Location loc = op.getLoc();
    FailureOr<ViewWindow> innerWindow = getViewWindow(rewriter, inner);
    FailureOr<ViewWindow> outerWindow = getViewWindow(rewriter, op);
    if (failed(innerWindow) || failed(outerWindow))
      return failure();
    ViewWindow window =
        composeWindows(rewriter, loc, *innerWindow, *outerWindow);
    ViewType type = op.getResult().getType();
    for (auto [dim, size] : llvm::enumerate(type.getShape()))
      if (!ShapedType::isDynamic(size))
        window.sizes[dim] = rewriter.getIndexAttr(size);
    rewriter.replaceOp(op, buildViewOp(rewriter, loc, type, window));
    return success();
  }
};

/// chunkat %v[_, _] -> %v when the view type does not change.
struct FoldWholeChunk : OpRewritePattern<ChunkatOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ChunkatOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getIndices().empty() ||
        op.getSource().getType() != op.getResult().getType())
      return rewriter.notifyMatchFailure(op, "not an identity chunk");
    rewriter.replaceOp(op, op.getSource());
    return success();
  }
};
} // namespace

Value mlir::croq::buildViewOp(OpBuilder &builder, Location loc, ViewType type,
                              const ViewWindow &window) {
  SmallVector<int64_t> staticSizes, staticOffsets, staticBounds;
  SmallVector<Value> sizes, offsets, bounds;
  // A dynamic result dimension needs a size operand, even when the window
  // arithmetic found a constant for it.
  SmallVector<OpFoldResult> mixedSizes(window.sizes);
  for (auto [dim, size] : llvm::enumerate(type.getShape()))
    if (ShapedType::isDynamic(size))
      mixedSizes[dim] =
          getValueOrCreateConstantIndexOp(builder, loc, mixedSizes[dim]);
  // Static offsets must be non-negative; one that folded to a negative
  // constant (a negative coordinate, known only now) stays an operand.
  SmallVector<OpFoldResult> mixedOffsets(window.offsets);
  for (OpFoldResult &offset : mixedOffsets)
    if (std::optional<int64_t> c = getConstantIntValue(offset); c && *c < 0)
      offset = getValueOrCreateConstantIndexOp(builder, loc, offset);
  // A constant equal to ShapedType::kDynamic (INT64_MIN) cannot be written
  // in a static list, which reads it as "dynamic": it stays an operand.
  SmallVector<OpFoldResult> mixedBounds(window.bounds);
  for (SmallVector<OpFoldResult> *list : {&mixedSizes, &mixedBounds})
    for (OpFoldResult &value : *list)
      if (std::optional<int64_t> c = getConstantIntValue(value);
          c && ShapedType::isDynamic(*c))
        value = getValueOrCreateConstantIndexOp(builder, loc, value);
  dispatchIndexOpFoldResults(mixedSizes, sizes, staticSizes);
  dispatchIndexOpFoldResults(mixedOffsets, offsets, staticOffsets);
  dispatchIndexOpFoldResults(mixedBounds, bounds, staticBounds);
  return ViewOp::create(builder, loc, type, window.source, sizes,
                        builder.getDenseI64ArrayAttr(staticSizes), offsets,
                        builder.getDenseI64ArrayAttr(staticOffsets), bounds,
                        window.bounds.empty()
                            ? DenseI64ArrayAttr()
                            : builder.getDenseI64ArrayAttr(staticBounds))
      .getResult();
}

void ChunkatOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                            MLIRContext *context) {
  // Dropping a whole chunk beats composing it into a window.
  patterns.add<FoldWholeChunk>(context, /*benefit=*/2);
  patterns.add<FoldViewChain<ChunkatOp>>(context);
}

void SubspanOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                            MLIRContext *context) {
  patterns.add<FoldViewChain<SubspanOp>>(context);
}

void ViewOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                         MLIRContext *context) {
  patterns.add<FoldViewChain<ViewOp>>(context);
}

LogicalResult mlir::croq::normalizeViews(Operation *root) {
  // Pre-order: the source of a view is normalized before the view itself.
  SmallVector<Operation *> views;
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isViewOp(op))
      views.push_back(op);
  });
  IRRewriter rewriter(root->getContext());
  for (Operation *op : views) {
    if (isa<ViewOp>(op) && !isViewOp(op->getOperand(0).getDefiningOp()))
      continue;
    rewriter.setInsertionPoint(op);
    if (!hasComputableWindow(op))
      return op->emitOpError("cannot resolve this view: its chunk counts or "
                             "sizes are unknown");
    FailureOr<ViewWindow> window = getViewWindow(rewriter, op);
    if (failed(window))
      return op->emitOpError("cannot resolve this view");
    ViewWindow result = *window;
    if (auto inner = result.source.getDefiningOp<ViewOp>()) {
      FailureOr<ViewWindow> innerWindow = getViewWindow(rewriter, inner);
      if (failed(innerWindow))
        return inner.emitOpError("cannot resolve this view");
      result = composeWindows(rewriter, op->getLoc(), *innerWindow, result);
    }
    auto type = cast<ViewType>(op->getResult(0).getType());
    for (auto [dim, size] : llvm::enumerate(type.getShape()))
      if (!ShapedType::isDynamic(size))
        result.sizes[dim] = rewriter.getIndexAttr(size);
    rewriter.replaceOp(op, buildViewOp(rewriter, op->getLoc(), type, result));
  }
  // Intermediate views of folded chains are dead now.
  root->walk([&](ViewOp view) {
    if (view->use_empty())
      rewriter.eraseOp(view);
  });
  return success();
}

Value mlir::croq::getWindowRoot(Value buffer) {
  auto view = buffer.getDefiningOp<ViewOp>();
  return view ? view.getSource() : buffer;
}

BufferWindow mlir::croq::getBufferWindow(OpBuilder &builder, Location loc,
                                         Value buffer, Value dimSource) {
  BufferWindow window;
  auto rootType = cast<ShapedType>(dimSource.getType());
  SmallVector<Value> dims;
  for (int64_t d = 0; d < rootType.getRank(); ++d)
    dims.push_back(
        rootType.isDynamicDim(d)
            ? memref::DimOp::create(builder, loc, dimSource, d).getResult()
            : arith::ConstantIndexOp::create(builder, loc,
                                             rootType.getDimSize(d))
                  .getResult());
  auto view = buffer.getDefiningOp<ViewOp>();
  if (!view) {
    window.offsets.assign(dims.size(),
                          arith::ConstantIndexOp::create(builder, loc, 0));
    window.sizes = dims;
    window.staticSizes = llvm::to_vector(rootType.getShape());
    return window;
  }
  for (OpFoldResult ofr : view.getMixedOffsets())
    window.offsets.push_back(getValueOrCreateConstantIndexOp(builder, loc, ofr));
  for (OpFoldResult ofr : view.getMixedSizes())
    window.sizes.push_back(getValueOrCreateConstantIndexOp(builder, loc, ofr));
  window.staticSizes = llvm::to_vector(view.getResult().getType().getShape());
  SmallVector<OpFoldResult> bounds = view.getMixedBounds();
  for (auto [d, dim] : llvm::enumerate(dims)) {
    Value limit = dim;
    if (!bounds.empty())
      limit = arith::MinUIOp::create(
          builder, loc, dim,
          getValueOrCreateConstantIndexOp(builder, loc, bounds[d]));
    window.limits.push_back(limit);
  }
  return window;
}
