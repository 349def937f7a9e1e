//===- HostEntries.cpp - the stream and status of host entry points -------===//
//
// Implements croq-host-entries: every function that holds a kernel takes
// the stream its kernels are launched on (a last !llvm.ptr argument marked
// croq.stream) and returns the status of the call (i32, from the runtime's
// croqRtCallBegin / croqRtCallEnd). The launches, the staging copies and
// the device allocations (gpu.alloc, gpu.dealloc: a split-K workspace) of
// the call are queued on that stream; nothing waits for it. Scalar
// arguments are passed by reference, so that every argument of an entry
// point is a pointer.
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/BufferUtils.h"
#include "Croq/Dialect/Croq/IR/ThreadGroups.h"
#include "Croq/Dialect/Croq/Transforms/HostUtils.h"
#include "Croq/Dialect/Croq/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir {
namespace croq {
#define GEN_PASS_DEF_CROQHOSTENTRIES
#include "Croq/Dialect/Croq/Transforms/Passes.h.inc"
} // namespace croq
} // namespace mlir

using namespace mlir;
using namespace mlir::croq;

static constexpr StringLiteral kCallBegin = "croqRtCallBegin";
static constexpr StringLiteral kCallEnd = "croqRtCallEnd";

/// Whether `func` is an entry point: it holds a kernel, or is marked
/// croq.entry (a classifier, which launches none).
static bool isEntryPoint(func::FuncOp func) {
  if (func->hasAttr(CroqDialect::EntryAttrHelper::getNameStr()))
    return true;
  WalkResult found = func.walk([](ParallelOp op) {
    return op.getLevel() == ParallelLevel::Block ? WalkResult::interrupt()
                                                 : WalkResult::advance();
  });
  return found.wasInterrupted();
}

/// Makes each scalar argument of `func` a pointer to its value, loaded at
/// the entry (an index as an i64). Fails on an argument that is neither a
/// memref nor a scalar an entry point may take.
static LogicalResult passScalarsByReference(func::FuncOp func) {
  MLIRContext *context = func.getContext();
  Type pointerType = LLVM::LLVMPointerType::get(context);
  Block &entry = func.getBody().front();
  OpBuilder builder = OpBuilder::atBlockBegin(&entry);
  // Check every argument before rewriting any, so that a failure leaves
  // the function as it was (and valid).
  for (BlockArgument arg : entry.getArguments()) {
    Type type = arg.getType();
    if (!isa<MemRefType, LLVM::LLVMPointerType>(type) &&
        !isEntryScalarType(type))
      return func.emitOpError("launches kernels and takes argument ")
             << arg.getArgNumber() << " of type " << type
             << "; an entry point takes memrefs and scalars of type i1, i8, "
                "i16, i32, i64, index, f32 or f64";
  }
  SmallVector<Type> inputs(func.getArgumentTypes());
  for (BlockArgument arg : entry.getArguments()) {
    Type type = arg.getType();
    if (isa<MemRefType, LLVM::LLVMPointerType>(type))
      continue;
    Location loc = arg.getLoc();
    Type stored = type.isIndex() ? builder.getI64Type() : type;
    arg.setType(pointerType);
    auto load = LLVM::LoadOp::create(builder, loc, stored, arg);
    Value value = load.getResult();
    if (type.isIndex())
      value = arith::IndexCastOp::create(builder, loc, type, value);
    arg.replaceAllUsesExcept(value, load);
    inputs[arg.getArgNumber()] = pointerType;
  }
  func.setFunctionType(
      FunctionType::get(context, inputs, func.getFunctionType().getResults()));
  return success();
}

/// Adds the stream argument and the status result to `func`.
static LogicalResult addStreamAndStatus(func::FuncOp func, func::FuncOp begin,
                                        func::FuncOp end) {
  if (getLaunchStream(func))
    return success();
  if (func.getNumResults() != 0)
    return func.emitOpError("launches kernels and returns ")
           << func.getNumResults()
           << " values; a function that launches kernels returns nothing "
              "(croq-host-entries gives it the call's status as its result): "
              "write results into memref arguments";
  if (failed(passScalarsByReference(func)))
    return failure();
  MLIRContext *context = func.getContext();
  Type streamType = LLVM::LLVMPointerType::get(context);
  Type statusType = IntegerType::get(context, 32);
  unsigned index = func.getNumArguments();
  if (failed(func.insertArgument(
          index, streamType,
          DictionaryAttr::get(
              context,
              {NamedAttribute(CroqDialect::StreamAttrHelper::getNameStr(),
                              UnitAttr::get(context))}),
          func.getLoc())))
    return failure();
  func.setFunctionType(FunctionType::get(
      context, func.getFunctionType().getInputs(), {statusType}));
  OpBuilder builder(context);
  builder.setInsertionPointToStart(&func.getBody().front());
  func::CallOp::create(builder, func.getLoc(), begin, ValueRange{});
  for (Block &block : func.getBody()) {
    auto ret = dyn_cast<func::ReturnOp>(block.getTerminator());
    if (!ret)
      continue;
    builder.setInsertionPoint(ret);
    Value status =
        func::CallOp::create(builder, ret.getLoc(), end, ValueRange{})
            .getResult(0);
    ret->setOperands(status);
  }
  return success();
}

/// Makes the synchronous device allocations, copies and releases of `func`
/// async on its stream: ordered after the work queued there before, and the
/// release after the kernels that use the memory.
static void queueAllocationsOnStream(func::FuncOp func) {
  Value stream = getLaunchStream(func);
  SmallVector<Operation *> ops;
  func.walk([&](Operation *op) {
    if (auto alloc = dyn_cast<gpu::AllocOp>(op);
        alloc && !alloc.getAsyncToken() && !alloc.getHostShared())
      ops.push_back(op);
    if (auto dealloc = dyn_cast<gpu::DeallocOp>(op);
        dealloc && !dealloc.getAsyncToken())
      ops.push_back(op);
    if (auto copy = dyn_cast<gpu::MemcpyOp>(op); copy && !copy.getAsyncToken())
      ops.push_back(op);
  });
  OpBuilder builder(func.getContext());
  Type tokenType = gpu::AsyncTokenType::get(func.getContext());
  for (Operation *op : ops) {
    builder.setInsertionPoint(op);
    Location loc = op->getLoc();
    Value token = getStreamToken(builder, loc, stream);
    if (auto alloc = dyn_cast<gpu::AllocOp>(op)) {
      auto queued = gpu::AllocOp::create(
          builder, loc, alloc.getMemref().getType(), tokenType,
          ValueRange{token}, alloc.getDynamicSizes(), alloc.getSymbolOperands(),
          /*hostShared=*/false);
      alloc.getMemref().replaceAllUsesWith(queued.getMemref());
    } else if (auto copy = dyn_cast<gpu::MemcpyOp>(op)) {
      gpu::MemcpyOp::create(builder, loc, tokenType, ValueRange{token},
                            copy.getDst(), copy.getSrc());
    } else {
      auto dealloc = cast<gpu::DeallocOp>(op);
      gpu::DeallocOp::create(builder, loc, tokenType, ValueRange{token},
                             dealloc.getMemref());
    }
    op->erase();
  }
}

namespace {
struct CroqHostEntriesPass
    : croq::impl::CroqHostEntriesBase<CroqHostEntriesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> entries;
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal() && isEntryPoint(func))
        entries.push_back(func);
    if (entries.empty())
      return;
    MLIRContext *context = &getContext();
    OpBuilder builder(context);
    func::FuncOp begin = lookupOrDeclareRuntimeFunction(
        builder, module, kCallBegin, FunctionType::get(context, {}, {}));
    func::FuncOp end = lookupOrDeclareRuntimeFunction(
        builder, module, kCallEnd,
        FunctionType::get(context, {}, {IntegerType::get(context, 32)}));
    if (!begin || !end)
      return signalPassFailure();
    for (func::FuncOp func : entries) {
      if (failed(addStreamAndStatus(func, begin, end)))
        return signalPassFailure();
      // Hosts call it through its C interface (_mlir_ciface_<name>).
      func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                    UnitAttr::get(context));
      func->removeAttr(CroqDialect::EntryAttrHelper::getNameStr());
      queueAllocationsOnStream(func);
    }
  }
};
} // namespace
