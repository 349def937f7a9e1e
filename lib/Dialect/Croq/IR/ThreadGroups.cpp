//===- ThreadGroups.cpp - threads, warps and shared buffers of croq IR ----===//
//
// Counts the threads of blocks and the warps that run an op (for event
// arrival counts and register plans), from the static extents of parallel
// regions and the inthreads conditions evaluated per warp.
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/ThreadGroups.h"
#include "Croq/Dialect/Croq/IR/BufferUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::croq;

int64_t mlir::croq::getSharedAlignment(Swizzle swizzle) {
  switch (swizzle) {
  case Swizzle::B128:
  case Swizzle::Auto:
    return 1024;
  case Swizzle::B64:
    return 512;
  case Swizzle::B32:
    return 256;
  case Swizzle::None:
    return 128;
  }
  return 128;
}

int64_t mlir::croq::getSharedRoom(int64_t bytes) {
  int64_t align = getSharedAlignment(Swizzle::B128);
  if (bytes > std::numeric_limits<int64_t>::max() - align)
    return std::numeric_limits<int64_t>::max();
  return llvm::alignTo(bytes, align);
}

int64_t mlir::croq::getSharedBytesLeft(int64_t capacity,
                                       ArrayRef<int64_t> otherBytes) {
  int64_t left = capacity - kStaticSharedBytes;
  for (int64_t bytes : otherBytes) {
    int64_t room = getSharedRoom(bytes);
    if (left < 0 || room > left)
      return -1;
    left -= room;
  }
  return left < 0 ? -1 : left;
}

int64_t mlir::croq::countRingStages(int64_t capacity,
                                    ArrayRef<int64_t> otherBytes,
                                    ArrayRef<int64_t> stageBytes,
                                    int64_t maxStages) {
  int64_t left = getSharedBytesLeft(capacity, otherBytes);
  auto fits = [&](int64_t count) {
    if (left < 0)
      return false;
    int64_t rest = left;
    for (int64_t bytes : stageBytes) {
      int64_t room = getSharedRoom(saturatingMul(bytes, count));
      if (room > rest)
        return false;
      rest -= room;
    }
    return true;
  };
  // Rings of empty stages fit in any number.
  if (llvm::all_of(stageBytes, [](int64_t bytes) { return bytes == 0; }))
    return fits(1) ? maxStages : 0;
  int64_t stages = 0;
  while (stages < maxStages && fits(stages + 1))
    ++stages;
  return stages;
}

int64_t mlir::croq::saturatingMul(int64_t a, int64_t b) {
  std::optional<int64_t> product = llvm::checkedMul(a, b);
  return product ? *product : std::numeric_limits<int64_t>::max();
}

LogicalResult
mlir::croq::forEachKernel(Operation *root,
                          function_ref<LogicalResult(ParallelOp)> fn) {
  WalkResult result = root->walk([&](ParallelOp block) {
    if (block.getLevel() != ParallelLevel::Block)
      return WalkResult::advance();
    if (failed(fn(block)))
      return WalkResult::interrupt();
    return WalkResult::skip();
  });
  return failure(result.wasInterrupted());
}

LogicalResult mlir::croq::forEachKernelOfTarget(
    Operation *root,
    function_ref<LogicalResult(ParallelOp, const TargetDescription &)> fn) {
  FailureOr<const TargetDescription *> target = getModuleTarget(root);
  if (failed(target))
    return failure();
  return forEachKernel(root,
                       [&](ParallelOp block) { return fn(block, **target); });
}

/// The number of points of a region op with static extents (saturated at
/// the int64_t maximum), or failure.
static FailureOr<int64_t> getStaticVolume(ArrayRef<int64_t> extents) {
  int64_t volume = 1;
  for (int64_t e : extents) {
    if (ShapedType::isDynamic(e))
      return failure();
    volume = saturatingMul(volume, e);
  }
  return volume;
}

/// getBlockThreadCount, with its errors emitted only if `emitErrors`.
static FailureOr<int64_t> countBlockThreads(ParallelOp block, bool emitErrors) {
  int64_t threads = 0;
  bool failed = false;
  block.walk([&](ParallelOp inner) {
    if (inner == block)
      return;
    FailureOr<int64_t> volume = getStaticVolume(inner.getStaticExtents());
    if (::mlir::failed(volume)) {
      if (emitErrors)
        inner.emitOpError("warpgroup and thread regions need static extents "
                          "to size the thread block");
      failed = true;
      return;
    }
    auto parent = inner->getParentOfType<ParallelOp>();
    if (inner.getLevel() == ParallelLevel::Warpgroup)
      threads = std::max(threads, saturatingMul(*volume, kWarpgroupSize));
    else if (inner.getLevel() == ParallelLevel::Thread &&
             parent.getLevel() == ParallelLevel::Block)
      threads = std::max(threads, *volume);
  });
  if (failed)
    return failure();
  if (threads > kMaxBlockThreads) {
    if (!emitErrors)
      return failure();
    return block.emitOpError("needs ")
           << (threads == std::numeric_limits<int64_t>::max() ? "more than "
                                                              : "")
           << threads << " threads per block; a block has at most 1024";
  }
  return threads ? threads : kDefaultBlockThreads;
}

FailureOr<int64_t> mlir::croq::getBlockThreadCount(ParallelOp block) {
  return countBlockThreads(block, /*emitErrors=*/true);
}

FailureOr<GroupShape> mlir::croq::getGroupShape(ParallelOp parallel,
                                                bool perThread) {
  if (perThread || parallel.getLevel() == ParallelLevel::Thread)
    return GroupShape{ParallelLevel::Thread, 1};
  if (parallel.getLevel() == ParallelLevel::Warpgroup)
    return GroupShape{ParallelLevel::Warpgroup, kWarpgroupSize};
  FailureOr<int64_t> threads = getBlockThreadCount(parallel);
  if (failed(threads))
    return failure();
  return GroupShape{ParallelLevel::Block, *threads};
}

namespace {
/// One thread of a block, as inthreads conditions see it: the indices of
/// its warpgroup region (bound to their values) and its index in the block.
struct ThreadPoint {
  llvm::DenseMap<Value, int64_t> values;
  int64_t blockThread = 0;
};
} // namespace

/// Evaluates an index or i1 value built from constants, the values bound in
/// `env` and the executing thread's index (croq.thread_index,
/// croq.warp_index) with arith ops, or returns std::nullopt.
static std::optional<int64_t> evaluate(Value value, const ThreadPoint &env,
                                       int depth = 0) {
  if (auto it = env.values.find(value); it != env.values.end())
    return it->second;
  if (std::optional<int64_t> c = getConstantIntValue(value))
    return *c;
  Operation *def = value.getDefiningOp();
  if (!def || depth > 32)
    return std::nullopt;
  if (auto index = dyn_cast<ThreadIndexOp>(def))
    return index.getLevel() == ParallelLevel::Warpgroup
               ? env.blockThread % kWarpgroupSize
               : env.blockThread;
  if (auto warp = dyn_cast<WarpIndexOp>(def))
    return (warp.getLevel() == ParallelLevel::Warpgroup
                ? env.blockThread % kWarpgroupSize
                : env.blockThread) /
           kThreadsPerWarp;
  auto operand = [&](unsigned i) {
    return evaluate(def->getOperand(i), env, depth + 1);
  };
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtUIOp>(def))
    return operand(0);
  if (auto select = dyn_cast<arith::SelectOp>(def)) {
    std::optional<int64_t> c = operand(0);
    if (!c)
      return std::nullopt;
    return *c ? operand(1) : operand(2);
  }
  if (def->getNumOperands() != 2)
    return std::nullopt;
  std::optional<int64_t> a = operand(0), b = operand(1);
  if (!a || !b)
    return std::nullopt;
  // Event conditions compare small non-negative indices, for which signed
  // and unsigned operations agree.
  return llvm::TypeSwitch<Operation *, std::optional<int64_t>>(def)
      .Case([&](arith::AddIOp) { return *a + *b; })
      .Case([&](arith::SubIOp) { return *a - *b; })
      .Case([&](arith::MulIOp) { return *a * *b; })
      .Case<arith::DivUIOp, arith::DivSIOp>(
          [&](auto) -> std::optional<int64_t> {
            if (*b == 0)
              return std::nullopt;
            return *a / *b;
          })
      .Case<arith::RemUIOp, arith::RemSIOp>(
          [&](auto) -> std::optional<int64_t> {
            if (*b == 0)
              return std::nullopt;
            return *a % *b;
          })
      .Case([&](arith::AndIOp) { return *a & *b; })
      .Case([&](arith::OrIOp) { return *a | *b; })
      .Case([&](arith::XOrIOp) { return *a ^ *b; })
      .Case([&](arith::CmpIOp cmp) -> std::optional<int64_t> {
        switch (cmp.getPredicate()) {
        case arith::CmpIPredicate::eq:
          return *a == *b;
        case arith::CmpIPredicate::ne:
          return *a != *b;
        case arith::CmpIPredicate::slt:
        case arith::CmpIPredicate::ult:
          return *a < *b;
        case arith::CmpIPredicate::sle:
        case arith::CmpIPredicate::ule:
          return *a <= *b;
        case arith::CmpIPredicate::sgt:
        case arith::CmpIPredicate::ugt:
          return *a > *b;
        case arith::CmpIPredicate::sge:
        case arith::CmpIPredicate::uge:
          return *a >= *b;
        }
        return std::nullopt;
      })
      .Default([](Operation *) { return std::nullopt; });
}

/// The warps a block's ops may run on: `groups` groups of `groupWarps`
/// warps each, the warpgroups of `warpgroups` or the block (null) as one.
struct WarpGrid {
  ParallelOp warpgroups;
  int64_t groups = 1;
  int64_t groupWarps = 0;
};

/// Whether every condition of `guards` holds for warp `w` of group `g` (a
/// linearized index) of `grid`; std::nullopt, with `unknown` set to the
/// guard, where a condition cannot be computed from the warpgroup indices,
/// the thread index and constants, or differs between the warp's threads.
static std::optional<bool> guardsHold(const WarpGrid &grid, int64_t g,
                                      int64_t w, ArrayRef<InthreadsOp> guards,
                                      InthreadsOp &unknown) {
  ThreadPoint env;
  if (ParallelOp warpgroups = grid.warpgroups) {
    ArrayRef<int64_t> extents = warpgroups.getStaticExtents();
    for (int64_t d = static_cast<int64_t>(extents.size()) - 1, rest = g; d >= 0;
         --d) {
      env.values[warpgroups.getInductionVars()[d]] = rest % extents[d];
      rest /= extents[d];
    }
  }
  int64_t firstThread = (g * grid.groupWarps + w) * kThreadsPerWarp;
  bool runs = true;
  for (InthreadsOp guard : guards) {
    std::optional<int64_t> warpHolds;
    for (int64_t lane = 0; lane < kThreadsPerWarp; ++lane) {
      env.blockThread = firstThread + lane;
      std::optional<int64_t> holds = evaluate(guard.getCondition(), env);
      if (!holds || (warpHolds && (*warpHolds != 0) != (*holds != 0))) {
        unknown = guard;
        return std::nullopt;
      }
      warpHolds = *holds;
    }
    runs = runs && *warpHolds;
  }
  return runs;
}

/// The warp grid of the innermost group around `op` (a warpgroup region, or
/// its block) and the inthreads regions between `op` and its block; the
/// guards include `op` if `withOp`. Fails for a block of unknown size (or
/// warpgroups of dynamic extents), with an error if `emitErrors`.
static FailureOr<WarpGrid> getWarpGrid(Operation *op, bool withOp,
                                       SmallVectorImpl<InthreadsOp> &guards,
                                       bool emitErrors = true) {
  auto parallel = op->getParentOfType<ParallelOp>();
  ParallelOp block = parallel;
  while (block && block.getLevel() != ParallelLevel::Block)
    block = block->getParentOfType<ParallelOp>();
  if (!block) {
    if (emitErrors)
      op->emitOpError("must be inside a croq.parallel region");
    return failure();
  }
  WarpGrid grid;
  for (Operation *p = withOp ? op : op->getParentOp(); p != block;
       p = p->getParentOp()) {
    if (auto inthreads = dyn_cast<InthreadsOp>(p))
      guards.push_back(inthreads);
    if (auto region = dyn_cast<ParallelOp>(p);
        region && region.getLevel() == ParallelLevel::Warpgroup &&
        !grid.warpgroups)
      grid.warpgroups = region;
  }
  if (grid.warpgroups) {
    // The block's threads, counted with the extents checked first.
    if (failed(countBlockThreads(block, emitErrors)))
      return failure();
    for (int64_t e : grid.warpgroups.getStaticExtents())
      grid.groups = saturatingMul(grid.groups, e);
    grid.groupWarps = kWarpgroupSize / kThreadsPerWarp;
    return grid;
  }
  FailureOr<int64_t> blockThreads = countBlockThreads(block, emitErrors);
  if (failed(blockThreads))
    return failure();
  grid.groupWarps = *blockThreads / kThreadsPerWarp;
  return grid;
}

/// getWarpsRunning, with the grid its bits index.
static FailureOr<llvm::BitVector> computeWarpsRunning(Operation *op,
                                                      WarpGrid &grid) {
  auto parallel = op->getParentOfType<ParallelOp>();
  if (parallel && parallel.getLevel() == ParallelLevel::Thread)
    return op->emitOpError("events are triggered by warpgroups or blocks, "
                           "not from thread-level regions: trigger after the "
                           "thread region, in the enclosing group");
  SmallVector<InthreadsOp> guards;
  FailureOr<WarpGrid> found = getWarpGrid(op, /*withOp=*/false, guards);
  if (failed(found))
    return failure();
  grid = *found;
  llvm::BitVector running(
      static_cast<unsigned>(saturatingMul(grid.groups, grid.groupWarps)));
  for (int64_t g = 0; g < grid.groups; ++g) {
    for (int64_t w = 0; w < grid.groupWarps; ++w) {
      InthreadsOp unknown;
      std::optional<bool> runs = guardsHold(grid, g, w, guards, unknown);
      if (!runs)
        return unknown.emitOpError(
            "encloses an event trigger, but whether its condition holds "
            "cannot be computed for each warp from the warpgroup indices, "
            "the thread index and constants, so the number of arrivals the "
            "event expects is unknown");
      if (*runs)
        running.set(static_cast<unsigned>(g * grid.groupWarps + w));
    }
  }
  return running;
}

FailureOr<llvm::BitVector> mlir::croq::getWarpsRunning(Operation *op) {
  WarpGrid grid;
  return computeWarpsRunning(op, grid);
}

FailureOr<int64_t> mlir::croq::countWarpsRunning(Operation *op) {
  FailureOr<llvm::BitVector> running = getWarpsRunning(op);
  if (failed(running))
    return failure();
  return static_cast<int64_t>(running->count());
}

FailureOr<llvm::BitVector> mlir::croq::getIssuingWarps(Operation *op) {
  WarpGrid grid;
  FailureOr<llvm::BitVector> running = computeWarpsRunning(op, grid);
  if (failed(running))
    return failure();
  llvm::BitVector issuing(running->size());
  for (int64_t g = 0; g < grid.groups; ++g) {
    auto first = static_cast<unsigned>(g * grid.groupWarps);
    auto end = static_cast<unsigned>(first + grid.groupWarps);
    if (running->find_first_in(first, end) < 0)
      continue;
    if (!running->test(first))
      return op->emitOpError("is issued by the first thread of its group, "
                             "which does not run it: run it on the group's "
                             "first warp");
    issuing.set(first);
  }
  return issuing;
}

std::optional<WarpgroupsRunning>
mlir::croq::getWarpgroupsRunning(Operation *op) {
  ParallelOp block = getKernel(op);
  if (!block)
    return std::nullopt;
  for (Operation *p = op; p && p != block; p = p->getParentOp())
    if (auto parallel = dyn_cast<ParallelOp>(p);
        parallel && parallel.getLevel() == ParallelLevel::Thread)
      return std::nullopt;
  SmallVector<InthreadsOp> guards;
  FailureOr<WarpGrid> grid =
      getWarpGrid(op, /*withOp=*/true, guards, /*emitErrors=*/false);
  if (failed(grid))
    return std::nullopt;
  WarpgroupsRunning result{grid->warpgroups, {}};
  for (int64_t g = 0; g < grid->groups; ++g) {
    bool groupRuns = false;
    for (int64_t w = 0; w < grid->groupWarps; ++w) {
      InthreadsOp unknown;
      std::optional<bool> runs = guardsHold(*grid, g, w, guards, unknown);
      if (!runs)
        return std::nullopt;
      groupRuns = groupRuns || *runs;
    }
    result.running.push_back(groupRuns);
  }
  return result;
}

bool mlir::croq::isWarpgroupRole(InthreadsOp region) {
  auto parent = region->getParentOfType<ParallelOp>();
  if (!region.getAsync() || !parent ||
      parent.getLevel() != ParallelLevel::Warpgroup)
    return false;
  auto outer = region->getParentOfType<InthreadsOp>();
  return !outer || !parent->isProperAncestor(outer);
}
