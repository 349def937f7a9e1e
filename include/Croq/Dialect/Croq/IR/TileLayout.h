//===- TileLayout.h - where a shared tile's elements lie --------*- C++ -*-===//
//
// The one description of a shared tile's physical layout that TMA boxes, dma
// copies, element accesses and wgmma descriptors all follow.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_DIALECT_CROQ_IR_TILELAYOUT_H
#define CROQ_DIALECT_CROQ_IR_TILELAYOUT_H

#include "Croq/Dialect/Croq/IR/CroqTypes.h"
#include "mlir/IR/Builders.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir {
namespace croq {

/// The largest extent of one TMA box dimension.
constexpr int64_t kMaxTmaBoxDim = 256;

/// How the elements of a shared tile lie in its bytes.
///
/// The tile is cut along its innermost dimension into slabs of `slabWidth`
/// elements: one slab when the rows fit the swizzle span (or the tile is not
/// swizzled), else span-wide slabs stored one after another, `slabBytes`
/// apart (the 3-D "atom-tiled" layout TMA writes one box per slab for).
/// Within a slab the elements are row-major. A swizzle then permutes the
/// 16-byte chunks of every 128-byte line of the tile: chunk c of line l
/// lands at chunk c ^ (l mod (span / 16)), the pattern of the CUDA swizzle
/// modes for a buffer aligned to the pattern's repeat (span * 8 bytes).
struct SharedTileLayout {
  SmallVector<int64_t> shape;
  int64_t elementBytes = 1;
  /// Swizzle span in bytes, 0 when not swizzled.
  int64_t span = 0;
  /// Elements of the innermost dimension in one slab.
  int64_t slabWidth = 1;
  int64_t numSlabs = 1;
  /// Bytes of one slab.
  int64_t slabBytes = 0;

  /// The layout of a shared tile of `type` (a verified shape: the inner
  /// dimension is a multiple of the span when wider than it).
  static SharedTileLayout get(TileType type);

  /// The shape of one slab: the tile's, with `slabWidth` innermost.
  SmallVector<int64_t> getSlabShape() const;

  /// The byte offset of the element at `coords` before the swizzle.
  int64_t getLinearByteOffset(ArrayRef<int64_t> coords) const;

  /// The byte offset where the element at `coords` lies.
  int64_t getByteOffset(ArrayRef<int64_t> coords) const;

  /// Emits getLinearByteOffset for `indices` (index values) with arith ops.
  Value emitLinearByteOffset(OpBuilder &builder, Location loc,
                             ArrayRef<Value> indices) const;
};

/// Where the byte at tile offset `byteOffset` lies in a tile swizzled with a
/// `span`-byte span (0: not swizzled).
int64_t applySwizzle(int64_t byteOffset, int64_t span);

/// Emits applySwizzle for `byteOffset` (an index value) with arith ops.
Value emitSwizzle(OpBuilder &builder, Location loc, Value byteOffset,
                  int64_t span);

/// The most bulk copies one tma copy is made of.
constexpr int64_t kMaxTmaPieces = 256;

/// One bulk copy of a tma copy: its box's first element, in tile
/// coordinates, and the byte offset of that box in the tile.
struct TmaPiece {
  SmallVector<int64_t> coords;
  int64_t byteOffset;
};

/// The box of the bulk copies that move a tile of `layout`: inside one slab,
/// the innermost dimensions whole, the first one (from the inside) above 256
/// cut to 256, and every dimension outside it 1.
SmallVector<int64_t> getTmaBox(const SharedTileLayout &layout);

/// The box of a tile of `layout` that `shares` blocks of a cluster move
/// together (a multicast copy), each an equal number of boxes: getTmaBox,
/// its outermost dimension above 1 cut by the smallest factor that makes the
/// box count a multiple of `shares`. Null where that dimension does not
/// divide, or a box would not start on a swizzle atom (span * 8 bytes, 128
/// unswizzled) as TMA writes it.
std::optional<SmallVector<int64_t>>
getTmaShareBox(const SharedTileLayout &layout, int64_t shares);

/// The bulk copies that move a tile of `layout` in boxes of `box`
/// (getTmaBox or getTmaShareBox): every box in every slab.
SmallVector<TmaPiece> getTmaPieces(const SharedTileLayout &layout,
                                   ArrayRef<int64_t> box);

/// The number of getTmaPieces, saturated at INT64_MAX.
int64_t countTmaPieces(const SharedTileLayout &layout, ArrayRef<int64_t> box);

} // namespace croq
} // namespace mlir

#endif // CROQ_DIALECT_CROQ_IR_TILELAYOUT_H
