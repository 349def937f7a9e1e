//===- Im2colLowering.cpp - im2col loads to bulk tensor copies ------------===//
//
// Lowers croq.im2col: one cp.async.bulk.tensor im2col load of the whole
// pixels x channels tile, issued by the group's first thread, completing on
// the mbarrier of the event slot its trigger names (croq-lower-tma-futures
// gives every load one), which expects its bytes. nvgpu has no im2col load,
// so the load is NVVM's, addressed through pointers: the tensor map's bytes
// (croq-pass-tensor-maps-by-value makes them the kernel parameter's
// address), the tile in dynamic shared memory and the slot's mbarrier.
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

/// A shared-memory pointer (address space 3) to the byte at `address`, an
/// index holding a shared-window address.
static Value getSharedPointer(OpBuilder &builder, Location loc, Value address) {
  auto sharedPtr = LLVM::LLVMPointerType::get(
      builder.getContext(),
      static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared));
  Value bits =
      arith::IndexCastUIOp::create(builder, loc, builder.getI64Type(), address);
  return LLVM::IntToPtrOp::create(builder, loc, sharedPtr, bits,
                                  /*dereferenceable=*/nullptr);
}

/// The address of slot `index` of the mbarrier group `events`: the group
/// seen as the i64 memref it lowers to (the casts fold away when nvgpu and
/// memref are lowered to LLVM).
static Value getSlotPointer(OpBuilder &builder, Location loc, Value events,
                            Value index) {
  auto groupType = cast<nvgpu::MBarrierGroupType>(events.getType());
  auto memrefType = MemRefType::get(
      {groupType.getNumBarriers()}, builder.getI64Type(), nullptr,
      gpu::AddressSpaceAttr::get(builder.getContext(),
                                 gpu::AddressSpace::Workgroup));
  Value slots =
      UnrealizedConversionCastOp::create(builder, loc, memrefType, events)
          .getResult(0);
  Value base =
      memref::ExtractAlignedPointerAsIndexOp::create(builder, loc, slots);
  Value at = arith::AddIOp::create(
      builder, loc, base,
      arith::MulIOp::create(builder, loc, index,
                            indexConstant(builder, loc, 8)));
  return getSharedPointer(builder, loc, at);
}

/// The address of shared tile `tile` (placed by croq-plan-shared-memory).
static FailureOr<Value> getTilePointer(OpBuilder &builder, Location loc,
                                       Value tile) {
  FailureOr<Value> offset = getSharedTileByteOffset(builder, loc, tile);
  if (failed(offset))
    return failure();
  MLIRContext *context = builder.getContext();
  auto workgroup =
      gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup);
  auto bytesType = MemRefType::get({ShapedType::kDynamic}, builder.getI8Type(),
                                   nullptr, workgroup);
  Value smem = gpu::DynamicSharedMemoryOp::create(builder, loc, bytesType);
  Value base =
      memref::ExtractAlignedPointerAsIndexOp::create(builder, loc, smem);
  return getSharedPointer(builder, loc,
                          arith::AddIOp::create(builder, loc, base, *offset));
}

/// `values` (indices, outermost first) as `width`-bit integers, innermost
/// first: the order of the bulk copy's operands.
static SmallVector<Value> toOperands(OpBuilder &builder, Location loc,
                                     ValueRange values, unsigned width) {
  SmallVector<Value> operands;
  Type type = builder.getIntegerType(width);
  for (Value value : llvm::reverse(values))
    operands.push_back(arith::IndexCastOp::create(builder, loc, type, value));
  return operands;
}

namespace {
/// croq.im2col %x[coords] offsets [offsets] -> %t map %m  (future consumed
/// by croq.event.trigger %e[%i])  =>  scf.if thread 0 {
/// nvvm.cp.async.bulk.tensor.shared.cluster.global %t, %m, %e[%i],
/// box [coords] im2col [offsets] }; the trigger expects the tile's bytes.
struct Im2colOpLowering : OpConversionPattern<Im2colOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Im2colOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    EventTriggerOp trigger = op.getTrigger();
    if (!trigger)
      return op.emitOpError("completes on no event: run "
                            "croq-lower-tma-futures first");
    FailureOr<ThreadGroup> group = getThreadGroup(rewriter, op);
    if (failed(group))
      return failure();
    FailureOr<Value> tile = getTilePointer(rewriter, loc, op.getDest());
    if (failed(tile))
      return op.emitOpError("the shared tile of an im2col load must be an "
                            "allocation placed by croq-plan-shared-memory, "
                            "or a stage of one");
    // The map's bytes seen as the descriptor pointer the load reads.
    Value map =
        UnrealizedConversionCastOp::create(
            rewriter, loc, LLVM::LLVMPointerType::get(rewriter.getContext()),
            adaptor.getMap())
            .getResult(0);
    Value barrier = getSlotPointer(
        rewriter, loc, rewriter.getRemappedValue(trigger.getEvents()),
        rewriter.getRemappedValue(trigger.getIndex()));
    SmallVector<Value> coords =
        toOperands(rewriter, loc, adaptor.getCoords(), 32);
    SmallVector<Value> offsets =
        toOperands(rewriter, loc, adaptor.getOffsets(), 16);
    Value first = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                        group->threadIndex,
                                        indexConstant(rewriter, loc, 0));
    auto ifFirst = scf::IfOp::create(rewriter, loc, first,
                                     /*withElseRegion=*/false);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(ifFirst.thenBlock());
      // The load writes shared::cluster addresses; this block's tile is one.
      Value dest = LLVM::AddrSpaceCastOp::create(
          rewriter, loc,
          LLVM::LLVMPointerType::get(
              rewriter.getContext(),
              static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster)),
          *tile);
      NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
          rewriter, loc, dest, map, coords, barrier, offsets,
          /*multicastMask=*/Value(), /*l2CacheHint=*/Value(),
          NVVM::TMALoadMode::IM2COL, /*isCTAOnly=*/false,
          /*group=*/nullptr, /*predicate=*/Value());
    }
    // The future is the event slot's mbarrier: the trigger that consumes
    // it expects the tile's bytes.
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::croq::populateCroqIm2colToGPUPatterns(CroqTypeConverter &converter,
                                                 RewritePatternSet &patterns) {
  patterns.add<Im2colOpLowering>(converter, patterns.getContext());
}
