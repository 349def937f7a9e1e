//===- DistributeCopies.cpp - dma copies to each thread's moves -----------===//
//
// The tiling stage of dma copies, transposes and pads: the move is shared
// among the threads of the executing group, 16-byte vectors where a
// run-time alignment test allows, elements otherwise; elements past a
// tensor's edge are masked or zero-filled; async copies from global to
// shared memory become cp.async chunks.
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/BufferUtils.h"
#include "Croq/Dialect/Croq/IR/CroqOps.h"
#include "Croq/Dialect/Croq/IR/IndexMath.h"
#include "Croq/Dialect/Croq/IR/ThreadGroups.h"
#include "Croq/Dialect/Croq/IR/ViewUtils.h"
#include "Croq/Dialect/Croq/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace croq {
#define GEN_PASS_DEF_CROQDISTRIBUTECOPIES
#include "Croq/Dialect/Croq/Transforms/Passes.h.inc"
} // namespace croq
} // namespace mlir

using namespace mlir;
using namespace mlir::croq;

namespace {
/// A buffer as the moves see it: element `p` lies at `p` of `buffer`, and
/// inside its tensor when `offsets + p < limits` (no limits: always).
struct Window : BufferWindow {
  Value buffer;
  Type elementType;
  int64_t rank() const { return sizes.size(); }
};

/// The threads that run a move together, and this thread's index in them.
struct Group {
  ParallelLevel level;
  Value threadIndex;
  int64_t size;
};

/// How destination coordinates map to source coordinates, and what goes
/// where the source has no element.
struct MoveSpec {
  enum class Kind { Copy, Transpose, Pad };
  Kind kind = Kind::Copy;
  ArrayRef<int64_t> permutation;
  ArrayRef<int64_t> low;
  ArrayRef<int64_t> interior;
  /// Written where the source has no element; null to leave those
  /// destination elements untouched (masking).
  Value fill;
  bool isAsync = false;
};
} // namespace

/// The window `value` (a tensor, tile, or croq.view of one) selects, for
/// the move `op`.
static FailureOr<Window> getWindow(OpBuilder &builder, Operation *op,
                                   Value value) {
  Location loc = op->getLoc();
  Window window;
  window.buffer = value;
  window.elementType = getElementTypeOrSelf(value.getType());
  auto view = value.getDefiningOp<ViewOp>();
  Value root = view ? view.getSource() : value;
  if (isa<ViewType>(root.getType())) {
    if (Operation *def = root.getDefiningOp())
      return def->emitOpError("views of views must be normalized before "
                              "distribution (run croq-normalize-views)");
    return op->emitOpError("moves a view passed in as an argument, which "
                           "cannot be distributed over threads: pass the "
                           "tensor and select the view in the kernel");
  }
  static_cast<BufferWindow &>(window) =
      getBufferWindow(builder, loc, value, root);
  return window;
}

/// The group that runs `op`: the innermost enclosing croq.parallel, or the
/// thread alone for a move with a local side.
static FailureOr<Group> getGroup(OpBuilder &builder, Operation *op,
                                 bool perThread) {
  Location loc = op->getLoc();
  auto parallel = op->getParentOfType<ParallelOp>();
  if (!parallel)
    return op->emitOpError("must be inside a croq.parallel region to be "
                           "distributed over threads");
  FailureOr<GroupShape> shape = getGroupShape(parallel, perThread);
  if (failed(shape))
    return failure();
  Value index = shape->level == ParallelLevel::Thread
                    ? indexConstant(builder, loc, 0)
                    : ThreadIndexOp::create(builder, loc, shape->level);
  return Group{shape->level, index, shape->size};
}

static void emitBarrier(OpBuilder &builder, Location loc, const Group &group) {
  if (group.level != ParallelLevel::Thread)
    BarrierOp::create(builder, loc, group.level);
}

/// Whether `coords` (plus `extra` elements along the innermost dimension)
/// lie inside `window`: below its sizes where `checkSizes`, and below its
/// limits.
static Value isInside(OpBuilder &builder, Location loc, const Window &window,
                      ArrayRef<Value> coords, bool checkSizes,
                      int64_t extra = 0) {
  SmallVector<Value> conditions;
  int64_t rank = window.rank();
  for (int64_t d = 0; d < rank; ++d) {
    Value c = coords[d];
    if (d == rank - 1 && extra)
      c = arith::AddIOp::create(builder, loc, c,
                                indexConstant(builder, loc, extra));
    if (checkSizes)
      conditions.push_back(lessThan(builder, loc, c, window.sizes[d]));
    if (!window.limits.empty()) {
      Value index = arith::AddIOp::create(builder, loc, window.offsets[d], c);
      conditions.push_back(lessThan(builder, loc, index, window.limits[d]));
    }
  }
  return allOf(builder, loc, conditions);
}

/// Source coordinates of destination coordinates `coords`, and whether the
/// source has an element there.
static std::pair<SmallVector<Value>, Value>
mapToSource(OpBuilder &builder, Location loc, const MoveSpec &spec,
            const Window &src, ArrayRef<Value> coords) {
  int64_t rank = coords.size();
  SmallVector<Value> srcCoords(rank);
  SmallVector<Value> conditions;
  switch (spec.kind) {
  case MoveSpec::Kind::Copy:
    srcCoords.assign(coords.begin(), coords.end());
    break;
  case MoveSpec::Kind::Transpose:
    for (int64_t d = 0; d < rank; ++d)
      srcCoords[spec.permutation[d]] = coords[d];
    break;
  case MoveSpec::Kind::Pad:
    for (int64_t d = 0; d < rank; ++d) {
      Value low = indexConstant(builder, loc, spec.low[d]);
      Value c = coords[d];
      conditions.push_back(arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::uge, c, low));
      Value shifted = arith::SubIOp::create(builder, loc, c, low);
      if (spec.interior[d] == 0) {
        srcCoords[d] = shifted;
        continue;
      }
      // The period interior + 1 as an unsigned index: 2^63 wraps to the bit
      // pattern of INT64_MIN, which remui and divui read right.
      Value period = indexConstant(
          builder, loc,
          static_cast<int64_t>(static_cast<uint64_t>(spec.interior[d]) + 1));
      Value rem = arith::RemUIOp::create(builder, loc, shifted, period);
      conditions.push_back(
          arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, rem,
                                indexConstant(builder, loc, 0)));
      srcCoords[d] = arith::DivUIOp::create(builder, loc, shifted, period);
    }
    break;
  }
  Value inside = isInside(builder, loc, src, srcCoords, /*checkSizes=*/true);
  if (conditions.empty())
    return {srcCoords, inside};
  // Guard the checks on shifted coordinates that may have wrapped around.
  Value mapped = allOf(builder, loc, conditions);
  return {srcCoords, arith::AndIOp::create(builder, loc, mapped, inside)};
}

/// An in-bounds read of `type` (an element or a vector) at `coords`.
static Value read(OpBuilder &builder, Location loc, Type type,
                  const Window &window, ValueRange coords) {
  return ReadOp::create(builder, loc, type, window.buffer, coords,
                        /*inBounds=*/true);
}

/// An in-bounds write of `value` at `coords`.
static void write(OpBuilder &builder, Location loc, Value value,
                  const Window &window, ValueRange coords) {
  WriteOp::create(builder, loc, value, window.buffer, coords,
                  /*inBounds=*/true);
}

/// Moves the one element at destination coordinates `coords`.
static void emitScalarMove(OpBuilder &builder, Location loc,
                           const MoveSpec &spec, const Window &src,
                           const Window &dst, ArrayRef<Value> coords) {
  Value dstInside = isInside(builder, loc, dst, coords, /*checkSizes=*/false);
  auto ifDst = scf::IfOp::create(builder, loc, dstInside, /*withElse=*/false);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(ifDst.thenBlock());
  auto [srcCoords, srcInside] = mapToSource(builder, loc, spec, src, coords);
  if (!spec.fill) {
    auto ifSrc = scf::IfOp::create(builder, loc, srcInside, false);
    builder.setInsertionPointToStart(ifSrc.thenBlock());
    Value v = read(builder, loc, src.elementType, src, srcCoords);
    write(builder, loc, v, dst, coords);
    return;
  }
  auto ifSrc = scf::IfOp::create(builder, loc, TypeRange{dst.elementType},
                                 srcInside, /*withElse=*/true);
  builder.setInsertionPointToStart(ifSrc.thenBlock());
  scf::YieldOp::create(builder, loc,
                       read(builder, loc, src.elementType, src, srcCoords));
  builder.setInsertionPointToStart(ifSrc.elseBlock());
  scf::YieldOp::create(builder, loc, spec.fill);
  builder.setInsertionPointAfter(ifSrc);
  write(builder, loc, ifSrc.getResult(0), dst, coords);
}

/// The vector width (in elements) this move can use when aligned, or 1.
static int64_t getVectorWidth(const MoveSpec &spec, const Window &src,
                              const Window &dst) {
  if (spec.kind != MoveSpec::Kind::Copy || !src.elementType.isIntOrFloat())
    return 1;
  int64_t bits = src.elementType.getIntOrFloatBitWidth();
  if (bits % 8 != 0 || 128 % bits != 0)
    return 1;
  int64_t width = 128 / bits;
  if (width == 1)
    return 1;
  int64_t dstInner = dst.staticSizes.back();
  int64_t srcInner = src.staticSizes.back();
  if (ShapedType::isDynamic(dstInner) || dstInner % width != 0)
    return 1;
  if (!ShapedType::isDynamic(srcInner) && srcInner % width != 0)
    return 1;
  if (!hasContiguousRows(src.buffer) || !hasContiguousRows(dst.buffer))
    return 1;
  return width;
}

/// Moves `width` consecutive elements starting at `coords` by scalars.
static void emitLaneByLane(OpBuilder &builder, Location loc,
                           const MoveSpec &spec, const Window &src,
                           const Window &dst, ArrayRef<Value> coords,
                           int64_t width) {
  SmallVector<Value> lane(coords.begin(), coords.end());
  for (int64_t l = 0; l < width; ++l) {
    lane.back() = arith::AddIOp::create(builder, loc, coords.back(),
                                        indexConstant(builder, loc, l));
    emitScalarMove(builder, loc, spec, src, dst, lane);
  }
}

/// One thread's cp.async chunk of `width` elements at `coords`: the valid
/// source lanes form a prefix of the chunk, the rest is zero-filled.
static void emitChunkCopy(OpBuilder &builder, Location loc, const Window &src,
                          const Window &dst, ArrayRef<Value> coords,
                          int64_t width) {
  int64_t rank = src.rank();
  SmallVector<Value> outerConditions;
  for (int64_t d = 0; d + 1 < rank; ++d) {
    outerConditions.push_back(lessThan(builder, loc, coords[d], src.sizes[d]));
    if (!src.limits.empty())
      outerConditions.push_back(lessThan(
          builder, loc,
          arith::AddIOp::create(builder, loc, src.offsets[d], coords[d]),
          src.limits[d]));
  }
  Value last = coords.back();
  Value bound = src.sizes.back();
  if (!src.limits.empty())
    bound = arith::MinUIOp::create(
        builder, loc, bound,
        arith::SubIOp::create(builder, loc,
                              arith::MaxUIOp::create(builder, loc,
                                                     src.limits.back(),
                                                     src.offsets.back()),
                              src.offsets.back()));
  Value avail = arith::SubIOp::create(
      builder, loc, arith::MaxUIOp::create(builder, loc, bound, last), last);
  Value count = arith::MinUIOp::create(builder, loc, avail,
                                       indexConstant(builder, loc, width));
  Value zero = indexConstant(builder, loc, 0);
  count = arith::SelectOp::create(
      builder, loc, allOf(builder, loc, outerConditions), count, zero);
  CopyChunkOp::create(builder, loc, src.buffer, coords, dst.buffer, coords,
                      width, count);
}

/// Emits the distributed loop over the destination with `width`-element
/// items.
static void emitMoveLoop(OpBuilder &builder, Location loc, const MoveSpec &spec,
                         const Window &src, const Window &dst,
                         const Group &group, int64_t width) {
  SmallVector<Value> itemSizes(dst.sizes.begin(), dst.sizes.end());
  if (std::optional<int64_t> inner = getConstantIntValue(itemSizes.back()))
    itemSizes.back() = indexConstant(builder, loc, *inner / width);
  else
    itemSizes.back() = arith::DivUIOp::create(
        builder, loc, itemSizes.back(), indexConstant(builder, loc, width));
  Value items = product(builder, loc, itemSizes);
  OpBuilder::InsertionGuard guard(builder);
  Value item =
      emitDistributedLoop(builder, loc, group.threadIndex, group.size, items);
  SmallVector<Value> coords = delinearize(builder, loc, item, itemSizes);
  coords.back() = arith::MulIOp::create(builder, loc, coords.back(),
                                        indexConstant(builder, loc, width));
  int64_t eltBytes =
      std::max<int64_t>(1, src.elementType.getIntOrFloatBitWidth() / 8);

  if (spec.isAsync) {
    // cp.async takes 4, 8 or 16 bytes and zero-fills what the source lacks.
    int64_t bytes = width * eltBytes;
    if (bytes != 4 && bytes != 8 && bytes != 16)
      return emitLaneByLane(builder, loc, spec, src, dst, coords, width);
    return emitChunkCopy(builder, loc, src, dst, coords, width);
  }
  if (width == 1)
    return emitScalarMove(builder, loc, spec, src, dst, coords);
  Value full = arith::AndIOp::create(
      builder, loc,
      isInside(builder, loc, src, coords, /*checkSizes=*/true, width - 1),
      isInside(builder, loc, dst, coords, /*checkSizes=*/false, width - 1));
  auto ifFull = scf::IfOp::create(builder, loc, full, /*withElse=*/true);
  builder.setInsertionPointToStart(ifFull.thenBlock());
  auto vectorType = VectorType::get({width}, src.elementType);
  write(builder, loc, read(builder, loc, vectorType, src, coords), dst, coords);
  builder.setInsertionPointToStart(ifFull.elseBlock());
  emitLaneByLane(builder, loc, spec, src, dst, coords, width);
}

/// Whether every element of the destination has a source element and both
/// lie inside their tensors: the common case of an interior tile, which
/// needs no per-element test.
static Value isWholeTileInside(OpBuilder &builder, Location loc,
                               const Window &src, const Window &dst) {
  SmallVector<Value> conditions;
  for (int64_t d = 0; d < dst.rank(); ++d) {
    Value size = dst.sizes[d];
    std::optional<int64_t> dstSize = getConstantIntValue(size);
    std::optional<int64_t> srcSize = getConstantIntValue(src.sizes[d]);
    if (!dstSize || !srcSize || *srcSize < *dstSize)
      conditions.push_back(arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::ule, size, src.sizes[d]));
    for (const Window *window : {&src, &dst}) {
      if (window->limits.empty())
        continue;
      Value end = arith::AddIOp::create(builder, loc, window->offsets[d], size);
      conditions.push_back(arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::ule, end, window->limits[d]));
    }
  }
  return allOf(builder, loc, conditions);
}

/// The largest divisor of `rounds` no larger than `limit`.
static int64_t getBatchSize(int64_t rounds, int64_t limit) {
  for (int64_t b = std::min(rounds, limit); b > 1; --b)
    if (rounds % b == 0)
      return b;
  return 1;
}

/// Copies a whole tile that needs no per-element tests: each thread loads
/// up to 8 of its items into registers, then stores them, so their loads
/// are in flight together.
static void emitBatchedCopy(OpBuilder &builder, Location loc, const Window &src,
                            const Window &dst, const Group &group,
                            int64_t width, int64_t items) {
  int64_t rounds = llvm::divideCeil(items, group.size);
  int64_t batch = getBatchSize(rounds, 8);
  SmallVector<Value> itemSizes(dst.sizes.begin(), dst.sizes.end());
  itemSizes.back() = indexConstant(
      builder, loc, *getConstantIntValue(itemSizes.back()) / width);
  Type valueType = width > 1 ? Type(VectorType::get({width}, src.elementType))
                             : src.elementType;
  auto loop = scf::ForOp::create(builder, loc, indexConstant(builder, loc, 0),
                                 indexConstant(builder, loc, rounds / batch),
                                 indexConstant(builder, loc, 1));
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(loop.getBody());
  Value first =
      arith::MulIOp::create(builder, loc, loop.getInductionVar(),
                            indexConstant(builder, loc, batch * group.size));
  Value total = indexConstant(builder, loc, items);
  bool partial = items % group.size != 0;
  // Each item's value, coordinates and (for a partial last round) whether
  // it exists.
  SmallVector<std::tuple<Value, SmallVector<Value>, Value>> loaded;
  for (int64_t b = 0; b < batch; ++b) {
    Value item = arith::AddIOp::create(
        builder, loc, group.threadIndex,
        arith::AddIOp::create(builder, loc, first,
                              indexConstant(builder, loc, b * group.size)));
    Value valid = partial ? lessThan(builder, loc, item, total) : Value();
    // Out-of-range items of the last round read the tile's first item.
    Value safeItem =
        valid ? arith::SelectOp::create(builder, loc, valid, item,
                                        indexConstant(builder, loc, 0))
                    .getResult()
              : item;
    SmallVector<Value> coords = delinearize(builder, loc, safeItem, itemSizes);
    coords.back() = arith::MulIOp::create(builder, loc, coords.back(),
                                          indexConstant(builder, loc, width));
    loaded.push_back(
        {read(builder, loc, valueType, src, coords), coords, valid});
  }
  for (auto &[value, coords, valid] : loaded) {
    OpBuilder::InsertionGuard storeGuard(builder);
    if (valid) {
      auto ifValid = scf::IfOp::create(builder, loc, valid, false);
      builder.setInsertionPointToStart(ifValid.thenBlock());
    }
    write(builder, loc, value, dst, coords);
  }
}

/// Replaces the move `op` from `source` to `dest` by each thread's moves.
static LogicalResult distribute(RewriterBase &rewriter, Operation *op,
                                Value source, Value dest, MoveSpec spec) {
  Location loc = op->getLoc();
  rewriter.setInsertionPoint(op);
  MemorySpace from = *getMemorySpaceOf(source.getType());
  MemorySpace to = *getMemorySpaceOf(dest.getType());
  bool perThread = from == MemorySpace::Local || to == MemorySpace::Local;
  FailureOr<Group> group = getGroup(rewriter, op, perThread);
  if (failed(group))
    return failure();
  FailureOr<Window> src = getWindow(rewriter, op, source);
  FailureOr<Window> dst = getWindow(rewriter, op, dest);
  if (failed(src) || failed(dst))
    return failure();
  bool touchesShared = from == MemorySpace::Shared || to == MemorySpace::Shared;
  // Earlier readers of the destination (and writers of the source) finish
  // before the move starts.
  if (touchesShared)
    emitBarrier(rewriter, loc, *group);

  int64_t width = getVectorWidth(spec, *src, *dst);
  int64_t eltBytes =
      std::max<int64_t>(1, src->elementType.getIntOrFloatBitWidth() / 8);
  if (spec.isAsync && eltBytes < 4 && width == 1)
    spec.isAsync = false; // cp.async moves at least 4 bytes
  auto isAligned = [&](const Window &window) -> Value {
    return IsAlignedOp::create(rewriter, loc, window.buffer, 16);
  };

  // A synchronous copy of a static tile that lies wholly inside both tensors
  // takes a fast path without per-element tests.
  std::optional<int64_t> items =
      getConstantIntValue(product(rewriter, loc, dst->sizes));
  scf::IfOp ifFast;
  if (spec.kind == MoveSpec::Kind::Copy && !spec.isAsync && items) {
    SmallVector<Value> conditions{isWholeTileInside(rewriter, loc, *src, *dst)};
    if (width > 1) {
      conditions.push_back(isAligned(*src));
      conditions.push_back(isAligned(*dst));
    }
    ifFast = scf::IfOp::create(rewriter, loc, allOf(rewriter, loc, conditions),
                               true);
    rewriter.setInsertionPointToStart(ifFast.thenBlock());
    emitBatchedCopy(rewriter, loc, *src, *dst, *group, width, *items / width);
    rewriter.setInsertionPointToStart(ifFast.elseBlock());
  }
  if (width > 1) {
    Value aligned = allOf(rewriter, loc, {isAligned(*src), isAligned(*dst)});
    auto ifAligned = scf::IfOp::create(rewriter, loc, aligned, true);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(ifAligned.thenBlock());
    emitMoveLoop(rewriter, loc, spec, *src, *dst, *group, width);
    rewriter.setInsertionPointToStart(ifAligned.elseBlock());
    MoveSpec scalar = spec;
    if (eltBytes < 4)
      scalar.isAsync = false;
    emitMoveLoop(rewriter, loc, scalar, *src, *dst, *group, 1);
  } else {
    emitMoveLoop(rewriter, loc, spec, *src, *dst, *group, 1);
  }
  if (ifFast)
    rewriter.setInsertionPointAfter(ifFast);

  if (op->getNumResults() == 1) {
    // The future: the thread's group of cp.async chunks (empty where the
    // move was synchronous), which croq.wait waits for.
    Value future = CommitCopiesOp::create(
        rewriter, loc, FutureType::get(rewriter.getContext()));
    rewriter.replaceOp(op, future);
    return success();
  }
  if (touchesShared)
    emitBarrier(rewriter, loc, *group);
  rewriter.eraseOp(op);
  return success();
}

LogicalResult mlir::croq::distributeMove(RewriterBase &rewriter,
                                         Operation *op) {
  OpBuilder::InsertionGuard guard(rewriter);
  MoveSpec spec;
  if (auto copy = dyn_cast<CopyOp>(op)) {
    if (copy.getEngine() != CopyEngine::DMA)
      return copy.emitOpError("is a tma copy, which is not distributed over "
                              "threads");
    spec.isAsync = copy.isAsync();
    if (copy.getZfill()) {
      rewriter.setInsertionPoint(op);
      Type type = getElementTypeOrSelf(copy.getDest().getType());
      spec.fill = arith::ConstantOp::create(rewriter, op->getLoc(),
                                            rewriter.getZeroAttr(type));
    }
    return distribute(rewriter, op, copy.getSource(), copy.getDest(), spec);
  }
  if (auto transpose = dyn_cast<TransposeOp>(op)) {
    spec.kind = MoveSpec::Kind::Transpose;
    spec.permutation = transpose.getPermutation();
    return distribute(rewriter, op, transpose.getSource(), transpose.getDest(),
                      spec);
  }
  if (auto pad = dyn_cast<PadOp>(op)) {
    spec.kind = MoveSpec::Kind::Pad;
    spec.low = pad.getLow();
    spec.interior = pad.getInterior();
    spec.fill = pad.getValue();
    return distribute(rewriter, op, pad.getSource(), pad.getDest(), spec);
  }
  return op->emitOpError("is not a move that croq-distribute-copies splits");
}

namespace {
struct CroqDistributeCopiesPass
    : croq::impl::CroqDistributeCopiesBase<CroqDistributeCopiesPass> {
  void runOnOperation() override {
    SmallVector<Operation *> moves;
    getOperation()->walk([&](Operation *op) {
      if (auto copy = dyn_cast<CopyOp>(op)) {
        if (copy.getEngine() == CopyEngine::DMA)
          moves.push_back(op);
      } else if (isa<TransposeOp, PadOp>(op)) {
        moves.push_back(op);
      }
    });
    IRRewriter rewriter(&getContext());
    bool failedAny = false;
    for (Operation *op : moves)
      failedAny |= failed(distributeMove(rewriter, op));
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
