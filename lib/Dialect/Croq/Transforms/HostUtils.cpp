//===- HostUtils.cpp - host code of croq's kernels ------------------------===//
//
// The host and tensor-map helpers that croq-emit-tensor-maps and
// croq-host-entries decide with, and which the conversion to gpu shares:
// the stream of an entry point, runtime declarations, and the static facts
// of tensors and their maps.
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/Transforms/HostUtils.h"
#include "Croq/Dialect/Croq/IR/BufferUtils.h"
#include "Croq/Dialect/Croq/IR/ThreadGroups.h"
#include "Croq/Dialect/Croq/IR/ViewUtils.h"
#include "Croq/Runtime/CroqRuntime.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::croq;

//===----------------------------------------------------------------------===//
// Entry points and the runtime
//===----------------------------------------------------------------------===//

Value mlir::croq::getLaunchStream(Operation *op) {
  auto func = isa<FunctionOpInterface>(op)
                  ? cast<FunctionOpInterface>(op)
                  : op->getParentOfType<FunctionOpInterface>();
  if (!func || func.isExternal())
    return {};
  StringRef name = CroqDialect::StreamAttrHelper::getNameStr();
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
    if (func.getArgAttr(i, name))
      return func.getArgument(i);
  return {};
}

Value mlir::croq::getLaunchStreamOrNull(OpBuilder &builder, Location loc,
                                        Operation *op) {
  if (Value stream = getLaunchStream(op))
    return stream;
  return LLVM::ZeroOp::create(builder, loc,
                              LLVM::LLVMPointerType::get(builder.getContext()));
}

Value mlir::croq::getStreamToken(OpBuilder &builder, Location loc,
                                 Value stream) {
  Type tokenType = gpu::AsyncTokenType::get(builder.getContext());
  return UnrealizedConversionCastOp::create(builder, loc, tokenType, stream)
      .getResult(0);
}

bool mlir::croq::isEntryScalarType(Type type) {
  if (auto integer = dyn_cast<IntegerType>(type))
    return integer.isSignless() &&
           llvm::is_contained({1u, 8u, 16u, 32u, 64u}, integer.getWidth());
  return isa<IndexType, Float32Type, Float64Type>(type);
}

func::FuncOp mlir::croq::lookupOrDeclareRuntimeFunction(OpBuilder &builder,
                                                        ModuleOp module,
                                                        StringRef name,
                                                        FunctionType type) {
  if (auto existing = module.lookupSymbol<func::FuncOp>(name)) {
    if (existing.getFunctionType() == type)
      return existing;
    existing.emitOpError("is croq's runtime function '")
        << name << "', which has type " << type;
    return {};
  }
  if (Operation *other = module.lookupSymbol(name)) {
    other->emitOpError("is named '")
        << name << "', a function of croq's runtime";
    return {};
  }
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(module.getBody());
  auto decl = func::FuncOp::create(builder, module.getLoc(), name, type);
  decl.setPrivate();
  return decl;
}

//===----------------------------------------------------------------------===//
// Tensors and their maps
//===----------------------------------------------------------------------===//

Value mlir::croq::getTmaGlobalTensor(CopyOp op) {
  bool isLoad = getMemorySpaceOf(op.getDest().getType()) == MemorySpace::Shared;
  Value global = isLoad ? op.getSource() : op.getDest();
  auto view = global.getDefiningOp<ViewOp>();
  return view ? view.getSource() : global;
}

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

bool mlir::croq::isTmaUsableStatically(MemRefType type, bool staged) {
  // The address, and the alignment of the row strides, are facts of the
  // call: only staging makes them irrelevant.
  if (!staged || !type.hasStaticShape() ||
      !getTensorMapElementType(type.getElementType()))
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return false;
  ArrayRef<int64_t> sizes = type.getShape();
  int64_t rank = type.getRank();
  int64_t eltBytes = getElementSizeInBytes(type.getElementType());
  // Rows are contiguous (the inner-stride rule, and what staging copies).
  if (rank == 0 || strides.back() != 1)
    return false;
  int64_t rowCopies = 1;
  for (int64_t d = 0; d < rank; ++d) {
    // dim-range: every size in [1, 2^32].
    if (sizes[d] < 1 || sizes[d] > (int64_t(1) << 32))
      return false;
    if (d + 1 == rank)
      continue;
    // stride-range, and rows that do not overlap (staging copies them).
    if (strides[d] < sizes[d + 1] * strides[d + 1] ||
        saturatingMul(strides[d], eltBytes) >= (int64_t(1) << 40))
      return false;
    if (d + 2 < rank)
      rowCopies = saturatingMul(rowCopies, sizes[d]);
  }
  return rowCopies <= CROQ_RT_STAGING_MAX_ROW_COPIES;
}

/// Whether `use` only reads its value: an operand of a copy, transpose,
/// pad, mma.load or croq.read other than the one the op writes through.
static bool isReadingUse(OpOperand &use) {
  Operation *user = use.getOwner();
  return isa<CopyOp, TransposeOp, PadOp, MmaLoadOp, ReadOp>(user) &&
         &use != getWrittenBufferOperand(user);
}

bool mlir::croq::isOnlyReadIn(Operation *kernel, Value tensor) {
  SmallVector<Value> worklist = {getUnderlyingBuffer(tensor)};
  llvm::DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (isViewOp(user) || isa<SpanAsOp, ViewLikeOpInterface>(user)) {
        llvm::append_range(worklist, user->getResults());
        continue;
      }
      if (kernel->isAncestor(user) && !isReadingUse(use))
        return false;
    }
  }
  return true;
}
