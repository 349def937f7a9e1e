//===- MoveOps.cpp - element and per-thread move ops ----------------------===//
//
// Verifiers of croq.read and croq.write (elements and short vectors) and of
// the per-thread pieces of a distributed copy: croq.thread_index,
// croq.barrier, croq.is_aligned and croq.copy_chunk.
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/BufferUtils.h"
#include "Croq/Dialect/Croq/IR/CroqOps.h"
#include "Croq/Dialect/Croq/IR/ThreadGroups.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::croq;

/// Checks that `indices` address one element of `buffer`.
static LogicalResult verifyElementIndices(Operation *op, Type buffer,
                                          ValueRange indices,
                                          StringRef what = "") {
  int64_t rank = cast<ShapedType>(buffer).getRank();
  if (static_cast<int64_t>(indices.size()) != rank)
    return op->emitOpError("expected ")
           << rank << " " << what << (what.empty() ? "" : " ")
           << "indices for a rank-" << rank << " buffer, got "
           << indices.size();
  return success();
}

/// Checks the type an element access reads or writes: the buffer's element
/// type, or an in-bounds vector of 4, 8 or 16 bytes of it along contiguous
/// rows.
static LogicalResult verifyAccessType(Operation *op, Value buffer,
                                      Type accessType, bool inBounds) {
  Type elementType = getElementTypeOrSelf(buffer.getType());
  if (accessType == elementType)
    return success();
  auto vector = dyn_cast<VectorType>(accessType);
  if (!vector || vector.getRank() != 1 || vector.isScalable() ||
      vector.getElementType() != elementType)
    return op->emitOpError("accesses ")
           << accessType << ", which is neither the element type "
           << elementType << " nor a 1-d vector of it";
  if (!elementType.isIntOrFloat())
    return op->emitOpError("vector accesses need integer or float elements");
  // At most 16 one-byte elements; the bound keeps the product in range.
  int64_t elements = vector.getNumElements();
  int64_t bits =
      elements > 16 ? 0 : elements * elementType.getIntOrFloatBitWidth();
  if (bits != 32 && bits != 64 && bits != 128)
    return op->emitOpError("a vector access moves 4, 8 or 16 bytes, got ")
           << accessType;
  if (!inBounds)
    return op->emitOpError("a vector access must be in_bounds: the edge of "
                           "a tensor is tested element by element");
  if (!hasContiguousRows(buffer))
    return op->emitOpError("a vector access needs a buffer whose innermost "
                           "dimension has unit stride");
  return success();
}

LogicalResult ReadOp::verify() {
  if (failed(verifyElementIndices(*this, getSource().getType(), getIndices())))
    return failure();
  return verifyAccessType(*this, getSource(), getResult().getType(),
                          getInBounds());
}

LogicalResult WriteOp::verify() {
  if (failed(verifyElementIndices(*this, getDest().getType(), getIndices())))
    return failure();
  return verifyAccessType(*this, getDest(), getValue().getType(),
                          getInBounds());
}

/// Checks that `level` names a group of threads: a block or a warpgroup.
static LogicalResult verifyGroupLevel(Operation *op, ParallelLevel level) {
  if (level == ParallelLevel::Thread)
    return op->emitOpError("expects a block or a warpgroup, not thread: a "
                           "thread alone is its own group");
  return success();
}

LogicalResult ThreadIndexOp::verify() {
  return verifyGroupLevel(*this, getLevel());
}

LogicalResult WarpIndexOp::verify() {
  return verifyGroupLevel(*this, getLevel());
}

LogicalResult BarrierOp::verify() {
  return verifyGroupLevel(*this, getLevel());
}

/// Checks that `counters` of a turn op are in global memory and that `op`
/// runs in a block or a warpgroup: the group synchronizes around the
/// one thread that reads or advances the counter.
static LogicalResult verifyTurnOp(Operation *op, Value counters) {
  auto type = cast<MemRefType>(counters.getType());
  if (type.getMemorySpace())
    return op->emitOpError("expects counters in global memory (no memory "
                           "space), got ")
           << type;
  if (!getKernel(op))
    return op->emitOpError("must be inside a block-level croq.parallel "
                           "region: its block or warpgroup waits or passes "
                           "together");
  return success();
}

LogicalResult TurnWaitOp::verify() {
  return verifyTurnOp(*this, getCounters());
}

LogicalResult TurnPassOp::verify() {
  return verifyTurnOp(*this, getCounters());
}

/// Checks that `op` runs in a kernel launched in clusters.
static LogicalResult verifyInCluster(Operation *op) {
  ParallelOp kernel = getKernel(op);
  if (!kernel || !kernel.getCluster())
    return op->emitOpError("must be inside a block-level croq.parallel "
                           "region launched in clusters (`cluster [...]`)");
  return success();
}

LogicalResult ClusterRankOp::verify() { return verifyInCluster(*this); }

LogicalResult ClusterBarrierOp::verify() { return verifyInCluster(*this); }

/// Checks the barrier id and thread count of a named barrier op.
static LogicalResult verifyNamedBarrier(Operation *op, Value id,
                                        int64_t threads) {
  if (!getKernel(op))
    return op->emitOpError("synchronizes warps of a block: it must be inside "
                           "a block-level croq.parallel region");
  if (threads % kThreadsPerWarp != 0 || threads > kMaxBlockThreads)
    return op->emitOpError("counts whole warps of a block: threads must be a "
                           "multiple of ")
           << kThreadsPerWarp << " up to " << kMaxBlockThreads << ", got "
           << threads;
  std::optional<int64_t> constant = getConstantIntValue(id);
  if (constant && (*constant < 0 || *constant >= kNamedBarriers))
    return op->emitOpError("takes barrier ids 0 to ")
           << kNamedBarriers - 1 << " (the hardware barriers croq does not "
           << "use itself), got " << *constant;
  return success();
}

LogicalResult NamedBarrierSyncOp::verify() {
  return verifyNamedBarrier(*this, getId(), getThreads());
}

LogicalResult NamedBarrierArriveOp::verify() {
  return verifyNamedBarrier(*this, getId(), getThreads());
}

LogicalResult IsAlignedOp::verify() {
  if (!llvm::isPowerOf2_64(getBytes()))
    return emitOpError("expects a power of two of bytes, got ") << getBytes();
  return success();
}

LogicalResult CopyChunkOp::verify() {
  if (failed(verifyElementIndices(*this, getSource().getType(),
                                  getSourceIndices(), "source")) ||
      failed(verifyElementIndices(*this, getDest().getType(), getDestIndices(),
                                  "destination")))
    return failure();
  if (getMemorySpaceOf(getSource().getType()) != MemorySpace::Global)
    return emitOpError("copies from global memory, got a source in ")
           << stringifyMemorySpace(*getMemorySpaceOf(getSource().getType()))
           << " memory";
  if (getMemorySpaceOf(getDest().getType()) != MemorySpace::Shared)
    return emitOpError("copies into shared memory, got a destination in ")
           << stringifyMemorySpace(*getMemorySpaceOf(getDest().getType()))
           << " memory";
  Type elementType = getElementTypeOrSelf(getSource().getType());
  if (elementType != getElementTypeOrSelf(getDest().getType()))
    return emitOpError("source and destination element types differ: ")
           << elementType << " vs "
           << getElementTypeOrSelf(getDest().getType());
  if (!elementType.isIntOrFloat() ||
      elementType.getIntOrFloatBitWidth() % 8 != 0)
    return emitOpError("copies whole bytes of integer or float elements, "
                       "got ")
           << elementType;
  // At most 16 one-byte elements; the bound keeps the product in range.
  int64_t bytes = getWidth() > 16
                      ? 0
                      : getWidth() * elementType.getIntOrFloatBitWidth() / 8;
  if (bytes != 4 && bytes != 8 && bytes != 16)
    return emitOpError("a chunk is 4, 8 or 16 bytes, got ")
           << getWidth() << " x " << elementType;
  if (!hasContiguousRows(getSource()) || !hasContiguousRows(getDest()))
    return emitOpError("a chunk lies in the innermost dimension, which must "
                       "have unit stride");
  return success();
}
