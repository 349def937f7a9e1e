//===- CopyOps.cpp - croq copy, transpose, pad and wait -------------------===//
//
// Verification and canonicalization of the data movement ops: endpoint
// memory spaces, shapes and zfill, the TMA box rules, swizzle agreement,
// and single use of futures.
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/BufferUtils.h"
#include "Croq/Dialect/Croq/IR/CroqOps.h"
#include "Croq/Dialect/Croq/IR/TileLayout.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <set>

using namespace mlir;
using namespace mlir::croq;

/// Largest box extent TMA takes in one dimension.
/// Largest tensor rank TMA takes.
static constexpr int64_t kMaxTmaRank = 5;

static std::string formatShape(ArrayRef<int64_t> shape) {
  std::string result;
  llvm::raw_string_ostream os(result);
  llvm::interleave(
      shape, os,
      [&](int64_t d) {
        if (ShapedType::isDynamic(d))
          os << "?";
        else
          os << d;
      },
      "x");
  return result;
}

/// The source is statically smaller or dynamic, or it is a view that can run
/// past the edge of what it views.
bool mlir::croq::copySourceCanBeSmaller(Value source,
                                        ArrayRef<int64_t> destShape) {
  auto type = cast<ShapedType>(source.getType());
  for (auto [s, d] : llvm::zip(type.getShape(), destShape))
    if (ShapedType::isDynamic(s) || ShapedType::isDynamic(d) || s < d)
      return true;
  if (!isa<ViewType>(type))
    return false;
  Operation *def = source.getDefiningOp();
  auto rootStaticAndDividedBy = [](Value root, ArrayRef<int64_t> tile) {
    auto rootType = cast<ShapedType>(root.getType());
    if (!rootType.hasStaticShape() || isa<ViewType>(rootType))
      return false;
    for (auto [r, t] : llvm::zip(rootType.getShape(), tile))
      if (r % t != 0)
        return false;
    return true;
  };
  if (auto chunk = dyn_cast_or_null<ChunkatOp>(def)) {
    if (!rootStaticAndDividedBy(chunk.getSource(), type.getShape()))
      return true;
    // With more chunks than fit (64 rows in 128 chunks of 1), the chunks past
    // the last row are empty.
    ArrayRef<int64_t> rootShape =
        cast<ShapedType>(chunk.getSource().getType()).getShape();
    for (auto [r, t, count] :
         llvm::zip(rootShape, type.getShape(), chunk.getMixedCounts())) {
      std::optional<int64_t> c = getConstantIntValue(count);
      std::optional<int64_t> covered = c ? llvm::checkedMul(*c, t) : c;
      if (!covered || *covered != r)
        return true;
    }
    return false;
  }
  if (auto subspan = dyn_cast_or_null<SubspanOp>(def))
    return subspan.getStaticSteps().has_value() ||
           !rootStaticAndDividedBy(subspan.getSource(), type.getShape());
  // Arbitrary windows and views passed in as arguments can run past the edge.
  return true;
}

/// Checks that a future is consumed (waited on, or triggered after) at most
/// once, and at least once unless `mayBeLeft` (an async tma store, which the
/// compiler completes before its tile is written again and before the
/// kernel ends).
static LogicalResult verifyFutureUses(Operation *op, Value future,
                                      bool mayBeLeft = false) {
  if (!future)
    return success();
  if (future.use_empty() && !mayBeLeft)
    return op->emitOpError("the future of an async copy must be waited on "
                           "(croq.wait) or triggered after "
                           "(croq.event.trigger ... after); drop 'async' if "
                           "nothing waits for the copy");
  unsigned waits = 0;
  for (Operation *user : future.getUsers())
    if (isa<WaitOp, EventTriggerOp>(user))
      ++waits;
  if (waits > 1)
    return op->emitOpError("a future is waited on at most once, but this "
                           "one is waited on ")
           << waits << " times";
  return success();
}

/// Checks what every data movement op shares: element types, ranks, memory
/// spaces and where asynchronous software copies may go.
static LogicalResult verifyMoveEndpoints(Operation *op, Type sourceType,
                                         Type destType, bool isAsync,
                                         bool isDma) {
  auto source = cast<ShapedType>(sourceType);
  auto dest = cast<ShapedType>(destType);
  if (source.getElementType() != dest.getElementType())
    return op->emitOpError("source element type ")
           << source.getElementType()
           << " does not match destination element type "
           << dest.getElementType();
  if (source.getRank() != dest.getRank())
    return op->emitOpError("source rank ")
           << source.getRank() << " does not match destination rank "
           << dest.getRank();
  MemorySpace from = *getMemorySpaceOf(sourceType);
  MemorySpace to = *getMemorySpaceOf(destType);
  if (from == MemorySpace::Global && to == MemorySpace::Global)
    return op->emitOpError("cannot copy global memory to global memory; "
                           "stage the tile through shared or local memory");
  if (isAsync && isDma &&
      (from != MemorySpace::Global || to != MemorySpace::Shared))
    return op->emitOpError("an async dma copy must move global to shared "
                           "memory (cp.async), got ")
           << stringifyMemorySpace(from) << " -> " << stringifyMemorySpace(to);
  return success();
}

/// Checks a TMA box (the shared-memory side of a tma copy) against the
/// hardware rules, allowing the boxes the lowering splits.
static LogicalResult verifyTmaBox(Operation *op, ArrayRef<int64_t> box,
                                  Type elementType, Swizzle swizzle) {
  if (box.empty() || static_cast<int64_t>(box.size()) > kMaxTmaRank)
    return op->emitOpError("tma copies take ranks 1 to ")
           << kMaxTmaRank << ", got rank " << box.size();
  for (auto [dim, size] : llvm::enumerate(box))
    if (ShapedType::isDynamic(size))
      return op->emitOpError("a tma copy needs a tile shape known at compile "
                             "time, but dimension ")
             << dim << " is dynamic; use a dma copy for run-time tile sizes";
  bool supported = elementType.isF32() || elementType.isF16() ||
                   elementType.isBF16() || elementType.isF64() ||
                   isa<Float8E4M3FNType, Float8E5M2Type>(elementType) ||
                   elementType.isInteger(8) || elementType.isInteger(16) ||
                   elementType.isInteger(32) || elementType.isInteger(64);
  if (!supported)
    return op->emitOpError("tma does not support element type ") << elementType;
  int64_t elementBytes = getElementSizeInBytes(elementType);
  std::optional<int64_t> checkedInnerBytes =
      llvm::checkedMul(box.back(), elementBytes);
  if (!checkedInnerBytes)
    return op->emitOpError("the inner tma box dimension (")
           << box.back() << " x " << elementType
           << ") is too large: its size in bytes does not fit in 64 bits";
  int64_t innerBytes = *checkedInnerBytes;
  if (innerBytes % 16 != 0)
    return op->emitOpError("the inner tma box dimension is ")
           << innerBytes << " bytes (" << box.back() << " x " << elementType
           << "); it must be a multiple of 16 bytes";
  int64_t span = getSwizzleBytes(swizzle);
  if (span && innerBytes > span && innerBytes % span != 0)
    return op->emitOpError("the inner tma box dimension of ")
           << innerBytes << " bytes is wider than the " << span
           << "-byte swizzle span and not a multiple of it";
  if (span && innerBytes > span) {
    // Span-wide slabs, one after another (SharedTileLayout); TMA writes each
    // at its own box address, which a swizzle needs 128-byte aligned.
    std::optional<int64_t> slabBytes = span;
    for (int64_t size : box.drop_back())
      slabBytes = slabBytes ? llvm::checkedMul(*slabBytes, size) : slabBytes;
    if (slabBytes && *slabBytes % 128 != 0)
      return op->emitOpError("a tile wider than its ")
             << span << "-byte swizzle span is stored as span-wide slabs of "
             << *slabBytes << " bytes, but tma writes each slab at a 128-byte "
             << "aligned address: give it a multiple of " << 128 / span
             << " rows or a wider swizzle";
  }
  for (auto [dim, size] : llvm::enumerate(box))
    if (size > kMaxTmaBoxDim && size % kMaxTmaBoxDim != 0)
      return op->emitOpError("tma box dimension ")
             << dim << " is " << size << "; dimensions above " << kMaxTmaBoxDim
             << " must be a multiple of " << kMaxTmaBoxDim
             << " to be split into boxes";
  return success();
}

//===----------------------------------------------------------------------===//
// CopyOp
//===----------------------------------------------------------------------===//

bool CopyOp::isTmaLoad() {
  return getEngine() == CopyEngine::TMA &&
         getMemorySpaceOf(getDest().getType()) == MemorySpace::Shared;
}

EventTriggerOp CopyOp::getTrigger() {
  Value future = getFuture();
  if (!future || !future.hasOneUse())
    return nullptr;
  return dyn_cast<EventTriggerOp>(*future.getUsers().begin());
}

/// `[a, b, c]`: the assembly's spelling of a box shape or origin.
static std::string formatList(ArrayRef<int64_t> values) {
  std::string text = "[";
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(values, os);
  os << "]";
  return text;
}

/// Checks a tma copy's boxes: the tile's largest legal box (getTmaBox),
/// at origins on the box grid, inside the tile, each once, covering it.
static LogicalResult verifyTmaBoxes(CopyOp op, Type sharedType) {
  DenseI64ArrayAttr boxAttr = op.getBoxAttr();
  DenseI64ArrayAttr originsAttr = op.getBoxOriginsAttr();
  if (!boxAttr && !originsAttr)
    return success();
  if (!boxAttr || !originsAttr)
    return op.emitOpError("boxes need both the box shape and the origins");
  auto tile = dyn_cast<TileType>(sharedType);
  if (!tile || tile.getSwizzle() == Swizzle::Auto)
    return op.emitOpError("boxes are planned for a whole shared tile with a "
                          "concrete layout, got ")
           << sharedType;
  SharedTileLayout layout = SharedTileLayout::get(tile);
  int64_t shares = op.getShares();
  std::optional<SmallVector<int64_t>> expected = getTmaShareBox(layout, shares);
  if (!expected)
    return op.emitOpError("the boxes of ")
           << tile << " cannot be shared equally by the " << shares
           << " blocks of a cluster";
  ArrayRef<int64_t> box = boxAttr.asArrayRef();
  if (box != ArrayRef<int64_t>(*expected))
    return op.emitOpError("the box of ")
           << tile << (shares > 1 ? " shared by a cluster" : "") << " is "
           << formatList(*expected) << ", got " << formatList(box);
  int64_t rank = box.size();
  ArrayRef<int64_t> flat = originsAttr.asArrayRef();
  if (flat.size() % rank != 0)
    return op.emitOpError("box origins come in groups of ")
           << rank << " coordinates, got " << flat.size();
  int64_t count = flat.size() / rank;
  int64_t needed = countTmaPieces(layout, box);
  if (count != needed)
    return op.emitOpError("the tile is covered by ")
           << needed << " boxes, got " << count;
  ArrayRef<int64_t> shape = tile.getShape();
  std::set<SmallVector<int64_t>> seen;
  for (int64_t i = 0; i < count; ++i) {
    ArrayRef<int64_t> origin = flat.slice(i * rank, rank);
    for (int64_t d = 0; d < rank; ++d)
      if (origin[d] < 0 || origin[d] % box[d] != 0 ||
          origin[d] > shape[d] - box[d])
        return op.emitOpError("box ")
               << i << " at " << formatList(origin)
               << " is not on the box grid inside the tile "
               << formatList(shape);
    if (!seen.insert(SmallVector<int64_t>(origin)).second)
      return op.emitOpError("box ")
             << i << " at " << formatList(origin) << " repeats an earlier box";
  }
  return success();
}

int64_t CopyOp::getShares() {
  if (!getMulticast())
    return 1;
  ParallelOp kernel = getKernel(*this);
  if (!kernel)
    return 1;
  std::optional<ArrayRef<int64_t>> cluster = kernel.getCluster();
  std::optional<uint64_t> dim = getMulticastDim();
  if (!cluster || !dim)
    return kernel.getClusterBlocks();
  return *dim < cluster->size() ? (*cluster)[*dim] : 1;
}

LogicalResult CopyOp::verify() {
  Type sourceType = getSource().getType();
  Type destType = getDest().getType();
  bool isDma = getEngine() == CopyEngine::DMA;
  if (failed(
          verifyMoveEndpoints(*this, sourceType, destType, isAsync(), isDma)))
    return failure();
  MemorySpace from = *getMemorySpaceOf(sourceType);
  MemorySpace to = *getMemorySpaceOf(destType);
  ArrayRef<int64_t> sourceShape = cast<ShapedType>(sourceType).getShape();
  ArrayRef<int64_t> destShape = cast<ShapedType>(destType).getShape();

  for (auto [dim, s, d] : llvm::enumerate(sourceShape, destShape)) {
    if (ShapedType::isDynamic(s) || ShapedType::isDynamic(d))
      continue;
    if (s > d)
      return emitOpError("source dimension ")
             << dim << " (" << s << ") is larger than the destination's (" << d
             << ")";
    if (s < d && !getZfill())
      return emitOpError("source dimension ")
             << dim << " (" << s << ") is smaller than the destination's (" << d
             << "); add 'zfill' to zero the rest";
  }
  if (getZfill()) {
    if (to == MemorySpace::Global)
      return emitOpError("zfill fills an on-chip destination, but this copy "
                         "writes global memory");
    if (!copySourceCanBeSmaller(getSource(), destShape))
      return emitOpError("zfill has no effect: the source always covers the "
                         "destination (")
             << formatShape(sourceShape) << " into " << formatShape(destShape)
             << ")";
  }

  // The shared side of the copy decides the layout.
  std::optional<Type> sharedType;
  if (to == MemorySpace::Shared)
    sharedType = destType;
  else if (from == MemorySpace::Shared)
    sharedType = sourceType;
  Swizzle layout = sharedType ? getSwizzleOf(*sharedType) : Swizzle::None;
  if (std::optional<Swizzle> swizzle = getSwizzle()) {
    if (!sharedType)
      return emitOpError("swizzle describes a shared-memory layout, but "
                         "neither side of the copy is in shared memory");
    if (layout != Swizzle::Auto && layout != *swizzle)
      return emitOpError("copy swizzle ")
             << stringifySwizzle(*swizzle)
             << " does not match the shared tile's swizzle "
             << stringifySwizzle(layout);
    layout = *swizzle;
  }

  if (!isDma) {
    bool globalShared =
        (from == MemorySpace::Global && to == MemorySpace::Shared) ||
        (from == MemorySpace::Shared && to == MemorySpace::Global);
    if (!globalShared)
      return emitOpError("a tma copy moves between global and shared memory, "
                         "got ")
             << stringifyMemorySpace(from) << " -> "
             << stringifyMemorySpace(to);
    ArrayRef<int64_t> box = to == MemorySpace::Shared ? destShape : sourceShape;
    ArrayRef<int64_t> globalTile =
        to == MemorySpace::Shared ? sourceShape : destShape;
    for (auto [dim, size] : llvm::enumerate(globalTile))
      if (ShapedType::isDynamic(size) &&
          isa<ViewType>(to == MemorySpace::Shared ? sourceType : destType))
        return emitOpError("a tma copy needs a tile shape known at compile "
                           "time, but dimension ")
               << dim << " of the global view is dynamic; use a dma copy "
               << "for run-time tile sizes";
    if (failed(verifyTmaBox(
            *this, box, cast<ShapedType>(sourceType).getElementType(), layout)))
      return failure();
    if (failed(verifyTmaBoxes(*this, *sharedType)))
      return failure();
  }
  if (isDma && (getBox() || getBoxOrigins()))
    return emitOpError("only tma copies are made of boxes");
  if (getMulticast()) {
    if (isDma || to != MemorySpace::Shared)
      return emitOpError("only tma loads into shared memory are multicast");
    ParallelOp kernel = getKernel(*this);
    if (!kernel || !kernel.getCluster())
      return emitOpError("multicast shares the copy among the blocks of a "
                         "cluster, but it is not inside a block-level "
                         "croq.parallel region launched in clusters");
    size_t rank = kernel.getCluster()->size();
    if (std::optional<uint64_t> dim = getMulticastDim(); dim && *dim >= rank)
      return emitOpError("multicast along cluster dimension ")
             << *dim << ", but its cluster has " << rank << " dimension"
             << (rank == 1 ? "" : "s");
  } else if (getMulticastDim()) {
    return emitOpError("has a multicast dimension but is not multicast");
  }
  if (isDma && getMap())
    return emitOpError("only tma copies take a tensor map");
  if (getUsable() && !getMap())
    return emitOpError("'if' gives whether the runtime could make the tensor "
                       "map; it needs the map");
  if (Value map = getMap())
    if (auto producer = map.getDefiningOp<TensorMapOp>()) {
      Value global = to == MemorySpace::Shared ? getSource() : getDest();
      Value tensor = global;
      if (auto view = global.getDefiningOp<ViewOp>())
        tensor = view.getSource();
      if (tensor != producer.getTensor())
        return emitOpError("takes the tensor map of another tensor");
    }
  bool isTmaStore =
      getEngine() == CopyEngine::TMA &&
      getMemorySpaceOf(getSource().getType()) == MemorySpace::Shared;
  return verifyFutureUses(*this, getFuture(), /*mayBeLeft=*/isTmaStore);
}

//===----------------------------------------------------------------------===//
// TransposeOp
//===----------------------------------------------------------------------===//

LogicalResult TransposeOp::verify() {
  Type sourceType = getSource().getType();
  Type destType = getDest().getType();
  if (failed(verifyMoveEndpoints(*this, sourceType, destType,
                                 getFuture() != nullptr, /*isDma=*/true)))
    return failure();
  ArrayRef<int64_t> perm = getPermutation();
  ArrayRef<int64_t> sourceShape = cast<ShapedType>(sourceType).getShape();
  ArrayRef<int64_t> destShape = cast<ShapedType>(destType).getShape();
  SmallVector<bool> seen(sourceShape.size(), false);
  bool isPermutation = perm.size() == sourceShape.size();
  for (int64_t p : perm) {
    if (p < 0 || p >= static_cast<int64_t>(seen.size()) || seen[p]) {
      isPermutation = false;
      break;
    }
    seen[p] = true;
  }
  if (!isPermutation) {
    std::string text;
    llvm::raw_string_ostream os(text);
    llvm::interleaveComma(perm, os);
    if (sourceShape.empty())
      return emitOpError("expected an empty permutation for a rank-0 "
                         "source, got [")
             << text << "]";
    return emitOpError("[")
           << text << "] is not a permutation of 0.." << sourceShape.size() - 1;
  }
  for (auto [dim, p] : llvm::enumerate(perm)) {
    int64_t d = destShape[dim], s = sourceShape[p];
    if (!ShapedType::isDynamic(d) && !ShapedType::isDynamic(s) && d != s)
      return emitOpError("destination dimension ")
             << dim << " (" << d << ") must equal source dimension " << p
             << " (" << s << ")";
  }
  return verifyFutureUses(*this, getFuture());
}

namespace {
/// transpose [0, 1, ...] src -> dst  =>  copy dma src -> dst
struct IdentityTransposeToCopy : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    for (auto [i, p] : llvm::enumerate(op.getPermutation()))
      if (static_cast<int64_t>(i) != p)
        return rewriter.notifyMatchFailure(op, "not the identity");
    rewriter.replaceOpWithNewOp<CopyOp>(
        op, op->getResultTypes(), CopyEngine::DMA, op.getSource(), op.getDest(),
        /*map=*/Value(), /*usable=*/Value(), /*zfill=*/false,
        /*swizzle=*/nullptr, /*box=*/nullptr, /*boxOrigins=*/nullptr,
        /*multicast=*/false, /*multicastDim=*/nullptr);
    return success();
  }
};
} // namespace

void TransposeOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                              MLIRContext *context) {
  patterns.add<IdentityTransposeToCopy>(context);
}

//===----------------------------------------------------------------------===//
// PadOp
//===----------------------------------------------------------------------===//

LogicalResult PadOp::verify() {
  Type sourceType = getSource().getType();
  Type destType = getDest().getType();
  if (failed(verifyMoveEndpoints(*this, sourceType, destType,
                                 getFuture() != nullptr, /*isDma=*/true)))
    return failure();
  ArrayRef<int64_t> sourceShape = cast<ShapedType>(sourceType).getShape();
  ArrayRef<int64_t> destShape = cast<ShapedType>(destType).getShape();
  size_t rank = sourceShape.size();
  for (auto [name, list] :
       {std::pair<StringRef, ArrayRef<int64_t>>{"low", getLow()},
        {"high", getHigh()},
        {"interior", getInterior()}}) {
    if (list.size() != rank)
      return emitOpError("expected ")
             << rank << " " << name << " padding sizes, got " << list.size();
    for (int64_t v : list)
      if (v < 0)
        return emitOpError("expected non-negative ")
               << name << " padding, got " << v;
  }
  for (size_t dim = 0; dim < rank; ++dim) {
    int64_t s = sourceShape[dim], d = destShape[dim];
    if (ShapedType::isDynamic(s) || ShapedType::isDynamic(d))
      continue;
    std::optional<int64_t> expected =
        llvm::checkedMulAdd(getInterior()[dim], s - 1, s);
    if (expected)
      expected = llvm::checkedAdd(*expected, getLow()[dim]);
    if (expected)
      expected = llvm::checkedAdd(*expected, getHigh()[dim]);
    if (!expected)
      return emitOpError("padding of dimension ")
             << dim << " is too large: low + high + size + interior * "
             << "(size - 1) does not fit in 64 bits";
    if (d != *expected)
      return emitOpError("destination dimension ")
             << dim << " must be low + high + size + interior * (size - 1) = "
             << *expected << ", got " << d;
  }
  return verifyFutureUses(*this, getFuture());
}

namespace {
/// pad low [0..] high [0..] interior [0..] src -> dst  =>  copy dma src -> dst
struct ZeroPadToCopy : OpRewritePattern<PadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(PadOp op,
                                PatternRewriter &rewriter) const override {
    auto isZero = [](int64_t v) { return v == 0; };
    if (!llvm::all_of(op.getLow(), isZero) ||
        !llvm::all_of(op.getHigh(), isZero) ||
        !llvm::all_of(op.getInterior(), isZero))
      return rewriter.notifyMatchFailure(op, "pads something");
    rewriter.replaceOpWithNewOp<CopyOp>(
        op, op->getResultTypes(), CopyEngine::DMA, op.getSource(), op.getDest(),
        /*map=*/Value(), /*usable=*/Value(), /*zfill=*/false,
        /*swizzle=*/nullptr, /*box=*/nullptr, /*boxOrigins=*/nullptr,
        /*multicast=*/false, /*multicastDim=*/nullptr);
    return success();
  }
};
} // namespace

void PadOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                        MLIRContext *context) {
  patterns.add<ZeroPadToCopy>(context);
}

//===----------------------------------------------------------------------===//
// TensorMapOp
//===----------------------------------------------------------------------===//

LogicalResult TensorMapOp::verify() {
  if ((*this)->getParentOfType<ParallelOp>())
    return emitOpError("runs on the host: it must be outside croq.parallel "
                       "regions, before the kernel that uses the map");
  auto type = cast<MemRefType>(getTensor().getType());
  if (static_cast<int64_t>(getBox().size()) != type.getRank())
    return emitOpError("expected a box of rank ")
           << type.getRank() << " (the tensor's), got " << getBox().size();
  for (auto [dim, size] : llvm::enumerate(getBox()))
    if (size < 1 || size > kMaxTmaBoxDim)
      return emitOpError("expected box dimension ")
             << dim << " in [1, " << kMaxTmaBoxDim << "], got " << size;
  if (getSwizzle() == Swizzle::Auto)
    return emitOpError("a tensor map has a concrete swizzle, got 'auto'");
  return success();
}
