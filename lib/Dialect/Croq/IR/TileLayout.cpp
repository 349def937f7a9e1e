//===- TileLayout.cpp - where a shared tile's elements lie ----------------===//
//
// Slabs and swizzle of shared tiles: the arithmetic that every lowering of a
// shared-tile access shares.
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/TileLayout.h"

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
