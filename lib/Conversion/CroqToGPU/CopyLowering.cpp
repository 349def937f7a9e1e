//===- CopyLowering.cpp - dma copies, transposes and pads -----------------===//
//
// Lowers croq.copy (dma), croq.transpose, croq.pad and croq.wait: the move
// is distributed over the threads of the executing group, 16-byte vectors
// where a run-time alignment check allows, scalars otherwise; elements past
// a tensor's edge are masked or zero-filled; async copies from global to
// shared memory become cp.async.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::croq;

namespace {
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

/// The zero of `type`.
static Value zeroOf(OpBuilder &builder, Location loc, Type type) {
  return arith::ConstantOp::create(builder, loc, builder.getZeroAttr(type));
}

/// Whether `coords` (plus `extra` elements along the innermost dimension)
/// lie inside `access`: below its sizes where `checkSizes`, and below its
/// limits.
static Value isInside(OpBuilder &builder, Location loc,
                      const BufferAccess &access, ArrayRef<Value> coords,
                      bool checkSizes, int64_t extra = 0) {
  SmallVector<Value> conditions;
  int64_t rank = access.rank();
  for (int64_t d = 0; d < rank; ++d) {
    Value c = coords[d];
    if (d == rank - 1 && extra)
      c = arith::AddIOp::create(builder, loc, c,
                                indexConstant(builder, loc, extra));
    if (checkSizes)
      conditions.push_back(lessThan(builder, loc, c, access.sizes[d]));
    if (!access.limits.empty()) {
      Value index = arith::AddIOp::create(builder, loc, access.offsets[d], c);
      conditions.push_back(lessThan(builder, loc, index, access.limits[d]));
    }
  }
  return allOf(builder, loc, conditions);
}

/// Source coordinates of destination coordinates `coords`, and whether the
/// source has an element there.
static std::pair<SmallVector<Value>, Value>
mapToSource(OpBuilder &builder, Location loc, const MoveSpec &spec,
            const BufferAccess &src, ArrayRef<Value> coords) {
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
      conditions.push_back(arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::eq, rem,
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

/// Moves the one element at destination coordinates `coords`.
static void emitScalarMove(OpBuilder &builder, Location loc,
                           const MoveSpec &spec, const BufferAccess &src,
                           const BufferAccess &dst, ArrayRef<Value> coords) {
  Value dstInside = isInside(builder, loc, dst, coords, /*checkSizes=*/false);
  auto ifDst = scf::IfOp::create(builder, loc, dstInside, /*withElse=*/false);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(ifDst.thenBlock());
  auto [srcCoords, srcInside] = mapToSource(builder, loc, spec, src, coords);
  SmallVector<Value> dstIndices = getElementIndices(builder, loc, dst, coords);
  if (!spec.fill) {
    auto ifSrc = scf::IfOp::create(builder, loc, srcInside, false);
    builder.setInsertionPointToStart(ifSrc.thenBlock());
    Value v = memref::LoadOp::create(
        builder, loc, src.storage,
        getElementIndices(builder, loc, src, srcCoords));
    memref::StoreOp::create(builder, loc, v, dst.storage, dstIndices);
    return;
  }
  auto ifSrc = scf::IfOp::create(builder, loc, TypeRange{dst.elementType},
                                 srcInside, /*withElse=*/true);
  builder.setInsertionPointToStart(ifSrc.thenBlock());
  Value v = memref::LoadOp::create(
      builder, loc, src.storage, getElementIndices(builder, loc, src, srcCoords));
  scf::YieldOp::create(builder, loc, v);
  builder.setInsertionPointToStart(ifSrc.elseBlock());
  scf::YieldOp::create(builder, loc, spec.fill);
  builder.setInsertionPointAfter(ifSrc);
  memref::StoreOp::create(builder, loc, ifSrc.getResult(0), dst.storage,
                          dstIndices);
}

/// The vector width (in elements) this move can use when aligned, or 1.
static int64_t getVectorWidth(const MoveSpec &spec, const BufferAccess &src,
                              const BufferAccess &dst) {
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
  if (!hasUnitInnerStride(src.memref) || !hasUnitInnerStride(dst.memref))
    return 1;
  return width;
}

/// Moves `width` consecutive elements starting at `coords` by scalars.
static void emitLaneByLane(OpBuilder &builder, Location loc,
                           const MoveSpec &spec, const BufferAccess &src,
                           const BufferAccess &dst, ArrayRef<Value> coords,
                           int64_t width) {
  SmallVector<Value> lane(coords.begin(), coords.end());
  for (int64_t l = 0; l < width; ++l) {
    lane.back() = arith::AddIOp::create(builder, loc, coords.back(),
                                        indexConstant(builder, loc, l));
    emitScalarMove(builder, loc, spec, src, dst, lane);
  }
}

/// Emits the distributed loop over the destination with `width`-element
/// items.
static void emitMoveLoop(OpBuilder &builder, Location loc,
                         const MoveSpec &spec, const BufferAccess &src,
                         const BufferAccess &dst, const ThreadGroup &group,
                         int64_t width) {
  SmallVector<Value> itemSizes(dst.sizes.begin(), dst.sizes.end());
  if (std::optional<int64_t> inner = getConstantIntValue(itemSizes.back()))
    itemSizes.back() = indexConstant(builder, loc, *inner / width);
  else
    itemSizes.back() =
        arith::DivUIOp::create(builder, loc, itemSizes.back(),
                               indexConstant(builder, loc, width));
  Value items = product(builder, loc, itemSizes);
  OpBuilder::InsertionGuard guard(builder);
  Value item = emitDistributedLoop(builder, loc, group, items);
  SmallVector<Value> coords = delinearize(builder, loc, item, itemSizes);
  coords.back() = arith::MulIOp::create(builder, loc, coords.back(),
                                        indexConstant(builder, loc, width));
  int64_t eltBytes =
      std::max<int64_t>(1, src.elementType.getIntOrFloatBitWidth() / 8);

  if (spec.isAsync) {
    // cp.async takes 4, 8 or 16 bytes and zero-fills what the source lacks.
    int64_t bytes = width * eltBytes;
    if (bytes != 4 && bytes != 8 && bytes != 16) {
      emitLaneByLane(builder, loc, spec, src, dst, coords, width);
      return;
    }
    // Valid source lanes form a prefix of the item.
    int64_t rank = src.rank();
    SmallVector<Value> outerConditions;
    for (int64_t d = 0; d + 1 < rank; ++d) {
      outerConditions.push_back(
          lessThan(builder, loc, coords[d], src.sizes[d]));
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
          arith::SubIOp::create(
              builder, loc,
              arith::MaxUIOp::create(builder, loc, src.limits.back(),
                                     src.offsets.back()),
              src.offsets.back()));
    Value avail = arith::SubIOp::create(
        builder, loc, arith::MaxUIOp::create(builder, loc, bound, last), last);
    Value count = arith::MinUIOp::create(builder, loc, avail,
                                         indexConstant(builder, loc, width));
    Value zero = indexConstant(builder, loc, 0);
    count = arith::SelectOp::create(builder, loc,
                                    allOf(builder, loc, outerConditions),
                                    count, zero);
    // Clamp the source index of empty copies to the origin: cp.async reads
    // nothing then, but the address must still be valid.
    SmallVector<Value> srcIndices = getElementIndices(builder, loc, src, coords);
    Value empty = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                        count, zero);
    for (auto [i, origin] : llvm::enumerate(src.offsets))
      srcIndices[i] =
          arith::SelectOp::create(builder, loc, empty, origin, srcIndices[i]);
    nvgpu::DeviceAsyncCopyOp::create(
        builder, loc, nvgpu::DeviceAsyncTokenType::get(builder.getContext()),
        dst.storage, getElementIndices(builder, loc, dst, coords),
        src.storage, srcIndices, builder.getIndexAttr(width), count,
        /*bypassL1=*/width * eltBytes == 16 ? builder.getUnitAttr()
                                             : UnitAttr());
    return;
  }

  if (width == 1) {
    emitScalarMove(builder, loc, spec, src, dst, coords);
    return;
  }
  Value full = arith::AndIOp::create(
      builder, loc,
      isInside(builder, loc, src, coords, /*checkSizes=*/true, width - 1),
      isInside(builder, loc, dst, coords, /*checkSizes=*/false, width - 1));
  auto ifFull = scf::IfOp::create(builder, loc, full, /*withElse=*/true);
  builder.setInsertionPointToStart(ifFull.thenBlock());
  auto vectorType = VectorType::get({width}, src.elementType);
  Value v = vector::LoadOp::create(builder, loc, vectorType, src.storage,
                                   getElementIndices(builder, loc, src, coords),
                                   /*nontemporal=*/false,
                                   /*alignment=*/llvm::MaybeAlign(16));
  vector::StoreOp::create(builder, loc, v, dst.storage,
                          getElementIndices(builder, loc, dst, coords),
                          /*nontemporal=*/false, /*alignment=*/llvm::MaybeAlign(16));
  builder.setInsertionPointToStart(ifFull.elseBlock());
  emitLaneByLane(builder, loc, spec, src, dst, coords, width);
}

/// Whether every element of the destination has a source element and both
/// lie inside their tensors: the common case of an interior tile, which
/// needs no per-element check.
static Value isWholeTileInside(OpBuilder &builder, Location loc,
                               const BufferAccess &src,
                               const BufferAccess &dst) {
  SmallVector<Value> conditions;
  for (int64_t d = 0; d < dst.rank(); ++d) {
    Value size = dst.sizes[d];
    std::optional<int64_t> dstSize = getConstantIntValue(size);
    std::optional<int64_t> srcSize = getConstantIntValue(src.sizes[d]);
    if (!dstSize || !srcSize || *srcSize < *dstSize)
      conditions.push_back(arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::ule, size, src.sizes[d]));
    for (const BufferAccess *access : {&src, &dst}) {
      if (access->limits.empty())
        continue;
      Value end = arith::AddIOp::create(builder, loc, access->offsets[d], size);
      conditions.push_back(arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::ule, end, access->limits[d]));
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

/// Copies a whole tile that needs no per-element checks: each thread loads
/// up to 8 of its items into registers, then stores them, so their loads
/// are in flight together.
static void emitBatchedCopy(OpBuilder &builder, Location loc,
                            const BufferAccess &src, const BufferAccess &dst,
                            const ThreadGroup &group, int64_t width,
                            int64_t items) {
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
  Value first = arith::MulIOp::create(
      builder, loc, loop.getInductionVar(),
      indexConstant(builder, loc, batch * group.size));
  Value total = indexConstant(builder, loc, items);
  bool partial = items % group.size != 0;
  SmallVector<std::pair<Value, SmallVector<Value>>> loaded;
  auto load = [&](ArrayRef<Value> coords) -> Value {
    SmallVector<Value> indices = getElementIndices(builder, loc, src, coords);
    if (width > 1)
      return vector::LoadOp::create(builder, loc, cast<VectorType>(valueType),
                                    src.storage, indices, false,
                                    llvm::MaybeAlign(16));
    return memref::LoadOp::create(builder, loc, src.storage, indices);
  };
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
    loaded.push_back({load(coords), coords});
    if (valid)
      loaded.back().second.push_back(valid);
  }
  for (auto &[value, coords] : loaded) {
    OpBuilder::InsertionGuard storeGuard(builder);
    ArrayRef<Value> at = coords;
    if (partial) {
      auto ifValid = scf::IfOp::create(builder, loc, coords.back(), false);
      builder.setInsertionPointToStart(ifValid.thenBlock());
      at = at.drop_back();
    }
    SmallVector<Value> indices = getElementIndices(builder, loc, dst, at);
    if (width > 1)
      vector::StoreOp::create(builder, loc, value, dst.storage, indices, false,
                              llvm::MaybeAlign(16));
    else
      memref::StoreOp::create(builder, loc, value, dst.storage, indices);
  }
}

/// Lowers one data movement op.
static LogicalResult lowerMove(Operation *op, Value source, Value dest,
                               MoveSpec spec,
                               ConversionPatternRewriter &rewriter) {
  Location loc = op->getLoc();
  MemorySpace from = *getMemorySpaceOf(source.getType());
  MemorySpace to = *getMemorySpaceOf(dest.getType());
  bool perThread = from == MemorySpace::Local || to == MemorySpace::Local;
  FailureOr<ThreadGroup> group = getThreadGroup(rewriter, op, perThread);
  if (failed(group))
    return failure();
  FailureOr<BufferAccess> src = getBufferAccess(rewriter, loc, source);
  FailureOr<BufferAccess> dst = getBufferAccess(rewriter, loc, dest);
  if (failed(src) || failed(dst))
    return failure();
  bool touchesShared = from == MemorySpace::Shared || to == MemorySpace::Shared;
  // Earlier readers of the destination (and writers of the source) finish
  // before the move starts.
  if (touchesShared)
    emitGroupBarrier(rewriter, loc, *group);

  int64_t width = getVectorWidth(spec, *src, *dst);
  int64_t eltBytes =
      std::max<int64_t>(1, src->elementType.getIntOrFloatBitWidth() / 8);
  if (spec.isAsync && eltBytes < 4 && width == 1)
    spec.isAsync = false; // cp.async moves at least 4 bytes

  // A synchronous copy of a static tile that lies wholly inside both tensors
  // takes a fast path without per-element checks.
  std::optional<int64_t> items =
      getConstantIntValue(product(rewriter, loc, dst->sizes));
  scf::IfOp ifFast;
  if (spec.kind == MoveSpec::Kind::Copy && !spec.isAsync && items) {
    SmallVector<Value> conditions{
        isWholeTileInside(rewriter, loc, *src, *dst)};
    if (width > 1) {
      conditions.push_back(isAccessAligned(rewriter, loc, *src, eltBytes, 16));
      conditions.push_back(isAccessAligned(rewriter, loc, *dst, eltBytes, 16));
    }
    ifFast = scf::IfOp::create(rewriter, loc,
                               allOf(rewriter, loc, conditions), true);
    rewriter.setInsertionPointToStart(ifFast.thenBlock());
    emitBatchedCopy(rewriter, loc, *src, *dst, *group, width,
                    *items / width);
    rewriter.setInsertionPointToStart(ifFast.elseBlock());
  }
  if (width > 1) {
    Value aligned = allOf(rewriter, loc,
                          {isAccessAligned(rewriter, loc, *src, eltBytes, 16),
                           isAccessAligned(rewriter, loc, *dst, eltBytes, 16)});
    auto ifAligned = scf::IfOp::create(rewriter, loc, aligned, true);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(ifAligned.thenBlock());
      emitMoveLoop(rewriter, loc, spec, *src, *dst, *group, width);
      rewriter.setInsertionPointToStart(ifAligned.elseBlock());
      MoveSpec scalar = spec;
      if (eltBytes < 4)
        scalar.isAsync = false;
      emitMoveLoop(rewriter, loc, scalar, *src, *dst, *group, 1);
    }
  } else {
    emitMoveLoop(rewriter, loc, spec, *src, *dst, *group, 1);
  }
  if (ifFast)
    rewriter.setInsertionPointAfter(ifFast);

  if (op->getNumResults() == 1) {
    // The future: the cp.async group of this copy.
    Value token = nvgpu::DeviceAsyncCreateGroupOp::create(
        rewriter, loc, nvgpu::DeviceAsyncTokenType::get(rewriter.getContext()),
        ValueRange{});
    rewriter.replaceOp(op, token);
    return success();
  }
  if (touchesShared)
    emitGroupBarrier(rewriter, loc, *group);
  rewriter.eraseOp(op);
  return success();
}

namespace {
/// croq.copy dma src -> dst  =>  distributed (vector) loads and stores, or
/// cp.async + commit group when async.
struct CopyOpLowering : OpConversionPattern<CopyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getEngine() != CopyEngine::DMA)
      return rewriter.notifyMatchFailure(op, "tma copies are not lowered here");
    MoveSpec spec;
    spec.isAsync = op.isAsync();
    if (op.getZfill())
      spec.fill = zeroOf(rewriter, op.getLoc(),
                         getElementTypeOrSelf(op.getDest().getType()));
    return lowerMove(op, op.getSource(), op.getDest(), spec, rewriter);
  }
};

/// croq.transpose [p] src -> dst  =>  distributed scalar moves dst[i] =
/// src[perm^-1(i)].
struct TransposeOpLowering : OpConversionPattern<TransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MoveSpec spec;
    spec.kind = MoveSpec::Kind::Transpose;
    spec.permutation = op.getPermutation();
    spec.isAsync = false; // element-wise moves; the future completes at once
    if (failed(lowerMove(op, op.getSource(), op.getDest(), spec, rewriter)))
      return failure();
    return success();
  }
};

/// croq.pad ... src -> dst value v  =>  distributed scalar moves with v
/// where the source has no element.
struct PadOpLowering : OpConversionPattern<PadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MoveSpec spec;
    spec.kind = MoveSpec::Kind::Pad;
    spec.low = op.getLow();
    spec.interior = op.getInterior();
    spec.fill = adaptor.getValue();
    return lowerMove(op, op.getSource(), op.getDest(), spec, rewriter);
  }
};

/// croq.wait %f  =>  cp.async wait (all groups) + barrier of the group.
struct WaitOpLowering : OpConversionPattern<WaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<ThreadGroup> group = getThreadGroup(rewriter, op);
    if (failed(group))
      return failure();
    nvgpu::DeviceAsyncWaitOp::create(rewriter, op.getLoc(),
                                     adaptor.getFuture(),
                                     rewriter.getI32IntegerAttr(0));
    emitGroupBarrier(rewriter, op.getLoc(), *group);
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::croq::populateCroqCopyToGPUPatterns(CroqTypeConverter &converter,
                                   RewritePatternSet &patterns) {
  patterns.add<CopyOpLowering, TransposeOpLowering, PadOpLowering,
               WaitOpLowering>(converter, patterns.getContext());
}
