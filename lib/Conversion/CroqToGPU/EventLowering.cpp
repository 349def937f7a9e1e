//===- EventLowering.cpp - event arrays to mbarriers ----------------------===//
//
// Lowers croq event arrays to mbarrier groups in shared memory, initialized
// with the arrival count croq-plan-events recorded: a trigger after tma loads
// is one arrival (with the loads' bytes as the expected transaction count),
// a plain trigger one arrival per warp that runs it, a cluster trigger one
// per warp on the slot of every block of the cluster. A wait takes the
// thread's phase bits of the array as an SSA value (croq-carry-event-phases)
// and waits for the parity its slot's bit names; the bits are an i64.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::croq;

/// Spins of one mbarrier try-wait before it is retried.
static constexpr int64_t kTryWaitTicks = 10000000;

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

namespace {
/// croq.event.alloc  =>  nvgpu.mbarrier.create, initialized by thread 0 with
/// the array's arrival count.
struct EventAllocOpLowering : OpConversionPattern<EventAllocOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(EventAllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = getTypeConverter()->convertType<nvgpu::MBarrierGroupType>(
        op.getEvents().getType());
    if (!type)
      return failure();
    Value barriers = nvgpu::MBarrierCreateOp::create(rewriter, loc, type);
    Value tid = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
    Value zero = indexConstant(rewriter, loc, 0);
    Value first = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                        tid, zero);
    std::optional<int64_t> arrivals = op.getArrivals();
    if (!arrivals)
      return op.emitOpError("has no arrival count: run croq-plan-events "
                            "first");
    Value count = indexConstant(rewriter, loc, *arrivals);
    for (int64_t slot = 0, e = op.getEvents().getType().getCount(); slot < e;
         ++slot)
      nvgpu::MBarrierInitOp::create(rewriter, loc, barriers, count,
                                    indexConstant(rewriter, loc, slot), first);
    // The barriers are initialized before any thread uses them; in a
    // kernel launched in clusters, before any thread of the cluster does
    // (multicast loads and cluster triggers reach them from other blocks).
    ParallelOp kernel = getKernel(op);
    if (kernel && kernel.getCluster()) {
      NVVM::FenceMbarrierInitOp::create(rewriter, loc);
      emitClusterBarrier(rewriter, loc);
    } else {
      gpu::BarrierOp::create(rewriter, loc);
    }
    rewriter.replaceOp(op, barriers);
    return success();
  }
};

/// croq.event.trigger %e[%i] after (%f...)  =>  the group's first thread
/// arrives on mbarrier %i expecting the bytes of the tma loads (which
/// complete on it); croq.event.trigger %e[%i]  =>  lane 0 of each warp
/// arrives once the warp's threads are done.
struct EventTriggerOpLowering : OpConversionPattern<EventTriggerOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(EventTriggerOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<ThreadGroup> group = getThreadGroup(rewriter, op);
    if (failed(group))
      return failure();
    Value barriers = adaptor.getEvents();
    if (!op.getFutures().empty()) {
      // Only the loads that took the TMA path complete bytes on the
      // barrier; the others were software copies, done before the arrive.
      Value zero = indexConstant(rewriter, loc, 0);
      Value bytes;
      for (Value future : op.getFutures()) {
        // An im2col load fills its whole tile (zeros in the padding).
        if (auto load = future.getDefiningOp<Im2colOp>()) {
          Value size = indexConstant(rewriter, loc,
                                     load.getDest().getType().getSizeInBytes());
          bytes = bytes ? arith::AddIOp::create(rewriter, loc, bytes, size)
                              .getResult()
                        : size;
          continue;
        }
        auto copy = future.getDefiningOp<CopyOp>();
        Value size = indexConstant(
            rewriter, loc,
            cast<TileType>(copy.getDest().getType()).getSizeInBytes());
        // A copy with a software copy took the TMA path if the runtime
        // gave its map (`if %ok`).
        if (Value ok = copy.getUsable()) {
          Value usable = arith::CmpIOp::create(
              rewriter, loc, arith::CmpIPredicate::ne,
              rewriter.getRemappedValue(ok),
              arith::ConstantIntOp::create(rewriter, loc, 0, 32));
          size = arith::SelectOp::create(rewriter, loc, usable, size, zero);
        }
        bytes =
            bytes
                ? arith::AddIOp::create(rewriter, loc, bytes, size).getResult()
                : size;
      }
      Value leader = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::eq, group->threadIndex, zero);
      nvgpu::MBarrierArriveExpectTxOp::create(rewriter, loc, barriers, bytes,
                                              adaptor.getIndex(), leader);
      rewriter.eraseOp(op);
      return success();
    }
    if (op.getCluster())
      return lowerClusterTrigger(op, adaptor, rewriter);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      emitLaneZeroBranch(rewriter, loc);
      nvgpu::MBarrierArriveOp::create(
          rewriter, loc, nvgpu::MBarrierTokenType::get(rewriter.getContext()),
          barriers, adaptor.getIndex());
    }
    rewriter.eraseOp(op);
    return success();
  }

  /// Syncs the warp and opens `scf.if` lane 0, leaving the builder at the
  /// start of its then-block: the warp's accesses before the trigger happen
  /// before lane 0's arrive (a release), so they happen before the waiters'
  /// accesses.
  static void emitLaneZeroBranch(ConversionPatternRewriter &rewriter,
                                 Location loc) {
    NVVM::SyncWarpOp::create(
        rewriter, loc,
        arith::ConstantIntOp::create(rewriter, loc, 0xffffffff, 32));
    Value tid = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
    Value lane = arith::RemUIOp::create(
        rewriter, loc, tid, indexConstant(rewriter, loc, kWarpSize));
    Value laneZero =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, lane,
                              indexConstant(rewriter, loc, 0));
    auto ifLane = scf::IfOp::create(rewriter, loc, laneZero, false);
    rewriter.setInsertionPointToStart(ifLane.thenBlock());
  }

  /// A cluster trigger: lane 0 of each warp arrives on the slot of every
  /// block of the cluster, addressed through `mapa` from the slot's address
  /// in this block. The release is at CTA scope (the default): what the
  /// trigger orders is this block's reads of its own tiles (done before
  /// the arrive) against the writes the arrival lets another block's
  /// producer issue, which the mbarrier's phase orders; release at cluster
  /// scope measured half the speed of the GEMM (a fence per arrive).
  LogicalResult lowerClusterTrigger(EventTriggerOp op, OpAdaptor adaptor,
                                    ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    int64_t blocks = getKernel(op).getClusterBlocks();
    auto groupType =
        cast<nvgpu::MBarrierGroupType>(adaptor.getEvents().getType());
    OpBuilder::InsertionGuard guard(rewriter);
    emitLaneZeroBranch(rewriter, loc);
    // The slot's address in this block's shared memory: the group seen as
    // the i64 memref it lowers to (the casts fold away when nvgpu and
    // memref are lowered to LLVM).
    auto memrefType = MemRefType::get(
        {groupType.getNumBarriers()}, rewriter.getI64Type(), nullptr,
        gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup));
    Value slots = UnrealizedConversionCastOp::create(rewriter, loc, memrefType,
                                                     adaptor.getEvents())
                      .getResult(0);
    Value base =
        memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc, slots);
    Value at = arith::AddIOp::create(
        rewriter, loc, base,
        arith::MulIOp::create(rewriter, loc, adaptor.getIndex(),
                              indexConstant(rewriter, loc, 8)));
    auto sharedPtr = LLVM::LLVMPointerType::get(
        context, static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared));
    auto clusterPtr = LLVM::LLVMPointerType::get(
        context, static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster));
    Value address =
        arith::IndexCastUIOp::create(rewriter, loc, rewriter.getI64Type(), at);
    Value local = LLVM::IntToPtrOp::create(rewriter, loc, sharedPtr, address,
                                           /*dereferenceable=*/nullptr);
    for (int64_t rank = 0; rank < blocks; ++rank) {
      Value remote = NVVM::MapaOp::create(
          rewriter, loc, clusterPtr, local,
          arith::ConstantIntOp::create(rewriter, loc, rank, 32));
      NVVM::MBarrierArriveOp::create(rewriter, loc, /*res=*/Type(), remote,
                                     /*count=*/Value(), NVVM::MemScopeKind::CTA,
                                     /*relaxed=*/false);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// %next = croq.event.wait %e[%i] phases %bits  =>  wait for the phase of
/// mbarrier %i that bit %i of %bits names; %next = %bits with the bit
/// flipped.
struct EventWaitOpLowering : OpConversionPattern<EventWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(EventWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value bits = adaptor.getPhases();
    if (!bits)
      return op.emitOpError("has no phases: run croq-carry-event-phases "
                            "first");
    Value slot = arith::IndexCastUIOp::create(
        rewriter, loc, rewriter.getI64Type(), adaptor.getIndex());
    Value one = arith::ConstantIntOp::create(rewriter, loc, 1, 64);
    Value bit = arith::ShLIOp::create(rewriter, loc, one, slot);
    Value parity = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ne,
        arith::AndIOp::create(rewriter, loc, bits, bit),
        arith::ConstantIntOp::create(rewriter, loc, 0, 64));
    nvgpu::MBarrierTryWaitParityOp::create(
        rewriter, loc, adaptor.getEvents(), parity,
        indexConstant(rewriter, loc, kTryWaitTicks), adaptor.getIndex());
    rewriter.replaceOp(op, arith::XOrIOp::create(rewriter, loc, bits, bit));
    return success();
  }
};

/// croq.event.phases  =>  arith.constant 0 : i64 (-1 with `ready`)
struct EventPhasesOpLowering : OpConversionPattern<EventPhasesOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(EventPhasesOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::ConstantIntOp>(
        op, op.getReady() ? -1 : 0, 64);
    return success();
  }
};
} // namespace

void mlir::croq::populateCroqEventToGPUPatterns(CroqTypeConverter &converter,
                                                RewritePatternSet &patterns) {
  patterns.add<EventAllocOpLowering, EventTriggerOpLowering,
               EventWaitOpLowering, EventPhasesOpLowering>(
      converter, patterns.getContext());
}
