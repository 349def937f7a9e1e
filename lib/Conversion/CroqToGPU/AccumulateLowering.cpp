//===- AccumulateLowering.cpp - sums across blocks in global memory -------===//
//
// Lowers the ops with which the blocks of a kernel add their parts of one
// sum into a workspace in global memory: croq.mma.accumulate (a relaxed
// atomic add per accumulator element), croq.bulk_add (one bulk reduction of
// a shared tile), and the turn counters that order those adds
// (croq.turn.wait: one thread's acquire loads at GPU scope and the group's
// barrier; croq.turn.pass: the barrier and one thread's release add).
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::croq;

/// The address, as an LLVM pointer in the global space, of the element of
/// `memref` (a strided memref in global memory) at `indices`.
static Value getGlobalElementPointer(OpBuilder &b, Location loc, Value memref,
                                     ValueRange indices, int64_t eltBytes) {
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value element = metadata.getOffset();
  for (auto [index, stride] : llvm::zip(indices, metadata.getStrides()))
    element = arith::AddIOp::create(
        b, loc, element, arith::MulIOp::create(b, loc, index, stride));
  Value aligned =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value address = arith::AddIOp::create(
      b, loc, aligned,
      arith::MulIOp::create(b, loc, element, indexConstant(b, loc, eltBytes)));
  Value address64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), address);
  auto globalPtr = LLVM::LLVMPointerType::get(
      b.getContext(), static_cast<unsigned>(NVVM::NVVMMemorySpace::Global));
  return LLVM::IntToPtrOp::create(b, loc, globalPtr, address64);
}

/// Opens `scf.if thread index == 0` of `group` and leaves the builder in it.
static void enterFirstThread(OpBuilder &b, Location loc,
                             const ThreadGroup &group) {
  Value first =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, group.threadIndex,
                            indexConstant(b, loc, 0));
  auto ifFirst = scf::IfOp::create(b, loc, first, /*withElseRegion=*/false);
  b.setInsertionPointToStart(ifFirst.thenBlock());
}

namespace {
/// croq.mma.accumulate %acc -> %dest  =>  for each register of each thread
/// (row and column as croq.mma.store's), a relaxed atomic f32 add at GPU
/// scope into the element's address, which ptxas emits as
/// red.global.add.f32 since the result is unused; adds past a view's edge
/// are dropped.
struct MmaAccumulateOpLowering : OpConversionPattern<MmaAccumulateOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MmaAccumulateOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (!isa<LLVM::LLVMStructType>(adaptor.getAcc().getType()))
      return rewriter.notifyMatchFailure(op, "accumulator not in registers");
    FailureOr<BufferAccess> access =
        getBufferAccess(rewriter, loc, op.getDest());
    if (failed(access))
      return failure();
    if (access->space != MemorySpace::Global || access->swizzleBytes)
      return op.emitOpError("adds into global memory only; the destination "
                            "is not a global tensor or a view of one");
    FailureOr<ThreadGroup> group = getThreadGroup(rewriter, op);
    if (failed(group))
      return failure();
    FragmentOrigin origin = getFragmentOrigin(
        rewriter, loc, getWarpAndLane(rewriter, loc, group->threadIndex));
    AccType accType = op.getAcc().getType();
    int64_t blocks = std::max<int64_t>(1, accType.getShape()[0] / 64);
    int64_t perThread = accType.getShape()[1] / 2;
    for (int64_t i = 0; i < blocks; ++i) {
      for (int64_t r = 0; r < perThread; ++r) {
        RegisterOffset offset = getRegisterOffset(i, r);
        Value row =
            arith::AddIOp::create(rewriter, loc, origin.row,
                                  indexConstant(rewriter, loc, offset.row));
        Value col =
            arith::AddIOp::create(rewriter, loc, origin.column,
                                  indexConstant(rewriter, loc, offset.column));
        Value value = LLVM::ExtractValueOp::create(
            rewriter, loc, adaptor.getAcc(), ArrayRef<int64_t>{i, r});
        OpBuilder::InsertionGuard guard(rewriter);
        if (!access->limits.empty()) {
          SmallVector<Value> inside;
          for (auto [d, c] : llvm::enumerate(SmallVector<Value>{row, col}))
            inside.push_back(lessThan(
                rewriter, loc,
                arith::AddIOp::create(rewriter, loc, access->offsets[d], c),
                access->limits[d]));
          auto ifInside = scf::IfOp::create(
              rewriter, loc, allOf(rewriter, loc, inside), false);
          rewriter.setInsertionPointToStart(ifInside.thenBlock());
        }
        Value ptr = getGlobalElementPointer(
            rewriter, loc, access->storage,
            getElementIndices(rewriter, loc, *access, {row, col}), 4);
        LLVM::AtomicRMWOp::create(rewriter, loc, LLVM::AtomicBinOp::fadd, ptr,
                                  value, LLVM::AtomicOrdering::monotonic,
                                  StringRef("device"), /*alignment=*/4);
      }
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// croq.bulk_add %tile -> %dest  =>  fence.proxy.async.shared::cta and the
/// group's barrier, then the group's first thread issues
/// cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 of the tile's
/// bytes (inline asm: the NVVM dialect has the tensor form only) and
/// commits its bulk group.
struct BulkAddOpLowering : OpConversionPattern<BulkAddOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BulkAddOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<BufferAccess> source =
        getBufferAccess(rewriter, loc, op.getSource());
    FailureOr<BufferAccess> dest = getBufferAccess(rewriter, loc, op.getDest());
    if (failed(source) || failed(dest))
      return failure();
    if (source->space != MemorySpace::Shared ||
        dest->space != MemorySpace::Global)
      return op.emitOpError("adds a shared tile into global memory only");
    FailureOr<ThreadGroup> group = getThreadGroup(rewriter, op);
    if (failed(group))
      return failure();
    emitAsyncSharedFence(rewriter, loc);
    emitGroupBarrier(rewriter, loc, *group);
    OpBuilder::InsertionGuard guard(rewriter);
    enterFirstThread(rewriter, loc, *group);
    Value zero = indexConstant(rewriter, loc, 0);
    // The tile's first byte: element 0's storage offset (0 after any
    // swizzle) from the shared buffer's start.
    SmallVector<Value> origin(source->rank(), zero);
    SmallVector<Value> first =
        getElementIndices(rewriter, loc, *source, origin);
    auto metadata = memref::ExtractStridedMetadataOp::create(rewriter, loc,
                                                             source->storage);
    Value element = metadata.getOffset();
    for (auto [index, stride] : llvm::zip(first, metadata.getStrides()))
      element = arith::AddIOp::create(
          rewriter, loc, element,
          arith::MulIOp::create(rewriter, loc, index, stride));
    Value base = memref::ExtractAlignedPointerAsIndexOp::create(
        rewriter, loc, source->storage);
    Value shared = arith::AddIOp::create(
        rewriter, loc, base,
        arith::MulIOp::create(rewriter, loc, element,
                              indexConstant(rewriter, loc, 4)));
    Type i32 = rewriter.getI32Type();
    Value shared32 = arith::IndexCastOp::create(rewriter, loc, i32, shared);
    Value global = getGlobalElementPointer(
        rewriter, loc, dest->storage,
        getElementIndices(rewriter, loc, *dest, {zero}), 4);
    Value global64 =
        LLVM::PtrToIntOp::create(rewriter, loc, rewriter.getI64Type(), global);
    int64_t bytes = op.getSource().getType().getNumElements() * 4;
    Value size = arith::ConstantIntOp::create(rewriter, loc, bytes, 32);
    LLVM::InlineAsmOp::create(
        rewriter, loc, TypeRange{}, ValueRange{global64, shared32, size},
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [$0], "
        "[$1], $2;",
        "l,r,r", /*has_side_effects=*/true, /*is_align_stack=*/false,
        LLVM::TailCallKind::None, /*asm_dialect=*/nullptr,
        /*operand_attrs=*/nullptr);
    NVVM::CpAsyncBulkCommitGroupOp::create(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

/// croq.turn.wait %c[%i] until %n  =>  thread 0 of the group loops on an
/// acquire load at GPU scope (ld.acquire.gpu) of counter %i until it is
/// at least %n; then the group's barrier.
struct TurnWaitOpLowering : OpConversionPattern<TurnWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TurnWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<ThreadGroup> group = getThreadGroup(rewriter, op);
    if (failed(group))
      return failure();
    Type i32 = rewriter.getI32Type();
    {
      OpBuilder::InsertionGuard guard(rewriter);
      enterFirstThread(rewriter, loc, *group);
      Value ptr = getGlobalElementPointer(rewriter, loc, adaptor.getCounters(),
                                          adaptor.getIndex(), 4);
      Value turn =
          arith::IndexCastUIOp::create(rewriter, loc, i32, adaptor.getTurn());
      auto loop =
          scf::WhileOp::create(rewriter, loc, TypeRange{}, ValueRange{});
      rewriter.createBlock(&loop.getBefore());
      Value count = LLVM::LoadOp::create(
          rewriter, loc, i32, ptr, /*alignment=*/4, /*isVolatile=*/false,
          /*isNonTemporal=*/false, /*isInvariant=*/false,
          /*isInvariantGroup=*/false, LLVM::AtomicOrdering::acquire,
          StringRef("device"));
      Value early = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ult, count, turn);
      scf::ConditionOp::create(rewriter, loc, early, ValueRange{});
      Block *after = rewriter.createBlock(&loop.getAfter());
      rewriter.setInsertionPointToStart(after);
      scf::YieldOp::create(rewriter, loc);
      // The group's later bulk adds (async proxy) come after the acquire.
      rewriter.setInsertionPointAfter(loop);
      NVVM::FenceProxyOp::create(
          rewriter, loc,
          NVVM::ProxyKindAttr::get(rewriter.getContext(),
                                   NVVM::ProxyKind::async_global),
          NVVM::SharedSpaceAttr());
    }
    emitGroupBarrier(rewriter, loc, *group);
    rewriter.eraseOp(op);
    return success();
  }
};

/// croq.turn.pass %c[%i]  =>  the group's barrier, then thread 0 adds one
/// to counter %i after a release fence at GPU scope: the barrier orders
/// the group's writes before the fence, which makes them visible to a wait
/// that acquires the new count.
struct TurnPassOpLowering : OpConversionPattern<TurnPassOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TurnPassOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<ThreadGroup> group = getThreadGroup(rewriter, op);
    if (failed(group))
      return failure();
    emitGroupBarrier(rewriter, loc, *group);
    OpBuilder::InsertionGuard guard(rewriter);
    enterFirstThread(rewriter, loc, *group);
    Value ptr = getGlobalElementPointer(rewriter, loc, adaptor.getCounters(),
                                        adaptor.getIndex(), 4);
    Value one = arith::ConstantIntOp::create(rewriter, loc, 1, 32);
    // This thread's completed bulk adds (async proxy) before the release.
    NVVM::FenceProxyOp::create(
        rewriter, loc,
        NVVM::ProxyKindAttr::get(rewriter.getContext(),
                                 NVVM::ProxyKind::async_global),
        NVVM::SharedSpaceAttr());
    // The NVPTX back end drops the ordering of an atomicrmw (it emits a
    // relaxed atom): the release is a fence.acq_rel.gpu before it.
    LLVM::FenceOp::create(rewriter, loc, LLVM::AtomicOrdering::release,
                          StringRef("device"));
    LLVM::AtomicRMWOp::create(rewriter, loc, LLVM::AtomicBinOp::add, ptr, one,
                              LLVM::AtomicOrdering::monotonic,
                              StringRef("device"), /*alignment=*/4);
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::croq::populateCroqAccumulateToGPUPatterns(
    CroqTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<MmaAccumulateOpLowering, BulkAddOpLowering, TurnWaitOpLowering,
               TurnPassOpLowering>(converter, patterns.getContext());
}
