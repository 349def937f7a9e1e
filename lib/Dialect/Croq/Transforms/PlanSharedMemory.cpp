//===- PlanSharedMemory.cpp - place the shared buffers of each block ------===//
//
// Implements croq-plan-shared-memory: every shared croq.alloc of a block gets
// its byte offset in the block's one dynamic shared-memory allocation,
// aligned for its layout, and the block the total. A block that needs more
// than its chip's capacity is an error that lists its buffers.
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/CroqOps.h"
#include "Croq/Dialect/Croq/IR/TargetDescription.h"
#include "Croq/Dialect/Croq/IR/ThreadGroups.h"
#include "Croq/Dialect/Croq/Transforms/Passes.h"

#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

namespace mlir {
namespace croq {
#define GEN_PASS_DEF_CROQPLANSHAREDMEMORY
#include "Croq/Dialect/Croq/Transforms/Passes.h.inc"
} // namespace croq
} // namespace mlir

#define DEBUG_TYPE "croq-plan-shared-memory"

using namespace mlir;
using namespace mlir::croq;

namespace {
/// A shared buffer of a block and where it went (no offset once the sum
/// saturated), for the notes of a capacity error.
struct Place {
  AllocOp alloc;
  int64_t bytes;
  std::optional<int64_t> offset;
};
} // namespace

/// The bytes of a shared tile or stage array (saturated).
static int64_t getSharedBytes(Type type) {
  if (auto tile = dyn_cast<TileType>(type))
    return tile.getSizeInBytes();
  auto tiles = cast<TilesType>(type);
  return saturatingMul(tiles.getTileType().getSizeInBytes(),
                       tiles.getNumStages());
}

/// Places the shared buffers of `block` one after the other, each at the
/// alignment of its layout, in program order; records the offsets on the
/// allocations and the total on the block. Fails, with an error that lists
/// the buffers, past the shared memory of `target`.
static LogicalResult planBlock(ParallelOp block,
                               const TargetDescription &target) {
  int64_t capacity = target.sharedMemoryPerBlock;
  int64_t offset = 0;
  SmallVector<Place> places;
  block.walk([&](AllocOp alloc) {
    Type type = alloc.getResult().getType();
    if (getMemorySpaceOf(type) != MemorySpace::Shared)
      return;
    // Verified tile types have sizes that int64_t holds; the sum of several
    // saturates instead of overflowing.
    int64_t bytes = getSharedBytes(type);
    int64_t align = getSharedAlignment(getSwizzleOf(type));
    if (offset > std::numeric_limits<int64_t>::max() - align - bytes) {
      offset = std::numeric_limits<int64_t>::max();
      places.push_back({alloc, bytes, std::nullopt});
      return;
    }
    offset = llvm::alignTo(offset, align);
    places.push_back({alloc, bytes, offset});
    LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] " << type << ": " << bytes
                            << " bytes at offset " << offset << "\n");
    offset += bytes;
  });
  LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] " << block.getLoc() << ": "
                          << offset << " of " << capacity << " bytes\n");
  if (offset > capacity) {
    InFlightDiagnostic diag = block.emitOpError("needs ");
    if (offset == std::numeric_limits<int64_t>::max())
      diag << "more than " << offset;
    else
      diag << offset;
    diag << " bytes of shared memory, more than the " << capacity
         << " bytes a block can have";
    for (Place &place : places) {
      Diagnostic &note = diag.attachNote(place.alloc.getLoc());
      note << place.alloc.getResult().getType() << " takes " << place.bytes
           << " bytes";
      if (place.offset)
        note << " at offset " << *place.offset;
    }
    return failure();
  }
  Builder builder(block.getContext());
  for (Place &place : places)
    place.alloc.setOffsetAttr(builder.getI64IntegerAttr(*place.offset));
  block.setSharedMemoryAttr(builder.getI64IntegerAttr(offset));
  return success();
}

namespace {
struct CroqPlanSharedMemoryPass
    : croq::impl::CroqPlanSharedMemoryBase<CroqPlanSharedMemoryPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(forEachKernelOfTarget(getOperation(), planBlock)))
      signalPassFailure();
  }
};
} // namespace
