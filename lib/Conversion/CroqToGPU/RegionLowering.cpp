//===- RegionLowering.cpp - parallel and inthreads regions ----------------===//
//
// Lowers croq.parallel and croq.inthreads, innermost first: block-level
// regions become gpu.launch; warpgroup- and thread-level regions and
// inthreads become thread-index arithmetic and guards.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::croq;

/// Moves the single block of `region` before `before`, replacing its
/// arguments with `values`.
static void inlineRegionBefore(RewriterBase &rewriter, Region &region,
                               Operation *before, ValueRange values) {
  rewriter.inlineBlockBefore(&region.front(), before, values);
}

/// Runs the body of `op` (with `ivs` as its coordinates) when `guard`
/// holds, or always when `guard` is null.
static void replaceWithGuardedBody(RewriterBase &rewriter, Operation *op,
                                   Region &body, Value guard, ValueRange ivs) {
  Location loc = op->getLoc();
  rewriter.setInsertionPoint(op);
  if (guard) {
    auto ifOp = scf::IfOp::create(rewriter, loc, guard, /*withElse=*/false);
    inlineRegionBefore(rewriter, body, ifOp.thenBlock()->getTerminator(), ivs);
  } else {
    inlineRegionBefore(rewriter, body, op, ivs);
  }
  rewriter.eraseOp(op);
}

/// The static extents of a warpgroup or thread region.
static FailureOr<SmallVector<int64_t>> getStaticExtents(ParallelOp op) {
  for (int64_t e : op.getStaticExtents())
    if (ShapedType::isDynamic(e))
      return op.emitOpError("warpgroup and thread regions need static "
                            "extents");
  return llvm::to_vector(op.getStaticExtents());
}

/// croq.parallel (...) in [...] : block  =>  gpu.launch with one block per
/// point and the block ids as coordinates (last dimension on x).
static LogicalResult lowerBlockRegion(IRRewriter &rewriter, ParallelOp op,
                                      const SharedMemoryPlan &plan) {
  Location loc = op.getLoc();
  unsigned rank = op.getRank();
  if (rank > 3)
    return op.emitOpError("block-level regions have at most 3 dimensions "
                          "(the grid's x, y and z), got ")
           << rank;
  auto threads = plan.blockThreads.find(op);
  if (threads == plan.blockThreads.end())
    return op.emitOpError("has no thread count");
  rewriter.setInsertionPoint(op);
  SmallVector<Value> extents;
  for (OpFoldResult ofr : op.getMixedExtents())
    extents.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, ofr));
  Value one = indexConstant(rewriter, loc, 1);
  // Dimension rank-1 goes on x, rank-2 on y, rank-3 on z.
  SmallVector<Value> grid(3, one);
  for (unsigned d = 0; d < rank; ++d)
    grid[rank - 1 - d] = extents[d];
  Value smem;
  auto bytes = plan.blockBytes.find(op);
  if (bytes != plan.blockBytes.end() && bytes->second > 0)
    smem = arith::ConstantIntOp::create(rewriter, loc, bytes->second, 32);
  auto launch = gpu::LaunchOp::create(
      rewriter, loc, grid[0], grid[1], grid[2],
      indexConstant(rewriter, loc, threads->second), one, one, smem);
  Block &launchBody = launch.getBody().front();
  rewriter.setInsertionPointToEnd(&launchBody);
  auto terminator = gpu::TerminatorOp::create(rewriter, loc);
  gpu::KernelDim3 ids = launch.getBlockIds();
  Value idByAxis[3] = {ids.x, ids.y, ids.z};
  SmallVector<Value> ivs;
  for (unsigned d = 0; d < rank; ++d)
    ivs.push_back(idByAxis[rank - 1 - d]);
  inlineRegionBefore(rewriter, op.getBody(), terminator, ivs);
  if (auto func = launch->getParentOfType<func::FuncOp>())
    func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                  rewriter.getUnitAttr());
  rewriter.eraseOp(op);
  return success();
}

/// croq.parallel (%w..) in [...] : warpgroup  =>  %w.. from tid / 128,
/// guarded when the block has more warpgroups.
static LogicalResult lowerWarpgroupRegion(IRRewriter &rewriter, ParallelOp op,
                                          const SharedMemoryPlan &plan) {
  Location loc = op.getLoc();
  FailureOr<SmallVector<int64_t>> extents = getStaticExtents(op);
  if (failed(extents))
    return failure();
  int64_t threads = plan.blockThreads.lookup(op->getParentOfType<ParallelOp>());
  rewriter.setInsertionPoint(op);
  Value tid = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
  Value wg = arith::DivUIOp::create(
      rewriter, loc, tid, indexConstant(rewriter, loc, kWarpgroupSize));
  int64_t total = 1;
  SmallVector<Value> sizes;
  for (int64_t e : *extents) {
    total = saturatingMul(total, e);
    sizes.push_back(indexConstant(rewriter, loc, e));
  }
  Value guard;
  if (saturatingMul(total, kWarpgroupSize) < threads)
    guard = lessThan(rewriter, loc, wg, indexConstant(rewriter, loc, total));
  SmallVector<Value> ivs = delinearize(rewriter, loc, wg, sizes);
  replaceWithGuardedBody(rewriter, op, op.getBody(), guard, ivs);
  return success();
}

/// croq.parallel (%t..) in [...] : thread  =>  %t.. from the thread's index
/// in its block or warpgroup, guarded when the group has more threads.
static LogicalResult lowerThreadRegion(IRRewriter &rewriter, ParallelOp op,
                                       const SharedMemoryPlan &plan) {
  Location loc = op.getLoc();
  FailureOr<SmallVector<int64_t>> extents = getStaticExtents(op);
  if (failed(extents))
    return failure();
  auto parent = op->getParentOfType<ParallelOp>();
  rewriter.setInsertionPoint(op);
  Value tid = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
  int64_t groupSize;
  if (parent.getLevel() == ParallelLevel::Warpgroup) {
    groupSize = kWarpgroupSize;
    tid = arith::RemUIOp::create(rewriter, loc, tid,
                                 indexConstant(rewriter, loc, groupSize));
  } else {
    groupSize = plan.blockThreads.lookup(parent);
  }
  int64_t total = 1;
  SmallVector<Value> sizes;
  for (int64_t e : *extents) {
    total = saturatingMul(total, e);
    sizes.push_back(indexConstant(rewriter, loc, e));
  }
  if (total > groupSize)
    return op.emitOpError("needs ")
           << (total == std::numeric_limits<int64_t>::max() ? "more than " : "")
           << total << " threads but its group has " << groupSize;
  Value guard;
  if (total < groupSize)
    guard = lessThan(rewriter, loc, tid, indexConstant(rewriter, loc, total));
  SmallVector<Value> ivs = delinearize(rewriter, loc, tid, sizes);
  replaceWithGuardedBody(rewriter, op, op.getBody(), guard, ivs);
  return success();
}

/// Whether `region` issues only tma copies and event operations (besides
/// index arithmetic and control flow): a producer that needs few registers.
static bool isProducer(InthreadsOp region) {
  WalkResult result = region.getBody().walk([](Operation *op) {
    if (isa<MmaOp, ForeachOp, TransposeOp, PadOp, ReadOp, WriteOp>(op))
      return WalkResult::interrupt();
    if (auto copy = dyn_cast<CopyOp>(op);
        copy && copy.getEngine() != CopyEngine::TMA)
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

/// Registers a warpgroup of a block may hold: the register file less what
/// the producers keep (TargetDescription::producerRegisters), shared by the
/// consumer threads, in steps of 8, at most
/// TargetDescription::maxConsumerRegisters.
void RegisterPlan::build(Operation *root, const SharedMemoryPlan &plan,
                         const TargetDescription &target) {
  root->walk([&](ParallelOp block) {
    if (block.getLevel() != ParallelLevel::Block)
      return;
    SmallVector<InthreadsOp> producers, consumers;
    block.walk([&](InthreadsOp region) {
      auto parent = region->getParentOfType<ParallelOp>();
      if (!region.getAsync() || parent.getLevel() != ParallelLevel::Warpgroup)
        return;
      bool hasMma = region.getBody()
                        .walk([](MmaOp) { return WalkResult::interrupt(); })
                        .wasInterrupted();
      if (hasMma)
        consumers.push_back(region);
      else if (isProducer(region))
        producers.push_back(region);
    });
    if (producers.empty() || consumers.empty())
      return;
    // Threads that run each role, from the regions' conditions.
    auto threads = [&](ArrayRef<InthreadsOp> regions) -> int64_t {
      int64_t total = 0;
      for (InthreadsOp region : regions) {
        Block &body = region.getBody().front();
        if (body.empty())
          continue;
        FailureOr<int64_t> warps = countWarpsRunning(&body.front(), plan);
        if (failed(warps))
          return -1;
        total += *warps * 32;
      }
      return total;
    };
    int64_t producerThreads = threads(producers);
    int64_t consumerThreads = threads(consumers);
    if (producerThreads <= 0 || consumerThreads <= 0)
      return;
    int64_t consumerRegisters =
        (target.registerFile - producerThreads * target.producerRegisters) /
        consumerThreads / 8 * 8;
    consumerRegisters = std::min(target.maxConsumerRegisters, consumerRegisters);
    if (consumerRegisters <= target.producerRegisters)
      return;
    // Every thread starts with the registers the block's size leaves it
    // (ptxas knows them from .maxntid and .minnctapersm 1); setmaxnreg.inc
    // may only raise that count, so consumers that already have as many
    // (one producer and one consumer warpgroup: 255) keep theirs, and then
    // the producers keep theirs too: freeing registers nobody takes would
    // only make the producers spill (and ptxas ignores such a decrease,
    // C7507).
    int64_t threadsPerBlock = plan.blockThreads.lookup(block);
    int64_t atEntry =
        threadsPerBlock ? target.registerFile / threadsPerBlock / 8 * 8 : 0;
    if (consumerRegisters <= atEntry)
      return;
    for (InthreadsOp region : producers)
      maxRegisters[region] = target.producerRegisters;
    for (InthreadsOp region : consumers)
      maxRegisters[region] = consumerRegisters;
  });
}

/// croq.inthreads [async] %c { body }  =>  scf.if %c { body }, followed by a
/// barrier of the enclosing group unless async. A warp-specialized role
/// first sets its register count (setmaxnreg).
static LogicalResult lowerInthreads(IRRewriter &rewriter, InthreadsOp op,
                                    const RegisterPlan &registers,
                                    const TargetDescription &target) {
  Location loc = op.getLoc();
  if (auto it = registers.maxRegisters.find(op);
      it != registers.maxRegisters.end()) {
    rewriter.setInsertionPointToStart(&op.getBody().front());
    NVVM::SetMaxRegisterOp::create(
        rewriter, loc, it->second,
        it->second == target.producerRegisters
            ? NVVM::SetMaxRegisterAction::decrease
            : NVVM::SetMaxRegisterAction::increase);
  }
  rewriter.setInsertionPointAfter(op);
  if (!op.getAsync()) {
    FailureOr<ThreadGroup> group = getThreadGroup(rewriter, op);
    if (failed(group))
      return failure();
    emitGroupBarrier(rewriter, loc, *group);
  }
  replaceWithGuardedBody(rewriter, op, op.getBody(), op.getCondition(), {});
  return success();
}

LogicalResult mlir::croq::lowerCroqRegions(Operation *root,
                                           const SharedMemoryPlan &plan,
                                           const RegisterPlan &registers,
                                           const TargetDescription &target) {
  SmallVector<Operation *> regions;
  root->walk<WalkOrder::PostOrder>([&](Operation *op) {
    if (isa<ParallelOp, InthreadsOp>(op))
      regions.push_back(op);
  });
  IRRewriter rewriter(root->getContext());
  for (Operation *op : regions) {
    LogicalResult result = success();
    if (auto inthreads = dyn_cast<InthreadsOp>(op)) {
      result = lowerInthreads(rewriter, inthreads, registers, target);
    } else {
      auto parallel = cast<ParallelOp>(op);
      switch (parallel.getLevel()) {
      case ParallelLevel::Block:
        result = lowerBlockRegion(rewriter, parallel, plan);
        break;
      case ParallelLevel::Warpgroup:
        result = lowerWarpgroupRegion(rewriter, parallel, plan);
        break;
      case ParallelLevel::Thread:
        result = lowerThreadRegion(rewriter, parallel, plan);
        break;
      }
    }
    if (failed(result))
      return failure();
  }
  return success();
}
