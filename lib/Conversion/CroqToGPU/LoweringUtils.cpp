//===- LoweringUtils.cpp - shared state of the croq-to-gpu lowering -------===//
//
// Type conversion, thread groups, barriers and the
// resolution of buffers to memref coordinates, and which buffer a view
// stands for and which operand an op writes through.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "Croq/Dialect/Croq/IR/ThreadGroups.h"
#include "Croq/Dialect/Croq/IR/ViewUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::croq;

//===----------------------------------------------------------------------===//
// Index helpers
//===----------------------------------------------------------------------===//

Value mlir::croq::isAccessAligned(OpBuilder &builder, Location loc,
                                  const BufferAccess &access, int64_t eltBytes,
                                  int64_t alignBytes) {
  auto metadata =
      memref::ExtractStridedMetadataOp::create(builder, loc, access.memref);
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(builder, loc,
                                                              access.memref);
  Value linear = metadata.getOffset();
  for (auto [offset, stride] : llvm::zip(access.offsets, metadata.getStrides()))
    linear = arith::AddIOp::create(
        builder, loc, linear,
        arith::MulIOp::create(builder, loc, offset, stride));
  Value elt = indexConstant(builder, loc, eltBytes);
  Value alignment = indexConstant(builder, loc, alignBytes);
  Value zero = indexConstant(builder, loc, 0);
  Value address = arith::AddIOp::create(
      builder, loc, base, arith::MulIOp::create(builder, loc, linear, elt));
  SmallVector<Value> conditions;
  auto isMultiple = [&](Value bytes) {
    Value rem = arith::RemUIOp::create(builder, loc, bytes, alignment);
    return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, rem,
                                 zero)
        .getResult();
  };
  conditions.push_back(isMultiple(address));
  auto strides = metadata.getStrides();
  for (size_t d = 0; d + 1 < strides.size(); ++d)
    conditions.push_back(
        isMultiple(arith::MulIOp::create(builder, loc, strides[d], elt)));
  return allOf(builder, loc, conditions);
}

bool mlir::croq::hasUnitInnerStride(Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) || strides.empty())
    return false;
  return strides.back() == 1;
}

Value mlir::croq::emitDistributedLoop(OpBuilder &builder, Location loc,
                                      const ThreadGroup &group, Value total) {
  return emitDistributedLoop(builder, loc, group.threadIndex, group.size,
                             total);
}

//===----------------------------------------------------------------------===//
// Type conversion
//===----------------------------------------------------------------------===//

/// A memref of `shape` with identity strides and a dynamic offset.
static MemRefType getTileMemRefType(ArrayRef<int64_t> shape, Type elementType,
                                    MemorySpace space) {
  MLIRContext *context = elementType.getContext();
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  auto layout = StridedLayoutAttr::get(context, ShapedType::kDynamic, strides);
  Attribute memorySpace;
  if (space == MemorySpace::Shared)
    memorySpace =
        gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup);
  return MemRefType::get(shape, elementType, layout, memorySpace);
}

bool mlir::croq::isHeldInWgmmaFragments(AccType type) {
  int64_t m = type.getShape()[0], n = type.getShape()[1];
  return m % 64 == 0 && n % 8 == 0 && n <= 256 &&
         saturatingMul(m / 64, n / 2) <= kMaxAccRegisters;
}

LLVM::LLVMStructType mlir::croq::getAccStructType(AccType type) {
  if (!isHeldInWgmmaFragments(type))
    return {};
  MLIRContext *context = type.getContext();
  ArrayRef<int64_t> shape = type.getShape();
  // wgmma m64nNk*: each of the 128 threads holds N / 2 elements of every 64
  // rows.
  SmallVector<Type> elements(shape[1] / 2, type.getElementType());
  auto rows = LLVM::LLVMStructType::getLiteral(context, elements);
  SmallVector<Type> blocks(std::max<int64_t>(1, shape[0] / 64), rows);
  return LLVM::LLVMStructType::getLiteral(context, blocks);
}

LLVM::LLVMStructType mlir::croq::getVecStructType(VecType type) {
  int64_t size = type.getSize(), count;
  if (type.getAxis() == AccAxis::Rows) {
    if (size % 64 != 0 || size / 64 * 2 > kMaxAccRegisters)
      return {};
    count = size / 64 * 2;
  } else {
    if (size % 8 != 0 || size > 256)
      return {};
    count = size / 4;
  }
  SmallVector<Type> elements(count, type.getElementType());
  return LLVM::LLVMStructType::getLiteral(type.getContext(), elements);
}

RegisterOffset mlir::croq::getRegisterOffset(int64_t block, int64_t reg) {
  int64_t j = reg / 4, q = reg % 4;
  return {64 * block + 8 * (q / 2), 8 * j + q % 2};
}

int64_t mlir::croq::getVecPosition(VecType type, int64_t block, int64_t reg) {
  // Element 2 i + h of a rows vector is row 64 i + 8 h; element 2 j + p of
  // a columns vector column 8 j + p (getRegisterOffset).
  RegisterOffset offset = getRegisterOffset(block, reg);
  if (type.getAxis() == AccAxis::Rows)
    return offset.row / 64 * 2 + offset.row % 64 / 8;
  return offset.column / 8 * 2 + offset.column % 8;
}

Value mlir::croq::getVecIndex(OpBuilder &builder, Location loc, VecType type,
                              const FragmentOrigin &origin, int64_t position) {
  // A register that element `position` covers: block i, registers 2 h
  // (rows); block 0, register 4 j + p (columns).
  int64_t group = position / 2, half = position % 2;
  if (type.getAxis() == AccAxis::Rows)
    return arith::AddIOp::create(
        builder, loc, origin.row,
        indexConstant(builder, loc, getRegisterOffset(group, 2 * half).row));
  return arith::AddIOp::create(
      builder, loc, origin.column,
      indexConstant(builder, loc,
                    getRegisterOffset(0, 4 * group + half).column));
}

LLVM::LLVMStructType mlir::croq::getRegisterFragStructType(FragType type) {
  int64_t m = type.getShape()[0], k = type.getShape()[1];
  if (!type.getInRegisters() || m % 64 != 0 || k % 16 != 0 ||
      saturatingMul(m / 64, k / 4) > kMaxAccRegisters)
    return {};
  MLIRContext *context = type.getContext();
  SmallVector<Type> registers(k / 4, IntegerType::get(context, 32));
  auto rows = LLVM::LLVMStructType::getLiteral(context, registers);
  SmallVector<Type> blocks(m / 64, rows);
  return LLVM::LLVMStructType::getLiteral(context, blocks);
}

Value mlir::croq::pinRegister(OpBuilder &builder, Location loc, Value value) {
  StringRef constraint = value.getType().isF32() ? "=f,0" : "=r,0";
  auto asmOp = LLVM::InlineAsmOp::create(
      builder, loc, value.getType(), ValueRange{value}, /*asm_string=*/"",
      constraint, /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::TailCallKind::None, /*asm_dialect=*/nullptr,
      /*operand_attrs=*/nullptr);
  return asmOp.getResult(0);
}

Value mlir::croq::buildRegisterStruct(
    OpBuilder &builder, Location loc, LLVM::LLVMStructType type,
    function_ref<Value(int64_t block, int64_t reg)> element) {
  Value result = LLVM::UndefOp::create(builder, loc, type);
  for (auto [i, rowsType] : llvm::enumerate(type.getBody())) {
    int64_t block = static_cast<int64_t>(i);
    int64_t registers = cast<LLVM::LLVMStructType>(rowsType).getBody().size();
    for (int64_t reg = 0; reg < registers; ++reg)
      result =
          LLVM::InsertValueOp::create(builder, loc, result, element(block, reg),
                                      ArrayRef<int64_t>{block, reg});
  }
  return result;
}

Value mlir::croq::fenceAccumulator(OpBuilder &builder, Location loc,
                                   Value acc) {
  auto type = cast<LLVM::LLVMStructType>(acc.getType());
  Value result = acc;
  for (auto [i, rowsType] : llvm::enumerate(type.getBody())) {
    auto rows = cast<LLVM::LLVMStructType>(rowsType);
    for (int64_t r = 0, e = rows.getBody().size(); r < e; ++r) {
      SmallVector<int64_t> position{static_cast<int64_t>(i), r};
      Value element = LLVM::ExtractValueOp::create(builder, loc, acc, position);
      result = LLVM::InsertValueOp::create(
          builder, loc, result, pinRegister(builder, loc, element), position);
    }
  }
  NVVM::WgmmaFenceAlignedOp::create(builder, loc);
  return result;
}

CroqTypeConverter::CroqTypeConverter(MLIRContext *context) {
  addConversion([](Type type) { return type; });
  addConversion([](TileType type) -> Type {
    return getTileMemRefType(type.getShape(), type.getElementType(),
                             type.getMemorySpace());
  });
  addConversion([](TilesType type) -> Type {
    SmallVector<int64_t> shape{type.getNumStages()};
    llvm::append_range(shape, type.getShape());
    return getTileMemRefType(shape, type.getElementType(),
                             type.getMemorySpace());
  });
  addConversion([](TensorMapType type) -> Type {
    return getTensorMapValueType(type.getContext());
  });
  addConversion([](FutureType type) -> Type {
    return nvgpu::DeviceAsyncTokenType::get(type.getContext());
  });
  // A thread's phase bits of an event array: one bit per slot.
  addConversion([](PhasesType type) -> Type {
    return IntegerType::get(type.getContext(), 64);
  });
  addConversion([](EventsType type) -> Type {
    MLIRContext *context = type.getContext();
    return nvgpu::MBarrierGroupType::get(
        context,
        gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup),
        type.getCount());
  });
  addConversion([](FragType type) -> std::optional<Type> {
    if (!type.getInRegisters())
      return IntegerType::get(type.getContext(), 64);
    if (LLVM::LLVMStructType converted = getRegisterFragStructType(type))
      return converted;
    return std::nullopt;
  });
  addConversion([](VecType type) -> std::optional<Type> {
    if (LLVM::LLVMStructType converted = getVecStructType(type))
      return converted;
    return std::nullopt;
  });
  addConversion([](AccType type) -> std::optional<Type> {
    if (LLVM::LLVMStructType converted = getAccStructType(type))
      return converted;
    return std::nullopt;
  });
  auto materialize = [](OpBuilder &builder, Type type, ValueRange inputs,
                        Location loc) -> Value {
    return UnrealizedConversionCastOp::create(builder, loc, type, inputs)
        .getResult(0);
  };
  addSourceMaterialization(materialize);
  addTargetMaterialization(materialize);
}

FailureOr<ThreadGroup>
mlir::croq::getThreadGroup(OpBuilder &builder, Operation *op, bool perThread) {
  Location loc = op->getLoc();
  auto parallel = op->getParentOfType<ParallelOp>();
  if (!parallel)
    return op->emitOpError("must be inside a croq.parallel region to be "
                           "lowered to a GPU kernel");
  FailureOr<GroupShape> shape = getGroupShape(parallel, perThread);
  if (failed(shape))
    return failure();
  ThreadGroup group;
  group.level = shape->level;
  group.size = shape->size;
  if (group.level == ParallelLevel::Thread) {
    group.threadIndex = indexConstant(builder, loc, 0);
    return group;
  }
  Value tid = gpu::ThreadIdOp::create(builder, loc, gpu::Dimension::x);
  group.threadIndex = tid;
  if (group.level == ParallelLevel::Warpgroup) {
    Value wgSize = indexConstant(builder, loc, kWarpgroupSize);
    group.threadIndex = arith::RemUIOp::create(builder, loc, tid, wgSize);
    group.warpgroupIndex = arith::DivUIOp::create(builder, loc, tid, wgSize);
  }
  return group;
}

void mlir::croq::emitClusterBarrier(OpBuilder &builder, Location loc) {
  NVVM::ClusterArriveOp::create(builder, loc,
                                /*aligned=*/builder.getUnitAttr());
  NVVM::ClusterWaitOp::create(builder, loc, /*aligned=*/builder.getUnitAttr());
}

void mlir::croq::emitAsyncSharedFence(OpBuilder &builder, Location loc) {
  MLIRContext *context = builder.getContext();
  NVVM::FenceProxyOp::create(
      builder, loc,
      NVVM::ProxyKindAttr::get(context, NVVM::ProxyKind::async_shared),
      NVVM::SharedSpaceAttr::get(context, NVVM::SharedSpace::shared_cta));
}

void mlir::croq::emitGroupBarrier(OpBuilder &builder, Location loc,
                                  const ThreadGroup &group) {
  switch (group.level) {
  case ParallelLevel::Block:
    gpu::BarrierOp::create(builder, loc);
    return;
  case ParallelLevel::Warpgroup: {
    // Barrier 0 belongs to the whole block; warpgroup w uses 1 + w.
    Value one = indexConstant(builder, loc, 1);
    Value id = arith::AddIOp::create(builder, loc, group.warpgroupIndex, one);
    Value id32 =
        arith::IndexCastOp::create(builder, loc, builder.getI32Type(), id);
    Value count =
        arith::ConstantIntOp::create(builder, loc, kWarpgroupSize, 32);
    NVVM::BarrierOp::create(builder, loc, /*res=*/Type(), id32, count,
                            /*reductionOp=*/nullptr,
                            /*reductionPredicate=*/Value());
    return;
  }
  case ParallelLevel::Thread:
    return;
  }
}

//===----------------------------------------------------------------------===//
// Buffer access
//===----------------------------------------------------------------------===//

SmallVector<Value> mlir::croq::getElementIndices(OpBuilder &builder,
                                                 Location loc,
                                                 const BufferAccess &access,
                                                 ArrayRef<Value> coords) {
  SmallVector<Value> indices;
  for (auto [offset, c] : llvm::zip(access.offsets, coords))
    indices.push_back(arith::AddIOp::create(builder, loc, offset, c));
  if (!access.swizzleBytes)
    return indices;
  const SharedTileLayout &layout = access.layout;
  Value swizzled = emitSwizzle(
      builder, loc, layout.emitLinearByteOffset(builder, loc, indices),
      layout.span);
  return {
      arith::DivUIOp::create(builder, loc, swizzled,
                             indexConstant(builder, loc, layout.elementBytes))};
}

/// Gives a swizzled shared tile its 1-d storage view and strides.
static void addSwizzledStorage(OpBuilder &builder, Location loc,
                               BufferAccess &access, Type tileType) {
  auto tile = dyn_cast<TileType>(tileType);
  if (!tile || tile.getMemorySpace() != MemorySpace::Shared)
    return;
  int64_t span = getSwizzleBytes(tile.getSwizzle());
  if (!span)
    return;
  access.swizzleBytes = span;
  access.layout = SharedTileLayout::get(tile);
  auto memrefType = cast<MemRefType>(access.memref.getType());
  auto flatType = MemRefType::get(
      {tile.getNumElements()}, memrefType.getElementType(),
      StridedLayoutAttr::get(builder.getContext(), ShapedType::kDynamic, {1}),
      memrefType.getMemorySpace());
  auto metadata =
      memref::ExtractStridedMetadataOp::create(builder, loc, access.memref);
  access.storage = memref::ReinterpretCastOp::create(
      builder, loc, flatType, access.memref, metadata.getOffset(),
      ArrayRef<OpFoldResult>{builder.getIndexAttr(tile.getNumElements())},
      ArrayRef<OpFoldResult>{builder.getIndexAttr(1)});
}

FailureOr<BufferAccess>
mlir::croq::getBufferAccess(ConversionPatternRewriter &rewriter, Location loc,
                            Value original) {
  BufferAccess access;
  auto type = cast<ShapedType>(original.getType());
  access.elementType = type.getElementType();
  access.space = *getMemorySpaceOf(original.getType());
  auto view = original.getDefiningOp<ViewOp>();
  Value root = view ? view.getSource() : original;
  if (isa<ViewType>(root.getType())) {
    if (Operation *def = root.getDefiningOp())
      return def->emitOpError("views of views must be normalized before "
                              "lowering (run croq-normalize-views)");
    return emitError(loc, "a view passed in as an argument cannot be "
                          "lowered: pass the tensor and select the view in "
                          "the kernel");
  }
  access.memref = rewriter.getRemappedValue(root);
  if (!access.memref)
    return emitError(loc, "cannot resolve the buffer of this access");
  access.storage = access.memref;
  addSwizzledStorage(rewriter, loc, access, root.getType());
  BufferWindow window = getBufferWindow(rewriter, loc, original, access.memref);
  access.offsets = std::move(window.offsets);
  access.sizes = std::move(window.sizes);
  access.limits = std::move(window.limits);
  access.staticSizes = std::move(window.staticSizes);
  return access;
}

FragmentOrigin mlir::croq::getWarpAndLane(OpBuilder &builder, Location loc,
                                          Value threadIndex) {
  FragmentOrigin origin;
  origin.warp = arith::DivUIOp::create(builder, loc, threadIndex,
                                       indexConstant(builder, loc, 32));
  origin.lane = arith::RemUIOp::create(builder, loc, threadIndex,
                                       indexConstant(builder, loc, 32));
  return origin;
}

FragmentOrigin mlir::croq::getFragmentOrigin(OpBuilder &builder, Location loc,
                                             FragmentOrigin origin) {
  origin.row = arith::AddIOp::create(
      builder, loc,
      arith::MulIOp::create(builder, loc, origin.warp,
                            indexConstant(builder, loc, 16)),
      arith::DivUIOp::create(builder, loc, origin.lane,
                             indexConstant(builder, loc, 4)));
  origin.column = arith::MulIOp::create(
      builder, loc,
      arith::RemUIOp::create(builder, loc, origin.lane,
                             indexConstant(builder, loc, 4)),
      indexConstant(builder, loc, 2));
  return origin;
}
