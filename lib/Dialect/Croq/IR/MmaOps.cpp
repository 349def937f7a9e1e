//===- MmaOps.cpp - croq mma ops ------------------------------------------===//
//
// Verification of mma operand loads, the shapes and element types the
// Hopper tensor cores (wgmma) take, and accumulator stores. The ops that
// compute on accumulators in registers are in RegisterOps.cpp.
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/CroqOps.h"

#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::croq;

//===----------------------------------------------------------------------===//
// MmaLoadOp
//===----------------------------------------------------------------------===//

LogicalResult MmaLoadOp::verify() {
  Type sourceType = getSource().getType();
  auto source = cast<ShapedType>(sourceType);
  MemorySpace space = *getMemorySpaceOf(sourceType);
  if (space != MemorySpace::Shared)
    return emitOpError("mma operands are loaded from shared memory, got ")
           << stringifyMemorySpace(space) << " memory";
  FragType result = getResult().getType();
  if (result.getInRegisters())
    return emitOpError("loads an operand in shared memory, not in registers; "
                       "croq.mma.convert makes register operands");
  if (source.getRank() != 2)
    return emitOpError("expected a 2-d source, got rank ") << source.getRank();
  if (source.getElementType() != result.getElementType())
    return emitOpError("result element type ")
           << result.getElementType() << " does not match source element type "
           << source.getElementType();
  for (auto [dim, s, r] : llvm::enumerate(source.getShape(), result.getShape()))
    if (!ShapedType::isDynamic(s) && s != r)
      return emitOpError("result dimension ")
             << dim << " (" << r << ") does not match the source's (" << s
             << ")";
  Swizzle layout = getSwizzleOf(sourceType);
  if (std::optional<Swizzle> swizzle = getSwizzle())
    if (layout != Swizzle::Auto && *swizzle != layout)
      return emitOpError("mma.load swizzle ")
             << stringifySwizzle(*swizzle)
             << " does not match the source tile's swizzle "
             << stringifySwizzle(layout)
             << "; the operand would be read with the wrong layout";
  return success();
}

//===----------------------------------------------------------------------===//
// MmaOp
//===----------------------------------------------------------------------===//

namespace {
/// One row of the table of element types wgmma takes.
struct MmaKind {
  StringRef name;
  int64_t instrK;
  bool kMajorOnly;
};
} // namespace

/// The wgmma kind for operand type `in`, or std::nullopt when the tensor
/// cores take no such operands.
static std::optional<MmaKind> getMmaKind(Type in) {
  if (in.isF16())
    return MmaKind{"f16", 16, false};
  if (in.isBF16())
    return MmaKind{"bf16", 16, false};
  if (in.isF32())
    return MmaKind{"tf32", 8, true};
  if (isa<Float8E4M3FNType, Float8E5M2Type>(in))
    return MmaKind{"f8", 32, true};
  if (in.isInteger(8))
    return MmaKind{"i8", 32, true};
  return std::nullopt;
}

/// Whether wgmma accumulates operands of type `in` in type `acc`.
static bool isLegalAccumulator(Type in, Type acc) {
  if (in.isF16() || isa<Float8E4M3FNType, Float8E5M2Type>(in))
    return acc.isF32() || acc.isF16();
  if (in.isBF16() || in.isF32())
    return acc.isF32();
  if (in.isInteger(8))
    return acc.isInteger(32);
  return false;
}

LogicalResult MmaOp::verify() {
  AccType acc = getAcc().getType();
  FragType a = getA().getType(), b = getB().getType();
  Type aType = a.getElementType(), bType = b.getElementType();
  std::optional<MmaKind> kind = getMmaKind(aType);
  if (!kind)
    return emitOpError("the tensor cores take f16, bf16, f32 (tf32), "
                       "f8E4M3FN, f8E5M2 or i8 operands, got ")
           << aType;
  bool bothF8 = isa<Float8E4M3FNType, Float8E5M2Type>(aType) &&
                isa<Float8E4M3FNType, Float8E5M2Type>(bType);
  if (aType != bType && !bothF8)
    return emitOpError("operand element types must match, got ")
           << aType << " and " << bType;
  if (!isLegalAccumulator(aType, acc.getElementType()))
    return emitOpError("there is no mma with ")
           << aType << " operands and " << acc.getElementType()
           << " accumulation";
  bool aRow = getLayoutA() == MmaLayout::Row;
  bool bRow = getLayoutB() == MmaLayout::Row;
  if (b.getInRegisters())
    return emitOpError("operand B is read from shared memory; only A can "
                       "come from registers");
  if (a.getInRegisters() && !aType.isF16() && !aType.isBF16())
    return emitOpError("an A operand in registers must be f16 or bf16, got ")
           << aType;
  if (a.getInRegisters() && !aRow)
    return emitOpError("an A operand in registers is M x K: its layout must "
                       "be 'row'");
  if (kind->kMajorOnly && (!aRow || !bRow))
    return emitOpError(kind->name)
           << " operands must both be 'row' (K-major); only 16-bit operands "
              "can be transposed";
  int64_t m = aRow ? a.getShape()[0] : a.getShape()[1];
  int64_t ka = aRow ? a.getShape()[1] : a.getShape()[0];
  int64_t n = bRow ? b.getShape()[0] : b.getShape()[1];
  int64_t kb = bRow ? b.getShape()[1] : b.getShape()[0];
  if (ka != kb)
    return emitOpError("operand K dimensions differ: A has ")
           << ka << ", B has " << kb;
  if (acc.getShape()[0] != m || acc.getShape()[1] != n)
    return emitOpError("accumulator shape ")
           << acc.getShape()[0] << "x" << acc.getShape()[1]
           << " does not match the operands' M x N = " << m << "x" << n;
  if (m % 64 != 0)
    return emitOpError("M must be a multiple of 64 (one wgmma per 64 rows), "
                       "got ")
           << m;
  if (n % 8 != 0 || n > 256)
    return emitOpError("N must be a multiple of 8 no larger than 256, got ")
           << n;
  if (ka % kind->instrK != 0)
    return emitOpError("K must be a multiple of ")
           << kind->instrK << " for " << kind->name << " operands, got " << ka;
  return success();
}

//===----------------------------------------------------------------------===//
// MmaCommitOp
//===----------------------------------------------------------------------===//

LogicalResult MmaCommitOp::verify() {
  // wgmma.wait_group takes 0 to 7.
  if (getPending() < 0 || getPending() > 7)
    return emitOpError("pending must be between 0 and 7, got ") << getPending();
  if (getPending() == 0)
    return success();
  for (Operation *user : getResult().getUsers()) {
    StringRef use = llvm::TypeSwitch<Operation *, StringRef>(user)
                        .Case<MmaStoreOp>([](auto) { return "store"; })
                        .Case<MmaMapOp>([](auto) { return "map"; })
                        .Case<MmaReduceOp>([](auto) { return "reduce"; })
                        .Case<MmaConvertOp>([](auto) { return "convert"; })
                        .Case<MmaSliceOp>([](auto) { return "slice"; })
                        .Default([](Operation *) { return StringRef(); });
    if (!use.empty())
      return emitOpError("result is still being computed (pending = ")
             << getPending() << "); " << use
             << " it after a croq.mma.commit with pending = 0 or a "
                "croq.mma.wait";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// MmaWaitOp
//===----------------------------------------------------------------------===//

LogicalResult MmaWaitOp::verify() {
  if (getPending() < 0 || getPending() > 7)
    return emitOpError("pending must be between 0 and 7, got ") << getPending();
  auto commit = getAcc().getDefiningOp<MmaCommitOp>();
  if (!commit || commit.getPending() == 0)
    return emitOpError("waits for an accumulator committed with pending > 0: "
                       "its operand must be the result of such a "
                       "croq.mma.commit");
  if (commit->getBlock() != (*this)->getBlock() ||
      !commit->isBeforeInBlock(*this))
    return emitOpError("must follow the croq.mma.commit of its accumulator "
                       "in the same block");
  // Groups complete in commit order: the accumulator's group is done once
  // no more than `pending` groups committed after it may run.
  int64_t later = 0;
  for (Operation *op = commit->getNextNode(); op != *this;
       op = op->getNextNode())
    if (isa<MmaCommitOp>(op))
      ++later;
  if (later < getPending())
    return emitOpError("leaves the accumulator's own group running: ")
           << later
           << " group(s) committed after it, pending = " << getPending();
  return success();
}

//===----------------------------------------------------------------------===//
// MmaStoreOp
//===----------------------------------------------------------------------===//

LogicalResult MmaStoreOp::verify() {
  AccType acc = getAcc().getType();
  auto dest = cast<ShapedType>(getDest().getType());
  if (dest.getRank() != 2)
    return emitOpError("expected a 2-d destination, got rank ")
           << dest.getRank();
  // A transposed store writes row i of the accumulator into column i.
  SmallVector<int64_t> stored(acc.getShape());
  if (getTranspose())
    std::reverse(stored.begin(), stored.end());
  for (auto [dim, d, a] : llvm::enumerate(dest.getShape(), stored))
    if (!ShapedType::isDynamic(d) && d != a)
      return emitOpError("destination dimension ")
             << dim << " (" << d << ") does not match the "
             << (getTranspose() ? "transposed " : "") << "accumulator's (" << a
             << ")";
  bool accIsFloat = isa<FloatType>(acc.getElementType());
  bool destIsFloat = isa<FloatType>(dest.getElementType());
  if (accIsFloat != destIsFloat)
    return emitOpError("cannot store a ")
           << acc.getElementType() << " accumulator into "
           << dest.getElementType() << " elements";
  if (getRelu() && (!acc.getElementType().isF32() ||
                    !isa<Float16Type, BFloat16Type>(dest.getElementType())))
    return emitOpError("'relu' converts an f32 accumulator to f16 or bf16, "
                       "not ")
           << acc.getElementType() << " to " << dest.getElementType();
  return success();
}

LogicalResult MmaAccumulateOp::verify() {
  AccType acc = getAcc().getType();
  auto dest = cast<ShapedType>(getDest().getType());
  if (!acc.getElementType().isF32() || !dest.getElementType().isF32())
    return emitOpError("adds an f32 accumulator into f32 elements, not ")
           << acc.getElementType() << " into " << dest.getElementType();
  if (dest.getRank() != 2)
    return emitOpError("expected a 2-d destination, got rank ")
           << dest.getRank();
  for (auto [dim, d, a] : llvm::enumerate(dest.getShape(), acc.getShape()))
    if (!ShapedType::isDynamic(d) && d != a)
      return emitOpError("destination dimension ")
             << dim << " (" << d << ") does not match the accumulator's (" << a
             << ")";
  if (auto memref = dyn_cast<MemRefType>(dest);
      memref && memref.getMemorySpace())
    return emitOpError("adds into global memory (no memory space), not ")
           << memref;
  return success();
}

LogicalResult BulkAddOp::verify() {
  TileType source = getSource().getType();
  auto dest = cast<ShapedType>(getDest().getType());
  if (source.getMemorySpace() != MemorySpace::Shared)
    return emitOpError("adds a shared tile, not ") << source;
  if (!source.getElementType().isF32() || !dest.getElementType().isF32())
    return emitOpError("adds f32 elements, not ")
           << source.getElementType() << " into " << dest.getElementType();
  if (dest.getRank() != 1)
    return emitOpError("expected a 1-d destination (consecutive elements), "
                       "got rank ")
           << dest.getRank();
  int64_t count = static_cast<int64_t>(source.getNumElements());
  if (dest.getShape()[0] != count)
    return emitOpError("destination of ")
           << dest.getShape()[0] << " elements for a tile of " << count;
  if ((count * 4) % 16 != 0)
    return emitOpError("a bulk add moves a multiple of 16 bytes, not ")
           << count * 4;
  if (auto memref = dyn_cast<MemRefType>(dest);
      memref && memref.getMemorySpace())
    return emitOpError("adds into global memory (no memory space), not ")
           << memref;
  return success();
}
