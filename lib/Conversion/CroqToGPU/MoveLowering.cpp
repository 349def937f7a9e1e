//===- MoveLowering.cpp - each thread's moves, and waits ------------------===//
//
// Lowers the per-thread pieces croq-distribute-copies splits dma copies,
// transposes and pads into, one op each: croq.thread_index to the thread's
// index, croq.barrier to a block or named barrier, croq.is_aligned to an
// address test, croq.copy_chunk to cp.async, croq.commit_copies to its
// group commit, and croq.wait of such a future to the group wait and a
// barrier. A dma copy, transpose or pad that reaches this conversion is an
// error that names the pass.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

using namespace mlir;
using namespace mlir::croq;

/// The executing thread's index in its block, or in its warpgroup.
static Value emitThreadIndex(OpBuilder &builder, Location loc,
                             ParallelLevel level) {
  Value tid = gpu::ThreadIdOp::create(builder, loc, gpu::Dimension::x);
  if (level == ParallelLevel::Warpgroup)
    tid = arith::RemUIOp::create(builder, loc, tid,
                                 indexConstant(builder, loc, kWarpgroupSize));
  return tid;
}

namespace {
/// croq.thread_index block  =>  gpu.thread_id x; warpgroup  =>  its
/// remainder by 128.
struct ThreadIndexOpLowering : OpConversionPattern<ThreadIndexOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ThreadIndexOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op,
                       emitThreadIndex(rewriter, op.getLoc(), op.getLevel()));
    return success();
  }
};

/// croq.warp_index block  =>  gpu.thread_id x / 32, shuffled from lane 0
/// (shfl.sync.idx), so that the compiler sees one value per warp;
/// warpgroup  =>  the same of its remainder by 128.
struct WarpIndexOpLowering : OpConversionPattern<WarpIndexOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WarpIndexOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value tid = emitThreadIndex(rewriter, loc, op.getLevel());
    Value warp = arith::DivUIOp::create(
        rewriter, loc, tid, indexConstant(rewriter, loc, kWarpSize));
    Type i32 = rewriter.getI32Type();
    Value warp32 = arith::IndexCastUIOp::create(rewriter, loc, i32, warp);
    Value all = arith::ConstantIntOp::create(rewriter, loc, -1, 32);
    Value lane0 = arith::ConstantIntOp::create(rewriter, loc, 0, 32);
    Value clamp =
        arith::ConstantIntOp::create(rewriter, loc, kThreadsPerWarp - 1, 32);
    Value uniform = NVVM::ShflOp::create(rewriter, loc, i32, all, warp32, lane0,
                                         clamp, NVVM::ShflKind::idx,
                                         /*return_value_and_is_valid=*/nullptr);
    rewriter.replaceOpWithNewOp<arith::IndexCastUIOp>(
        op, rewriter.getIndexType(), uniform);
    return success();
  }
};

/// croq.barrier block  =>  gpu.barrier; warpgroup  =>  the named barrier
/// 1 + warpgroup index of 128 threads. With `async`, a
/// fence.proxy.async.shared::cta before it.
struct BarrierOpLowering : OpConversionPattern<BarrierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ThreadGroup group;
    group.level = op.getLevel();
    if (group.level == ParallelLevel::Warpgroup) {
      Value tid = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
      group.warpgroupIndex = arith::DivUIOp::create(
          rewriter, loc, tid, indexConstant(rewriter, loc, kWarpgroupSize));
    }
    if (op.getAsync())
      emitAsyncSharedFence(rewriter, loc);
    emitGroupBarrier(rewriter, loc, group);
    rewriter.eraseOp(op);
    return success();
  }
};

/// croq.cluster.rank  =>  %cluster_ctarank as an index.
struct ClusterRankOpLowering : OpConversionPattern<ClusterRankOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ClusterRankOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value rank =
        NVVM::ClusterId::create(rewriter, op.getLoc(), rewriter.getI32Type());
    rewriter.replaceOpWithNewOp<arith::IndexCastUIOp>(
        op, rewriter.getIndexType(), rank);
    return success();
  }
};

/// croq.cluster.barrier  =>  barrier.cluster.arrive.aligned (release) and
/// barrier.cluster.wait.aligned (acquire).
struct ClusterBarrierOpLowering : OpConversionPattern<ClusterBarrierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ClusterBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    emitClusterBarrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

/// croq.named_barrier.sync %id, threads = n  =>  nvvm.barrier (bar.sync),
/// and croq.named_barrier.arrive  =>  nvvm.barrier.arrive (bar.arrive), of
/// hardware barrier kFirstNamedBarrier + id and n threads.
template <typename NamedBarrierOp>
struct NamedBarrierOpLowering : OpConversionPattern<NamedBarrierOp> {
  using OpConversionPattern<NamedBarrierOp>::OpConversionPattern;
  using OpAdaptor = typename NamedBarrierOp::Adaptor;
  LogicalResult
  matchAndRewrite(NamedBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value hardware =
        arith::AddIOp::create(rewriter, loc, adaptor.getId(),
                              indexConstant(rewriter, loc, kFirstNamedBarrier));
    Value id = arith::IndexCastOp::create(rewriter, loc, rewriter.getI32Type(),
                                          hardware);
    Value count =
        arith::ConstantIntOp::create(rewriter, loc, op.getThreads(), 32);
    if constexpr (std::is_same_v<NamedBarrierOp, NamedBarrierSyncOp>)
      NVVM::BarrierOp::create(rewriter, loc, /*res=*/Type(), id, count,
                              /*reductionOp=*/nullptr,
                              /*reductionPredicate=*/Value());
    else
      NVVM::BarrierArriveOp::create(rewriter, loc, id, count);
    rewriter.eraseOp(op);
    return success();
  }
};

/// croq.is_aligned %b, n  =>  the origin's address and the outer strides in
/// bytes modulo n, compared with zero.
struct IsAlignedOpLowering : OpConversionPattern<IsAlignedOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(IsAlignedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<BufferAccess> access =
        getBufferAccess(rewriter, op.getLoc(), op.getBuffer());
    if (failed(access))
      return failure();
    int64_t eltBytes =
        std::max<int64_t>(1, access->elementType.getIntOrFloatBitWidth() / 8);
    rewriter.replaceOp(op, isAccessAligned(rewriter, op.getLoc(), *access,
                                           eltBytes, op.getBytes()));
    return success();
  }
};

/// croq.copy_chunk  =>  nvgpu.device_async_copy (cp.async, bypassing L1 for
/// 16-byte chunks), from the source's origin when no element is valid.
struct CopyChunkOpLowering : OpConversionPattern<CopyChunkOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CopyChunkOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<BufferAccess> src =
        getBufferAccess(rewriter, loc, op.getSource());
    FailureOr<BufferAccess> dst = getBufferAccess(rewriter, loc, op.getDest());
    if (failed(src) || failed(dst))
      return failure();
    SmallVector<Value> srcCoords(adaptor.getSourceIndices());
    SmallVector<Value> dstCoords(adaptor.getDestIndices());
    int64_t bytes =
        op.getWidth() * src->elementType.getIntOrFloatBitWidth() / 8;
    // An empty chunk reads nothing, but its address must be valid: it reads
    // at the source's origin.
    SmallVector<Value> srcIndices =
        getElementIndices(rewriter, loc, *src, srcCoords);
    Value empty = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                        adaptor.getValid(),
                                        indexConstant(rewriter, loc, 0));
    for (auto [i, origin] : llvm::enumerate(src->offsets))
      srcIndices[i] =
          arith::SelectOp::create(rewriter, loc, empty, origin, srcIndices[i]);
    nvgpu::DeviceAsyncCopyOp::create(
        rewriter, loc, nvgpu::DeviceAsyncTokenType::get(rewriter.getContext()),
        dst->storage, getElementIndices(rewriter, loc, *dst, dstCoords),
        src->storage, srcIndices, rewriter.getIndexAttr(op.getWidth()),
        adaptor.getValid(),
        /*bypassL1=*/bytes == 16 ? rewriter.getUnitAttr() : UnitAttr());
    rewriter.eraseOp(op);
    return success();
  }
};

/// croq.commit_copies  =>  nvgpu.device_async_create_group.
struct CommitCopiesOpLowering : OpConversionPattern<CommitCopiesOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CommitCopiesOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<nvgpu::DeviceAsyncCreateGroupOp>(
        op, nvgpu::DeviceAsyncTokenType::get(rewriter.getContext()),
        ValueRange{});
    return success();
  }
};

/// A dma copy, transpose or pad left undistributed: an error naming the
/// pass that splits it.
template <typename MoveOp>
struct UndistributedMoveLowering : OpConversionPattern<MoveOp> {
  using OpConversionPattern<MoveOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MoveOp op, typename MoveOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if constexpr (std::is_same_v<MoveOp, CopyOp>)
      if (op.getEngine() != CopyEngine::DMA)
        return rewriter.notifyMatchFailure(op, "tma copies are lowered "
                                               "elsewhere");
    return op.emitOpError("is not distributed over threads: run "
                          "croq-distribute-copies first");
  }
};

/// croq.wait %f of a cp.async group  =>  cp.async wait (all groups) + a
/// barrier of the group.
struct WaitOpLowering : OpConversionPattern<WaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<ThreadGroup> group = getThreadGroup(rewriter, op);
    if (failed(group))
      return failure();
    nvgpu::DeviceAsyncWaitOp::create(rewriter, op.getLoc(), adaptor.getFuture(),
                                     rewriter.getI32IntegerAttr(0));
    emitGroupBarrier(rewriter, op.getLoc(), *group);
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::croq::populateCroqMoveToGPUPatterns(CroqTypeConverter &converter,
                                               RewritePatternSet &patterns) {
  patterns
      .add<ThreadIndexOpLowering, WarpIndexOpLowering, BarrierOpLowering,
           NamedBarrierOpLowering<NamedBarrierSyncOp>,
           NamedBarrierOpLowering<NamedBarrierArriveOp>, ClusterRankOpLowering,
           ClusterBarrierOpLowering, IsAlignedOpLowering, CopyChunkOpLowering,
           CommitCopiesOpLowering, UndistributedMoveLowering<CopyOp>,
           UndistributedMoveLowering<TransposeOp>,
           UndistributedMoveLowering<PadOp>, WaitOpLowering>(
          converter, patterns.getContext());
}
