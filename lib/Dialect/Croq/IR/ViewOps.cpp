//===- ViewOps.cpp - croq view ops ----------------------------------------===//
//
// Verification, folding and canonicalization of chunkat, subspan, view and
// span_as, and the window arithmetic that normalizes chains of views.
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/CroqOps.h"
#include "Croq/Dialect/Croq/IR/ViewUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::croq;

//===----------------------------------------------------------------------===//
// Index arithmetic on OpFoldResults
//===----------------------------------------------------------------------===//

static Value toValue(OpBuilder &b, Location loc, OpFoldResult ofr) {
  return getValueOrCreateConstantIndexOp(b, loc, ofr);
}

// Constants fold only where the result fits in int64_t; otherwise the sum
// or product is left to the (wrapping) index arithmetic of the IR.
static OpFoldResult addOfr(OpBuilder &b, Location loc, OpFoldResult x,
                           OpFoldResult y) {
  std::optional<int64_t> cx = getConstantIntValue(x);
  std::optional<int64_t> cy = getConstantIntValue(y);
  if (cx && cy)
    if (std::optional<int64_t> sum = llvm::checkedAdd(*cx, *cy))
      return b.getIndexAttr(*sum);
  if (cx && *cx == 0)
    return y;
  if (cy && *cy == 0)
    return x;
  return arith::AddIOp::create(b, loc, toValue(b, loc, x), toValue(b, loc, y))
      .getResult();
}

static OpFoldResult mulOfr(OpBuilder &b, Location loc, OpFoldResult x,
                           OpFoldResult y) {
  std::optional<int64_t> cx = getConstantIntValue(x);
  std::optional<int64_t> cy = getConstantIntValue(y);
  if (cx && cy)
    if (std::optional<int64_t> product = llvm::checkedMul(*cx, *cy))
      return b.getIndexAttr(*product);
  if ((cx && *cx == 0) || (cy && *cy == 0))
    return b.getIndexAttr(0);
  if (cx && *cx == 1)
    return y;
  if (cy && *cy == 1)
    return x;
  return arith::MulIOp::create(b, loc, toValue(b, loc, x), toValue(b, loc, y))
      .getResult();
}

static OpFoldResult minOfr(OpBuilder &b, Location loc, OpFoldResult x,
                           OpFoldResult y) {
  std::optional<int64_t> cx = getConstantIntValue(x);
  std::optional<int64_t> cy = getConstantIntValue(y);
  if (cx && cy)
    return b.getIndexAttr(std::min(*cx, *cy));
  if (x == y)
    return x;
  return arith::MinSIOp::create(b, loc, toValue(b, loc, x), toValue(b, loc, y))
      .getResult();
}

static OpFoldResult ceilDivOfr(OpBuilder &b, Location loc, OpFoldResult x,
                               OpFoldResult y) {
  std::optional<int64_t> cx = getConstantIntValue(x);
  std::optional<int64_t> cy = getConstantIntValue(y);
  if (cx && cy && *cy > 0)
    return b.getIndexAttr(llvm::divideCeil(*cx, *cy));
  if (cy && *cy == 1)
    return x;
  return arith::CeilDivUIOp::create(b, loc, toValue(b, loc, x),
                                    toValue(b, loc, y))
      .getResult();
}

//===----------------------------------------------------------------------===//
// Shared verification
//===----------------------------------------------------------------------===//

/// Checks the result of a view op against its source and the shape the op
/// selects (dynamic entries where the shape is only known at run time).
static LogicalResult verifyViewResult(Operation *op, Type sourceType,
                                      ViewType resultType,
                                      ArrayRef<int64_t> expectedShape) {
  auto source = cast<ShapedType>(sourceType);
  if (source.getElementType() != resultType.getElementType())
    return op->emitOpError("result element type ")
           << resultType.getElementType()
           << " does not match source element type "
           << source.getElementType();
  MemorySpace space = *getMemorySpaceOf(sourceType);
  if (resultType.getMemorySpace() != space)
    return op->emitOpError("result memory space must be the source's (")
           << stringifyMemorySpace(space) << "), got "
           << stringifyMemorySpace(resultType.getMemorySpace());
  Swizzle swizzle = getSwizzleOf(sourceType);
  if (resultType.getSwizzle() != swizzle)
    return op->emitOpError("result swizzle must be the source's (")
           << stringifySwizzle(swizzle) << "), got "
           << stringifySwizzle(resultType.getSwizzle());
  ArrayRef<int64_t> shape = resultType.getShape();
  if (shape.size() != expectedShape.size())
    return op->emitOpError("expected a rank-")
           << expectedShape.size() << " result, got rank " << shape.size();
  for (auto [dim, got, expected] :
       llvm::enumerate(shape, expectedShape)) {
    if (got == expected)
      continue;
    auto fmt = [](int64_t v) {
      return ShapedType::isDynamic(v) ? std::string("?") : std::to_string(v);
    };
    return op->emitOpError("expected result dimension ")
           << dim << " to be " << fmt(expected) << ", got " << fmt(got);
  }
  return success();
}

static int64_t getSourceRank(Value source) {
  return cast<ShapedType>(source.getType()).getRank();
}

//===----------------------------------------------------------------------===//
// ChunkatOp
//===----------------------------------------------------------------------===//

SmallVector<Value> ChunkatOp::getIndexPerDim() {
  SmallVector<Value> result;
  unsigned next = 0;
  for (bool isIndex : getPartitioned())
    result.push_back(isIndex && next < getIndices().size()
                         ? getIndices()[next++]
                         : Value());
  return result;
}

/// The extent of the region whose coordinate `index` is, if it is the
/// induction variable of a croq.parallel or croq.foreach.
static OpFoldResult getRegionExtentOf(Value index) {
  auto arg = dyn_cast<BlockArgument>(index);
  if (!arg)
    return {};
  Operation *owner = arg.getOwner()->getParentOp();
  SmallVector<OpFoldResult> extents;
  if (auto parallel = dyn_cast_or_null<ParallelOp>(owner))
    extents = parallel.getMixedExtents();
  else if (auto foreach = dyn_cast_or_null<ForeachOp>(owner))
    extents = foreach.getMixedExtents();
  // A region with more block arguments than extents is invalid; its own
  // verifier reports that after the ops nested in it are verified.
  if (arg.getArgNumber() >= extents.size())
    return {};
  return extents[arg.getArgNumber()];
}

SmallVector<OpFoldResult> ChunkatOp::getMixedCounts() {
  Builder b(getContext());
  SmallVector<OpFoldResult> counts;
  SmallVector<Value> indices = getIndexPerDim();
  for (auto [dim, index] : llvm::enumerate(indices)) {
    if (!index)
      counts.push_back(b.getIndexAttr(1));
    else if (std::optional<ArrayRef<int64_t>> explicitCounts = getCounts())
      counts.push_back(b.getIndexAttr((*explicitCounts)[dim]));
    else
      counts.push_back(getRegionExtentOf(index));
  }
  return counts;
}

LogicalResult ChunkatOp::verify() {
  int64_t rank = getSourceRank(getSource());
  ArrayRef<bool> partitioned = getPartitioned();
  if (static_cast<int64_t>(partitioned.size()) != rank)
    return emitOpError("expected ")
           << rank << " chunk indices for a rank-" << rank
           << " source, got " << partitioned.size();
  int64_t numPartitioned = llvm::count(partitioned, true);
  if (static_cast<int64_t>(getIndices().size()) != numPartitioned)
    return emitOpError("expected ")
           << numPartitioned << " index operands, one per dimension that is "
           << "not '_', got " << getIndices().size();
  if (std::optional<ArrayRef<int64_t>> counts = getCounts()) {
    if (static_cast<int64_t>(counts->size()) != rank)
      return emitOpError("expected ")
             << rank << " chunk counts, got " << counts->size();
    for (auto [dim, count] : llvm::enumerate(*counts)) {
      if (count <= 0)
        return emitOpError("expected positive chunk counts, got ") << count;
      if (!partitioned[dim] && count != 1)
        return emitOpError("dimension ")
               << dim << " is kept whole ('_'), so its chunk count must be "
               << "1, got " << count;
    }
  }

  SmallVector<OpFoldResult> counts = getMixedCounts();
  ArrayRef<int64_t> sourceShape =
      cast<ShapedType>(getSource().getType()).getShape();
  SmallVector<int64_t> expected;
  for (auto [dim, count] : llvm::enumerate(counts)) {
    if (!count)
      return emitOpError("the chunk count of dimension ")
             << dim
             << " is unknown: its index is not a coordinate of an enclosing "
                "croq.parallel or croq.foreach; give the counts with 'of [...]'";
    std::optional<int64_t> c = getConstantIntValue(count);
    int64_t size = sourceShape[dim];
    if (!c || ShapedType::isDynamic(size))
      expected.push_back(ShapedType::kDynamic);
    else
      expected.push_back(llvm::divideCeil(size, *c));
  }
  return verifyViewResult(*this, getSource().getType(), getResult().getType(),
                          expected);
}

//===----------------------------------------------------------------------===//
// SubspanOp
//===----------------------------------------------------------------------===//

SmallVector<OpFoldResult> SubspanOp::getMixedSizes() {
  return getMixedValues(getStaticSizes(), getSizes(), getContext());
}

SmallVector<OpFoldResult> SubspanOp::getMixedSteps() {
  if (!getStaticSteps())
    return getMixedSizes();
  return getMixedValues(*getStaticSteps(), getSteps(), getContext());
}

LogicalResult SubspanOp::verify() {
  int64_t rank = getSourceRank(getSource());
  if (failed(verifyListOfOperandsOrIntegers(*this, "size", rank,
                                            getStaticSizes(), getSizes())))
    return failure();
  if (static_cast<int64_t>(getIndices().size()) != rank)
    return emitOpError("expected ")
           << rank << " tile coordinates for a rank-" << rank
           << " source, got " << getIndices().size();
  if (std::optional<ArrayRef<int64_t>> steps = getStaticSteps()) {
    if (failed(verifyListOfOperandsOrIntegers(*this, "step", rank, *steps,
                                              getSteps())))
      return failure();
    for (int64_t step : *steps)
      if (!ShapedType::isDynamic(step) && step <= 0)
        return emitOpError("expected positive steps, got ") << step;
  } else if (!getSteps().empty()) {
    return emitOpError("step values given without a step list");
  }
  for (int64_t size : getStaticSizes())
    if (!ShapedType::isDynamic(size) && size <= 0)
      return emitOpError("expected positive tile sizes, got ") << size;
  return verifyViewResult(*this, getSource().getType(), getResult().getType(),
                          getStaticSizes());
}

//===----------------------------------------------------------------------===//
// ViewOp
//===----------------------------------------------------------------------===//

SmallVector<OpFoldResult> ViewOp::getMixedSizes() {
  return getMixedValues(getStaticSizes(), getSizes(), getContext());
}

SmallVector<OpFoldResult> ViewOp::getMixedOffsets() {
  return getMixedValues(getStaticOffsets(), getOffsets(), getContext());
}

SmallVector<OpFoldResult> ViewOp::getMixedBounds() {
  if (!getStaticBounds())
    return {};
  return getMixedValues(*getStaticBounds(), getBounds(), getContext());
}

LogicalResult ViewOp::verify() {
  int64_t rank = getSourceRank(getSource());
  if (failed(verifyListOfOperandsOrIntegers(*this, "size", rank,
                                            getStaticSizes(), getSizes())) ||
      failed(verifyListOfOperandsOrIntegers(
          *this, "offset", rank, getStaticOffsets(), getOffsets())))
    return failure();
  if (std::optional<ArrayRef<int64_t>> bounds = getStaticBounds()) {
    if (failed(verifyListOfOperandsOrIntegers(*this, "bound", rank, *bounds,
                                              getBounds())))
      return failure();
  } else if (!getBounds().empty()) {
    return emitOpError("bound values given without a 'within' list");
  }
  for (int64_t size : getStaticSizes())
    if (!ShapedType::isDynamic(size) && size <= 0)
      return emitOpError("expected positive window sizes, got ") << size;
  for (int64_t offset : getStaticOffsets())
    if (!ShapedType::isDynamic(offset) && offset < 0)
      return emitOpError("expected non-negative offsets, got ") << offset;
  return verifyViewResult(*this, getSource().getType(), getResult().getType(),
                          getStaticSizes());
}

OpFoldResult ViewOp::fold(FoldAdaptor) {
  // A window of a whole view at offset zero is the view itself.
  if (getSource().getType() != getResult().getType() || getStaticBounds())
    return {};
  auto shape = getResult().getType().getShape();
  for (auto [offset, size, dim] :
       llvm::zip(getMixedOffsets(), getMixedSizes(), shape)) {
    if (!isConstantIntValue(offset, 0))
      return {};
    std::optional<int64_t> s = getConstantIntValue(size);
    if (!s || ShapedType::isDynamic(dim) || *s != dim)
      return {};
  }
  return getSource();
}

//===----------------------------------------------------------------------===//
// SpanAsOp
//===----------------------------------------------------------------------===//

LogicalResult SpanAsOp::verify() {
  TileType source = getSource().getType();
  TileType result = getResult().getType();
  if (source.getElementType() != result.getElementType())
    return emitOpError("result element type ")
           << result.getElementType() << " does not match source element type "
           << source.getElementType();
  if (source.getNumElements() != result.getNumElements())
    return emitOpError("span_as must keep the element count: the source has ")
           << source.getNumElements() << " elements, the result "
           << result.getNumElements();
  if (source.getMemorySpace() != result.getMemorySpace() ||
      source.getSwizzle() != result.getSwizzle())
    return emitOpError("span_as keeps the memory space and swizzle of its "
                       "source (")
           << stringifyMemorySpace(source.getMemorySpace()) << ", swizzle "
           << stringifySwizzle(source.getSwizzle()) << "), got "
           << stringifyMemorySpace(result.getMemorySpace()) << ", swizzle "
           << stringifySwizzle(result.getSwizzle());
  // Rows wider than the span are slabs (SharedTileLayout): only a reshape
  // of the outer dimensions keeps every element in its place.
  int64_t span = getSwizzleBytes(source.getSwizzle());
  if (span && source.getRank() > 0 && result.getRank() > 0) {
    int64_t elementBytes = getElementSizeInBytes(source.getElementType());
    int64_t from = source.getShape().back(), to = result.getShape().back();
    if (from != to &&
        (from * elementBytes > span || to * elementBytes > span))
      return emitOpError("rows wider than the ")
             << span << "-byte swizzle span are stored as span-wide slabs, "
             << "so span_as must keep the innermost dimension (" << from
             << "), got " << to;
  }
  return success();
}

OpFoldResult SpanAsOp::fold(FoldAdaptor) {
  if (getSource().getType() == getResult().getType())
    return getSource();
  return {};
}

namespace {
/// span_as(span_as(x)) -> span_as(x)
struct FoldSpanAsChain : OpRewritePattern<SpanAsOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SpanAsOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getSource().getDefiningOp<SpanAsOp>();
    if (!inner)
      return rewriter.notifyMatchFailure(op, "source is not a span_as");
    rewriter.replaceOpWithNewOp<SpanAsOp>(op, op.getType(), inner.getSource());
    return success();
  }
};
} // namespace

void SpanAsOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                           MLIRContext *context) {
  patterns.add<FoldSpanAsChain>(context);
}

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
      window.offsets.push_back(mulOfr(builder, loc, index, step));
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
  for (auto [dim, index, count] : llvm::enumerate(
           chunk.getIndexPerDim(), chunk.getMixedCounts())) {
    OpFoldResult size =
        ShapedType::isDynamic(resultShape[dim])
            ? ceilDivOfr(builder, loc, (*sourceSizes)[dim], count)
            : OpFoldResult(builder.getIndexAttr(resultShape[dim]));
    window.sizes.push_back(size);
    window.offsets.push_back(index ? mulOfr(builder, loc, index, size)
                                   : OpFoldResult(builder.getIndexAttr(0)));
  }
  return window;
}

ViewWindow mlir::croq::composeWindows(OpBuilder &builder, Location loc,
                                      const ViewWindow &inner,
                                      const ViewWindow &outer) {
  ViewWindow result;
  result.source = inner.source;
  result.sizes = outer.sizes;
  bool needsBounds = !inner.bounds.empty() || !outer.bounds.empty();
  SmallVector<OpFoldResult> bounds;
  for (size_t dim = 0; dim < outer.sizes.size(); ++dim) {
    OpFoldResult o1 = inner.offsets[dim], s1 = inner.sizes[dim];
    OpFoldResult o2 = outer.offsets[dim], s2 = outer.sizes[dim];
    result.offsets.push_back(addOfr(builder, loc, o1, o2));
    // The outer window may only see what lies inside the inner one.
    OpFoldResult bound;
    if (!inner.bounds.empty())
      bound = inner.bounds[dim];
    if (!outer.bounds.empty()) {
      OpFoldResult b = addOfr(builder, loc, o1, outer.bounds[dim]);
      bound = bound ? minOfr(builder, loc, bound, b) : b;
    }
    std::optional<int64_t> c1 = getConstantIntValue(s1);
    std::optional<int64_t> co2 = getConstantIntValue(o2);
    std::optional<int64_t> c2 = getConstantIntValue(s2);
    std::optional<int64_t> end =
        co2 && c2 ? llvm::checkedAdd(*co2, *c2) : std::nullopt;
    bool staticallyInside = c1 && end && *co2 >= 0 && *end <= *c1;
    if (!staticallyInside) {
      OpFoldResult b = addOfr(builder, loc, o1, s1);
      bound = bound ? minOfr(builder, loc, bound, b) : b;
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
    bound = succeeded(sourceSizes)
                ? (*sourceSizes)[dim]
                : OpFoldResult(builder.getIndexAttr(
                      std::numeric_limits<int32_t>::max()));
  }
  result.bounds = std::move(bounds);
  return result;
}

namespace {
/// view_op(view_op(x)) -> croq.view x [sizes] from [offsets] within [bounds]
template <typename OpTy>
struct FoldViewChain : OpRewritePattern<OpTy> {
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
      mixedSizes[dim] = toValue(builder, loc, mixedSizes[dim]);
  // Static offsets must be non-negative; one that folded to a negative
  // constant (a negative coordinate, known only now) stays an operand.
  SmallVector<OpFoldResult> mixedOffsets(window.offsets);
  for (OpFoldResult &offset : mixedOffsets)
    if (std::optional<int64_t> c = getConstantIntValue(offset); c && *c < 0)
      offset = toValue(builder, loc, offset);
  // A constant equal to ShapedType::kDynamic (INT64_MIN) cannot be written
  // in a static list, which reads it as "dynamic": it stays an operand.
  SmallVector<OpFoldResult> mixedBounds(window.bounds);
  for (SmallVector<OpFoldResult> *list : {&mixedSizes, &mixedBounds})
    for (OpFoldResult &value : *list)
      if (std::optional<int64_t> c = getConstantIntValue(value);
          c && ShapedType::isDynamic(*c))
        value = toValue(builder, loc, value);
  dispatchIndexOpFoldResults(mixedSizes, sizes, staticSizes);
  dispatchIndexOpFoldResults(mixedOffsets, offsets, staticOffsets);
  dispatchIndexOpFoldResults(mixedBounds, bounds, staticBounds);
  return ViewOp::create(
             builder, loc, type, window.source, sizes,
             builder.getDenseI64ArrayAttr(staticSizes), offsets,
             builder.getDenseI64ArrayAttr(staticOffsets), bounds,
             window.bounds.empty() ? DenseI64ArrayAttr()
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
