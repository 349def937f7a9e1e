//===- MmaOperands.cpp - how wgmma reads its operands ---------------------===//
//
// The layouts of mma operands in shared memory as wgmma reads them (swizzle,
// span-wide slabs, K-major or MN-major) and the matrix descriptors that
// describe them.
//
//===----------------------------------------------------------------------===//

#include "MmaOperands.h"

#include "Croq/Dialect/Croq/IR/ViewUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::croq;

//===----------------------------------------------------------------------===//
// Operand layouts
//===----------------------------------------------------------------------===//

/// The shared tile an mma operand is read from: the root of its views.
TileType mlir::croq::getOperandTile(MmaLoadOp load) {
  Value value = load.getSource();
  while (Operation *def = value.getDefiningOp()) {
    if (!isViewOp(def))
      break;
    value = def->getOperand(0);
  }
  return dyn_cast<TileType>(value.getType());
}

/// The wgmma element type of an mma operand or accumulator element.
std::optional<NVVM::WGMMATypes> mlir::croq::getWgmmaType(Type type) {
  if (type.isF16())
    return NVVM::WGMMATypes::f16;
  if (type.isBF16())
    return NVVM::WGMMATypes::bf16;
  if (type.isF32())
    return NVVM::WGMMATypes::f32;
  if (isa<Float8E4M3FNType>(type))
    return NVVM::WGMMATypes::e4m3;
  if (isa<Float8E5M2Type>(type))
    return NVVM::WGMMATypes::e5m2;
  if (type.isInteger(8))
    return NVVM::WGMMATypes::s8;
  if (type.isInteger(32))
    return NVVM::WGMMATypes::s32;
  return std::nullopt;
}

/// The layout of operand `name` (`operand`, A or B of `op`) as wgmma reads
/// it, or an error on `op`. The operand must come from croq.mma.load. Both
/// K-major and MN-major operands must come from swizzled tiles whose rows
/// are one swizzle span, or (K-major) several span-wide slabs: the layouts
/// TMA writes and wgmma addresses with one leading and one stride byte
/// offset.
static FailureOr<OperandLayout> getOperandLayout(MmaOp op, Value operand,
                                                 StringRef name) {
  auto load = operand.getDefiningOp<MmaLoadOp>();
  if (!load)
    return op.emitOpError("operand ")
           << name << " must come directly from a croq.mma.load";
  TileType tile = getOperandTile(load);
  if (!tile)
    return op->emitOpError("operand ")
           << name << " must be loaded from a shared tile or a view of one";
  OperandLayout layout;
  layout.elementBytes = getElementSizeInBytes(tile.getElementType());
  layout.span = getSwizzleBytes(tile.getSwizzle());
  SharedTileLayout tileLayout = SharedTileLayout::get(tile);
  layout.rowBytes = tileLayout.slabWidth * layout.elementBytes;
  layout.slabWidth = tileLayout.slabWidth;
  layout.slabBytes = tileLayout.slabBytes;
  layout.swizzle = tile.getSwizzle();
  switch (tile.getSwizzle()) {
  case Swizzle::B128:
  case Swizzle::B64:
  case Swizzle::B32:
    break;
  case Swizzle::None:
  case Swizzle::Auto:
    return op->emitOpError("operand ")
           << name << " is read from " << tile
           << ", which is not swizzled; wgmma reads row-major tiles through "
              "a 32, 64 or 128-byte swizzle: give the tile a swizzle";
  }
  if (layout.rowBytes != layout.span)
    return op->emitOpError("operand ")
           << name << " is read from " << tile << ", whose rows are "
           << layout.rowBytes << " bytes; wgmma needs rows of one "
           << layout.span << "-byte swizzle span ("
           << layout.span / layout.elementBytes
           << " elements) or of a multiple of it";
  return layout;
}

/// The layout of operand B of `op`, or an error on it. An MN-major B
/// operand's N extent spans one swizzle span or several (one atom per
/// span-wide slab, the descriptor's leading byte offset apart); the last
/// slab may be read in part, where the operand is the first columns of a
/// tile of whole slabs.
FailureOr<OperandLayout> mlir::croq::getOperandBLayout(MmaOp op) {
  FailureOr<OperandLayout> layoutB = getOperandLayout(op, op.getB(), "B");
  if (failed(layoutB))
    return failure();
  bool bKMajor = op.getLayoutB() == MmaLayout::Row;
  ArrayRef<int64_t> shapeB = op.getB().getType().getShape();
  int64_t n = bKMajor ? shapeB[0] : shapeB[1];
  if (bKMajor || n % layoutB->slabWidth == 0)
    return layoutB;
  TileType tile = getOperandTile(op.getB().getDefiningOp<MmaLoadOp>());
  int64_t tileColumns = tile.getShape().back();
  if (tileColumns % layoutB->slabWidth != 0 || tileColumns < n)
    return op.emitOpError("an MN-major ('col') B operand needs N (")
           << n << ") to fill its " << layoutB->span
           << "-byte swizzle spans exactly (a multiple of "
           << layoutB->slabWidth
           << "), or to be the first columns of a tile of whole spans";
  return layoutB;
}

/// The layouts of both operands of `op` (A in shared memory), or an error
/// on it.
FailureOr<std::pair<OperandLayout, OperandLayout>>
mlir::croq::getOperandLayouts(MmaOp op) {
  FailureOr<OperandLayout> layoutA = getOperandLayout(op, op.getA(), "A");
  if (failed(layoutA))
    return failure();
  FailureOr<OperandLayout> layoutB = getOperandBLayout(op);
  if (failed(layoutB))
    return failure();
  bool aKMajor = op.getLayoutA() == MmaLayout::Row;
  ArrayRef<int64_t> shapeA = op.getA().getType().getShape();
  int64_t m = aKMajor ? shapeA[0] : shapeA[1];
  // Each instruction's 64 rows of an MN-major operand must be one swizzle
  // atom: one span-wide slab of the tile per 64 rows of M.
  if (!aKMajor && (m % 64 != 0 || 64 * layoutA->elementBytes != layoutA->span))
    return op.emitOpError("an MN-major ('col') A operand is lowered for M a "
                          "multiple of 64 in swizzled rows of 64 elements "
                          "(one span per wgmma), got M = ")
           << m << " in " << layoutA->span << "-byte spans of "
           << layoutA->span / layoutA->elementBytes << " elements";
  return std::make_pair(*layoutA, *layoutB);
}

/// The layout-type field of a wgmma descriptor for `swizzle` on `target`.
static uint64_t getDescriptorMode(Swizzle swizzle,
                                  const TargetDescription &target) {
  switch (swizzle) {
  case Swizzle::B128:
    return target.wgmmaSwizzleMode128;
  case Swizzle::B64:
    return target.wgmmaSwizzleMode64;
  case Swizzle::B32:
    return target.wgmmaSwizzleMode32;
  case Swizzle::None:
  case Swizzle::Auto:
    return target.wgmmaSwizzleModeNone;
  }
  return target.wgmmaSwizzleModeNone;
}

/// The constant bits of a wgmma matrix descriptor: leading and stride byte
/// offsets (encoded >> 4) and the layout type.
uint64_t mlir::croq::getDescriptorBits(const OperandLayout &layout,
                                       const TargetDescription &target,
                                       int64_t mnAtoms) {
  // Swizzled layouts: the stride byte offset steps over 8 rows of one span.
  // The leading byte offset is unused when the operand's contiguous extent
  // fits in one span, and must then be 1; an MN-major operand of several
  // span-wide atoms along M or N steps from one atom (slab) to the next.
  uint64_t leading =
      mnAtoms > 1 ? static_cast<uint64_t>(layout.slabBytes) >> 4 : 1;
  uint64_t stride = (8 * layout.span) >> 4;
  return (leading << 16) | (stride << 32) |
         (getDescriptorMode(layout.swizzle, target) << 62);
}

uint64_t
mlir::croq::getOperandBDescriptorBits(MmaOp op, const OperandLayout &layoutB,
                                      const TargetDescription &target) {
  if (op.getLayoutB() == MmaLayout::Row)
    return getDescriptorBits(layoutB, target);
  int64_t n = op.getB().getType().getShape()[1];
  return getDescriptorBits(layoutB, target,
                           llvm::divideCeil(n, layoutB.slabWidth));
}

/// The descriptor of the operand at byte `offset` from `address`.
Value mlir::croq::buildDescriptor(OpBuilder &builder, Location loc,
                                  Value address, int64_t offset,
                                  uint64_t bits) {
  Type i64 = builder.getI64Type();
  Value start = address;
  if (offset)
    start = arith::AddIOp::create(
        builder, loc, start,
        arith::ConstantIntOp::create(builder, loc, offset, 64));
  // matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4.
  Value field = arith::ShRUIOp::create(
      builder, loc,
      arith::AndIOp::create(
          builder, loc, start,
          arith::ConstantIntOp::create(builder, loc, 0x3FFFF, 64)),
      arith::ConstantIntOp::create(builder, loc, 4, 64));
  return arith::OrIOp::create(
      builder, loc, field,
      arith::ConstantOp::create(
          builder, loc, i64,
          builder.getI64IntegerAttr(static_cast<int64_t>(bits))));
}
