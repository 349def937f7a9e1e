//===- ShapeClassifier.cpp - the classifier module ------------------------===//
//
// convert-linalg-to-croq's `classify` form of a module: no kernels, only
// host code that reports, for each product whose variant the host code
// chooses, the cost model's choice for the call's extents (its shape
// class), which croq.jit then compiles alone.
//
//===----------------------------------------------------------------------===//

#include "ShapeClassifier.h"
#include "ExtentChecks.h"

#include "Croq/Dialect/Croq/IR/CroqOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::croq;

void mlir::croq::emitVariantReports(ModuleOp module, ArrayRef<Value> choices) {
  auto count = static_cast<int64_t>(choices.size());
  for (auto [product, choice] : llvm::enumerate(choices)) {
    OpBuilder b(choice.getContext());
    b.setInsertionPointAfterValue(choice);
    reportVariant(b, choice.getLoc(), product, count, choice);
  }
  if (count == 0)
    return;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal() || !func.isPublic())
      continue;
    auto b = OpBuilder::atBlockBegin(&func.getBody().front());
    Value none = arith::ConstantIndexOp::create(b, func.getLoc(), -1);
    reportVariant(b, func.getLoc(), -1, count, none);
  }
}

/// Drops what the classifier no longer uses: the ops without effects left
/// unused (views, extents, the cost model of static products) and the
/// temporaries (memref.alloc) only released, so that a call of the
/// classifier allocates nothing on the device.
static void dropUnusedHostOps(ModuleOp module) {
  auto releasedOnly = [](Operation *op) {
    return isa<memref::AllocOp>(op) &&
           llvm::all_of(op->getUsers(), llvm::IsaPred<memref::DeallocOp>);
  };
  // One at a time: erasing an op may leave its operands' producers unused.
  while (true) {
    Operation *unused = nullptr;
    module.walk([&](Operation *op) {
      if (!isOpTriviallyDead(op) && !releasedOnly(op))
        return WalkResult::advance();
      unused = op;
      return WalkResult::interrupt();
    });
    if (!unused)
      return;
    for (Operation *user : llvm::make_early_inc_range(unused->getUsers()))
      user->erase();
    unused->erase();
  }
}

void mlir::croq::keepOnlyHostCode(ModuleOp module) {
  SmallVector<ParallelOp> kernels;
  module.walk([&](ParallelOp op) {
    if (op.getLevel() == ParallelLevel::Block)
      kernels.push_back(op);
    return WalkResult::skip();
  });
  for (ParallelOp kernel : kernels)
    kernel.erase();
  dropUnusedHostOps(module);
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal() && func.isPublic())
      func->setAttr(CroqDialect::EntryAttrHelper::getNameStr(),
                    UnitAttr::get(func.getContext()));
}
