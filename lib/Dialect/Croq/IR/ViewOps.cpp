//===- ViewOps.cpp - croq view ops ----------------------------------------===//
//
// Verification and folding of chunkat, subspan, view and span_as; the window
// arithmetic that normalizes chains of views is in ViewWindows.cpp.
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
