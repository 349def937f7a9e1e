//===- TmaHost.cpp - tensor maps requested by the host code ---------------===//
//
// The host side of a tma copy: before the kernel, a call to the runtime's
// croqRtTensorMapGetStrided with the tensor's address, sizes and byte
// strides, which answers whether TMA can move the tensor and a pointer to
// its cached 128-byte tensor map; the map's bytes are then loaded so that
// the kernel receives them by value.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "Croq/Runtime/CroqRuntime.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::croq;

/// The runtime function the host code calls for each tensor map.
static constexpr llvm::StringLiteral kGetStrided = "croqRtTensorMapGetStrided";

std::optional<int> mlir::croq::getTensorMapElementType(Type type) {
  if (type.isF32())
    return CROQ_RT_F32;
  if (type.isF16())
    return CROQ_RT_F16;
  if (type.isBF16())
    return CROQ_RT_BF16;
  if (type.isF64())
    return CROQ_RT_F64;
  if (isa<Float8E4M3FNType>(type))
    return CROQ_RT_F8E4M3;
  if (isa<Float8E5M2Type>(type))
    return CROQ_RT_F8E5M2;
  if (type.isInteger(8))
    return CROQ_RT_I8;
  if (type.isInteger(16))
    return CROQ_RT_I16;
  if (type.isInteger(32))
    return CROQ_RT_I32;
  if (type.isInteger(64))
    return CROQ_RT_I64;
  return std::nullopt;
}

/// The runtime code of a tile's swizzle.
static int getRuntimeSwizzle(Swizzle swizzle) {
  switch (swizzle) {
  case Swizzle::B32:
    return CROQ_RT_SWIZZLE_32B;
  case Swizzle::B64:
    return CROQ_RT_SWIZZLE_64B;
  case Swizzle::B128:
    return CROQ_RT_SWIZZLE_128B;
  case Swizzle::None:
  case Swizzle::Auto:
    return CROQ_RT_SWIZZLE_NONE;
  }
  return CROQ_RT_SWIZZLE_NONE;
}

/// Declares croqRtTensorMapGetStrided in the module of `op` if it is not yet:
/// (elementType, rank, address, sizes, byteStrides, boxDims, swizzle,
/// tensorMap out) -> usable.
static func::FuncOp declareGetStrided(OpBuilder &builder, Operation *op) {
  auto module = op->getParentOfType<ModuleOp>();
  if (auto existing = module.lookupSymbol<func::FuncOp>(kGetStrided))
    return existing;
  MLIRContext *context = builder.getContext();
  Type i32 = builder.getI32Type();
  Type ptr = LLVM::LLVMPointerType::get(context);
  auto type = builder.getFunctionType({i32, i32, ptr, ptr, ptr, ptr, i32, ptr},
                                      {i32});
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(module.getBody());
  auto decl = func::FuncOp::create(builder, module.getLoc(), kGetStrided, type);
  decl.setPrivate();
  return decl;
}

/// An i64 constant of the LLVM dialect.
static Value i64Constant(OpBuilder &builder, Location loc, int64_t value) {
  return LLVM::ConstantOp::create(builder, loc, builder.getI64Type(),
                                  builder.getI64IntegerAttr(value));
}

/// `index` as an i64.
static Value toI64(OpBuilder &builder, Location loc, Value index) {
  return arith::IndexCastOp::create(builder, loc, builder.getI64Type(), index);
}

FailureOr<HostTensorMap>
mlir::croq::emitHostTensorMap(OpBuilder &builder, Location loc,
                              Operation *kernel, Value tensor,
                              ArrayRef<int64_t> box, Swizzle swizzle) {
  auto memrefType = cast<MemRefType>(tensor.getType());
  std::optional<int> elementCode =
      getTensorMapElementType(memrefType.getElementType());
  auto function = kernel->getParentOfType<FunctionOpInterface>();
  if (!elementCode || !function || function.isExternal())
    return failure();
  MLIRContext *context = builder.getContext();
  Type ptr = LLVM::LLVMPointerType::get(context);
  Type i64 = builder.getI64Type();
  int64_t rank = memrefType.getRank();
  int64_t eltBytes = getElementSizeInBytes(memrefType.getElementType());

  // The arrays and the result slot live in the function's entry block, so
  // a launch in a loop does not grow the stack.
  Value sizes, strides, boxes, slot;
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(&function.getFunctionBody().front());
    Value count = i64Constant(builder, loc, rank);
    sizes = LLVM::AllocaOp::create(builder, loc, ptr, i64, count);
    strides = LLVM::AllocaOp::create(builder, loc, ptr, i64, count);
    boxes = LLVM::AllocaOp::create(builder, loc, ptr, i64, count);
    slot = LLVM::AllocaOp::create(builder, loc, ptr, ptr,
                                  i64Constant(builder, loc, 1));
  }

  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(kernel);
  auto metadata =
      memref::ExtractStridedMetadataOp::create(builder, loc, tensor);
  auto store = [&](Value array, int64_t index, Value value) {
    Value at = LLVM::GEPOp::create(builder, loc, ptr, i64, array,
                                   ArrayRef<LLVM::GEPArg>{int32_t(index)});
    LLVM::StoreOp::create(builder, loc, value, at);
  };
  Value elementBytes = indexConstant(builder, loc, eltBytes);
  for (int64_t d = 0; d < rank; ++d) {
    store(sizes, d, toI64(builder, loc, metadata.getSizes()[d]));
    Value byteStride = arith::MulIOp::create(
        builder, loc, metadata.getStrides()[d], elementBytes);
    store(strides, d, toI64(builder, loc, byteStride));
    store(boxes, d, i64Constant(builder, loc, box[d]));
  }
  // The address of element 0: the aligned pointer plus the offset.
  Value aligned =
      memref::ExtractAlignedPointerAsIndexOp::create(builder, loc, tensor);
  Value start = arith::AddIOp::create(
      builder, loc, aligned,
      arith::MulIOp::create(builder, loc, metadata.getOffset(), elementBytes));
  Value address =
      LLVM::IntToPtrOp::create(builder, loc, ptr, toI64(builder, loc, start));

  func::FuncOp getStrided = declareGetStrided(builder, kernel);
  Value usable =
      func::CallOp::create(
          builder, loc, getStrided,
          ValueRange{arith::ConstantIntOp::create(builder, loc, *elementCode,
                                                  32),
                     arith::ConstantIntOp::create(builder, loc, rank, 32),
                     address, sizes, strides, boxes,
                     arith::ConstantIntOp::create(
                         builder, loc, getRuntimeSwizzle(swizzle), 32),
                     slot})
          .getResult(0);
  Value mapPointer = LLVM::LoadOp::create(builder, loc, ptr, slot);
  Value map = LLVM::LoadOp::create(builder, loc, getTensorMapValueType(context),
                                   mapPointer,
                                   /*alignment=*/CROQ_RT_TENSOR_MAP_ALIGN);
  return HostTensorMap{map, usable};
}

VectorType mlir::croq::getTensorMapValueType(MLIRContext *context) {
  return VectorType::get({CROQ_RT_TENSOR_MAP_BYTES / 8},
                         IntegerType::get(context, 64));
}
