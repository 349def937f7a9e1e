//===- EventOps.cpp - croq event ops --------------------------------------===//
//
// Verification of event arrays (where they are allocated, constant slot
// indices in range, phases that match their array), the assembly of
// croq.event.wait, and verification of waits for async stores.
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/BufferUtils.h"
#include "Croq/Dialect/Croq/IR/CroqOps.h"

#include "mlir/IR/OpImplementation.h"

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
      return op->emitOpError("event index ") << *slot << " is out of range for "
                                             << type.getCount() << " events";
  return success();
}

LogicalResult EventTriggerOp::verify() {
  if (getCluster()) {
    if (!getFutures().empty())
      return emitOpError("a cluster trigger signals the other blocks of the "
                         "cluster and takes no futures; trigger after the "
                         "loads in this block only");
    ParallelOp kernel = getKernel(*this);
    if (!kernel || !kernel.getCluster())
      return emitOpError("a cluster trigger must be inside a block-level "
                         "croq.parallel region launched in clusters");
  }
  for (Value future : getFutures()) {
    Operation *copy = future.getDefiningOp();
    if (!copy || copy->getNumOperands() < 2)
      continue;
    // Copies into shared memory complete on the event (mbarrier); copies out
    // of it complete through bulk or cp.async groups.
    if (getMemorySpaceOf(copy->getOperand(1).getType()) != MemorySpace::Shared)
      return emitOpError("can only be triggered after copies into shared "
                         "memory; wait for a copy out of shared memory with "
                         "croq.wait");
  }
  return verifyEventIndex(*this, getEvents(), getIndex());
}

LogicalResult EventWaitOp::verify() {
  if (static_cast<bool>(getPhases()) != static_cast<bool>(getNext()))
    return emitOpError("takes phases and returns the next ones together");
  int64_t count = getEvents().getType().getCount();
  if (Value phases = getPhases()) {
    int64_t bits = cast<PhasesType>(phases.getType()).getCount();
    int64_t next = cast<PhasesType>(getNext().getType()).getCount();
    if (bits != count || next != count)
      return emitOpError("expected phases of ")
             << count << " slots for an array of " << count << " events, got "
             << bits << " and " << next;
  }
  return verifyEventIndex(*this, getEvents(), getIndex());
}

/// `%e[%i] (phases %p)? attr-dict : !croq.events<N>`; the phases, taken
/// and returned, are a !croq.phases<N>.
ParseResult EventWaitOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand events, index, phases;
  bool hasPhases = false;
  Type eventsType;
  if (parser.parseOperand(events) || parser.parseLSquare() ||
      parser.parseOperand(index) || parser.parseRSquare())
    return failure();
  if (succeeded(parser.parseOptionalKeyword("phases"))) {
    hasPhases = true;
    if (parser.parseOperand(phases))
      return failure();
  }
  if (parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonType(eventsType))
    return failure();
  auto type = dyn_cast<EventsType>(eventsType);
  if (!type)
    return parser.emitError(parser.getNameLoc(),
                            "expected an !croq.events type, got ")
           << eventsType;
  Type indexType = parser.getBuilder().getIndexType();
  if (parser.resolveOperand(events, type, result.operands) ||
      parser.resolveOperand(index, indexType, result.operands))
    return failure();
  if (hasPhases) {
    llvm::SMLoc loc = parser.getNameLoc();
    auto phasesType =
        PhasesType::getChecked([&] { return parser.emitError(loc); },
                               parser.getContext(), type.getCount());
    if (!phasesType ||
        parser.resolveOperand(phases, phasesType, result.operands))
      return failure();
    result.addTypes(phasesType);
  }
  return success();
}

void EventWaitOp::print(OpAsmPrinter &printer) {
  printer << ' ' << getEvents() << '[' << getIndex() << ']';
  if (Value phases = getPhases())
    printer << " phases " << phases;
  printer.printOptionalAttrDict((*this)->getAttrs());
  printer << " : " << getEvents().getType();
}
