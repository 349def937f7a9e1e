//===- MmaOperands.h - how wgmma reads its operands -------------*- C++ -*-===//
//
// Shared by the lowering of croq.mma (MmaLowering.cpp) and its legality
// check: operand layouts in shared memory and wgmma matrix descriptors.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_LIB_CONVERSION_CROQTOGPU_MMAOPERANDS_H
#define CROQ_LIB_CONVERSION_CROQTOGPU_MMAOPERANDS_H

#include "LoweringUtils.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir {
namespace croq {

/// How one mma operand lies in shared memory, and the descriptor bits that
/// say so.
struct OperandLayout {
  /// Bytes from one row of the operand's contiguous dimension to the next
  /// (within a slab).
  int64_t rowBytes;
  /// Elements of the contiguous dimension per span-wide slab, and the bytes
  /// from one slab to the next (SharedTileLayout).
  int64_t slabWidth;
  int64_t slabBytes;
  /// Swizzle span in bytes (the row).
  int64_t span;
  /// The swizzle, whose descriptor layout type the target gives.
  Swizzle swizzle;
  /// Element size.
  int64_t elementBytes;
};

/// The shared tile an mma operand is read from: the root of its views.
TileType getOperandTile(MmaLoadOp load);

/// The wgmma element type of an mma operand or accumulator element.
std::optional<NVVM::WGMMATypes> getWgmmaType(Type type);

/// The layout of operand B of `op`, or an error on it. An MN-major B
/// operand's N extent spans one swizzle span or several (one atom per
/// span-wide slab, the descriptor's leading byte offset apart); the last
/// slab may be read in part, where the operand is the first columns of a
/// tile of whole slabs.
FailureOr<OperandLayout> getOperandBLayout(MmaOp op);

/// The layouts of both operands of `op` (A in shared memory), or an error
/// on it.
FailureOr<std::pair<OperandLayout, OperandLayout>> getOperandLayouts(MmaOp op);

/// The constant bits of a wgmma matrix descriptor: leading and stride byte
/// offsets (encoded >> 4) and the layout type; `mnAtoms` is the number of
/// swizzle atoms along M or N of an MN-major operand.
uint64_t getDescriptorBits(const OperandLayout &layout,
                           const TargetDescription &target,
                           int64_t mnAtoms = 1);

/// getDescriptorBits of operand B of `op`, laid out as `layoutB`: an
/// MN-major B spans one atom per slab its N columns reach, the last
/// perhaps in part.
uint64_t getOperandBDescriptorBits(MmaOp op, const OperandLayout &layoutB,
                                   const TargetDescription &target);

/// The descriptor of the operand at byte `offset` from `address`.
Value buildDescriptor(OpBuilder &builder, Location loc, Value address,
                      int64_t offset, uint64_t bits);

} // namespace croq
} // namespace mlir

#endif // CROQ_LIB_CONVERSION_CROQTOGPU_MMAOPERANDS_H
