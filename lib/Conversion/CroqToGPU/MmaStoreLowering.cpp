//===- MmaStoreLowering.cpp - mma.store to stores of fragments -----------===//
//
// Lowers croq.mma.store: each thread converts and stores the elements of its
// wgmma fragment of the accumulator, masked at a view's edge; into 16-bit
// shared tiles each warp stores with stmatrix (stmatrix.trans for a
// transposed store).
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/ViewUtils.h"
#include "LoweringUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::croq;

/// Whether every pair of adjacent even-odd columns of `access` is aligned to
/// the pair's size, as far as the compiler knows: a shared tile with an even
/// number of elements, unit inner stride, even row strides and a constant,
/// even inner offset. Global tensors are not: their alignment is known only at
/// run time, and a run-time choice between paired and single stores makes
/// ptxas serialize the wgmma pipeline before it (C7514).
static bool isPairAligned(const BufferAccess &access, int64_t eltBytes) {
  if (access.space != MemorySpace::Shared ||
      !hasUnitInnerStride(access.storage) || access.offsets.empty())
    return false;
  // Shared buffers start 16-byte aligned, and the stages of a stage array
  // at multiples of the stage's size: an even number of elements keeps
  // every stage's origin pair-aligned.
  auto type = cast<MemRefType>(access.memref.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (!type.hasStaticShape() || type.getNumElements() % 2 != 0 ||
      failed(type.getStridesAndOffset(strides, offset)))
    return false;
  for (int64_t stride : ArrayRef<int64_t>(strides).drop_back())
    if (ShapedType::isDynamic(stride) || stride % 2 != 0)
      return false;
  std::optional<int64_t> inner = getConstantIntValue(access.offsets.back());
  return eltBytes <= 8 && inner && *inner % 2 == 0;
}

/// Whether an mma.store of `accType` into `access` can use stmatrix: a
/// 16-bit destination in shared memory that the accumulator lies inside
/// (no masks), whole pairs of 8-column groups of the accumulator, and rows
/// whose 8-element groups are contiguous 16-byte chunks (a swizzled tile,
/// or unit inner stride with rows a multiple of 16 bytes apart and a
/// column offset that is a multiple of 8). A transposed store writes each
/// 8x8 matrix's rows as the destination's columns: the same conditions.
static bool canUseStMatrix(const BufferAccess &access, Type destType,
                           AccType accType) {
  if (access.space != MemorySpace::Shared || !access.limits.empty() ||
      access.offsets.size() != 2 || !accType.getElementType().isF32() ||
      !(destType.isF16() || destType.isBF16()) ||
      accType.getShape()[1] % 16 != 0)
    return false;
  std::optional<int64_t> column = getConstantIntValue(access.offsets[1]);
  if (!column || *column % 8 != 0)
    return false;
  if (access.swizzleBytes)
    return true;
  auto type = cast<MemRefType>(access.storage.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (type.getRank() != 2 || failed(type.getStridesAndOffset(strides, offset)))
    return false;
  return strides[1] == 1 && !ShapedType::isDynamic(strides[0]) &&
         (strides[0] * 2) % 16 == 0;
}

/// The shared-memory address (an LLVM pointer in the shared space) of
/// element `coords` of `access`'s buffer.
static Value getSharedElementPointer(OpBuilder &b, Location loc,
                                     const BufferAccess &access,
                                     ArrayRef<Value> coords, int64_t eltBytes) {
  SmallVector<Value> indices = getElementIndices(b, loc, access, coords);
  Value linear = indices.front();
  if (indices.size() == 2) {
    auto type = cast<MemRefType>(access.storage.getType());
    SmallVector<int64_t> strides;
    int64_t offset;
    (void)type.getStridesAndOffset(strides, offset);
    linear = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(b, loc, indices[0],
                              indexConstant(b, loc, strides[0])),
        indices[1]);
  }
  auto metadata =
      memref::ExtractStridedMetadataOp::create(b, loc, access.storage);
  Value aligned =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, access.storage);
  Value element = arith::AddIOp::create(b, loc, metadata.getOffset(), linear);
  Value address = arith::AddIOp::create(
      b, loc, aligned,
      arith::MulIOp::create(b, loc, element, indexConstant(b, loc, eltBytes)));
  Value address64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), address);
  auto sharedPtr = LLVM::LLVMPointerType::get(
      b.getContext(), static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared));
  return LLVM::IntToPtrOp::create(b, loc, sharedPtr, address64);
}

/// Stores each warp's fragment of the accumulator into a 16-bit shared tile
/// with stmatrix (see canUseStMatrix): for 8-column groups j = 2 p and
/// 2 p + 1 one stmatrix.x4 writes the four 8x8 matrices (rows 0-7 and 8-15
/// of the warp's 16, each group), each thread giving its two converted
/// columns of each, and lane l the address of row l % 8 of matrix l / 8.
/// With `transpose`, stmatrix.trans writes each matrix's column c as row c
/// of the destination: lane l addresses the destination row of the
/// accumulator's column l % 8 of matrix l / 8, at the destination column of
/// the matrix's first row. `getPair(b, i, r)` is registers r and r + 1 of
/// 64-row block i, converted, as a vector of two.
static void
emitStMatrixStores(OpBuilder &b, Location loc, const BufferAccess &access,
                   Type destType, Value warp, Value lane, int64_t blocks,
                   int64_t perThread, int64_t eltBytes, bool transpose,
                   function_ref<Value(OpBuilder &, int64_t, int64_t)> getPair) {
  // Lane l addresses row (l / 8) % 2 * 8 + l % 8 of the warp's 16 and
  // column group (l / 8) / 2 of the pair; transposed, column l % 8 of the
  // group's 8 and the first row of the matrix's 8.
  Value matrix = arith::DivUIOp::create(b, loc, lane, indexConstant(b, loc, 8));
  Value inMatrix =
      arith::RemUIOp::create(b, loc, lane, indexConstant(b, loc, 8));
  Value matrixRow = arith::MulIOp::create(
      b, loc, arith::RemUIOp::create(b, loc, matrix, indexConstant(b, loc, 2)),
      indexConstant(b, loc, 8));
  Value laneCol = arith::MulIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, matrix, indexConstant(b, loc, 2)),
      indexConstant(b, loc, 8));
  Value laneRow = matrixRow;
  if (transpose)
    laneCol = arith::AddIOp::create(b, loc, laneCol, inMatrix);
  else
    laneRow = arith::AddIOp::create(b, loc, matrixRow, inMatrix);
  Value warpRow = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, warp, indexConstant(b, loc, 16)),
      laneRow);
  Type i32 = b.getI32Type();
  auto layout = NVVM::MMALayoutAttr::get(
      b.getContext(), transpose ? NVVM::MMALayout::col : NVVM::MMALayout::row);
  auto shape = NVVM::LdStMatrixShapeAttr::get(b.getContext(), 8, 8);
  auto eltType = NVVM::LdStMatrixEltTypeAttr::get(b.getContext(),
                                                  NVVM::LdStMatrixEltType::B16);
  for (int64_t i = 0; i < blocks; ++i) {
    Value row =
        arith::AddIOp::create(b, loc, warpRow, indexConstant(b, loc, 64 * i));
    for (int64_t r = 0; r < perThread; r += 8) {
      SmallVector<Value> sources;
      for (int64_t k = 0; k < 4; ++k) {
        sources.push_back(
            LLVM::BitcastOp::create(b, loc, i32, getPair(b, i, r + 2 * k)));
      }
      Value col =
          arith::AddIOp::create(b, loc, laneCol, indexConstant(b, loc, 2 * r));
      Value ptr = getSharedElementPointer(b, loc, access,
                                          transpose ? ArrayRef<Value>{col, row}
                                                    : ArrayRef<Value>{row, col},
                                          eltBytes);
      NVVM::StMatrixOp::create(b, loc, ptr, sources, layout, shape, eltType);
    }
  }
}

namespace {
/// croq.mma.store %acc -> %dest  =>  each thread converts and stores the
/// elements of its fragment: for rows block i, register r = 4 j + q of
/// thread t (warp w, lane l), row 64 i + 16 w + l / 4 + 8 (q / 2) and
/// column 8 j + 2 (l % 4) + q % 2 (transposed: at that column and row of
/// the destination). Stores past a view's edge are dropped. Into a 16-bit
/// shared tile each warp stores its fragment with stmatrix instead
/// (emitStMatrixStores).
struct MmaStoreOpLowering : OpConversionPattern<MmaStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MmaStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<BufferAccess> access =
        getBufferAccess(rewriter, loc, op.getDest());
    if (failed(access))
      return failure();
    FailureOr<ThreadGroup> group = getThreadGroup(rewriter, op);
    if (failed(group))
      return failure();
    FragmentOrigin origin = getWarpAndLane(rewriter, loc, group->threadIndex);
    Value warp = origin.warp, lane = origin.lane;
    Type destType = access->elementType;
    AccType accType = op.getAcc().getType();
    int64_t blocks = std::max<int64_t>(1, accType.getShape()[0] / 64);
    int64_t perThread = accType.getShape()[1] / 2;
    bool masked = !access->limits.empty();
    int64_t eltBytes = getElementSizeInBytes(destType);

    // Register r of block i, as the accumulator holds it.
    auto getRegister = [&](OpBuilder &b, int64_t i, int64_t r) -> Value {
      return LLVM::ExtractValueOp::create(b, loc, adaptor.getAcc(),
                                          ArrayRef<int64_t>{i, r});
    };
    // Element r of block i, converted to the destination type.
    auto getValue = [&](OpBuilder &b, int64_t i, int64_t r) -> Value {
      Value value = getRegister(b, i, r);
      if (value.getType() == destType)
        return value;
      if (auto floatType = dyn_cast<FloatType>(destType))
        return floatType.getWidth() < value.getType().getIntOrFloatBitWidth()
                   ? arith::TruncFOp::create(b, loc, destType, value)
                         .getResult()
                   : arith::ExtFOp::create(b, loc, destType, value).getResult();
      return arith::TruncIOp::create(b, loc, destType, value);
    };
    // Registers r and r + 1 (r even) of block i, converted, as a vector of
    // two: with relu, one cvt.rn.relu.{f16,bf16}x2.f32, which takes the
    // element of the upper half first.
    auto pairType = VectorType::get({2}, destType);
    auto getPair = [&](OpBuilder &b, int64_t i, int64_t r) -> Value {
      if (!op.getRelu())
        return vector::FromElementsOp::create(
            b, loc, pairType,
            ValueRange{getValue(b, i, r), getValue(b, i, r + 1)});
      Value low = getRegister(b, i, r);
      Value high = getRegister(b, i, r + 1);
      auto rn = NVVM::FPRoundingMode::RN;
      auto none = NVVM::SaturationMode::NONE;
      if (destType.isF16())
        return NVVM::ConvertF32x2ToF16x2Op::create(
            b, loc, pairType, high, low, Value(), rn, none, /*relu=*/true);
      return NVVM::ConvertF32x2ToBF16x2Op::create(
          b, loc, pairType, high, low, Value(), rn, none, /*relu=*/true);
    };
    // Register r alone, converted.
    auto getSingle = [&](OpBuilder &b, int64_t i, int64_t r) -> Value {
      if (!op.getRelu())
        return getValue(b, i, r);
      return vector::ExtractOp::create(b, loc, getPair(b, i, r - r % 2), r % 2);
    };
    bool transpose = op.getTranspose();
    if (canUseStMatrix(*access, destType, accType)) {
      emitStMatrixStores(rewriter, loc, *access, destType, warp, lane, blocks,
                         perThread, eltBytes, transpose, getPair);
      rewriter.eraseOp(op);
      return success();
    }

    // Row and column of register 0 of block 0.
    origin = getFragmentOrigin(rewriter, loc, origin);
    Value row0 = origin.row, col0 = origin.column;
    // Where element (row, col) of the accumulator goes in the destination.
    auto place = [&](Value row, Value col) {
      return transpose ? SmallVector<Value>{col, row}
                       : SmallVector<Value>{row, col};
    };
    // Whether (row, col) of the accumulator lies inside the destination.
    auto isInside = [&](OpBuilder &b, Value row, Value col) {
      SmallVector<Value> inside;
      for (auto [d, c] : llvm::enumerate(place(row, col)))
        inside.push_back(lessThan(
            b, loc, arith::AddIOp::create(b, loc, access->offsets[d], c),
            access->limits[d]));
      return allOf(b, loc, inside);
    };
    auto storeOne = [&](OpBuilder &b, Value value, Value row, Value col) {
      memref::StoreOp::create(
          b, loc, value, access->storage,
          getElementIndices(b, loc, *access, place(row, col)));
    };

    // Registers r and r + 1 (r even) of a thread hold two adjacent columns
    // of one row: `paired` stores them as one vector of two elements (not
    // when transposed: they lie in two rows of the destination).
    auto emitStores = [&](OpBuilder &b, bool paired) {
      int64_t step = paired ? 2 : 1;
      for (int64_t i = 0; i < blocks; ++i) {
        for (int64_t r = 0; r < perThread; r += step) {
          RegisterOffset offset = getRegisterOffset(i, r);
          Value row = arith::AddIOp::create(b, loc, row0,
                                            indexConstant(b, loc, offset.row));
          Value col = arith::AddIOp::create(
              b, loc, col0, indexConstant(b, loc, offset.column));
          OpBuilder::InsertionGuard guard(b);
          if (!paired) {
            Value value = getSingle(b, i, r);
            if (masked) {
              auto ifInside =
                  scf::IfOp::create(b, loc, isInside(b, row, col), false);
              b.setInsertionPointToStart(ifInside.thenBlock());
            }
            storeOne(b, value, row, col);
            continue;
          }
          Value pair = getPair(b, i, r);
          Value next =
              arith::AddIOp::create(b, loc, col, indexConstant(b, loc, 1));
          if (masked) {
            // The pair when both columns are inside; else the first alone
            // when it is.
            auto ifBoth = scf::IfOp::create(b, loc, isInside(b, row, next),
                                            /*withElseRegion=*/true);
            b.setInsertionPointToStart(ifBoth.elseBlock());
            auto ifFirst =
                scf::IfOp::create(b, loc, isInside(b, row, col), false);
            b.setInsertionPointToStart(ifFirst.thenBlock());
            storeOne(b, vector::ExtractOp::create(b, loc, pair, 0), row, col);
            b.setInsertionPointToStart(ifBoth.thenBlock());
          }
          vector::StoreOp::create(
              b, loc, pair, access->storage,
              getElementIndices(b, loc, *access, {row, col}),
              /*nontemporal=*/false, llvm::MaybeAlign(2 * eltBytes));
        }
      }
    };

    emitStores(rewriter, !transpose && isPairAligned(*access, eltBytes));
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::croq::populateCroqMmaStoreToGPUPatterns(
    CroqTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<MmaStoreOpLowering>(converter, patterns.getContext());
}
