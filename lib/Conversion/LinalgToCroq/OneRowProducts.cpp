//===- OneRowProducts.cpp - one-column operands read as rows --------------===//
//
// The one-row forms of products with a one-column operand
// (OneRowProducts.h). At 1x8192x8192 (f16, H200) A's staged column cost a
// device copy before the kernel: 0.85 of cuBLAS, where the same product
// with A stored M x K ran 1.10. A matrix-vector product (N = 1) staged its
// B and its C: 0.46-0.63 of cuBLAS at 4096x1x4096 to 11008x1x4096.
//
//===----------------------------------------------------------------------===//

#include "OneRowProducts.h"
#include "IndexBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/TypeUtilities.h"

#include <limits>

using namespace mlir;
using namespace mlir::croq;

/// The elements the stride along the one row is rounded up to: 128 bytes
/// of 16-bit floats, more than TMA's 16.
static constexpr int64_t kRowStrideElements = 64;

/// Whether `value` is a memref of two dimensions whose dimension `dim` is
/// 1 or dynamic.
static bool mayHaveUnitDim(Value value, int64_t dim) {
  auto type = dyn_cast<MemRefType>(value.getType());
  if (!type || type.getRank() != 2)
    return false;
  return type.isDynamicDim(dim) || type.getDimSize(dim) == 1;
}

/// The extent of one of `spec`'s products: M (A's) for ColumnA, N (B's)
/// for ColumnB, as the operand and its dimension.
static std::pair<Value, int64_t> getUnitExtent(const MatmulSpec &spec,
                                               OneRowForm form) {
  if (form == OneRowForm::ColumnA)
    return {spec.a, spec.aTransposed ? 1 : 0};
  return {spec.b, spec.bTransposed ? 0 : 1};
}

bool mlir::croq::mayTakeOneRowForm(const MatmulSpec &spec, OneRowForm form) {
  if (spec.batched || spec.conv)
    return false;
  if (form == OneRowForm::ColumnA && !spec.aTransposed)
    return false;
  // Matrix-vector products of 16-bit floats (those measured).
  if (form == OneRowForm::ColumnB &&
      (spec.epilogue || spec.aScales || !isa<MemRefType>(spec.c.getType()) ||
       !isa<Float16Type, BFloat16Type>(getElementTypeOrSelf(spec.a.getType()))))
    return false;
  auto [operand, dim] = getUnitExtent(spec, form);
  return mayHaveUnitDim(operand, dim);
}

MatmulSpec mlir::croq::getOneRowLayout(const MatmulSpec &spec,
                                       OneRowForm form) {
  MatmulSpec row = spec;
  row.aTransposed = false;
  if (form == OneRowForm::ColumnA)
    return row;
  // C^T = B^T A^T: B's row is the A of one row, A the B of N x K (stored
  // M x K) or K x N (stored K x M).
  row.a = spec.b;
  row.b = spec.a;
  row.bTransposed = !spec.aTransposed;
  return row;
}

/// `value`'s stride along dimension `dim` (of two).
static Value getStride(IndexBuilder &e, Value value, int64_t dim) {
  auto type = cast<MemRefType>(value.getType());
  if (type.getLayout().isIdentity())
    return dim == 1 ? e.c(1) : e.dim(value, 1);
  auto [strides, offset] = type.getStridesAndOffset();
  if (!ShapedType::isDynamic(strides[dim]))
    return e.c(strides[dim]);
  return memref::ExtractStridedMetadataOp::create(e.b, e.loc, value)
      .getStrides()[dim];
}

/// Whether `value`'s elements along dimension `dim` are one apart.
static Value emitUnitStride(IndexBuilder &e, Value value, int64_t dim) {
  return e.b.createOrFold<arith::CmpIOp>(e.loc, arith::CmpIPredicate::eq,
                                         getStride(e, value, dim), e.c(1));
}

Value mlir::croq::emitOneRowCondition(OpBuilder &b, Location loc,
                                      const MatmulSpec &spec, OneRowForm form) {
  IndexBuilder e{b, loc};
  auto [operand, dim] = getUnitExtent(spec, form);
  Value condition = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq,
                                                  e.dim(operand, dim), e.c(1));
  // The elements of `value` along `dim` are one apart; with the identity
  // layout the extent of one above says so for the operand it was read
  // from (A or B).
  auto alsoUnitStride = [&](Value value, int64_t dim, bool readExtent) {
    if (readExtent &&
        cast<MemRefType>(value.getType()).getLayout().isIdentity())
      return;
    condition = b.createOrFold<arith::AndIOp>(loc, condition,
                                              emitUnitStride(e, value, dim));
  };
  if (form == OneRowForm::ColumnA) {
    // A is K x M: its elements along K.
    alsoUnitStride(spec.a, 0, /*readExtent=*/true);
    return condition;
  }
  // B's elements along K, C's along M.
  alsoUnitStride(spec.b, spec.bTransposed ? 1 : 0, /*readExtent=*/true);
  alsoUnitStride(spec.c, 0, /*readExtent=*/false);
  return condition;
}

/// `value`, whose elements along dimension `dim` of two are one apart and
/// whose other extent is 1, as the 1 x L memref of its elements
/// (emitOneRowSpec).
static Value emitRowView(OpBuilder &b, Location loc, Value value, int64_t dim) {
  IndexBuilder e{b, loc};
  auto type = cast<MemRefType>(value.getType());
  Value length = e.dim(value, dim);
  OpFoldResult offset;
  auto [strides, staticOffset] = type.getStridesAndOffset();
  if (ShapedType::isDynamic(staticOffset))
    offset =
        memref::ExtractStridedMetadataOp::create(b, loc, value).getOffset();
  else
    offset = b.getIndexAttr(staticOffset);
  Value rowStride = e.roundUp(length, kRowStrideElements);
  int64_t staticLength = type.getDimSize(dim);
  int64_t staticStride = ShapedType::isDynamic(staticLength)
                             ? ShapedType::kDynamic
                             : static_cast<int64_t>(llvm::alignTo(
                                   staticLength, kRowStrideElements));
  auto rowType = MemRefType::get(
      {1, staticLength}, type.getElementType(),
      StridedLayoutAttr::get(b.getContext(), staticOffset, {staticStride, 1}),
      type.getMemorySpace());
  return memref::ReinterpretCastOp::create(
      b, loc, rowType, value, offset,
      ArrayRef<OpFoldResult>{b.getIndexAttr(1), getAsOpFoldResult(length)},
      ArrayRef<OpFoldResult>{getAsOpFoldResult(rowStride), b.getIndexAttr(1)});
}

MatmulSpec mlir::croq::emitOneRowSpec(OpBuilder &b, Location loc,
                                      const MatmulSpec &spec, OneRowForm form) {
  MatmulSpec row = getOneRowLayout(spec, form);
  if (form == OneRowForm::ColumnA) {
    row.a = emitRowView(b, loc, spec.a, 0);
    return row;
  }
  row.a = emitRowView(b, loc, spec.b, spec.bTransposed ? 1 : 0);
  row.c = emitRowView(b, loc, spec.c, 0);
  return row;
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
    // The narrow tiles are for few columns, where one row has many.
    if (variant.tile.maxModelCols != 0)
      return true;
    if (variant.tile.swapped)
      return variant.tile.cols != swappedCols;
    return variant.tile.rows != plainRows || variant.tile.clusterRows != 1;
  });
}
