//===- Im2colOps.cpp - croq im2col_map and im2col -------------------------===//
//
// Verification of the TMA copy in im2col mode: the rules of
// cuTensorMapEncodeIm2col that the map's static parameters can break
// (ranks, corners, strides, channels and their bytes, the swizzle span, an
// empty bounding box of static extents), and the load's agreement with its
// tensor, its map and its tile.
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/BufferUtils.h"
#include "Croq/Dialect/Croq/IR/CroqOps.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::croq;

/// The tensor ranks of im2col mode: N, one to three spatial dimensions, C.
static constexpr int64_t kMinIm2colRank = 3;
static constexpr int64_t kMaxIm2colRank = 5;
/// The largest traversal stride TMA takes.
static constexpr int64_t kMaxIm2colStride = 8;

/// The bound of the corners of an im2col box for a tensor of `rank`: they
/// lie in [-bound, bound - 1] (the driver's 16, 8 and 5 signed bits).
static int64_t getCornerBound(int64_t rank) {
  switch (rank) {
  case 3:
    return 1 << 15;
  case 4:
    return 1 << 7;
  default:
    return 1 << 4;
  }
}

/// Checks one corner list of `op`: one value per spatial dimension, each in
/// the range of the tensor's rank.
static LogicalResult verifyCorner(Im2colMapOp op, StringRef name,
                                  ArrayRef<int32_t> corner, int64_t rank) {
  int64_t spatial = rank - 2;
  if (static_cast<int64_t>(corner.size()) != spatial)
    return op.emitOpError("expected ")
           << spatial << " " << name << " corner offsets (one per spatial "
           << "dimension), got " << corner.size();
  int64_t bound = getCornerBound(rank);
  for (auto [dim, value] : llvm::enumerate(corner))
    if (value < -bound || value > bound - 1)
      return op.emitOpError("expected ")
             << name << " corner offset " << dim << " in [" << -bound << ", "
             << bound - 1 << "] for a tensor of rank " << rank << ", got "
             << value;
  return success();
}

LogicalResult Im2colMapOp::verify() {
  if ((*this)->getParentOfType<ParallelOp>())
    return emitOpError("runs on the host: it must be outside croq.parallel "
                       "regions, before the kernel that uses the map");
  auto type = cast<MemRefType>(getTensor().getType());
  int64_t rank = type.getRank();
  if (rank < kMinIm2colRank || rank > kMaxIm2colRank)
    return emitOpError("expected a tensor of rank 3 to 5 (N, spatial "
                       "dimensions, C), got rank ")
           << rank;
  if (failed(verifyCorner(*this, "lower", getLower(), rank)) ||
      failed(verifyCorner(*this, "upper", getUpper(), rank)))
    return failure();
  ArrayRef<int64_t> strides = getStrides();
  if (static_cast<int64_t>(strides.size()) != rank - 2)
    return emitOpError("expected ")
           << rank - 2 << " strides (one per spatial dimension), got "
           << strides.size();
  for (auto [dim, stride] : llvm::enumerate(strides))
    if (stride < 1 || stride > kMaxIm2colStride)
      return emitOpError("expected stride ")
             << dim << " in [1, " << kMaxIm2colStride << "], got " << stride;
  if (getSwizzle() == Swizzle::Auto)
    return emitOpError("a tensor map has a concrete swizzle, got 'auto'");
  int64_t elementBytes = getElementSizeInBytes(type.getElementType());
  int64_t rowBytes = getChannels() * elementBytes;
  if (rowBytes % 16 != 0)
    return emitOpError("expected channels x element size to be a multiple "
                       "of 16 bytes, got ")
           << getChannels() << " x " << elementBytes << " = " << rowBytes
           << " bytes";
  if (int64_t span = getSwizzleBytes(getSwizzle()); span && rowBytes > span)
    return emitOpError("expected channels x element size to be at most the ")
           << span << "-byte swizzle span, got " << getChannels() << " x "
           << elementBytes << " = " << rowBytes << " bytes";
  // The box runs from `lower` to the last pixel plus `upper`: it must hold
  // one pixel along each spatial dimension whose extent is static.
  for (int64_t d = 0; d < rank - 2; ++d) {
    int64_t size = type.getDimSize(d + 1);
    if (ShapedType::isDynamic(size))
      continue;
    int64_t extent = size + getUpper()[d] - getLower()[d];
    if (extent < 1)
      return emitOpError("the bounding box is empty along spatial dimension ")
             << d << ": " << size << " pixels + upper " << getUpper()[d]
             << " - lower " << getLower()[d] << " = " << extent;
  }
  return success();
}

EventTriggerOp Im2colOp::getTrigger() {
  Value future = getFuture();
  if (!future || !future.hasOneUse())
    return nullptr;
  return dyn_cast<EventTriggerOp>(*future.getUsers().begin());
}

Im2colMapOp Im2colOp::getMapOp() {
  return getMap().getDefiningOp<Im2colMapOp>();
}

/// Checks the load against the map that made its tensor map, where it is
/// visible: the same tensor, a tile of its pixels x channels and swizzle.
static LogicalResult verifyAgainstMap(Im2colOp op, TileType tile) {
  Im2colMapOp map = op.getMapOp();
  if (!map)
    return success();
  if (map.getTensor() != op.getTensor())
    return op.emitOpError("takes the im2col map of another tensor; the map "
                          "must be the loaded tensor's");
  ArrayRef<int64_t> shape = tile.getShape();
  if (shape[0] != static_cast<int64_t>(map.getPixels()) ||
      shape[1] != static_cast<int64_t>(map.getChannels()))
    return op.emitOpError("expected a tile of ")
           << map.getPixels() << "x" << map.getChannels()
           << " (the map's pixels x channels), got " << shape[0] << "x"
           << shape[1];
  if (tile.getSwizzle() != map.getSwizzle())
    return op.emitOpError("expected the tile's swizzle (")
           << stringifySwizzleValue(tile.getSwizzle()) << ") to be the map's ("
           << stringifySwizzleValue(map.getSwizzle()) << ")";
  return success();
}

LogicalResult Im2colOp::verify() {
  auto type = cast<MemRefType>(getTensor().getType());
  int64_t rank = type.getRank();
  if (rank < kMinIm2colRank || rank > kMaxIm2colRank)
    return emitOpError("expected a tensor of rank 3 to 5 (N, spatial "
                       "dimensions, C), got rank ")
           << rank;
  if (static_cast<int64_t>(getCoords().size()) != rank)
    return emitOpError("expected ")
           << rank << " coordinates (N, spatial dimensions, C), got "
           << getCoords().size();
  if (static_cast<int64_t>(getOffsets().size()) != rank - 2)
    return emitOpError("expected ")
           << rank - 2 << " im2col offsets (one per spatial dimension), got "
           << getOffsets().size();
  for (auto [dim, offset] : llvm::enumerate(getOffsets())) {
    APInt value;
    if (matchPattern(offset, m_ConstantInt(&value)) &&
        (value.isNegative() || value.getSExtValue() > 0xFFFF))
      return emitOpError("expected im2col offset ")
             << dim << " in [0, 65535] (a 16-bit operand), got "
             << value.getSExtValue();
  }
  TileType tile = getDest().getType();
  if (tile.getMemorySpace() != MemorySpace::Shared || tile.getRank() != 2)
    return emitOpError("expected a 2-d shared tile (pixels x channels), got ")
           << tile;
  if (tile.getElementType() != type.getElementType())
    return emitOpError("expected the tile's element type to be the "
                       "tensor's (")
           << type.getElementType() << "), got " << tile.getElementType();
  if (!getKernel(*this))
    return emitOpError("is issued in a kernel: it must be inside a "
                       "'croq.parallel ... : block' region");
  return verifyAgainstMap(*this, tile);
}
