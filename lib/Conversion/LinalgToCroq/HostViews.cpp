//===- HostViews.cpp - reshapes of host code as strided views -------------===//
//
// Part of convert-linalg-to-croq, before ops are sorted: a
// memref.expand_shape that splits one dimension into several of unknown
// extent (torch's nn.Linear on a batch x sequence x features input of
// dynamic batch and sequence: collapsed for the product, the result
// expanded back) crashes upstream's expand-strided-metadata, which the
// pipeline runs on host code. Of a contiguous buffer, such a view is the
// buffer reinterpreted with the row-major strides of its extents, which
// that pass takes; the view's type is unchanged.
//
//===----------------------------------------------------------------------===//

#include "Classify.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::croq;

/// Whether a group of `expand`'s reassociation has more than one dimension
/// of dynamic extent.
static bool splitsIntoDynamicDims(memref::ExpandShapeOp expand) {
  MemRefType result = expand.getResultType();
  return llvm::any_of(expand.getReassociationIndices(),
                      [&](const ReassociationIndices &group) {
                        return llvm::count_if(group, [&](int64_t dim) {
                                 return result.isDynamicDim(dim);
                               }) > 1;
                      });
}

/// `a` x `b`, folded where both are constants.
static OpFoldResult multiply(OpBuilder &b, Location loc, OpFoldResult x,
                             OpFoldResult y) {
  std::optional<int64_t> cx = getConstantIntValue(x);
  std::optional<int64_t> cy = getConstantIntValue(y);
  if (cx && cy)
    return b.getIndexAttr(*cx * *cy);
  return arith::MulIOp::create(b, loc,
                               getValueOrCreateConstantIndexOp(b, loc, x),
                               getValueOrCreateConstantIndexOp(b, loc, y))
      .getResult();
}

void mlir::croq::rewriteDynamicExpands(ModuleOp module) {
  SmallVector<memref::ExpandShapeOp> expands;
  module.walk([&](memref::ExpandShapeOp expand) {
    if (splitsIntoDynamicDims(expand) &&
        expand.getSrcType().getLayout().isIdentity() &&
        expand.getResultType().getLayout().isIdentity())
      expands.push_back(expand);
  });
  for (memref::ExpandShapeOp expand : expands) {
    OpBuilder b(expand);
    Location loc = expand.getLoc();
    SmallVector<OpFoldResult> sizes = expand.getMixedOutputShape();
    SmallVector<OpFoldResult> strides(sizes.size(), b.getIndexAttr(1));
    for (int64_t dim = static_cast<int64_t>(sizes.size()) - 2; dim >= 0; --dim)
      strides[dim] = multiply(b, loc, strides[dim + 1], sizes[dim + 1]);
    auto cast = memref::ReinterpretCastOp::create(
        b, loc, expand.getResultType(), expand.getSrc(), b.getIndexAttr(0),
        sizes, strides);
    expand.replaceAllUsesWith(cast.getResult());
    expand.erase();
  }
}
