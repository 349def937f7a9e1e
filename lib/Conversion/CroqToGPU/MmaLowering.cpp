//===- MmaLowering.cpp - mma ops to wgmma ---------------------------------===//
//
// Lowers croq mma ops to Hopper warpgroup MMA. An operand (croq.mma.load) is
// the shared-memory start address of its tile or view; croq.mma builds the
// matrix descriptors from the operand tiles' swizzle layouts and issues one
// wgmma.mma_async per 64 rows of M and per instruction K. Accumulators live
// in LLVM structs, one per 64 rows, exactly as wgmma reads and writes them.
// croq.mma.commit commits the group and waits for it, croq.mma.wait waits
// for a group committed earlier; croq.mma.store writes
// the accumulator fragment of each thread to a tile or tensor.
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/ThreadGroups.h"
#include "Croq/Dialect/Croq/IR/ViewUtils.h"
#include "LoweringUtils.h"
#include "MmaOperands.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::croq;

//===----------------------------------------------------------------------===//
// Legality
//===----------------------------------------------------------------------===//

LogicalResult mlir::croq::checkMmaLowerable(Operation *op) {
  auto group = op->getParentOfType<ParallelOp>();
  if (!group)
    return op->emitOpError("must be inside a croq.parallel region");
  bool warpgroup = group.getLevel() == ParallelLevel::Warpgroup;
  if (group.getLevel() == ParallelLevel::Block) {
    FailureOr<int64_t> threads = getBlockThreadCount(group);
    if (failed(threads))
      return failure();
    warpgroup = *threads == kWarpgroupSize;
  }
  if (!isa<MmaLoadOp>(op) && !warpgroup)
    return op->emitOpError("runs on the tensor cores of one warpgroup: put "
                           "it in a 'croq.parallel ... : warpgroup' region, "
                           "or in a block of 128 threads");
  if (auto store = dyn_cast<MmaStoreOp>(op);
      store &&
      getMemorySpaceOf(store.getDest().getType()) == MemorySpace::Local)
    return op->emitOpError("stores accumulators to shared or global memory "
                           "only");
  auto check = [&](AccType acc) -> LogicalResult {
    Type element = acc.getElementType();
    if (!element.isF32() && !element.isInteger(32))
      return op->emitOpError("accumulators of ")
             << element << " are not lowered yet; accumulate in f32";
    // Held as wgmma m64nN fragments: every 64 rows, N / 2 registers in each
    // of the warpgroup's threads.
    if (isHeldInWgmmaFragments(acc))
      return success();
    int64_t m = acc.getShape()[0], n = acc.getShape()[1];
    if (m % 64 != 0 || n % 8 != 0 || n > 256)
      return op->emitOpError("accumulator ")
             << acc << " is not held in wgmma fragments: rows must be a "
             << "multiple of 64 and columns a multiple of 8 no larger than 256";
    return op->emitOpError("accumulator ")
           << acc << " needs " << saturatingMul(m / 64, n / 2)
           << " registers in each thread, more than the " << kMaxAccRegisters
           << " a thread can hold";
  };
  auto checkVec = [&](VecType vec) -> LogicalResult {
    if (getVecStructType(vec))
      return success();
    return op->emitOpError("vector ")
           << vec << " does not lie along wgmma fragments: rows vectors "
           << "have a multiple of 64 elements, columns vectors a multiple of "
           << "8 no larger than 256";
  };
  if (auto fill = dyn_cast<MmaFillOp>(op))
    return check(fill.getResult().getType());
  if (auto map = dyn_cast<MmaMapOp>(op)) {
    for (Type type : map->getOperandTypes())
      if (failed(isa<AccType>(type) ? check(cast<AccType>(type))
                                    : checkVec(cast<VecType>(type))))
        return failure();
    return success();
  }
  if (auto fill = dyn_cast<VecFillOp>(op))
    return checkVec(fill.getResult().getType());
  if (auto map = dyn_cast<VecMapOp>(op)) {
    for (Type type : map->getOperandTypes())
      if (failed(checkVec(cast<VecType>(type))))
        return failure();
    return success();
  }
  if (auto reduce = dyn_cast<MmaReduceOp>(op)) {
    if (!isa<FloatType>(reduce.getAcc().getType().getElementType()) &&
        !reduce.getAcc().getType().getElementType().isInteger(32))
      return op->emitOpError("reduces f32 or i32 accumulators");
    return failure(failed(check(reduce.getAcc().getType())) ||
                   failed(checkVec(reduce.getResult().getType())));
  }
  if (auto convert = dyn_cast<MmaConvertOp>(op)) {
    if (failed(check(convert.getAcc().getType())))
      return failure();
    if (!getRegisterFragStructType(convert.getResult().getType()))
      return op->emitOpError("A operand ")
             << convert.getResult().getType()
             << " needs more registers in each thread than the "
             << kMaxAccRegisters << " a thread can hold";
    return success();
  }
  if (auto slice = dyn_cast<MmaSliceOp>(op))
    return failure(failed(check(slice.getAcc().getType())) ||
                   failed(check(slice.getResult().getType())));
  if (auto store = dyn_cast<MmaStoreOp>(op))
    return check(store.getAcc().getType());
  if (auto mma = dyn_cast<MmaOp>(op)) {
    if (failed(check(mma.getAcc().getType())))
      return failure();
    bool aInRegisters = mma.getA().getType().getInRegisters();
    for (auto [value, name] :
         {std::pair<Value, StringRef>{mma.getA(), "A"}, {mma.getB(), "B"}}) {
      if (aInRegisters && name == "A")
        continue;
      // An operand not from croq.mma.load is reported by the layout
      // queries below.
      auto load = value.getDefiningOp<MmaLoadOp>();
      if (!load)
        break;
      // Layouts still to be chosen are checked when they are lowered.
      TileType tile = getOperandTile(load);
      if (tile && tile.getSwizzle() == Swizzle::Auto)
        return success();
    }
    if (aInRegisters)
      return getOperandBLayout(mma);
    return getOperandLayouts(mma);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Fences
//===----------------------------------------------------------------------===//

/// Whether `fill` zeroes an accumulator that only croq.mma ops accumulate
/// into: its registers need not be written, as the first wgmma of each
/// such op ignores them (scale-d = 0).
static bool isZeroInitOnly(MmaFillOp fill) {
  if (!matchPattern(fill.getValue(), m_AnyZeroFloat()) &&
      !matchPattern(fill.getValue(), m_Zero()))
    return false;
  return llvm::all_of(fill.getResult().getUses(), [](OpOperand &use) {
    auto mma = dyn_cast<MmaOp>(use.getOwner());
    return mma && &use == &mma.getAccMutable();
  });
}

/// Whether croq.mma `op` starts from an accumulator of zeros whose
/// registers were left unwritten (isZeroInitOnly). The fill it reads is the
/// original op: the conversion replaces ops only once all are lowered.
static bool startsFromZero(MmaOp op) {
  auto fill = op.getAcc().getDefiningOp<MmaFillOp>();
  return fill && isZeroInitOnly(fill);
}

/// Whether only wgmma has written the registers of accumulator `acc` since
/// the last wgmma fence: it comes from croq.mma.fill, croq.mma.commit,
/// croq.mma.wait or croq.mma (which fence or keep the registers in wgmma),
/// directly or through the iteration arguments and results of loops.
/// Anything else (a croq.mma.map result, a value through a branch) may
/// reach the wgmma after register copies at block edges.
static bool isWrittenByWgmmaOnly(Value acc, int depth = 0) {
  if (depth > 4)
    return false;
  auto viaLoop = [&](scf::ForOp loop, unsigned i) {
    return isWrittenByWgmmaOnly(loop.getInitArgs()[i], depth + 1) &&
           isWrittenByWgmmaOnly(loop.getYieldedValues()[i], depth + 1);
  };
  if (auto arg = dyn_cast<BlockArgument>(acc)) {
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (!loop || arg.getArgNumber() == 0)
      return false;
    return viaLoop(loop, arg.getArgNumber() - 1);
  }
  Operation *def = acc.getDefiningOp();
  if (auto loop = dyn_cast<scf::ForOp>(def))
    return viaLoop(loop, cast<OpResult>(acc).getResultNumber());
  if (auto fill = dyn_cast<MmaFillOp>(def))
    return !isZeroInitOnly(fill);
  return isa<MmaCommitOp, MmaWaitOp, MmaOp>(def);
}

void mlir::croq::insertWgmmaFences(ModuleOp module) {
  module.walk([](MmaOp mma) {
    if (mma.getA().getType().getInRegisters() ||
        !isWrittenByWgmmaOnly(mma.getAcc())) {
      OpBuilder builder(mma);
      NVVM::WgmmaFenceAlignedOp::create(builder, mma.getLoc());
    }
  });
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

namespace {
/// croq.mma.fill %v  =>  the accumulator struct with every element %v,
/// pinned, then a wgmma fence (its registers were written by other
/// instructions); an undefined struct for zeros only croq.mma ops read
/// (they start with scale-d = 0).
struct MmaFillOpLowering : OpConversionPattern<MmaFillOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MmaFillOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = getAccStructType(op.getResult().getType());
    if (!type)
      return rewriter.notifyMatchFailure(op, "accumulator not in fragments");
    Value acc = LLVM::UndefOp::create(rewriter, loc, type);
    if (isZeroInitOnly(op)) {
      rewriter.replaceOp(op, acc);
      return success();
    }
    for (auto [i, rowsType] : llvm::enumerate(type.getBody())) {
      auto rows = cast<LLVM::LLVMStructType>(rowsType);
      for (int64_t r = 0, e = rows.getBody().size(); r < e; ++r)
        acc = LLVM::InsertValueOp::create(
            rewriter, loc, acc, adaptor.getValue(),
            ArrayRef<int64_t>{static_cast<int64_t>(i), r});
    }
    // Pinned, the constant is written before the fence, not rematerialized
    // between wgmma instructions.
    rewriter.replaceOp(op, fenceAccumulator(rewriter, loc, acc));
    return success();
  }
};

/// croq.mma.load %view  =>  the shared-memory address (i64) of the view's
/// first element, before swizzling: wgmma applies the swizzle to the
/// addresses it forms from the descriptor.
struct MmaLoadOpLowering : OpConversionPattern<MmaLoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MmaLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<BufferAccess> access =
        getBufferAccess(rewriter, loc, op.getSource());
    if (failed(access))
      return failure();
    auto metadata =
        memref::ExtractStridedMetadataOp::create(rewriter, loc, access->memref);
    int64_t elementBytes = getElementSizeInBytes(access->elementType);
    Value bytes =
        arith::MulIOp::create(rewriter, loc, metadata.getOffset(),
                              indexConstant(rewriter, loc, elementBytes));
    if (access->swizzleBytes) {
      // A view of a swizzled tile starts where the tile's layout puts its
      // first element (in its slab).
      bytes = arith::AddIOp::create(
          rewriter, loc, bytes,
          access->layout.emitLinearByteOffset(rewriter, loc, access->offsets));
    } else {
      Value linear = indexConstant(rewriter, loc, 0);
      for (auto [offset, stride] :
           llvm::zip(access->offsets, metadata.getStrides()))
        linear = arith::AddIOp::create(
            rewriter, loc, linear,
            arith::MulIOp::create(rewriter, loc, offset, stride));
      bytes = arith::AddIOp::create(
          rewriter, loc, bytes,
          arith::MulIOp::create(rewriter, loc, linear,
                                indexConstant(rewriter, loc, elementBytes)));
    }
    Value base = memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc,
                                                                access->memref);
    Value address = arith::AddIOp::create(rewriter, loc, base, bytes);
    rewriter.replaceOp(op, arith::IndexCastUIOp::create(
                               rewriter, loc, rewriter.getI64Type(), address));
    return success();
  }
};

/// One wgmma m64nNk16 with A from the four registers `a` (f16 or bf16
/// pairs) and B from descriptor `descB`, accumulating into `rows`. NVVM's
/// wgmma op takes A as a descriptor only, so this is the PTX instruction in
/// an asm statement; the accumulator registers are tied to the outputs.
static Value emitRegisterAWgmma(OpBuilder &builder, Location loc, Value rows,
                                ArrayRef<Value> a, Value descB, int64_t n,
                                StringRef type, bool bKMajor, bool zeroInit) {
  auto rowsType = cast<LLVM::LLVMStructType>(rows.getType());
  int64_t outputs = static_cast<int64_t>(rowsType.getBody().size());
  std::string text;
  llvm::raw_string_ostream os(text);
  // p is scale-d: add to the accumulator, or start from zero.
  os << "{\n.reg .pred p;\nsetp.ne.b32 p, " << (zeroInit ? 0 : 1) << ", 0;\n"
     << "wgmma.mma_async.sync.aligned.m64n" << n << "k16.f32." << type << "."
     << type << " {";
  SmallVector<std::string> constraints;
  for (int64_t i = 0; i < outputs; ++i) {
    os << (i ? ", " : "") << "$" << i;
    constraints.push_back("=f");
  }
  os << "}, {";
  for (int64_t i = 0; i < 4; ++i) {
    os << (i ? ", " : "") << "$" << outputs + i;
    constraints.push_back("r");
  }
  // scale-d (p); A and B not negated; B transposed when it is MN-major.
  os << "}, $" << outputs + 4 << ", p, 1, 1, " << (bKMajor ? 0 : 1) << ";\n}\n";
  constraints.push_back("l");
  SmallVector<Value> operands(a);
  operands.push_back(descB);
  for (int64_t i = 0; i < outputs; ++i) {
    constraints.push_back(std::to_string(i));
    operands.push_back(LLVM::ExtractValueOp::create(builder, loc, rows, i));
  }
  auto asmOp = LLVM::InlineAsmOp::create(
      builder, loc, rowsType, operands, text, llvm::join(constraints, ","),
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::TailCallKind::None, /*asm_dialect=*/nullptr,
      /*operand_attrs=*/nullptr);
  return asmOp.getResult(0);
}

/// croq.mma %acc, %a, %b  =>  for each instruction K step and each 64 rows
/// of M, wgmma.mma_async on descriptors of A and B at those offsets, or
/// with A from its registers (insertWgmmaFences has placed the fence it
/// needs before it).
struct MmaOpLowering : OpConversionPattern<MmaOp> {
  MmaOpLowering(const TypeConverter &converter, MLIRContext *context,
                const TargetDescription &target)
      : OpConversionPattern(converter, context), target(target) {}
  const TargetDescription &target;
  LogicalResult
  matchAndRewrite(MmaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getA().getType().getInRegisters())
      return lowerWithRegisterA(op, adaptor, rewriter);
    Location loc = op.getLoc();
    FailureOr<std::pair<OperandLayout, OperandLayout>> layouts =
        getOperandLayouts(op);
    if (failed(layouts))
      return failure();
    OperandLayout *layoutA = &layouts->first, *layoutB = &layouts->second;
    bool aKMajor = op.getLayoutA() == MmaLayout::Row;
    bool bKMajor = op.getLayoutB() == MmaLayout::Row;
    ArrayRef<int64_t> shapeA = op.getA().getType().getShape();
    ArrayRef<int64_t> shapeB = op.getB().getType().getShape();
    int64_t m = aKMajor ? shapeA[0] : shapeA[1];
    int64_t k = aKMajor ? shapeA[1] : shapeA[0];
    int64_t n = bKMajor ? shapeB[0] : shapeB[1];
    Type inType = op.getA().getType().getElementType();
    Type accType = op.getAcc().getType().getElementType();
    int64_t instrK = 32 / layoutA->elementBytes;

    std::optional<NVVM::WGMMATypes> typeA = getWgmmaType(inType);
    std::optional<NVVM::WGMMATypes> typeB =
        getWgmmaType(op.getB().getType().getElementType());
    std::optional<NVVM::WGMMATypes> typeD = getWgmmaType(accType);
    if (!typeA || !typeB || !typeD)
      return op.emitOpError("has no wgmma form");
    if (*typeA == NVVM::WGMMATypes::f32)
      typeA = typeB = NVVM::WGMMATypes::tf32;
    MLIRContext *context = rewriter.getContext();
    auto shape = NVVM::MMAShapeAttr::get(context, 64, n, instrK);
    // NVVM names the layouts by the PTX defaults: A row-major and B
    // column-major are the K-major forms.
    auto nvvmLayoutA = NVVM::MMALayoutAttr::get(
        context, aKMajor ? NVVM::MMALayout::row : NVVM::MMALayout::col);
    auto nvvmLayoutB = NVVM::MMALayoutAttr::get(
        context, bKMajor ? NVVM::MMALayout::col : NVVM::MMALayout::row);
    auto one = NVVM::WGMMAScaleInAttr::get(context, NVVM::WGMMAScaleIn::one);
    // The first K step of an mma on unwritten zeros starts from zero.
    auto scaleD =
        NVVM::WGMMAScaleOutAttr::get(context, NVVM::WGMMAScaleOut::one);
    auto scaleZero =
        NVVM::WGMMAScaleOutAttr::get(context, NVVM::WGMMAScaleOut::zero);
    bool zeroInit = startsFromZero(op);
    uint64_t bitsA = getDescriptorBits(*layoutA, target);
    uint64_t bitsB = getOperandBDescriptorBits(op, *layoutB, target);
    NVVM::MMAIntOverflowAttr satfinite;

    Value acc = adaptor.getAcc();
    for (int64_t kk = 0; kk < k / instrK; ++kk) {
      // K steps move along a row, slab after slab (K-major), or over rows
      // (MN-major).
      int64_t k0 = kk * instrK;
      auto alongRow = [&](const OperandLayout &layout) {
        return k0 / layout.slabWidth * layout.slabBytes +
               k0 % layout.slabWidth * layout.elementBytes;
      };
      int64_t kOffsetA = aKMajor ? alongRow(*layoutA) : k0 * layoutA->rowBytes;
      int64_t kOffsetB = bKMajor ? alongRow(*layoutB) : k0 * layoutB->rowBytes;
      Value descB =
          buildDescriptor(rewriter, loc, adaptor.getB(), kOffsetB, bitsB);
      for (int64_t mi = 0; mi < m / 64; ++mi) {
        // 64 rows of M further: 64 rows down (K-major) or the next
        // 64-element atom along the row, the next span-wide slab (MN-major).
        int64_t mOffsetA =
            aKMajor ? mi * 64 * layoutA->rowBytes : mi * layoutA->slabBytes;
        Value descA = buildDescriptor(rewriter, loc, adaptor.getA(),
                                      kOffsetA + mOffsetA, bitsA);
        Value rows = LLVM::ExtractValueOp::create(rewriter, loc, acc, mi);
        auto wgmma = NVVM::WgmmaMmaAsyncOp::create(
            rewriter, loc, rows.getType(), rows, descA, descB, shape,
            NVVM::WGMMATypesAttr::get(context, *typeA),
            NVVM::WGMMATypesAttr::get(context, *typeB),
            NVVM::WGMMATypesAttr::get(context, *typeD),
            zeroInit && kk == 0 ? scaleZero : scaleD, one, one, nvvmLayoutA,
            nvvmLayoutB, satfinite);
        acc = LLVM::InsertValueOp::create(rewriter, loc, acc, wgmma.getResult(),
                                          mi);
      }
    }
    rewriter.replaceOp(op, acc);
    return success();
  }

  /// A from registers (K-major, f16 or bf16): per 16 of K and 64 of M, the
  /// four A registers of that step and a descriptor of B.
  LogicalResult lowerWithRegisterA(MmaOp op, OpAdaptor adaptor,
                                   ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    FailureOr<OperandLayout> layoutB = getOperandBLayout(op);
    if (failed(layoutB))
      return failure();
    if (!isa<LLVM::LLVMStructType>(adaptor.getA().getType()))
      return rewriter.notifyMatchFailure(op, "A not in registers");
    bool bKMajor = op.getLayoutB() == MmaLayout::Row;
    ArrayRef<int64_t> shapeA = op.getA().getType().getShape();
    ArrayRef<int64_t> shapeB = op.getB().getType().getShape();
    int64_t m = shapeA[0], k = shapeA[1];
    int64_t n = bKMajor ? shapeB[0] : shapeB[1];
    StringRef type =
        op.getA().getType().getElementType().isF16() ? "f16" : "bf16";
    uint64_t bitsB = getOperandBDescriptorBits(op, *layoutB, target);
    bool zeroInit = startsFromZero(op);
    Value acc = adaptor.getAcc();
    for (int64_t kk = 0; kk < k / 16; ++kk) {
      int64_t k0 = kk * 16;
      int64_t kOffsetB =
          bKMajor ? k0 / layoutB->slabWidth * layoutB->slabBytes +
                        k0 % layoutB->slabWidth * layoutB->elementBytes
                  : k0 * layoutB->rowBytes;
      Value descB =
          buildDescriptor(rewriter, loc, adaptor.getB(), kOffsetB, bitsB);
      for (int64_t mi = 0; mi < m / 64; ++mi) {
        SmallVector<Value, 4> a;
        for (int64_t u = 0; u < 4; ++u)
          a.push_back(
              LLVM::ExtractValueOp::create(rewriter, loc, adaptor.getA(),
                                           ArrayRef<int64_t>{mi, 4 * kk + u}));
        Value rows = LLVM::ExtractValueOp::create(rewriter, loc, acc, mi);
        Value result = emitRegisterAWgmma(rewriter, loc, rows, a, descB, n,
                                          type, bKMajor, zeroInit && kk == 0);
        acc = LLVM::InsertValueOp::create(rewriter, loc, acc, result, mi);
      }
    }
    rewriter.replaceOp(op, acc);
    return success();
  }
};

/// croq.mma.commit %acc  =>  commit the wgmma group, wait for it, pin the
/// accumulator registers after the wait and fence them for the next wgmma;
/// with pending = N, commit and wait until N groups are left.
struct MmaCommitOpLowering : OpConversionPattern<MmaCommitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MmaCommitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, loc);
    NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, op.getPending());
    // Groups still running keep writing the registers: the next wgmma on
    // the same accumulator is ordered after them by the hardware.
    if (op.getPending() > 0) {
      rewriter.replaceOp(op, adaptor.getAcc());
      return success();
    }
    rewriter.replaceOp(op, fenceAccumulator(rewriter, loc, adaptor.getAcc()));
    return success();
  }
};

/// croq.mma.wait %acc pending = N  =>  wait until N groups are left, pin the
/// accumulator registers after the wait and fence them for the next wgmma
/// (the verifier has checked that the accumulator's group is not among the
/// N).
struct MmaWaitOpLowering : OpConversionPattern<MmaWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MmaWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, op.getPending());
    rewriter.replaceOp(op, fenceAccumulator(rewriter, loc, adaptor.getAcc()));
    return success();
  }
};
} // namespace

void mlir::croq::populateCroqMmaToGPUPatterns(CroqTypeConverter &converter,
                                              const TargetDescription &target,
                                              RewritePatternSet &patterns) {
  patterns.add<MmaFillOpLowering, MmaLoadOpLowering, MmaCommitOpLowering,
               MmaWaitOpLowering>(converter, patterns.getContext());
  patterns.add<MmaOpLowering>(converter, patterns.getContext(), target);
  populateCroqMmaStoreToGPUPatterns(converter, patterns);
  populateCroqMmaMapToGPUPatterns(converter, patterns);
  populateCroqMmaReduceToGPUPatterns(converter, patterns);
  populateCroqClusterSumToGPUPatterns(converter, patterns);
  populateCroqAccumulateToGPUPatterns(converter, patterns);
}
