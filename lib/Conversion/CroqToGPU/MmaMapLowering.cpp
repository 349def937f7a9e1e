//===- MmaMapLowering.cpp - computation on accumulators in registers ------===//
//
// Lowers croq.mma.map: each thread of the warpgroup runs the body once per
// element of its wgmma fragments, with the element's row and column in the
// accumulator, and the yielded values make the new fragments. Nothing moves
// through memory.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::croq;

namespace {
/// croq.mma.map %acc (%row, %col, %x)  =>  per fragment register: extract,
/// the body with row, column and value substituted, insert; the registers'
/// rows and columns as FragmentOrigin gives them.
struct MmaMapOpLowering : OpConversionPattern<MmaMapOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MmaMapOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto structType = getAccStructType(op.getAcc().getType());
    if (!structType)
      return rewriter.notifyMatchFailure(op, "accumulator not in fragments");
    FailureOr<ThreadGroup> group = getThreadGroup(rewriter, op);
    if (failed(group))
      return failure();
    FragmentOrigin origin = getFragmentOrigin(
        rewriter, loc, getWarpAndLane(rewriter, loc, group->threadIndex));
    Value row0 = origin.row, col0 = origin.column;

    Block &body = op.getBody().front();
    auto yield = cast<YieldOp>(body.getTerminator());
    Value acc = adaptor.getAcc();
    Value result = LLVM::UndefOp::create(rewriter, loc, structType);
    for (auto [i, rowsType] : llvm::enumerate(structType.getBody())) {
      int64_t registers = cast<LLVM::LLVMStructType>(rowsType).getBody().size();
      for (int64_t r = 0; r < registers; ++r) {
        SmallVector<int64_t> position{static_cast<int64_t>(i), r};
        int64_t j = r / 4, q = r % 4;
        IRMapping mapping;
        mapping.map(op.getRow(),
                    arith::AddIOp::create(
                        rewriter, loc, row0,
                        indexConstant(rewriter, loc, 64 * i + 8 * (q / 2))));
        mapping.map(
            op.getColumn(),
            arith::AddIOp::create(rewriter, loc, col0,
                                  indexConstant(rewriter, loc, 8 * j + q % 2)));
        mapping.map(op.getElement(),
                    LLVM::ExtractValueOp::create(rewriter, loc, acc, position));
        for (Operation &inner : body.without_terminator())
          rewriter.clone(inner, mapping);
        Value value = mapping.lookupOrDefault(yield.getValues()[0]);
        result =
            LLVM::InsertValueOp::create(rewriter, loc, result, value, position);
      }
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};
} // namespace

void mlir::croq::populateCroqMmaMapToGPUPatterns(CroqTypeConverter &converter,
                                                 RewritePatternSet &patterns) {
  patterns.add<MmaMapOpLowering>(converter, patterns.getContext());
}
