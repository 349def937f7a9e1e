//===- MmaMapLowering.cpp - computation on accumulators in registers ------===//
//
// Lowers croq.mma.map, croq.vec.map, croq.vec.fill and croq.vec.store: each
// thread of the warpgroup runs the body once per element it holds, with the
// element's row and column (or index) and the matching elements of the other
// inputs, and the yielded values make its new registers. Nothing moves through
// memory.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::croq;

/// Clones the body of `op` (ending in croq.yield) with `mapping` and returns
/// the value it yields.
static Value cloneBody(ConversionPatternRewriter &rewriter, Block &body,
                       IRMapping &mapping) {
  for (Operation &inner : body.without_terminator())
    rewriter.clone(inner, mapping);
  auto yield = cast<YieldOp>(body.getTerminator());
  return mapping.lookupOrDefault(yield.getValues()[0]);
}

/// The fragment origin of the thread running `op` in its warpgroup.
static FailureOr<FragmentOrigin>
getThreadOrigin(ConversionPatternRewriter &rewriter, Operation *op) {
  FailureOr<ThreadGroup> group = getThreadGroup(rewriter, op);
  if (failed(group))
    return failure();
  return getFragmentOrigin(
      rewriter, op->getLoc(),
      getWarpAndLane(rewriter, op->getLoc(), group->threadIndex));
}

namespace {
/// croq.mma.map %acc, %in... (%row, %col, %x, %y...)  =>  per fragment
/// register: extract it and the matching element of each input (the same
/// register of another accumulator, the element of its row or column of a
/// vector), the body with those substituted, insert; the registers' rows
/// and columns as FragmentOrigin gives them. A result that may reach a wgmma
/// is pinned and fenced for it.
struct MmaMapOpLowering : OpConversionPattern<MmaMapOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MmaMapOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto structType = getAccStructType(op.getAcc().getType());
    if (!structType)
      return rewriter.notifyMatchFailure(op, "accumulator not in fragments");
    for (Value input : adaptor.getInputs())
      if (!isa<LLVM::LLVMStructType>(input.getType()))
        return rewriter.notifyMatchFailure(op, "input not in registers");
    FailureOr<FragmentOrigin> origin = getThreadOrigin(rewriter, op);
    if (failed(origin))
      return failure();

    Block &body = op.getBody().front();
    Value acc = adaptor.getAcc();
    Value result = buildRegisterStruct(
        rewriter, loc, structType, [&](int64_t block, int64_t r) {
          SmallVector<int64_t> position{block, r};
          RegisterOffset offset = getRegisterOffset(block, r);
          IRMapping mapping;
          mapping.map(
              op.getRow(),
              arith::AddIOp::create(rewriter, loc, origin->row,
                                    indexConstant(rewriter, loc, offset.row)));
          mapping.map(op.getColumn(),
                      arith::AddIOp::create(
                          rewriter, loc, origin->column,
                          indexConstant(rewriter, loc, offset.column)));
          mapping.map(op.getElement(), LLVM::ExtractValueOp::create(
                                           rewriter, loc, acc, position));
          for (auto [n, input] : llvm::enumerate(adaptor.getInputs())) {
            SmallVector<int64_t> at = position;
            if (auto vec = dyn_cast<VecType>(op.getInputs()[n].getType()))
              at = {getVecPosition(vec, block, r)};
            mapping.map(op.getInputElement(n),
                        LLVM::ExtractValueOp::create(rewriter, loc, input, at));
          }
          return cloneBody(rewriter, body, mapping);
        });
    // wgmma reads registers the thread just wrote: pinned, they are
    // written before the fence, not recomputed after it.
    if (mayFeedWgmma(op.getResult()))
      result = fenceAccumulator(rewriter, loc, result);
    rewriter.replaceOp(op, result);
    return success();
  }

  /// Whether `result` may reach a wgmma as its accumulator: it is used by
  /// something other than the ops that read accumulators as plain
  /// registers (a croq.mma, or a loop or branch yielding it on).
  static bool mayFeedWgmma(Value result) {
    return llvm::any_of(result.getUsers(), [](Operation *user) {
      return !isa<MmaMapOp, MmaReduceOp, MmaStoreOp, MmaConvertOp, MmaSliceOp>(
          user);
    });
  }
};

/// croq.vec.map %v, %in... (%i, %x, %y...)  =>  per element a thread holds:
/// its row or column, the elements of the inputs at the same position, the
/// body, insert.
struct VecMapOpLowering : OpConversionPattern<VecMapOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(VecMapOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    VecType type = op.getVec().getType();
    auto structType = getVecStructType(type);
    if (!structType)
      return rewriter.notifyMatchFailure(op, "vector not in registers");
    for (Value operand : adaptor.getOperands())
      if (!isa<LLVM::LLVMStructType>(operand.getType()))
        return rewriter.notifyMatchFailure(op, "input not in registers");
    FailureOr<FragmentOrigin> origin = getThreadOrigin(rewriter, op);
    if (failed(origin))
      return failure();

    Block &body = op.getBody().front();
    Value result = LLVM::UndefOp::create(rewriter, loc, structType);
    for (int64_t e = 0, count = structType.getBody().size(); e < count; ++e) {
      IRMapping mapping;
      mapping.map(op.getIndex(), getVecIndex(rewriter, loc, type, *origin, e));
      for (auto [n, operand] : llvm::enumerate(adaptor.getOperands()))
        mapping.map(body.getArgument(1 + n),
                    LLVM::ExtractValueOp::create(rewriter, loc, operand, e));
      Value value = cloneBody(rewriter, body, mapping);
      result = LLVM::InsertValueOp::create(rewriter, loc, result, value, e);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};
/// croq.vec.store %v -> %dest  =>  per element a thread holds: if the
/// thread is the element's writer (column origin 0 for a row, row origin 0
/// for a column) and the element lies inside the tensor, memref.store at
/// the view's origin + (0, .., 0, index).
struct VecStoreOpLowering : OpConversionPattern<VecStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(VecStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    VecType type = op.getVec().getType();
    auto structType = getVecStructType(type);
    if (!structType)
      return rewriter.notifyMatchFailure(op, "vector not in registers");
    if (!isa<LLVM::LLVMStructType>(adaptor.getVec().getType()))
      return rewriter.notifyMatchFailure(op, "input not in registers");
    FailureOr<FragmentOrigin> origin = getThreadOrigin(rewriter, op);
    if (failed(origin))
      return failure();
    FailureOr<BufferAccess> access =
        getBufferAccess(rewriter, loc, op.getDest());
    if (failed(access))
      return failure();
    Value zero = indexConstant(rewriter, loc, 0);
    Value across =
        type.getAxis() == AccAxis::Rows ? origin->column : origin->row;
    Value writer = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, across, zero);
    int64_t rank = access->rank();
    for (int64_t e = 0, count = structType.getBody().size(); e < count; ++e) {
      SmallVector<Value> coords(rank, zero);
      coords.back() = getVecIndex(rewriter, loc, type, *origin, e);
      SmallVector<Value> conditions{writer};
      if (!access->limits.empty())
        for (int64_t d = 0; d < rank; ++d)
          conditions.push_back(
              lessThan(rewriter, loc,
                       arith::AddIOp::create(rewriter, loc, access->offsets[d],
                                             coords[d]),
                       access->limits[d]));
      SmallVector<Value> indices =
          getElementIndices(rewriter, loc, *access, coords);
      Value value =
          LLVM::ExtractValueOp::create(rewriter, loc, adaptor.getVec(), e);
      OpBuilder::InsertionGuard guard(rewriter);
      auto ifWriter = scf::IfOp::create(
          rewriter, loc, allOf(rewriter, loc, conditions), false);
      rewriter.setInsertionPointToStart(ifWriter.thenBlock());
      memref::StoreOp::create(rewriter, loc, value, access->storage, indices);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// croq.vec.fill %v  =>  the vector struct with every element %v.
struct VecFillOpLowering : OpConversionPattern<VecFillOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(VecFillOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto structType = getVecStructType(op.getResult().getType());
    if (!structType)
      return rewriter.notifyMatchFailure(op, "vector not in registers");
    Value result = LLVM::UndefOp::create(rewriter, loc, structType);
    for (int64_t e = 0, count = structType.getBody().size(); e < count; ++e)
      result = LLVM::InsertValueOp::create(rewriter, loc, result,
                                           adaptor.getValue(), e);
    rewriter.replaceOp(op, result);
    return success();
  }
};
} // namespace

void mlir::croq::populateCroqMmaMapToGPUPatterns(CroqTypeConverter &converter,
                                                 RewritePatternSet &patterns) {
  patterns.add<MmaMapOpLowering, VecMapOpLowering, VecFillOpLowering,
               VecStoreOpLowering>(converter, patterns.getContext());
}
