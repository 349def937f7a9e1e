//===- ElementLowering.cpp - foreach, read and write ----------------------===//
//
// Lowers element-wise loops, distributed over the threads of the executing
// group, and element reads and writes, masked at a tensor's edge. An
// approximate f32 math.exp2 in a kernel (a softmax's) becomes one
// ex2.approx.ftz.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::croq;

/// Memref indices of element `indices` of `access`, and whether it is
/// inside the tensor (null: always, or the access is `inBounds`).
static std::pair<SmallVector<Value>, Value>
resolveElement(OpBuilder &builder, Location loc, const BufferAccess &access,
               ValueRange indices, bool inBounds) {
  SmallVector<Value> conditions;
  for (auto [d, index] : llvm::enumerate(indices)) {
    if (access.limits.empty() || inBounds)
      break;
    Value i = arith::AddIOp::create(builder, loc, access.offsets[d], index);
    conditions.push_back(lessThan(builder, loc, i, access.limits[d]));
  }
  SmallVector<Value> coords(indices.begin(), indices.end());
  return {getElementIndices(builder, loc, access, coords),
          conditions.empty() ? Value() : allOf(builder, loc, conditions)};
}

/// The bytes a vector access moves, which its address is aligned to.
static int64_t getAccessBytes(VectorType type) {
  return type.getNumElements() * type.getElementTypeBitWidth() / 8;
}

/// Whether the body of `op` writes a shared buffer.
static bool writesShared(Operation *op) {
  WalkResult result = op->walk([](Operation *inner) {
    OpOperand *target = getWrittenBufferOperand(inner);
    if (target &&
        getMemorySpaceOf(target->get().getType()) == MemorySpace::Shared)
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

namespace {
/// croq.foreach (%i..) in [n..] { body }  =>
///   scf.for %e = tid to n0*n1*.. step group_size { %i.. = delinearize(%e);
///   body }  (+ a barrier when the body writes shared memory)
struct ForeachOpLowering : OpConversionPattern<ForeachOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ForeachOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<ThreadGroup> group = getThreadGroup(rewriter, op);
    if (failed(group))
      return failure();
    SmallVector<Value> extents;
    for (OpFoldResult ofr : op.getMixedExtents())
      extents.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, ofr));
    Value total = product(rewriter, loc, extents);
    bool needsBarrier = writesShared(op);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      Value item = emitDistributedLoop(rewriter, loc, *group, total);
      SmallVector<Value> ivs = delinearize(rewriter, loc, item, extents);
      Block &body = op.getBody().front();
      rewriter.inlineBlockBefore(&body, rewriter.getInsertionBlock()->getTerminator(),
                                 ivs);
    }
    if (needsBarrier)
      emitGroupBarrier(rewriter, loc, *group);
    rewriter.eraseOp(op);
    return success();
  }
};

/// croq.read %b[%i..]  =>  memref.load at the view's origin + %i.., zero
/// past the tensor's edge unless in_bounds; a vector read  =>  vector.load
/// aligned to its size.
struct ReadOpLowering : OpConversionPattern<ReadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<BufferAccess> access =
        getBufferAccess(rewriter, loc, op.getSource());
    if (failed(access))
      return failure();
    auto [indices, inside] = resolveElement(rewriter, loc, *access,
                                            adaptor.getIndices(),
                                            op.getInBounds());
    Type type = op.getResult().getType();
    if (auto vectorType = dyn_cast<VectorType>(type)) {
      rewriter.replaceOpWithNewOp<vector::LoadOp>(
          op, vectorType, access->storage, indices, /*nontemporal=*/false,
          llvm::MaybeAlign(getAccessBytes(vectorType)));
      return success();
    }
    if (!inside) {
      rewriter.replaceOpWithNewOp<memref::LoadOp>(op, access->storage, indices);
      return success();
    }
    auto ifInside = scf::IfOp::create(rewriter, loc, TypeRange{type}, inside,
                                      /*withElse=*/true);
    rewriter.setInsertionPointToStart(ifInside.thenBlock());
    Value v = memref::LoadOp::create(rewriter, loc, access->storage, indices);
    scf::YieldOp::create(rewriter, loc, v);
    rewriter.setInsertionPointToStart(ifInside.elseBlock());
    scf::YieldOp::create(rewriter, loc,
                         arith::ConstantOp::create(rewriter, loc,
                                                   rewriter.getZeroAttr(type))
                             .getResult());
    rewriter.replaceOp(op, ifInside.getResult(0));
    return success();
  }
};

/// croq.write %v, %b[%i..]  =>  memref.store, dropped past the tensor's
/// edge unless in_bounds; a vector write  =>  vector.store aligned to its
/// size.
struct WriteOpLowering : OpConversionPattern<WriteOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WriteOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<BufferAccess> access =
        getBufferAccess(rewriter, loc, op.getDest());
    if (failed(access))
      return failure();
    auto [indices, inside] = resolveElement(rewriter, loc, *access,
                                            adaptor.getIndices(),
                                            op.getInBounds());
    if (auto vectorType = dyn_cast<VectorType>(op.getValue().getType())) {
      vector::StoreOp::create(rewriter, loc, adaptor.getValue(),
                              access->storage, indices, /*nontemporal=*/false,
                              llvm::MaybeAlign(getAccessBytes(vectorType)));
      rewriter.eraseOp(op);
      return success();
    }
    if (inside) {
      auto ifInside = scf::IfOp::create(rewriter, loc, inside, false);
      rewriter.setInsertionPointToStart(ifInside.thenBlock());
    }
    memref::StoreOp::create(rewriter, loc, adaptor.getValue(), access->storage,
                            indices);
    rewriter.eraseOp(op);
    return success();
  }
};

/// math.exp2 %x fastmath<afn> : f32 in a kernel  =>  ex2.approx.ftz.f32,
/// one MUFU.EX2 (without ftz, the hardware instruction is wrapped in a
/// rescaling for denormal results: four instructions more).
struct ApproximateExp2Lowering : OpConversionPattern<math::Exp2Op> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(math::Exp2Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isApproximateKernelExp2(op))
      return rewriter.notifyMatchFailure(op, "not an approximate f32 exp2");
    rewriter.replaceOp(
        op, LLVM::CallIntrinsicOp::create(
                rewriter, op.getLoc(), rewriter.getF32Type(),
                rewriter.getStringAttr("llvm.nvvm.ex2.approx.ftz.f32"),
                adaptor.getOperand())
                .getResult(0));
    return success();
  }
};
} // namespace

bool mlir::croq::isApproximateKernelExp2(math::Exp2Op op) {
  return op.getType().isF32() &&
         bitEnumContainsAll(op.getFastmath(), arith::FastMathFlags::afn) &&
         op->getParentOfType<ParallelOp>();
}

void mlir::croq::populateCroqElementToGPUPatterns(
    CroqTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ForeachOpLowering, ReadOpLowering, WriteOpLowering,
               ApproximateExp2Lowering>(converter, patterns.getContext());
}
