//===- SplitTemporaries.cpp - one buffer per value of a temporary ---------===//
//
// Bufferization reuses a temporary for a new value once its old one is
// dead: a softmax's row maxima buffer is filled with zeros and becomes the
// row sums; an elementwise op writes its result over its input. Reused so,
// the buffer ties ops together that fusion would otherwise take apart.
// Each whole overwrite of a temporary here starts a new buffer instead.
//
//===----------------------------------------------------------------------===//

#include "SplitTemporaries.h"
#include "HostBuffers.h"

#include "Croq/Dialect/Croq/IR/CroqOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::croq;

/// The ancestor of `op` in `block`, or null.
static Operation *getAncestorIn(Block *block, Operation *op) {
  return block->findAncestorOpInBlock(*op);
}

/// Whether `buffer` (or a view of it) is used by a terminator, where its
/// values outlive the block.
static bool escapes(Value buffer) {
  SmallVector<Value> worklist{buffer};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (Operation *user : value.getUsers()) {
      if (user->hasTrait<OpTrait::IsTerminator>())
        return true;
      if (auto view = dyn_cast<ViewLikeOpInterface>(user);
          view && view.getViewSource() == value)
        llvm::append_range(worklist, user->getResults());
    }
  }
  return false;
}

/// The first op of `buffer`'s block after `from` that overwrites it whole
/// after its value has been used, or null.
static Operation *findOverwrite(Value buffer, Operation *from) {
  bool used = false;
  for (Operation *op = from->getNextNode(); op; op = op->getNextNode()) {
    if (used && overwritesWhole(op, buffer))
      return op;
    // Making a view reads nothing.
    used |= !isa<ViewLikeOpInterface>(op) && usesBuffer(op, buffer);
  }
  return nullptr;
}

/// `value`, a view chain of `root` (or `root` itself), rebuilt on
/// `newRoot` at `b`'s insertion point; `rebuilt` memoizes the views.
static Value rebase(OpBuilder &b, Value value, Value root, Value newRoot,
                    DenseMap<Value, Value> &rebuilt) {
  if (value == root)
    return newRoot;
  if (Value done = rebuilt.lookup(value))
    return done;
  Operation *view = value.getDefiningOp();
  auto viewLike = cast<ViewLikeOpInterface>(view);
  Value source = rebase(b, viewLike.getViewSource(), root, newRoot, rebuilt);
  IRMapping mapping;
  mapping.map(viewLike.getViewSource(), source);
  Operation *clone = b.clone(*view, mapping);
  for (auto [old, now] : llvm::zip(view->getResults(), clone->getResults()))
    rebuilt[old] = now;
  return rebuilt.lookup(value);
}

/// Gives the value `overwrite` writes into `buffer` a new buffer of the
/// same type: `overwrite` writes it, and every later use of `buffer` or of
/// a view of it uses it (or the same view of it) instead.
static Value splitAt(memref::AllocOp alloc, Value buffer,
                     Operation *overwrite) {
  // Allocated beside the first (where its sizes are defined), so that the
  // ops around the overwrite stay next to each other.
  OpBuilder b(alloc->getNextNode());
  auto fresh = cast<memref::AllocOp>(b.clone(*alloc));
  b.setInsertionPoint(overwrite);
  Block *block = overwrite->getBlock();
  // The uses after the overwrite, through views made before it.
  SmallVector<OpOperand *> later;
  SmallVector<Value> worklist{buffer};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = getAncestorIn(block, use.getOwner());
      if (user && overwrite->isBeforeInBlock(user)) {
        later.push_back(&use);
        continue;
      }
      auto view = dyn_cast<ViewLikeOpInterface>(use.getOwner());
      if (view && view.getViewSource() == value &&
          use.getOwner()->getBlock() == block)
        llvm::append_range(worklist, use.getOwner()->getResults());
    }
  }
  DenseMap<Value, Value> rebuilt;
  for (OpOperand *use : later)
    use->set(rebase(b, use->get(), buffer, fresh.getResult(), rebuilt));
  // The overwrite writes the new buffer; what it reads stays the old one.
  for (OpOperand &operand : overwrite->getOpOperands())
    if (operand.get() == buffer &&
        cast<DestinationStyleOpInterface>(overwrite).isDpsInit(&operand))
      operand.set(fresh.getResult());
  return fresh.getResult();
}

void mlir::croq::splitTemporaries(ModuleOp module) {
  SmallVector<memref::AllocOp> allocs;
  module.walk([&](memref::AllocOp alloc) {
    if (!alloc->getParentOfType<ParallelOp>() &&
        !alloc->getParentOfType<gpu::GPUModuleOp>())
      allocs.push_back(alloc);
  });
  for (memref::AllocOp alloc : allocs) {
    if (escapes(alloc.getResult()))
      continue;
    Value buffer = alloc.getResult();
    Operation *from = alloc;
    while (Operation *overwrite = findOverwrite(buffer, from)) {
      // A release of the old buffer after the overwrite releases the new
      // one; the old one is released where its block ends
      // (croq-allocate-on-device).
      buffer = splitAt(alloc, buffer, overwrite);
      from = overwrite;
    }
  }
}
