//===- TmaLowering.cpp - tma copies to bulk tensor copies -----------------===//
//
// Lowers tma copies between a global tensor and a shared tile: the host asks
// the runtime for the tensor map before the kernel (TmaHost.cpp) and the
// kernel receives its 128 bytes by value. Where the runtime says TMA cannot
// move the tensor, the kernel takes a software (dma) copy instead. On the
// TMA path a load is issued by one thread and completes on the event slot
// its trigger names (croq-lower-tma-futures gives every load one), which
// expects its bytes; a multicast load is issued in shares by the blocks of
// its cluster, each share written into every block. A store is fenced,
// issued by one thread and drained through a bulk group.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "Croq/Dialect/Croq/IR/TileLayout.h"
#include "Croq/Dialect/Croq/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::croq;

/// The swizzle kind of a tensor map for a tile of `swizzle`.
static nvgpu::TensorMapSwizzleKind getTensorMapSwizzle(Swizzle swizzle) {
  switch (swizzle) {
  case Swizzle::B32:
    return nvgpu::TensorMapSwizzleKind::SWIZZLE_32B;
  case Swizzle::B64:
    return nvgpu::TensorMapSwizzleKind::SWIZZLE_64B;
  case Swizzle::B128:
    return nvgpu::TensorMapSwizzleKind::SWIZZLE_128B;
  case Swizzle::None:
  case Swizzle::Auto:
    return nvgpu::TensorMapSwizzleKind::SWIZZLE_NONE;
  }
  return nvgpu::TensorMapSwizzleKind::SWIZZLE_NONE;
}

FailureOr<Value> mlir::croq::getSharedTileByteOffset(OpBuilder &builder,
                                                     Location loc, Value tile) {
  Operation *def = tile.getDefiningOp();
  if (auto alloc = dyn_cast_or_null<AllocOp>(def)) {
    std::optional<int64_t> offset = alloc.getOffset();
    if (!offset)
      return failure();
    return indexConstant(builder, loc, *offset);
  }
  if (auto stage = dyn_cast_or_null<StageOp>(def)) {
    FailureOr<Value> base =
        getSharedTileByteOffset(builder, loc, stage.getTiles());
    if (failed(base))
      return failure();
    int64_t bytes = stage.getResult().getType().getSizeInBytes();
    Value step = arith::MulIOp::create(builder, loc, stage.getIndex(),
                                       indexConstant(builder, loc, bytes));
    return arith::AddIOp::create(builder, loc, *base, step).getResult();
  }
  return failure();
}

/// The software copy that stands in for a tma copy whose tensor TMA cannot
/// move: a dma copy split into each thread's moves, zero-filling past the
/// tensor's edge (where the source can end before the tile) as TMA does for a
/// load. A load's data is then made visible to the async proxy (wgmma reads
/// through it) before the group goes on.
static LogicalResult emitSoftwareCopy(ConversionPatternRewriter &rewriter,
                                      CopyOp op, bool isLoad) {
  Location loc = op.getLoc();
  bool zfill =
      isLoad &&
      copySourceCanBeSmaller(
          op.getSource(), cast<ShapedType>(op.getDest().getType()).getShape());
  auto copy = CopyOp::create(rewriter, loc, /*future=*/Type(), CopyEngine::DMA,
                             op.getSource(), op.getDest(), /*map=*/Value(),
                             /*usable=*/Value(), zfill, op.getSwizzleAttr(),
                             /*box=*/nullptr, /*boxOrigins=*/nullptr);
  // Each thread's moves, as croq-distribute-copies makes them; this
  // conversion lowers them next.
  if (failed(distributeMove(rewriter, copy)))
    return failure();
  if (!isLoad)
    return success();
  FailureOr<ThreadGroup> group = getThreadGroup(rewriter, op);
  if (failed(group))
    return failure();
  emitAsyncSharedFence(rewriter, loc);
  emitGroupBarrier(rewriter, loc, *group);
  return success();
}

/// `scf.if %usable { ... } else { software copy }`, with the builder left in
/// the then-block; nothing without `usable` (a copy without the software
/// copy, which only runs where TMA can move its tensor).
static LogicalResult emitTmaOrSoftware(ConversionPatternRewriter &rewriter,
                                       CopyOp op, Value usable, bool isLoad) {
  if (!usable)
    return success();
  auto ifUsable = scf::IfOp::create(rewriter, op.getLoc(), usable,
                                    /*withElseRegion=*/true);
  rewriter.setInsertionPointToStart(ifUsable.elseBlock());
  if (failed(emitSoftwareCopy(rewriter, op, isLoad)))
    return failure();
  rewriter.setInsertionPointToStart(ifUsable.thenBlock());
  return success();
}

namespace {
/// What the bulk copies of one tma copy are emitted from.
struct TmaCopySite {
  bool isLoad;
  TileType tileType;
  /// The tensor map as the descriptor the bulk copies take.
  Value map;
  /// Whether the runtime let TMA move the tensor; null where the copy has no
  /// software copy.
  Value usable;
  /// Each box's view in shared memory and its coordinates in the tensor,
  /// innermost first.
  SmallVector<std::pair<Value, SmallVector<Value>>> boxes;
  Value zero;
};
} // namespace

namespace mlir::croq {
/// Lowers tma copies. A load's future is the event slot its trigger names,
/// which stands for it: the trigger expects the load's bytes.
struct TmaLowering {
  /// Everything the bulk copies of `op` need, emitted before them: the
  /// host's tensor map seen as a descriptor, whether to take the TMA path
  /// (null: always), and the views of the boxes in shared memory and their
  /// coordinates in the tensor.
  FailureOr<TmaCopySite> prepare(CopyOp op, CopyOp::Adaptor adaptor,
                                 ConversionPatternRewriter &rewriter) {
    Location loc = op.getLoc();
    bool isLoad =
        getMemorySpaceOf(op.getDest().getType()) == MemorySpace::Shared;
    Value global = isLoad ? op.getSource() : op.getDest();
    Value tile = isLoad ? op.getDest() : op.getSource();
    auto tileType = cast<TileType>(tile.getType());
    FailureOr<BufferAccess> access = getBufferAccess(rewriter, loc, global);
    if (failed(access))
      return failure();
    auto view = global.getDefiningOp<ViewOp>();
    if (view && view.getStaticBounds())
      return op.emitOpError("tma copies clip at the tensor's edge only; a "
                            "window of a window cannot be copied by tma");
    Type elementType = tileType.getElementType();
    if (!adaptor.getMap())
      return op.emitOpError("has no tensor map: run croq-emit-tensor-maps "
                            "first");
    MLIRContext *context = rewriter.getContext();
    auto workgroup =
        gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup);
    // The tile moves as the boxes croq-plan-tma-boxes recorded: one per
    // slab of a tile wider than its swizzle span, dimensions above 256 split.
    SharedTileLayout layout = SharedTileLayout::get(tileType);
    ArrayRef<int64_t> pieceBox = *op.getBox();
    ArrayRef<int64_t> origins = *op.getBoxOrigins();
    auto boxType = MemRefType::get(pieceBox, elementType, nullptr, workgroup);
    auto mapType = nvgpu::TensorMapDescriptorType::get(
        context, boxType, getTensorMapSwizzle(tileType.getSwizzle()),
        nvgpu::TensorMapL2PromoKind::L2PROMO_NONE,
        nvgpu::TensorMapOOBKind::OOB_ZERO,
        nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
    // In the kernel: the map's bytes seen as the descriptor the bulk copies
    // take (croq-pass-tensor-maps-by-value resolves this to the parameter's
    // address), and, for a copy with a software copy, whether the runtime
    // let TMA move the tensor. Without one the host refuses the launch when
    // it did not (croqRtTensorMapRequire), and the kernel moves the tile by
    // TMA unconditionally.
    Value map = UnrealizedConversionCastOp::create(rewriter, loc, mapType,
                                                   adaptor.getMap())
                    .getResult(0);
    Value usable;
    if (adaptor.getUsable())
      usable = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ne, adaptor.getUsable(),
          arith::ConstantIntOp::create(rewriter, loc, 0, 32));

    // The tile as the plain memref the bulk copy addresses.
    FailureOr<Value> offset = getSharedTileByteOffset(rewriter, loc, tile);
    if (failed(offset))
      return op.emitOpError("the shared tile of a tma copy must be an "
                            "allocation placed by croq-plan-shared-memory, "
                            "or a stage of one");
    auto bytesType = MemRefType::get({ShapedType::kDynamic},
                                     rewriter.getI8Type(), nullptr, workgroup);
    Value smem = gpu::DynamicSharedMemoryOp::create(rewriter, loc, bytesType);
    // Each piece: its place in the tile, and its coordinates in the tensor,
    // innermost first.
    SmallVector<std::pair<Value, SmallVector<Value>>> boxes;
    int64_t rank = pieceBox.size();
    for (int64_t first = 0, e = origins.size(); first < e; first += rank) {
      ArrayRef<int64_t> origin = origins.slice(first, rank);
      Value at = arith::AddIOp::create(
          rewriter, loc, *offset,
          indexConstant(rewriter, loc, layout.getLinearByteOffset(origin)));
      Value view = memref::ViewOp::create(rewriter, loc, boxType, smem, at,
                                          ValueRange{});
      SmallVector<Value> coords;
      for (int64_t d = rank - 1; d >= 0; --d)
        coords.push_back(
            arith::AddIOp::create(rewriter, loc, access->offsets[d],
                                  indexConstant(rewriter, loc, origin[d])));
      boxes.push_back({view, coords});
    }
    Value zero = indexConstant(rewriter, loc, 0);
    return TmaCopySite{isLoad, tileType, map, usable, std::move(boxes), zero};
  }

  /// The multicast mask (i16) of a load shared by `shares` blocks, and this
  /// block's rank among them (i32). Shared by the whole cluster: every
  /// block, at its cluster rank. Shared along cluster dimension d: the
  /// blocks whose other coordinates are this block's, at its coordinate d.
  /// A cluster's ranks run over its last dimension first (it is launched
  /// on x), so coordinate d has the stride of the sizes after it.
  static std::pair<Value, Value>
  emitMulticastSharing(OpBuilder &b, Location loc, CopyOp op, int64_t shares) {
    Value rank = NVVM::ClusterId::create(b, loc, b.getI32Type());
    std::optional<uint64_t> dim = op.getMulticastDim();
    if (!dim)
      return {arith::ConstantIntOp::create(b, loc, (1 << shares) - 1, 16),
              rank};
    ArrayRef<int64_t> sizes = *getKernel(op).getCluster();
    int64_t stride = 1;
    for (int64_t size : sizes.drop_front(*dim + 1))
      stride *= size;
    auto i32 = [&](int64_t value) {
      return arith::ConstantIntOp::create(b, loc, value, 32);
    };
    // coordinate = rank / stride % shares; the first sharing block's rank
    // = rank - coordinate * stride.
    Value coordinate = arith::RemUIOp::create(
        b, loc, arith::DivUIOp::create(b, loc, rank, i32(stride)), i32(shares));
    Value first = arith::SubIOp::create(
        b, loc, rank, arith::MulIOp::create(b, loc, coordinate, i32(stride)));
    int64_t pattern = 0;
    for (int64_t j = 0; j < shares; ++j)
      pattern |= int64_t(1) << (j * stride);
    Value mask = arith::ShLIOp::create(b, loc, i32(pattern), first);
    mask = arith::TruncIOp::create(b, loc, b.getI16Type(), mask);
    return {mask, coordinate};
  }

  /// A load that completes on the event slot its trigger names: the trigger
  /// arrives expecting its bytes if it took the TMA path. The group's first
  /// thread issues it.
  LogicalResult lowerLoadOnEvent(CopyOp op, EventTriggerOp trigger,
                                 TmaCopySite &site,
                                 ConversionPatternRewriter &rewriter) {
    Location loc = op.getLoc();
    FailureOr<ThreadGroup> issuing = getThreadGroup(rewriter, op);
    if (failed(issuing))
      return failure();
    Value first = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                        issuing->threadIndex, site.zero);
    Value barriers = rewriter.getRemappedValue(trigger.getEvents());
    {
      OpBuilder::InsertionGuard guard(rewriter);
      if (failed(emitTmaOrSoftware(rewriter, op, site.usable, true)))
        return failure();
      // A multicast load: block r of the n blocks that share it issues
      // boxes r, r + n, ..., each written into every sharing block's tile
      // and completing on every sharing block's slot.
      int64_t shares = op.getShares();
      Value mask, rank;
      if (shares > 1)
        std::tie(mask, rank) = emitMulticastSharing(rewriter, loc, op, shares);
      for (auto [i, box] : llvm::enumerate(site.boxes)) {
        Value issue = first;
        if (shares > 1)
          issue = arith::AndIOp::create(
              rewriter, loc, first,
              arith::CmpIOp::create(
                  rewriter, loc, arith::CmpIPredicate::eq, rank,
                  arith::ConstantIntOp::create(rewriter, loc, i % shares, 32)));
        nvgpu::TmaAsyncLoadOp::create(rewriter, loc, box.first, barriers,
                                      site.map, box.second, trigger.getIndex(),
                                      mask, issue);
      }
    }
    // The future is the event slot's mbarrier: the trigger that consumes
    // it expects the bytes, and nothing else stands for it.
    rewriter.eraseOp(op);
    return success();
  }

  /// A store: every thread's writes to the tile are made visible to the
  /// async proxy, then the group's first thread issues the bulk copy.
  LogicalResult lowerStore(CopyOp op, TmaCopySite &site,
                           ConversionPatternRewriter &rewriter) {
    Location loc = op.getLoc();
    // A synchronous store drains its bulk group before the group goes on;
    // an async one is left in flight: the group waits for it to have read
    // the tile before the tile is written again (croq.wait_stores read,
    // placed by croq-wait-async-stores), and every thread drains its bulk
    // groups before the kernel ends.
    FailureOr<ThreadGroup> group = getThreadGroup(rewriter, op);
    if (failed(group))
      return failure();
    Value first = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                        group->threadIndex, site.zero);
    emitAsyncSharedFence(rewriter, loc);
    emitGroupBarrier(rewriter, loc, *group);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      if (failed(emitTmaOrSoftware(rewriter, op, site.usable, false)))
        return failure();
      auto ifFirst = scf::IfOp::create(rewriter, loc, first, false);
      rewriter.setInsertionPointToStart(ifFirst.thenBlock());
      for (auto &[view, coords] : site.boxes)
        nvgpu::TmaAsyncStoreOp::create(rewriter, loc, view, site.map, coords,
                                       /*predicate=*/Value());
      NVVM::CpAsyncBulkCommitGroupOp::create(rewriter, loc);
      if (!op.isAsync())
        NVVM::CpAsyncBulkWaitGroupOp::create(rewriter, loc,
                                             rewriter.getI32IntegerAttr(0),
                                             rewriter.getUnitAttr());
    }
    // An async store's future is its bulk group, which croq.wait drains.
    if (!op.isAsync())
      emitGroupBarrier(rewriter, loc, *group);
    rewriter.eraseOp(op);
    return success();
  }

  LogicalResult lower(CopyOp op, CopyOp::Adaptor adaptor,
                      ConversionPatternRewriter &rewriter) {
    FailureOr<TmaCopySite> site = prepare(op, adaptor, rewriter);
    if (failed(site))
      return failure();
    if (!site->isLoad)
      return lowerStore(op, *site, rewriter);
    EventTriggerOp trigger = op.getTrigger();
    if (!trigger)
      return op.emitOpError("completes on no event: run "
                            "croq-lower-tma-futures first");
    return lowerLoadOnEvent(op, trigger, *site, rewriter);
  }
};
} // namespace mlir::croq

namespace {
/// croq.copy tma global -> shared  =>  scf.if usable {
/// cp.async.bulk.tensor on the trigger's mbarrier (one thread) } else {
/// dma copy };
/// shared -> global  =>  proxy fence + scf.if usable { bulk tensor store
/// (one thread) + bulk group drain } else { dma copy }.
struct TmaCopyOpLowering : OpConversionPattern<CopyOp> {
  TmaCopyOpLowering(const TypeConverter &converter, MLIRContext *context)
      : OpConversionPattern(converter, context, /*benefit=*/2) {}
  LogicalResult
  matchAndRewrite(CopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getEngine() != CopyEngine::TMA)
      return rewriter.notifyMatchFailure(op, "not a tma copy");
    return TmaLowering{}.lower(op, adaptor, rewriter);
  }
};

/// croq.wait %f of an async tma store  =>  cp.async.bulk.wait_group 0 (the
/// issuing thread's groups) + a barrier of the executing group.
struct TmaWaitOpLowering : OpConversionPattern<WaitOp> {
  TmaWaitOpLowering(const TypeConverter &converter, MLIRContext *context)
      : OpConversionPattern(converter, context, /*benefit=*/2) {}
  LogicalResult
  matchAndRewrite(WaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto copyOp = op.getFuture().getDefiningOp<CopyOp>();
    if (!copyOp || copyOp.getEngine() != CopyEngine::TMA)
      return rewriter.notifyMatchFailure(op, "not the future of a tma copy");
    if (getMemorySpaceOf(copyOp.getSource().getType()) != MemorySpace::Shared)
      return op.emitOpError("waits on a tma load, which completes on an "
                            "event slot: run croq-lower-tma-futures first");
    // The issuing thread waits for its bulk groups to complete (the others
    // have none), then the group goes on together.
    FailureOr<ThreadGroup> group = getThreadGroup(rewriter, op);
    if (failed(group))
      return failure();
    NVVM::CpAsyncBulkWaitGroupOp::create(rewriter, op.getLoc(),
                                         rewriter.getI32IntegerAttr(0),
                                         /*read=*/nullptr);
    emitGroupBarrier(rewriter, op.getLoc(), *group);
    rewriter.eraseOp(op);
    return success();
  }
};

/// croq.wait_stores read  =>  cp.async.bulk.wait_group.read 0 + a barrier of
/// the executing group; croq.wait_stores  =>  cp.async.bulk.wait_group 0.
struct WaitStoresOpLowering : OpConversionPattern<WaitStoresOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WaitStoresOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    NVVM::CpAsyncBulkWaitGroupOp::create(
        rewriter, loc, rewriter.getI32IntegerAttr(0),
        op.getRead() ? rewriter.getUnitAttr() : nullptr);
    if (op.getRead()) {
      FailureOr<ThreadGroup> group = getThreadGroup(rewriter, op);
      if (failed(group))
        return failure();
      emitGroupBarrier(rewriter, loc, *group);
    }
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::croq::populateCroqTmaToGPUPatterns(CroqTypeConverter &converter,
                                              RewritePatternSet &patterns) {
  patterns.add<TmaCopyOpLowering, TmaWaitOpLowering, WaitStoresOpLowering>(
      converter, patterns.getContext());
}
