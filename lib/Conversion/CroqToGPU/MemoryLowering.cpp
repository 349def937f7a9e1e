//===- MemoryLowering.cpp - tiles, stages and reshapes --------------------===//
//
// Lowers croq.alloc (shared tiles into the block's dynamic shared memory,
// local tiles onto the stack), croq.stage and croq.span_as.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::croq;

/// Casts `value` to `type` when they differ (identity to dynamic offset).
static Value castTo(OpBuilder &builder, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  return memref::CastOp::create(builder, loc, type, value);
}

namespace {
/// croq.alloc : shared  =>  memref.view of gpu.dynamic_shared_memory at the
/// planned offset; croq.alloc : local  =>  memref.alloca.
struct AllocOpLowering : OpConversionPattern<AllocOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type type = op.getResult().getType();
    auto converted =
        dyn_cast_or_null<MemRefType>(getTypeConverter()->convertType(type));
    if (!converted)
      return op.emitOpError("cannot convert ") << type << " to a memref";
    auto identity = MemRefType::get(converted.getShape(),
                                    converted.getElementType(), nullptr,
                                    converted.getMemorySpace());
    if (getMemorySpaceOf(type) == MemorySpace::Local) {
      Value buffer = memref::AllocaOp::create(rewriter, loc, identity);
      rewriter.replaceOp(op, castTo(rewriter, loc, buffer, converted));
      return success();
    }
    std::optional<int64_t> offset = op.getOffset();
    if (!offset)
      return op.emitOpError("shared buffer has no offset in the block's "
                            "shared memory: run croq-plan-shared-memory "
                            "first");
    auto byteBuffer = MemRefType::get(
        {ShapedType::kDynamic}, rewriter.getI8Type(), nullptr,
        gpu::AddressSpaceAttr::get(rewriter.getContext(),
                                   gpu::AddressSpace::Workgroup));
    Value base = gpu::DynamicSharedMemoryOp::create(rewriter, loc, byteBuffer);
    Value view = memref::ViewOp::create(rewriter, loc, identity, base,
                                        indexConstant(rewriter, loc, *offset),
                                        ValueRange{});
    rewriter.replaceOp(op, castTo(rewriter, loc, view, converted));
    return success();
  }
};

/// croq.stage %ring[%i]  =>  rank-reducing memref.subview of stage %i.
struct StageOpLowering : OpConversionPattern<StageOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(StageOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto ringType = cast<MemRefType>(adaptor.getTiles().getType());
    auto tileType = cast<MemRefType>(
        getTypeConverter()->convertType(op.getResult().getType()));
    int64_t rank = ringType.getRank();
    SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
    offsets[0] = adaptor.getIndex();
    SmallVector<OpFoldResult> sizes{rewriter.getIndexAttr(1)};
    for (int64_t dim : tileType.getShape())
      sizes.push_back(rewriter.getIndexAttr(dim));
    SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
    auto resultType = memref::SubViewOp::inferRankReducedResultType(
        tileType.getShape(), ringType, offsets, sizes, strides);
    Value stage = memref::SubViewOp::create(
        rewriter, loc, cast<MemRefType>(resultType), adaptor.getTiles(),
        offsets, sizes, strides);
    rewriter.replaceOp(op, castTo(rewriter, loc, stage, tileType));
    return success();
  }
};

/// croq.span_as %t  =>  memref.reinterpret_cast of the same storage.
struct SpanAsOpLowering : OpConversionPattern<SpanAsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SpanAsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<MemRefType>(
        getTypeConverter()->convertType(op.getResult().getType()));
    auto metadata = memref::ExtractStridedMetadataOp::create(
        rewriter, loc, adaptor.getSource());
    SmallVector<OpFoldResult> sizes, strides;
    int64_t stride = 1;
    SmallVector<int64_t> shape = llvm::to_vector(resultType.getShape());
    strides.resize(shape.size());
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      strides[d] = rewriter.getIndexAttr(stride);
      stride *= shape[d];
    }
    for (int64_t dim : shape)
      sizes.push_back(rewriter.getIndexAttr(dim));
    rewriter.replaceOpWithNewOp<memref::ReinterpretCastOp>(
        op, resultType, adaptor.getSource(), metadata.getOffset(), sizes,
        strides);
    return success();
  }
};

} // namespace

void mlir::croq::populateCroqDataToGPUPatterns(CroqTypeConverter &converter,
                                               RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<AllocOpLowering, StageOpLowering, SpanAsOpLowering>(converter,
                                                                   context);
  populateCroqMoveToGPUPatterns(converter, patterns);
  populateCroqElementToGPUPatterns(converter, patterns);
}
