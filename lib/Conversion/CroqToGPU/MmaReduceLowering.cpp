//===- MmaReduceLowering.cpp - reductions and A operands in registers -----===//
//
// Lowers croq.mma.reduce and croq.mma.convert. A row of a wgmma accumulator
// lies in the registers of the four lanes of a quad, so a thread reduces its
// own registers of the row and two butterfly shuffles finish it. A column
// lies in eight lanes of each of the four warps: shuffles reduce within the
// warp, then one lane of each quad leaves the warp's partial results in the
// scratch tile and every thread combines the four. croq.mma.convert packs
// pairs of accumulator registers into the registers wgmma reads A from.
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

/// `a` combined with `b` by `kind`.
static Value combine(OpBuilder &builder, Location loc, ReduceKind kind, Value a,
                     Value b) {
  bool isFloat = isa<FloatType>(a.getType());
  switch (kind) {
  case ReduceKind::Max:
    return isFloat ? arith::MaximumFOp::create(builder, loc, a, b).getResult()
                   : arith::MaxSIOp::create(builder, loc, a, b).getResult();
  case ReduceKind::Min:
    return isFloat ? arith::MinimumFOp::create(builder, loc, a, b).getResult()
                   : arith::MinSIOp::create(builder, loc, a, b).getResult();
  case ReduceKind::Sum:
    return isFloat ? arith::AddFOp::create(builder, loc, a, b).getResult()
                   : arith::AddIOp::create(builder, loc, a, b).getResult();
  }
  llvm_unreachable("unknown reduction");
}

/// `value` combined with the values of the lanes `offsets` away (butterfly
/// shuffles over the whole warp).
static Value reduceAcrossLanes(OpBuilder &builder, Location loc,
                               ReduceKind kind, Value value,
                               ArrayRef<int32_t> offsets) {
  Type i32 = builder.getI32Type();
  Value all = arith::ConstantIntOp::create(builder, loc, -1, 32);
  Value clamp = arith::ConstantIntOp::create(builder, loc, 0x1f, 32);
  for (int32_t offset : offsets) {
    Value by = arith::ConstantIntOp::create(builder, loc, i32, offset);
    Value other = NVVM::ShflOp::create(builder, loc, value.getType(), all,
                                       value, by, clamp, NVVM::ShflKind::bfly,
                                       /*return_value_and_is_valid=*/nullptr);
    value = combine(builder, loc, kind, value, other);
  }
  return value;
}

/// The thread's own reduction of the accumulator registers that element
/// `position` of the result vector of `type` covers.
static Value reduceRegisters(OpBuilder &builder, Location loc, ReduceKind kind,
                             Value acc, LLVM::LLVMStructType accType,
                             VecType type, int64_t position) {
  Value result;
  for (auto [i, rowsType] : llvm::enumerate(accType.getBody())) {
    int64_t block = static_cast<int64_t>(i);
    int64_t registers = cast<LLVM::LLVMStructType>(rowsType).getBody().size();
    for (int64_t r = 0; r < registers; ++r) {
      if (getVecPosition(type, block, r) != position)
        continue;
      Value element = LLVM::ExtractValueOp::create(builder, loc, acc,
                                                   ArrayRef<int64_t>{block, r});
      result = result ? combine(builder, loc, kind, result, element) : element;
    }
  }
  return result;
}

namespace {
/// croq.mma.reduce <kind> %acc [scratch %t]  =>  per vector element: the
/// thread's registers combined, shuffles across the lanes that share the
/// row (xor 1, 2) or column (xor 4, 8, 16); for columns then the four warps'
/// partial results through the scratch tile between two warpgroup barriers.
struct MmaReduceOpLowering : OpConversionPattern<MmaReduceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MmaReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    VecType type = op.getResult().getType();
    auto accType = getAccStructType(op.getAcc().getType());
    auto vecType = getVecStructType(type);
    if (!accType || !vecType)
      return rewriter.notifyMatchFailure(op, "not in wgmma fragments");
    bool rows = type.getAxis() == AccAxis::Rows;
    int64_t count = vecType.getBody().size();
    SmallVector<Value> values;
    for (int64_t e = 0; e < count; ++e)
      values.push_back(reduceAcrossLanes(
          rewriter, loc, op.getKind(),
          reduceRegisters(rewriter, loc, op.getKind(), adaptor.getAcc(),
                          accType, type, e),
          rows ? ArrayRef<int32_t>{1, 2} : ArrayRef<int32_t>{4, 8, 16}));
    if (!rows && failed(combineWarps(rewriter, op, values)))
      return failure();
    Value result = LLVM::UndefOp::create(rewriter, loc, vecType);
    for (auto [e, value] : llvm::enumerate(values))
      result = LLVM::InsertValueOp::create(rewriter, loc, result, value,
                                           static_cast<int64_t>(e));
    rewriter.replaceOp(op, result);
    return success();
  }

  /// Replaces each warp's column results `values` by the reduction over the
  /// four warps: after a barrier lanes 0-3 store them in row `warp` of the
  /// scratch tile, and after another every thread reads its columns' four
  /// rows; a third barrier ends the use of the tile.
  LogicalResult combineWarps(ConversionPatternRewriter &rewriter,
                             MmaReduceOp op,
                             MutableArrayRef<Value> values) const {
    Location loc = op.getLoc();
    FailureOr<ThreadGroup> group = getThreadGroup(rewriter, op);
    if (failed(group))
      return failure();
    FailureOr<BufferAccess> scratch =
        getBufferAccess(rewriter, loc, op.getScratch());
    if (failed(scratch))
      return failure();
    FragmentOrigin origin = getFragmentOrigin(
        rewriter, loc, getWarpAndLane(rewriter, loc, group->threadIndex));
    VecType type = op.getResult().getType();
    auto column = [&](int64_t e) {
      return getVecIndex(rewriter, loc, type, origin, e);
    };
    // The barrier before the stores: the scratch tile's earlier readers are
    // done with it.
    emitGroupBarrier(rewriter, loc, *group);
    Value firstQuad =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                              origin.lane, indexConstant(rewriter, loc, 4));
    auto store = scf::IfOp::create(rewriter, loc, firstQuad);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(store.thenBlock());
      for (auto [e, value] : llvm::enumerate(values))
        memref::StoreOp::create(rewriter, loc, value, scratch->storage,
                                getElementIndices(rewriter, loc, *scratch,
                                                  {origin.warp, column(e)}));
    }
    emitGroupBarrier(rewriter, loc, *group);
    for (size_t e = 0; e < values.size(); ++e) {
      Value col = column(e);
      Value total;
      for (int64_t warp = 0; warp < 4; ++warp) {
        Value part = memref::LoadOp::create(
            rewriter, loc, scratch->storage,
            getElementIndices(rewriter, loc, *scratch,
                              {indexConstant(rewriter, loc, warp), col}));
        total =
            total ? combine(rewriter, loc, op.getKind(), total, part) : part;
      }
      values[e] = total;
    }
    // And after: the scratch tile is free again for any writer.
    emitGroupBarrier(rewriter, loc, *group);
    return success();
  }
};

/// croq.mma.convert %acc  =>  per 64 rows, registers 2 k and 2 k + 1
/// rounded to the operand type and packed into A register k (the wgmma A
/// fragment of columns 16 t.. 16 t + 15 is accumulator registers 8 t to
/// 8 t + 7), each pinned, then a wgmma fence: wgmma reads registers the
/// thread just wrote.
struct MmaConvertOpLowering : OpConversionPattern<MmaConvertOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MmaConvertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto fragType = getRegisterFragStructType(op.getResult().getType());
    if (!fragType || !getAccStructType(op.getAcc().getType()))
      return rewriter.notifyMatchFailure(op, "not in wgmma fragments");
    Type element = op.getResult().getType().getElementType();
    auto pairF32 = VectorType::get({2}, rewriter.getF32Type());
    auto pair = VectorType::get({2}, element);
    Value result = buildRegisterStruct(
        rewriter, loc, fragType, [&](int64_t block, int64_t k) {
          Value packed = LLVM::UndefOp::create(rewriter, loc, pairF32);
          for (int64_t half = 0; half < 2; ++half) {
            Value value = LLVM::ExtractValueOp::create(
                rewriter, loc, adaptor.getAcc(),
                ArrayRef<int64_t>{block, 2 * k + half});
            packed = LLVM::InsertElementOp::create(
                rewriter, loc, packed, value,
                arith::ConstantIntOp::create(rewriter, loc, half, 32));
          }
          Value rounded = LLVM::FPTruncOp::create(rewriter, loc, pair, packed);
          Value bits = LLVM::BitcastOp::create(rewriter, loc,
                                               rewriter.getI32Type(), rounded);
          return pinRegister(rewriter, loc, bits);
        });
    NVVM::WgmmaFenceAlignedOp::create(rewriter, loc);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// croq.mma.slice %acc[c]  =>  per 64 rows, registers c / 2 to
/// (c + W) / 2 - 1 of the accumulator: the registers of column group j
/// are 4 j to 4 j + 3 (getRegisterOffset), so W columns from c are a run
/// of W / 2 registers. Nothing moves; the registers are renamed.
struct MmaSliceOpLowering : OpConversionPattern<MmaSliceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MmaSliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto structType = getAccStructType(op.getResult().getType());
    if (!structType || !getAccStructType(op.getAcc().getType()))
      return rewriter.notifyMatchFailure(op, "not in wgmma fragments");
    int64_t first = op.getColumn() / 2;
    Value result = buildRegisterStruct(
        rewriter, loc, structType, [&](int64_t block, int64_t reg) -> Value {
          return LLVM::ExtractValueOp::create(
              rewriter, loc, adaptor.getAcc(),
              ArrayRef<int64_t>{block, first + reg});
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};
} // namespace

void mlir::croq::populateCroqMmaReduceToGPUPatterns(
    CroqTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<MmaReduceOpLowering, MmaConvertOpLowering, MmaSliceOpLowering>(
      converter, patterns.getContext());
}
