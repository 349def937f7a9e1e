//===- PlanRegisters.cpp - register counts of warp-specialized roles ------===//
//
// Implements croq-plan-registers: in a block whose warpgroups split into
// producer roles (tma copies and events only) and consumer roles (mma), each
// role's croq.inthreads gets the register count its threads set on entry
// (setmaxnreg): producers keep few, consumers share the rest of the
// register file. The counts come from the chip's target description.
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/CroqOps.h"
#include "Croq/Dialect/Croq/IR/TargetDescription.h"
#include "Croq/Dialect/Croq/IR/ThreadGroups.h"
#include "Croq/Dialect/Croq/Transforms/Passes.h"

#include "llvm/Support/Debug.h"

namespace mlir {
namespace croq {
#define GEN_PASS_DEF_CROQPLANREGISTERS
#include "Croq/Dialect/Croq/Transforms/Passes.h.inc"
} // namespace croq
} // namespace mlir

#define DEBUG_TYPE "croq-plan-registers"

using namespace mlir;
using namespace mlir::croq;

/// Whether `region` issues only tma copies and event operations (besides
/// index arithmetic and control flow): a producer that needs few registers.
static bool isProducer(InthreadsOp region) {
  WalkResult result = region.getBody().walk([](Operation *op) {
    if (isa<MmaOp, ForeachOp, TransposeOp, PadOp, ReadOp, WriteOp, CopyChunkOp>(
            op))
      return WalkResult::interrupt();
    if (auto copy = dyn_cast<CopyOp>(op);
        copy && copy.getEngine() != CopyEngine::TMA)
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

/// The threads that run `regions`, from their conditions.
static FailureOr<int64_t> countThreads(ArrayRef<InthreadsOp> regions) {
  int64_t total = 0;
  for (InthreadsOp region : regions) {
    Block &body = region.getBody().front();
    if (body.empty())
      continue;
    FailureOr<int64_t> warps = countWarpsRunning(&body.front());
    if (failed(warps))
      return failure();
    total += *warps * kThreadsPerWarp;
  }
  return total;
}

/// Checks a plan written in the IR (`registers` on the roles of `block`):
/// every role has a count, the producers lower theirs and the consumers raise
/// theirs from `atEntry`, and the roles take no more than the `held`
/// registers their threads start with (setmaxnreg.inc would wait forever for
/// the rest).
static LogicalResult checkWrittenPlan(ParallelOp block,
                                      ArrayRef<InthreadsOp> producers,
                                      ArrayRef<InthreadsOp> consumers,
                                      int64_t atEntry, int64_t held) {
  int64_t taken = 0;
  auto checkRole = [&](InthreadsOp region, bool lowers) -> LogicalResult {
    std::optional<int64_t> registers = region.getRegisters();
    if (!registers)
      return region.emitOpError()
             << "has no 'registers' where another role of its block sets "
                "them: a block's roles set their register counts all or none";
    if (lowers ? *registers > atEntry : *registers < atEntry)
      return region.emitOpError()
             << "sets " << *registers << " registers, "
             << (lowers ? "more" : "fewer") << " than the " << atEntry
             << " its threads start with: setmaxnreg "
             << (lowers ? "dec cannot raise" : "inc cannot lower") << " them";
    FailureOr<int64_t> threads = countThreads(region);
    if (failed(threads))
      return failure();
    taken += *threads * *registers;
    return success();
  };
  for (InthreadsOp region : producers)
    if (failed(checkRole(region, /*lowers=*/true)))
      return failure();
  for (InthreadsOp region : consumers)
    if (failed(checkRole(region, /*lowers=*/false)))
      return failure();
  if (taken > held)
    return block.emitOpError()
           << "roles set " << taken << " registers in all, more than the "
           << held << " their threads hold at entry (" << atEntry
           << " each): setmaxnreg.inc would wait forever for the rest";
  return success();
}

/// Plans the registers of the roles of `block`: the register file less what
/// the producers keep, shared by the consumer threads, in steps of 8, at
/// most the target's consumer maximum. A plan the IR already carries is
/// checked and kept.
static LogicalResult planBlock(ParallelOp block,
                               const TargetDescription &target) {
  SmallVector<InthreadsOp> producers, consumers;
  block.walk([&](InthreadsOp region) {
    // A region nested in a role (the first warp of a producer,
    // croq-single-warp-producers) runs with the role's registers.
    if (!isWarpgroupRole(region))
      return;
    bool hasMma = region.getBody()
                      .walk([](MmaOp) { return WalkResult::interrupt(); })
                      .wasInterrupted();
    if (hasMma)
      consumers.push_back(region);
    else if (isProducer(region))
      producers.push_back(region);
  });
  // Without setmaxnreg every role keeps the registers it starts with.
  if (producers.empty() || consumers.empty() || !target.hasSetMaxNReg)
    return success();
  FailureOr<int64_t> producerThreads = countThreads(producers);
  FailureOr<int64_t> consumerThreads = countThreads(consumers);
  FailureOr<int64_t> blockThreads = getBlockThreadCount(block);
  if (failed(producerThreads) || failed(consumerThreads) ||
      failed(blockThreads))
    return failure();
  if (*producerThreads == 0 || *consumerThreads == 0)
    return success();
  // Every thread starts with the registers the block's size leaves it
  // (ptxas knows them from .maxntid and .minnctapersm 1), in steps of 8.
  // The block holds those registers and no more: setmaxnreg.inc takes only
  // what the block's own setmaxnreg.dec released, and waits for them
  // forever if the plan asks for more (a 384-thread block planned 32 / 240
  // hung on an H200: 128 x 32 + 256 x 240 is the whole register file, more
  // than its 384 x 168).
  int64_t atEntry = target.registerFile / *blockThreads / 8 * 8;
  // The roles' threads share their own registers; any other thread of the
  // block keeps its count.
  int64_t held = atEntry * (*producerThreads + *consumerThreads);
  auto written = [](InthreadsOp region) {
    return region.getRegisters().has_value();
  };
  if (llvm::any_of(producers, written) || llvm::any_of(consumers, written))
    return checkWrittenPlan(block, producers, consumers, atEntry, held);
  int64_t consumerRegisters =
      (held - *producerThreads * target.producerRegisters) / *consumerThreads /
      8 * 8;
  consumerRegisters = std::min(target.maxConsumerRegisters, consumerRegisters);
  if (consumerRegisters <= target.producerRegisters)
    return success();
  // setmaxnreg.inc may only raise a count, so consumers that already have
  // as many (one producer and one consumer warpgroup: 255) keep theirs, and
  // then the producers keep theirs too: freeing registers nobody takes
  // would only make the producers spill (and ptxas ignores such a
  // decrease, C7507).
  LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] " << block.getLoc() << ": "
                          << *producerThreads << " producer threads keep "
                          << target.producerRegisters << ", "
                          << *consumerThreads << " consumer threads get "
                          << consumerRegisters << " (" << atEntry
                          << " at entry)\n");
  if (consumerRegisters <= atEntry)
    return success();
  Builder builder(block.getContext());
  for (InthreadsOp region : producers)
    region.setRegistersAttr(
        builder.getI64IntegerAttr(target.producerRegisters));
  for (InthreadsOp region : consumers)
    region.setRegistersAttr(builder.getI64IntegerAttr(consumerRegisters));
  return success();
}

namespace {
struct CroqPlanRegistersPass
    : croq::impl::CroqPlanRegistersBase<CroqPlanRegistersPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(forEachKernelOfTarget(getOperation(), planBlock)))
      signalPassFailure();
  }
};
} // namespace
