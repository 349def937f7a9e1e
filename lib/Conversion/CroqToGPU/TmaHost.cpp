//===- TmaHost.cpp - tensor maps requested by the host code ---------------===//
//
// The host side of a tma copy: before the kernel, a call to the runtime's
// croqRtTensorMapGetStrided with the tensor's address, sizes and byte
// strides, which answers whether TMA can move the tensor and a pointer to
// its cached 128-byte tensor map; the map's bytes are then loaded so that
// the kernel receives them by value. For a tensor the kernel only reads, the
// call is croqRtTensorMapGetStaged, which may copy a misaligned tensor into
// an aligned buffer, released by a call after the launch. An im2col map
// (croq.im2col_map) is asked of croqRtTensorMapGetIm2col and required.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "Croq/Dialect/Croq/IR/ViewUtils.h"
#include "Croq/Runtime/CroqRuntime.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::croq;

/// The runtime functions the host code calls for each tensor map, and after
/// the kernel for each staged one.
static constexpr llvm::StringLiteral kGetStrided = "croqRtTensorMapGetStrided";
static constexpr llvm::StringLiteral kGetStaged = "croqRtTensorMapGetStaged";
static constexpr llvm::StringLiteral kRequire = "croqRtTensorMapRequire";
static constexpr llvm::StringLiteral kGetIm2col = "croqRtTensorMapGetIm2col";
static constexpr llvm::StringLiteral kRequireIm2col =
    "croqRtTensorMapRequireIm2col";
static constexpr llvm::StringLiteral kReleaseStaged =
    "croqRtTensorMapReleaseStaged";

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

/// croqRtTensorMapGetStrided: (elementType, rank, address, sizes,
/// byteStrides, boxDims, swizzle, tensorMap out) -> usable; with `staged`,
/// croqRtTensorMapGetStaged, which takes the stream to stage on before the
/// map and a staging-handle out parameter last.
static func::FuncOp declareGetMap(OpBuilder &builder, ModuleOp module,
                                  bool staged) {
  Type i32 = builder.getI32Type();
  Type ptr = LLVM::LLVMPointerType::get(builder.getContext());
  SmallVector<Type> inputs = {i32, i32, ptr, ptr, ptr, ptr, i32};
  if (staged)
    inputs.push_back(ptr);
  inputs.push_back(ptr);
  if (staged)
    inputs.push_back(ptr);
  return lookupOrDeclareRuntimeFunction(builder, module,
                                        staged ? kGetStaged : kGetStrided,
                                        builder.getFunctionType(inputs, {i32}));
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
mlir::croq::emitHostTensorMap(OpBuilder &builder, Location loc, Value tensor,
                              ArrayRef<int64_t> box, Swizzle swizzle,
                              bool readOnly, Operation *releaseAfter) {
  auto memrefType = cast<MemRefType>(tensor.getType());
  std::optional<int> elementCode =
      getTensorMapElementType(memrefType.getElementType());
  Operation *at = builder.getInsertionBlock()->getParentOp();
  auto function = isa<FunctionOpInterface>(at)
                      ? cast<FunctionOpInterface>(at)
                      : at->getParentOfType<FunctionOpInterface>();
  if (!elementCode || !function || function.isExternal())
    return failure();
  MLIRContext *context = builder.getContext();
  Type ptr = LLVM::LLVMPointerType::get(context);
  Type i64 = builder.getI64Type();
  int64_t rank = memrefType.getRank();
  int64_t eltBytes = getElementSizeInBytes(memrefType.getElementType());

  // The arrays and the result slot live in the function's entry block, so
  // a launch in a loop does not grow the stack.
  Value sizes, strides, boxes, slot, stagingSlot;
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(&function.getFunctionBody().front());
    Value count = i64Constant(builder, loc, rank);
    sizes = LLVM::AllocaOp::create(builder, loc, ptr, i64, count);
    strides = LLVM::AllocaOp::create(builder, loc, ptr, i64, count);
    boxes = LLVM::AllocaOp::create(builder, loc, ptr, i64, count);
    slot = LLVM::AllocaOp::create(builder, loc, ptr, ptr,
                                  i64Constant(builder, loc, 1));
    if (readOnly)
      stagingSlot = LLVM::AllocaOp::create(builder, loc, ptr, ptr,
                                           i64Constant(builder, loc, 1));
  }

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

  auto module = function->getParentOfType<ModuleOp>();
  func::FuncOp getMap = declareGetMap(builder, module, readOnly);
  if (!getMap)
    return failure();
  SmallVector<Value> arguments = {
      arith::ConstantIntOp::create(builder, loc, *elementCode, 32),
      arith::ConstantIntOp::create(builder, loc, rank, 32),
      address,
      sizes,
      strides,
      boxes,
      arith::ConstantIntOp::create(builder, loc, getRuntimeSwizzle(swizzle),
                                   32)};
  // Staging copies, and the release of their buffers, are queued on the
  // stream the kernel is launched on.
  Value stream;
  if (readOnly) {
    stream = getLaunchStreamOrNull(builder, loc, function);
    arguments.push_back(stream);
  }
  arguments.push_back(slot);
  if (readOnly)
    arguments.push_back(stagingSlot);
  Value usable =
      func::CallOp::create(builder, loc, getMap, arguments).getResult(0);
  if (readOnly && releaseAfter) {
    // Queued after the launch, the release frees the staging buffer (if
    // any) once the kernel is done with it.
    OpBuilder::InsertionGuard afterGuard(builder);
    builder.setInsertionPointAfter(releaseAfter);
    func::FuncOp release =
        lookupOrDeclareRuntimeFunction(builder, module, kReleaseStaged,
                                       builder.getFunctionType({ptr, ptr}, {}));
    if (!release)
      return failure();
    Value staging = LLVM::LoadOp::create(builder, loc, ptr, stagingSlot);
    func::CallOp::create(builder, loc, release, ValueRange{staging, stream});
  }
  Value mapPointer = LLVM::LoadOp::create(builder, loc, ptr, slot);
  Value map = LLVM::LoadOp::create(builder, loc, getTensorMapValueType(context),
                                   mapPointer,
                                   /*alignment=*/CROQ_RT_TENSOR_MAP_ALIGN);
  return HostTensorMap{map, usable};
}

LogicalResult mlir::croq::emitHostRequire(OpBuilder &builder, Location loc,
                                          Operation *at, Value usable) {
  Type i32 = builder.getI32Type();
  func::FuncOp require = lookupOrDeclareRuntimeFunction(
      builder, at->getParentOfType<ModuleOp>(), kRequire,
      builder.getFunctionType({i32}, {i32}));
  if (!require)
    return failure();
  func::CallOp::create(builder, loc, require, ValueRange{usable});
  return success();
}

VectorType mlir::croq::getTensorMapValueType(MLIRContext *context) {
  return VectorType::get({CROQ_RT_TENSOR_MAP_BYTES / 8},
                         IntegerType::get(context, 64));
}

/// A new array of `count` values of `type` in the entry block of
/// `function`, so that a launch in a loop does not grow the stack.
static Value emitArray(OpBuilder &builder, Location loc,
                       FunctionOpInterface function, Type type, int64_t count) {
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(&function.getFunctionBody().front());
  return LLVM::AllocaOp::create(
      builder, loc, LLVM::LLVMPointerType::get(builder.getContext()), type,
      i64Constant(builder, loc, std::max<int64_t>(count, 1)));
}

/// Stores `values` as constants of `type` into a new array (emitArray).
static Value emitConstantArray(OpBuilder &builder, Location loc,
                               FunctionOpInterface function, Type type,
                               ArrayRef<int64_t> values) {
  Type ptr = LLVM::LLVMPointerType::get(builder.getContext());
  Value array = emitArray(builder, loc, function, type, values.size());
  for (auto [i, value] : llvm::enumerate(values)) {
    Value at = LLVM::GEPOp::create(builder, loc, ptr, type, array,
                                   ArrayRef<LLVM::GEPArg>{int32_t(i)});
    Value constant = LLVM::ConstantOp::create(
        builder, loc, type, builder.getIntegerAttr(type, value));
    LLVM::StoreOp::create(builder, loc, constant, at);
  }
  return array;
}

FailureOr<Value> mlir::croq::emitHostIm2colMap(OpBuilder &builder, Location loc,
                                               Im2colMapOp op, Value tensor) {
  auto memrefType = cast<MemRefType>(tensor.getType());
  std::optional<int> elementCode =
      getTensorMapElementType(memrefType.getElementType());
  auto function = op->getParentOfType<FunctionOpInterface>();
  if (!elementCode || !function || function.isExternal())
    return failure();
  MLIRContext *context = builder.getContext();
  Type ptr = LLVM::LLVMPointerType::get(context);
  Type i32 = builder.getI32Type();
  Type i64 = builder.getI64Type();
  int64_t rank = memrefType.getRank();
  int64_t eltBytes = getElementSizeInBytes(memrefType.getElementType());

  // The tensor's sizes and byte strides, outermost first, as for tiled maps.
  Value sizes = emitArray(builder, loc, function, i64, rank);
  Value strides = emitArray(builder, loc, function, i64, rank);
  Value slot = emitArray(builder, loc, function, ptr, 1);
  auto metadata =
      memref::ExtractStridedMetadataOp::create(builder, loc, tensor);
  Value elementBytes = indexConstant(builder, loc, eltBytes);
  for (int64_t d = 0; d < rank; ++d) {
    auto store = [&](Value array, Value value) {
      Value at = LLVM::GEPOp::create(builder, loc, ptr, i64, array,
                                     ArrayRef<LLVM::GEPArg>{int32_t(d)});
      LLVM::StoreOp::create(builder, loc, toI64(builder, loc, value), at);
    };
    store(sizes, metadata.getSizes()[d]);
    store(strides, arith::MulIOp::create(builder, loc, metadata.getStrides()[d],
                                         elementBytes));
  }
  SmallVector<int64_t> lower(op.getLower().begin(), op.getLower().end());
  SmallVector<int64_t> upper(op.getUpper().begin(), op.getUpper().end());
  Value lowerArray = emitConstantArray(builder, loc, function, i32, lower);
  Value upperArray = emitConstantArray(builder, loc, function, i32, upper);
  Value stepArray =
      emitConstantArray(builder, loc, function, i64, op.getStrides());
  Value aligned =
      memref::ExtractAlignedPointerAsIndexOp::create(builder, loc, tensor);
  Value start = arith::AddIOp::create(
      builder, loc, aligned,
      arith::MulIOp::create(builder, loc, metadata.getOffset(), elementBytes));
  Value address =
      LLVM::IntToPtrOp::create(builder, loc, ptr, toI64(builder, loc, start));

  auto module = function->getParentOfType<ModuleOp>();
  func::FuncOp getMap = lookupOrDeclareRuntimeFunction(
      builder, module, kGetIm2col,
      builder.getFunctionType(
          {i32, i32, ptr, ptr, ptr, ptr, ptr, ptr, i32, i32, i32, ptr}, {i32}));
  if (!getMap)
    return failure();
  auto i32Constant = [&](int64_t value) -> Value {
    return arith::ConstantIntOp::create(builder, loc, value, 32);
  };
  SmallVector<Value> arguments = {
      i32Constant(*elementCode),
      i32Constant(rank),
      address,
      sizes,
      strides,
      lowerArray,
      upperArray,
      stepArray,
      i32Constant(op.getChannels()),
      i32Constant(op.getPixels()),
      i32Constant(getRuntimeSwizzle(op.getSwizzle())),
      slot};
  Value usable =
      func::CallOp::create(builder, loc, getMap, arguments).getResult(0);
  // An im2col load has no software copy: a map the runtime cannot make
  // refuses the launch, naming the rule.
  func::FuncOp require = lookupOrDeclareRuntimeFunction(
      builder, module, kRequireIm2col, builder.getFunctionType({i32}, {i32}));
  if (!require)
    return failure();
  func::CallOp::create(builder, loc, require, ValueRange{usable});
  Value mapPointer = LLVM::LoadOp::create(builder, loc, ptr, slot);
  return LLVM::LoadOp::create(builder, loc, getTensorMapValueType(context),
                              mapPointer,
                              /*alignment=*/CROQ_RT_TENSOR_MAP_ALIGN)
      .getResult();
}

namespace {
/// croq.tensor_map %t box [...] swizzle = S [staged] [required]  =>  the
/// host calls of emitHostTensorMap (with the staging buffer released after
/// the op of this block that uses the map), then, if required,
/// croqRtTensorMapRequire on the runtime's answer.
struct TensorMapOpLowering : OpConversionPattern<TensorMapOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TensorMapOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Operation *kernel = nullptr;
    for (Operation *user : op.getMap().getUsers())
      if (Operation *ancestor = op->getBlock()->findAncestorOpInBlock(*user))
        kernel = ancestor;
    FailureOr<HostTensorMap> host =
        emitHostTensorMap(rewriter, loc, adaptor.getTensor(), op.getBox(),
                          op.getSwizzle(), op.getStaged(), kernel);
    if (failed(host))
      return op.emitOpError("cannot be asked for here: the tensor's element "
                            "type needs a tensor-map encoding and the op a "
                            "function body");
    if (op.getRequired())
      if (failed(emitHostRequire(rewriter, loc, op, host->usable)))
        return failure();
    rewriter.replaceOp(op, {host->map, host->usable});
    return success();
  }
};

/// croq.im2col_map %t pixels P channels C lower [...] upper [...] strides
/// [...] swizzle = S  =>  croqRtTensorMapGetIm2col(...) then
/// croqRtTensorMapRequire on its answer; the map's bytes.
struct Im2colMapOpLowering : OpConversionPattern<Im2colMapOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Im2colMapOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<Value> map =
        emitHostIm2colMap(rewriter, op.getLoc(), op, adaptor.getTensor());
    if (failed(map))
      return op.emitOpError("cannot be asked for here: the tensor's element "
                            "type needs a tensor-map encoding and the op a "
                            "function body");
    rewriter.replaceOp(op, *map);
    return success();
  }
};
} // namespace

void mlir::croq::populateCroqTensorMapToHostPatterns(
    CroqTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<TensorMapOpLowering, Im2colMapOpLowering>(converter,
                                                         patterns.getContext());
}
