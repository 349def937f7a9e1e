//===- CroqDialect.cpp - croq dialect registration ------------------------===//
//
// Registers the croq types and operations with the dialect.
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/CroqDialect.h"
#include "Croq/Dialect/Croq/IR/CroqOps.h"
#include "Croq/Dialect/Croq/IR/CroqTypes.h"
#include "Croq/Dialect/Croq/IR/TargetDescription.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
using namespace mlir::croq;

#include "Croq/Dialect/Croq/IR/CroqDialect.cpp.inc"

void CroqDialect::initialize() {
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "Croq/Dialect/Croq/IR/CroqOps.cpp.inc"
      >();
}

/// The most stages a ring may have: one event slot per stage, and event
/// arrays have at most 64 slots.
static constexpr int64_t kMaxRingStages = EventsType::kMaxLoweredSlots;

LogicalResult CroqDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  StringRef name = attr.getName().strref();
  auto onLoop = [&]() -> LogicalResult {
    if (isa<LoopLikeOpInterface>(op))
      return success();
    return op->emitOpError("carries '")
           << name << "', which applies to loops (scf.for) only";
  };
  auto onBlock = [&]() -> LogicalResult {
    auto parallel = dyn_cast<ParallelOp>(op);
    if (parallel && parallel.getLevel() == ParallelLevel::Block)
      return success();
    return op->emitOpError("carries '")
           << name << "', which applies to block-level croq.parallel only";
  };
  if (name == StagesAttrHelper::getNameStr()) {
    if (failed(onLoop()))
      return failure();
    auto stages = dyn_cast<IntegerAttr>(attr.getValue());
    if (!stages || !stages.getType().isSignlessInteger())
      return op->emitOpError("expects '")
             << name << "' to be an integer, got " << attr.getValue();
    int64_t count = stages.getInt();
    if (count != 1 && (count < 2 || count > kMaxRingStages))
      return op->emitOpError("expects '")
             << name << "' to be 1 (not pipelined) or 2 to " << kMaxRingStages
             << " stages, got " << count;
    return success();
  }
  if (name == WarpSpecializeAttrHelper::getNameStr()) {
    if (failed(onLoop()))
      return failure();
    if (!isa<BoolAttr>(attr.getValue()))
      return op->emitOpError("expects '")
             << name << "' to be true or false, got " << attr.getValue();
    return success();
  }
  if (name == ConsumersAttrHelper::getNameStr()) {
    if (failed(onBlock()))
      return failure();
    auto consumers = dyn_cast<IntegerAttr>(attr.getValue());
    if (!consumers || !consumers.getType().isSignlessInteger() ||
        consumers.getInt() < 0 || consumers.getInt() > kMaxConsumerWarpgroups)
      return op->emitOpError("expects '")
             << name << "' to be 0 (chosen by croq-split-accumulators) or 1 to "
             << kMaxConsumerWarpgroups << " consumer warpgroups, got "
             << attr.getValue();
    return success();
  }
  if (name == PersistentAttrHelper::getNameStr()) {
    if (failed(onBlock()))
      return failure();
    if (!isa<BoolAttr>(attr.getValue()))
      return op->emitOpError("expects '")
             << name << "' to be true or false, got " << attr.getValue();
    return success();
  }
  if (name == TargetAttrHelper::getNameStr()) {
    if (!isa<ModuleOp>(op))
      return op->emitOpError("carries '")
             << name << "', which applies to builtin.module only";
    auto chip = dyn_cast<StringAttr>(attr.getValue());
    if (!chip)
      return op->emitOpError("expects '")
             << name << "' to be a chip name string, got " << attr.getValue();
    if (!lookupTargetDescription(chip.getValue()))
      return op->emitOpError("expects '")
             << name << "' to name a chip croq knows (" << getKnownChips()
             << "), got '" << chip.getValue() << "'";
    return success();
  }
  if (name == EntryAttrHelper::getNameStr()) {
    if (!isa<func::FuncOp>(op))
      return op->emitOpError("carries '")
             << name << "', which applies to func.func only";
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitOpError("expects '")
             << name << "' to be a unit attribute, got " << attr.getValue();
    return success();
  }
  if (name == StreamAttrHelper::getNameStr())
    return op->emitOpError("carries '")
           << name << "', which applies to function arguments only";
  return op->emitOpError("carries unknown croq attribute '")
         << name << "'; croq reads '" << StagesAttrHelper::getNameStr()
         << "', '" << WarpSpecializeAttrHelper::getNameStr() << "', '"
         << ConsumersAttrHelper::getNameStr() << "', '"
         << PersistentAttrHelper::getNameStr() << "', '"
         << EntryAttrHelper::getNameStr() << "' and '"
         << TargetAttrHelper::getNameStr() << "'";
}

LogicalResult CroqDialect::verifyRegionArgAttribute(Operation *op,
                                                    unsigned regionIndex,
                                                    unsigned argIndex,
                                                    NamedAttribute attr) {
  StringRef name = attr.getName().strref();
  if (name != StreamAttrHelper::getNameStr())
    return op->emitOpError("argument #")
           << argIndex << " carries unknown croq attribute '" << name
           << "'; croq reads '" << StreamAttrHelper::getNameStr()
           << "' on arguments";
  if (!isa<UnitAttr>(attr.getValue()))
    return op->emitOpError("expects '")
           << name << "' to be a unit attribute, got " << attr.getValue();
  Region &region = op->getRegion(regionIndex);
  if (region.empty() || argIndex >= region.getNumArguments() ||
      !isa<LLVM::LLVMPointerType>(region.getArgument(argIndex).getType()))
    return op->emitOpError("argument #")
           << argIndex << " carries '" << name
           << "', which marks an !llvm.ptr argument (the stream)";
  return success();
}
