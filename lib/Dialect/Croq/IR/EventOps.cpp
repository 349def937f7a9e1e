//===- EventOps.cpp - croq event ops --------------------------------------===//
//
// Verification of event arrays (where they are allocated, constant slot
// indices in range) and of waits for async stores.
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/CroqOps.h"

using namespace mlir;
using namespace mlir::croq;

LogicalResult WaitStoresOp::verify() {
  if (!(*this)->getParentOfType<ParallelOp>())
    return emitOpError("waits for the stores of a thread group: it must be "
                       "inside a croq.parallel region");
  return success();
}

LogicalResult EventAllocOp::verify() {
  auto parallel = (*this)->getParentOfType<ParallelOp>();
  if (!parallel || parallel.getLevel() != ParallelLevel::Block)
    return emitOpError("events live in shared memory and belong to a block: "
                       "allocate them directly in a 'croq.parallel ... : "
                       "block' region");
  return success();
}

/// Checks a constant slot index against the size of the event array.
static LogicalResult verifyEventIndex(Operation *op, Value events,
                                      Value index) {
  auto type = cast<EventsType>(events.getType());
  if (std::optional<int64_t> slot = getConstantIntValue(index))
    if (*slot < 0 || *slot >= type.getCount())
      return op->emitOpError("event index ")
             << *slot << " is out of range for " << type.getCount()
             << " events";
  return success();
}

LogicalResult EventTriggerOp::verify() {
  for (Value future : getFutures()) {
    Operation *copy = future.getDefiningOp();
    if (!copy || copy->getNumOperands() < 2)
      continue;
    // Copies into shared memory complete on the event (mbarrier); copies out
    // of it complete through bulk or cp.async groups.
    if (getMemorySpaceOf(copy->getOperand(1).getType()) !=
        MemorySpace::Shared)
      return emitOpError("can only be triggered after copies into shared "
                         "memory; wait for a copy out of shared memory with "
                         "croq.wait");
  }
  return verifyEventIndex(*this, getEvents(), getIndex());
}

LogicalResult EventWaitOp::verify() {
  return verifyEventIndex(*this, getEvents(), getIndex());
}
