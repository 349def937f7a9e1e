//===- TileLayout.cpp - where a shared tile's elements lie ----------------===//
//
// Slabs and swizzle of shared tiles: the arithmetic that every lowering of a
// shared-tile access shares, on constants and as the arith ops it emits.
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/TileLayout.h"

#include "Croq/Dialect/Croq/IR/ThreadGroups.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

#include <numeric>

using namespace mlir;
using namespace mlir::croq;

SharedTileLayout SharedTileLayout::get(TileType type) {
  SharedTileLayout layout;
  layout.shape.assign(type.getShape().begin(), type.getShape().end());
  layout.elementBytes = getElementSizeInBytes(type.getElementType());
  layout.span = type.getMemorySpace() == MemorySpace::Shared
                    ? getSwizzleBytes(type.getSwizzle())
                    : 0;
  int64_t inner = layout.shape.empty() ? 1 : layout.shape.back();
  layout.slabWidth = inner;
  if (layout.span && inner * layout.elementBytes > layout.span &&
      (inner * layout.elementBytes) % layout.span == 0)
    layout.slabWidth = layout.span / layout.elementBytes;
  layout.numSlabs = inner / layout.slabWidth;
  layout.slabBytes = layout.elementBytes;
  for (int64_t size : layout.getSlabShape())
    layout.slabBytes *= size;
  return layout;
}

SmallVector<int64_t> SharedTileLayout::getSlabShape() const {
  SmallVector<int64_t> slab(shape);
  if (!slab.empty())
    slab.back() = slabWidth;
  return slab;
}

int64_t SharedTileLayout::getLinearByteOffset(ArrayRef<int64_t> coords) const {
  if (coords.empty())
    return 0;
  int64_t slab = coords.back() / slabWidth;
  int64_t linear = 0;
  SmallVector<int64_t> slabShape = getSlabShape();
  for (auto [c, size] : llvm::zip(coords, slabShape))
    linear = linear * size + c;
  linear = linear - coords.back() + coords.back() % slabWidth;
  return slab * slabBytes + linear * elementBytes;
}

int64_t SharedTileLayout::getByteOffset(ArrayRef<int64_t> coords) const {
  return applySwizzle(getLinearByteOffset(coords), span);
}

int64_t mlir::croq::applySwizzle(int64_t byteOffset, int64_t span) {
  if (!span)
    return byteOffset;
  int64_t line = byteOffset >> 7;
  return byteOffset ^ ((line & (span / 16 - 1)) << 4);
}

/// An index constant.
static Value indexConstant(OpBuilder &builder, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(builder, loc, value);
}

Value SharedTileLayout::emitLinearByteOffset(OpBuilder &builder, Location loc,
                                             ArrayRef<Value> indices) const {
  // Row-major within the slab of the innermost index, slabs one after
  // another.
  SmallVector<int64_t> slabShape = getSlabShape();
  Value slab, column = indices.back();
  if (numSlabs > 1) {
    Value width = indexConstant(builder, loc, slabWidth);
    slab = arith::DivUIOp::create(builder, loc, indices.back(), width);
    column = arith::RemUIOp::create(builder, loc, indices.back(), width);
  }
  Value linear = indexConstant(builder, loc, 0);
  for (auto [d, size] : llvm::enumerate(slabShape)) {
    Value index = d + 1 == slabShape.size() ? column : indices[d];
    linear = arith::AddIOp::create(
        builder, loc,
        arith::MulIOp::create(builder, loc, linear,
                              indexConstant(builder, loc, size)),
        index);
  }
  Value bytes = arith::MulIOp::create(
      builder, loc, linear, indexConstant(builder, loc, elementBytes));
  if (slab)
    bytes = arith::AddIOp::create(
        builder, loc, bytes,
        arith::MulIOp::create(builder, loc, slab,
                              indexConstant(builder, loc, slabBytes)));
  return bytes;
}

Value mlir::croq::emitSwizzle(OpBuilder &builder, Location loc,
                              Value byteOffset, int64_t span) {
  if (!span)
    return byteOffset;
  // bytes ^ (((bytes >> 7) & (span / 16 - 1)) << 4)
  Value line = arith::ShRUIOp::create(builder, loc, byteOffset,
                                      indexConstant(builder, loc, 7));
  Value phase = arith::AndIOp::create(
      builder, loc, line, indexConstant(builder, loc, span / 16 - 1));
  Value mask = arith::ShLIOp::create(builder, loc, phase,
                                     indexConstant(builder, loc, 4));
  return arith::XOrIOp::create(builder, loc, byteOffset, mask);
}

/// The box of the bulk copies that move a tile of `layout`: inside one slab,
/// the innermost dimensions whole, the first one (from the inside) above 256
/// cut to 256, and every dimension outside it 1, so that each box covers a
/// contiguous run of the slab.
SmallVector<int64_t> mlir::croq::getTmaBox(const SharedTileLayout &layout) {
  SmallVector<int64_t> slab = layout.getSlabShape();
  SmallVector<int64_t> box(slab.size(), 1);
  bool whole = true;
  for (int64_t d = static_cast<int64_t>(slab.size()) - 1; d >= 0 && whole;
       --d) {
    box[d] = std::min(slab[d], kMaxTmaBoxDim);
    whole = slab[d] <= kMaxTmaBoxDim;
  }
  return box;
}

std::optional<SmallVector<int64_t>>
mlir::croq::getTmaShareBox(const SharedTileLayout &layout, int64_t shares) {
  SmallVector<int64_t> box = getTmaBox(layout);
  int64_t count = countTmaPieces(layout, box);
  if (shares <= 1 || count % shares == 0)
    return box;
  int64_t factor = shares / std::gcd(count, shares);
  auto outer = llvm::find_if(box, [](int64_t size) { return size > 1; });
  if (outer == box.end() || *outer % factor != 0)
    return std::nullopt;
  *outer /= factor;
  int64_t atom = layout.span ? layout.span * 8 : 128;
  for (const TmaPiece &piece : getTmaPieces(layout, box))
    if (piece.byteOffset % atom != 0)
      return std::nullopt;
  return box;
}

/// The number of boxes of `box` in one slab (verified shapes divide into
/// whole boxes).
static int64_t countTmaPiecesPerSlab(const SharedTileLayout &layout,
                                     ArrayRef<int64_t> box) {
  SmallVector<int64_t> slab = layout.getSlabShape();
  int64_t count = 1;
  for (auto [size, extent] : llvm::zip(slab, box))
    count = saturatingMul(count, size / extent);
  return count;
}

/// The bulk copies that move a tile of `layout` in boxes of `box`: every box
/// in every slab.
SmallVector<TmaPiece> mlir::croq::getTmaPieces(const SharedTileLayout &layout,
                                               ArrayRef<int64_t> box) {
  SmallVector<int64_t> slab = layout.getSlabShape();
  int64_t rank = slab.size();
  SmallVector<int64_t> counts(rank);
  for (int64_t d = 0; d < rank; ++d)
    counts[d] = slab[d] / box[d];
  int64_t perSlab = countTmaPiecesPerSlab(layout, box);
  SmallVector<TmaPiece> pieces;
  for (int64_t s = 0; s < layout.numSlabs; ++s) {
    for (int64_t k = 0; k < perSlab; ++k) {
      TmaPiece piece;
      piece.coords.assign(rank, 0);
      for (int64_t d = rank - 1, rest = k; d >= 0; --d) {
        piece.coords[d] = (rest % counts[d]) * box[d];
        rest /= counts[d];
      }
      piece.coords.back() += s * layout.slabWidth;
      piece.byteOffset = layout.getLinearByteOffset(piece.coords);
      pieces.push_back(std::move(piece));
    }
  }
  return pieces;
}

int64_t mlir::croq::countTmaPieces(const SharedTileLayout &layout,
                                   ArrayRef<int64_t> box) {
  return saturatingMul(countTmaPiecesPerSlab(layout, box), layout.numSlabs);
}
