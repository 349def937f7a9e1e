//===- OneRowProducts.cpp - a one-column A read as its row ----------------===//
//
// The one-row form of a product whose A is stored K x M (OneRowProducts.h).
// At 1x8192x8192 (f16, H200) the staged column cost a device copy before
// the kernel: 0.85 of cuBLAS, where the same product with A stored M x K
// ran 1.10.
//
//===----------------------------------------------------------------------===//

#include "OneRowProducts.h"
#include "IndexBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <limits>

using namespace mlir;
using namespace mlir::croq;

/// The elements the stride along the one row is rounded up to: 128 bytes
/// of 16-bit floats, more than TMA's 16.
static constexpr int64_t kRowStrideElements = 64;

bool mlir::croq::mayHaveOneColumnA(const MatmulSpec &spec) {
  if (spec.batched || spec.conv || !spec.aTransposed)
    return false;
  auto type = dyn_cast<MemRefType>(spec.a.getType());
  if (!type || type.getRank() != 2)
    return false;
  return type.isDynamicDim(1) || type.getDimSize(1) == 1;
}

MatmulSpec mlir::croq::getOneRowSpec(const MatmulSpec &spec) {
  MatmulSpec row = spec;
  row.aTransposed = false;
  return row;
}

Value mlir::croq::emitOneColumnCondition(OpBuilder &b, Location loc,
                                         const MatmulSpec &spec) {
  IndexBuilder e{b, loc};
  auto type = cast<MemRefType>(spec.a.getType());
  auto equal = [&](Value x, int64_t value) {
    return b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, x,
                                         e.c(value));
  };
  // A is K x M: one column where M is 1.
  Value oneColumn = equal(e.dim(spec.a, 1), 1);
  // With the identity layout, A's stride along K is M.
  if (type.getLayout().isIdentity())
    return oneColumn;
  auto [strides, offset] = type.getStridesAndOffset();
  Value stride = ShapedType::isDynamic(strides[0])
                     ? memref::ExtractStridedMetadataOp::create(b, loc, spec.a)
                           .getStrides()[0]
                     : e.c(strides[0]);
  return b.createOrFold<arith::AndIOp>(loc, oneColumn, equal(stride, 1));
}

Value mlir::croq::emitOneRowView(OpBuilder &b, Location loc,
                                 const MatmulSpec &spec) {
  IndexBuilder e{b, loc};
  auto type = cast<MemRefType>(spec.a.getType());
  Value k = e.dim(spec.a, 0);
  OpFoldResult offset;
  auto [strides, staticOffset] = type.getStridesAndOffset();
  if (ShapedType::isDynamic(staticOffset))
    offset =
        memref::ExtractStridedMetadataOp::create(b, loc, spec.a).getOffset();
  else
    offset = b.getIndexAttr(staticOffset);
  Value rowStride = e.roundUp(k, kRowStrideElements);
  int64_t staticK = type.getDimSize(0);
  auto rowType = MemRefType::get(
      {1, staticK}, type.getElementType(),
      StridedLayoutAttr::get(b.getContext(), staticOffset,
                             {ShapedType::isDynamic(staticK)
                                  ? ShapedType::kDynamic
                                  : static_cast<int64_t>(llvm::alignTo(
                                        staticK, kRowStrideElements)),
                              1}),
      type.getMemorySpace());
  return memref::ReinterpretCastOp::create(
      b, loc, rowType, spec.a, offset,
      ArrayRef<OpFoldResult>{b.getIndexAttr(1), getAsOpFoldResult(k)},
      ArrayRef<OpFoldResult>{getAsOpFoldResult(rowStride), b.getIndexAttr(1)});
}

void mlir::croq::keepOneRowVariants(SmallVector<GemmVariant> &variants) {
  int64_t plainRows = std::numeric_limits<int64_t>::max();
  int64_t swappedCols = std::numeric_limits<int64_t>::max();
  for (const GemmVariant &variant : variants) {
    if (variant.tile.swapped)
      swappedCols = std::min(swappedCols, variant.tile.cols);
    else
      plainRows = std::min(plainRows, variant.tile.rows);
  }
  llvm::erase_if(variants, [&](const GemmVariant &variant) {
    if (variant.tile.swapped)
      return variant.tile.cols != swappedCols;
    return variant.tile.rows != plainRows || variant.tile.clusterRows != 1;
  });
}
