//===- HostBuffers.cpp - buffers of host code and their views -------------===//

#include "HostBuffers.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::croq;

Value mlir::croq::getRootBuffer(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  return value;
}

bool mlir::croq::usesBuffer(Operation *op, Value root) {
  WalkResult found = op->walk([&](Operation *inner) {
    for (Value operand : inner->getOperands())
      if (isa<MemRefType>(operand.getType()) && getRootBuffer(operand) == root)
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return found.wasInterrupted();
}

bool mlir::croq::overwritesWhole(Operation *op, Value buffer) {
  if (auto fill = dyn_cast<linalg::FillOp>(op))
    return fill.getDpsInits()[0] == buffer;
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || generic.getNumDpsInits() != 1 ||
      generic.getDpsInits()[0] != buffer || generic.getNumReductionLoops() != 0)
    return false;
  OpOperand *init = generic.getDpsInitOperand(0);
  return generic.getMatchingIndexingMap(init).isPermutation() &&
         generic.getMatchingBlockArgument(init).use_empty();
}
