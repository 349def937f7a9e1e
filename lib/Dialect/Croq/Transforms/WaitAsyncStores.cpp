//===- WaitAsyncStores.cpp - waits for async tma stores left in flight ---===//
//
// Implements croq-wait-async-stores: an async tma store whose future is not
// waited stays in flight while its group goes on. Before each op that writes
// a tile such a store reads, the writing group waits until its stores have
// read their tiles (croq.wait_stores read), and so does every thread at the
// end of the kernel, before its block's shared memory goes away. A tile
// stored or written by different groups is an error: one group cannot wait
// for another's stores.
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/BufferUtils.h"
#include "Croq/Dialect/Croq/IR/CroqOps.h"
#include "Croq/Dialect/Croq/Transforms/Passes.h"

#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace croq {
#define GEN_PASS_DEF_CROQWAITASYNCSTORES
#include "Croq/Dialect/Croq/Transforms/Passes.h.inc"
} // namespace croq
} // namespace mlir

using namespace mlir;
using namespace mlir::croq;

/// Places the waits of async tma stores under `root`; fails, with an error,
/// where a tile is stored or written by different groups.
static LogicalResult waitForAsyncStores(Operation *root) {
  // The shared allocations async tma stores read, and the groups (innermost
  // croq.parallel) that issue them.
  llvm::DenseMap<Value, Operation *> storedBy;
  llvm::SetVector<Operation *> kernels;
  bool ok = true;
  root->walk([&](CopyOp copy) {
    if (copy.getEngine() != CopyEngine::TMA || !copy.isAsync() ||
        getMemorySpaceOf(copy.getSource().getType()) != MemorySpace::Shared)
      return;
    Value allocation = getUnderlyingBuffer(copy.getSource());
    Operation *group = copy->getParentOfType<ParallelOp>();
    auto [it, inserted] = storedBy.try_emplace(allocation, group);
    if (!inserted && it->second != group) {
      copy.emitOpError("stores a shared tile that an async tma store of "
                       "another group also stores; async stores of one "
                       "allocation must be issued by one group");
      ok = false;
      return;
    }
    if (ParallelOp kernel = getKernel(copy))
      kernels.insert(kernel);
  });
  if (!ok)
    return failure();
  OpBuilder builder(root->getContext());
  for (Operation *kernel : kernels) {
    // Before the tile is written again, the issuing thread waits until its
    // stores have read their tiles; the group then goes on together.
    SmallVector<Operation *> writers;
    kernel->walk([&](Operation *op) {
      OpOperand *written = getWrittenBufferOperand(op);
      if (written && storedBy.count(getUnderlyingBuffer(written->get())))
        writers.push_back(op);
    });
    for (Operation *writer : writers) {
      Operation *group = storedBy.lookup(
          getUnderlyingBuffer(getWrittenBufferOperand(writer)->get()));
      if (writer->getParentOfType<ParallelOp>() != group)
        return writer->emitOpError(
            "writes a shared tile that an async tma store of another group "
            "may still be reading; write it in the group that stores it");
      builder.setInsertionPoint(writer);
      WaitStoresOp::create(builder, writer->getLoc(), /*read=*/true);
    }
    // Every thread's stores have read their tiles before the block ends and
    // its shared memory goes to the next block. Their writes need no wait:
    // they complete before the kernel does, as every write of the grid.
    Block &body = cast<ParallelOp>(kernel).getBody().front();
    builder.setInsertionPointToEnd(&body);
    WaitStoresOp::create(builder, kernel->getLoc(), /*read=*/true);
  }
  return success();
}

namespace {
struct CroqWaitAsyncStoresPass
    : croq::impl::CroqWaitAsyncStoresBase<CroqWaitAsyncStoresPass> {
  void runOnOperation() override {
    if (failed(waitForAsyncStores(getOperation())))
      signalPassFailure();
  }
};
} // namespace
