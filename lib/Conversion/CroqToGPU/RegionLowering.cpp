//===- RegionLowering.cpp - parallel and inthreads regions ----------------===//
//
// Lowers croq.parallel and croq.inthreads, innermost first: block-level
// regions become gpu.launch; warpgroup- and thread-level regions and
// inthreads become thread-index arithmetic and guards.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "Croq/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir {
namespace croq {
#define GEN_PASS_DEF_CONVERTCROQREGIONSTOGPU
#include "Croq/Conversion/Passes.h.inc"
} // namespace croq
} // namespace mlir

using namespace mlir;
using namespace mlir::croq;

/// The thread count of each block-level region.
using BlockThreads = llvm::DenseMap<Operation *, int64_t>;

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
                                      const BlockThreads &blockThreads) {
  Location loc = op.getLoc();
  unsigned rank = op.getRank();
  if (rank > 3)
    return op.emitOpError("block-level regions have at most 3 dimensions "
                          "(the grid's x, y and z), got ")
           << rank;
  auto threads = blockThreads.find(op);
  if (threads == blockThreads.end())
    return op.emitOpError("has no thread count");
  rewriter.setInsertionPoint(op);
  SmallVector<Value> extents;
  for (OpFoldResult ofr : op.getMixedExtents())
    extents.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, ofr));
  Value one = indexConstant(rewriter, loc, 1);
  // Per-dimension values on the launch's axes: dimension rank-1 goes on x,
  // rank-2 on y, rank-3 on z; an axis without a dimension is 1.
  auto onAxes = [&](ArrayRef<Value> perDimension) {
    SmallVector<Value> axes(3, one);
    for (unsigned d = 0; d < rank; ++d)
      axes[rank - 1 - d] = perDimension[d];
    return axes;
  };
  SmallVector<Value> grid = onAxes(extents);
  // A cluster's sizes go on the same axes as the grid's extents.
  SmallVector<Value> cluster;
  if (std::optional<ArrayRef<int64_t>> sizes = op.getCluster()) {
    SmallVector<Value> perDimension;
    for (int64_t size : *sizes)
      perDimension.push_back(indexConstant(rewriter, loc, size));
    cluster = onAxes(perDimension);
  }
  Value smem;
  if (std::optional<int64_t> bytes = op.getSharedMemory(); bytes && *bytes > 0)
    smem = arith::ConstantIntOp::create(rewriter, loc, *bytes, 32);
  // On the function's stream (croq-host-entries), the launch is async: it
  // is queued there, and nothing waits for it. Without one, it is
  // synchronous on a stream of its own.
  Type tokenType;
  SmallVector<Value, 1> dependencies;
  if (Value stream = getLaunchStream(op)) {
    tokenType = gpu::AsyncTokenType::get(rewriter.getContext());
    dependencies.push_back(getStreamToken(rewriter, loc, stream));
  }
  auto launch = gpu::LaunchOp::create(
      rewriter, loc, grid[0], grid[1], grid[2],
      indexConstant(rewriter, loc, threads->second), one, one, smem, tokenType,
      dependencies, /*workgroupAttributions=*/{}, /*privateAttributions=*/{},
      cluster.empty() ? Value() : cluster[0],
      cluster.empty() ? Value() : cluster[1],
      cluster.empty() ? Value() : cluster[2]);
  Block &launchBody = launch.getBody().front();
  // The builder leaves out the region arguments of a cluster: its ids and
  // sizes, which follow the blocks' and threads' (no attributions here).
  if (!cluster.empty())
    for (int i = 0; i < 6; ++i)
      launchBody.addArgument(rewriter.getIndexType(), loc);
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
                                          const BlockThreads &blockThreads) {
  Location loc = op.getLoc();
  FailureOr<SmallVector<int64_t>> extents = getStaticExtents(op);
  if (failed(extents))
    return failure();
  int64_t threads = blockThreads.lookup(op->getParentOfType<ParallelOp>());
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
                                       const BlockThreads &blockThreads) {
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
    groupSize = blockThreads.lookup(parent);
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

/// croq.inthreads [async] %c { body }  =>  scf.if %c { body }, followed by a
/// barrier of the enclosing group unless async. A warp-specialized role
/// first sets its register count (setmaxnreg).
static LogicalResult lowerInthreads(IRRewriter &rewriter, InthreadsOp op,
                                    const BlockThreads &blockThreads,
                                    const TargetDescription &target) {
  Location loc = op.getLoc();
  if (std::optional<int64_t> registers = op.getRegisters()) {
    if (!target.hasSetMaxNReg)
      return op.emitOpError("sets its register count with setmaxnreg, which ")
             << target.chip << " does not have";
    // Fewer registers than every thread of the block starts with is a
    // decrease (a producer), more an increase (a consumer).
    auto block = op->getParentOfType<ParallelOp>();
    while (block && block.getLevel() != ParallelLevel::Block)
      block = block->getParentOfType<ParallelOp>();
    int64_t threads = block ? blockThreads.lookup(block) : 0;
    if (!threads)
      return op.emitOpError("sets its register count outside a block");
    int64_t atEntry = target.registerFile / threads / 8 * 8;
    rewriter.setInsertionPointToStart(&op.getBody().front());
    NVVM::SetMaxRegisterOp::create(rewriter, loc, *registers,
                                   *registers < atEntry
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
                                           const TargetDescription &target) {
  // The thread count of each block, fixed before any of its nested regions
  // is lowered.
  BlockThreads blockThreads;
  WalkResult counted = root->walk([&](ParallelOp block) {
    if (block.getLevel() != ParallelLevel::Block)
      return WalkResult::advance();
    FailureOr<int64_t> threads = getBlockThreadCount(block);
    if (failed(threads))
      return WalkResult::interrupt();
    blockThreads[block] = *threads;
    return WalkResult::skip();
  });
  if (counted.wasInterrupted())
    return failure();
  SmallVector<Operation *> regions;
  root->walk<WalkOrder::PostOrder>([&](Operation *op) {
    if (isa<ParallelOp, InthreadsOp>(op))
      regions.push_back(op);
  });
  IRRewriter rewriter(root->getContext());
  for (Operation *op : regions) {
    LogicalResult result = success();
    if (auto inthreads = dyn_cast<InthreadsOp>(op)) {
      result = lowerInthreads(rewriter, inthreads, blockThreads, target);
    } else {
      auto parallel = cast<ParallelOp>(op);
      switch (parallel.getLevel()) {
      case ParallelLevel::Block:
        result = lowerBlockRegion(rewriter, parallel, blockThreads);
        break;
      case ParallelLevel::Warpgroup:
        result = lowerWarpgroupRegion(rewriter, parallel, blockThreads);
        break;
      case ParallelLevel::Thread:
        result = lowerThreadRegion(rewriter, parallel, blockThreads);
        break;
      }
    }
    if (failed(result))
      return failure();
  }
  return success();
}

namespace {
struct ConvertCroqRegionsToGPUPass
    : croq::impl::ConvertCroqRegionsToGPUBase<ConvertCroqRegionsToGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<const TargetDescription *> target = getModuleTarget(module);
    if (failed(target))
      return signalPassFailure();
    // The regions' bodies must be lowered already: their ops choose their
    // threads from the regions.
    WalkResult unlowered = module.walk([](Operation *op) {
      if (isa<CroqDialect>(op->getDialect()) &&
          !isa<ParallelOp, InthreadsOp>(op)) {
        op->emitOpError("is lowered by convert-croq-to-gpu, inside its "
                        "region: run convert-croq-to-gpu first");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (unlowered.wasInterrupted() ||
        failed(lowerCroqRegions(module, **target)))
      return signalPassFailure();
    // The launches took their streams: the host functions keep no croq
    // attribute.
    StringRef stream = CroqDialect::StreamAttrHelper::getNameStr();
    module.walk([&](FunctionOpInterface func) {
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
        func.removeArgAttr(i, stream);
    });
  }
};
} // namespace
