//===- ThreadGroups.cpp - threads, warps and shared buffers of croq IR ----===//
//
// Counts the threads of blocks and the warps that run an op (for event
// arrival counts and register plans), from the static extents of parallel
// regions and the inthreads conditions evaluated per warpgroup.
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

FailureOr<int64_t> mlir::croq::getBlockThreadCount(ParallelOp block) {
  int64_t threads = 0;
  bool failed = false;
  block.walk([&](ParallelOp inner) {
    if (inner == block)
      return;
    FailureOr<int64_t> volume = getStaticVolume(inner.getStaticExtents());
    if (::mlir::failed(volume)) {
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
  if (threads > kMaxBlockThreads)
    return block.emitOpError("needs ")
           << (threads == std::numeric_limits<int64_t>::max() ? "more than "
                                                              : "")
           << threads << " threads per block; a block has at most 1024";
  return threads ? threads : kDefaultBlockThreads;
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

/// Evaluates an index or i1 value built from constants and the values bound
/// in `env` with arith ops, or returns std::nullopt.
static std::optional<int64_t>
evaluate(Value value, const llvm::DenseMap<Value, int64_t> &env,
         int depth = 0) {
  if (auto it = env.find(value); it != env.end())
    return it->second;
  if (std::optional<int64_t> c = getConstantIntValue(value))
    return *c;
  Operation *def = value.getDefiningOp();
  if (!def || depth > 32)
    return std::nullopt;
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

/// Whether every condition of `guards` holds for group `g` (a linearized
/// index) of the warpgroup region `warpgroups` (null: the block as one
/// group); std::nullopt, with `unknown` set to the guard, where a condition
/// cannot be computed from the warpgroup indices and constants.
static std::optional<bool> guardsHold(ParallelOp warpgroups, int64_t g,
                                      ArrayRef<InthreadsOp> guards,
                                      InthreadsOp &unknown) {
  llvm::DenseMap<Value, int64_t> env;
  if (warpgroups) {
    ArrayRef<int64_t> extents = warpgroups.getStaticExtents();
    for (int64_t d = static_cast<int64_t>(extents.size()) - 1, rest = g; d >= 0;
         --d) {
      env[warpgroups.getInductionVars()[d]] = rest % extents[d];
      rest /= extents[d];
    }
  }
  bool runs = true;
  for (InthreadsOp guard : guards) {
    std::optional<int64_t> holds = evaluate(guard.getCondition(), env);
    if (!holds) {
      unknown = guard;
      return std::nullopt;
    }
    runs = runs && *holds;
  }
  return runs;
}

FailureOr<llvm::BitVector> mlir::croq::getWarpsRunning(Operation *op) {
  auto parallel = op->getParentOfType<ParallelOp>();
  auto block = parallel;
  while (block && block.getLevel() != ParallelLevel::Block)
    block = block->getParentOfType<ParallelOp>();
  if (!block)
    return op->emitOpError("must be inside a croq.parallel region");
  SmallVector<InthreadsOp> guards;
  for (Operation *p = op->getParentOp(); p != block; p = p->getParentOp())
    if (auto inthreads = dyn_cast<InthreadsOp>(p))
      guards.push_back(inthreads);

  FailureOr<int64_t> blockThreads = getBlockThreadCount(block);
  if (failed(blockThreads))
    return failure();
  int64_t groups = 1, groupSize = *blockThreads;
  ParallelOp warpgroups;
  if (parallel.getLevel() == ParallelLevel::Thread)
    return op->emitOpError("events are triggered by warpgroups or blocks, "
                           "not from thread-level regions: trigger after the "
                           "thread region, in the enclosing group");
  if (parallel.getLevel() == ParallelLevel::Warpgroup) {
    warpgroups = parallel;
    groupSize = kWarpgroupSize;
    for (int64_t e : parallel.getStaticExtents())
      groups = saturatingMul(groups, e);
  }
  int64_t groupWarps = groupSize / kThreadsPerWarp;
  llvm::BitVector running(
      static_cast<unsigned>(saturatingMul(groups, groupWarps)));
  for (int64_t g = 0; g < groups; ++g) {
    InthreadsOp unknown;
    std::optional<bool> runs = guardsHold(warpgroups, g, guards, unknown);
    if (!runs)
      return unknown.emitOpError(
          "encloses an event trigger, but whether its condition "
          "holds cannot be computed from the warpgroup indices and "
          "constants, so the number of arrivals the event expects "
          "is unknown");
    if (*runs)
      running.set(static_cast<unsigned>(g * groupWarps),
                  static_cast<unsigned>((g + 1) * groupWarps));
  }
  return running;
}

FailureOr<int64_t> mlir::croq::countWarpsRunning(Operation *op) {
  FailureOr<llvm::BitVector> running = getWarpsRunning(op);
  if (failed(running))
    return failure();
  return static_cast<int64_t>(running->count());
}

std::optional<WarpgroupsRunning>
mlir::croq::getWarpgroupsRunning(Operation *op) {
  ParallelOp block = getKernel(op);
  if (!block)
    return std::nullopt;
  SmallVector<InthreadsOp> guards;
  ParallelOp warpgroups;
  for (Operation *p = op; p && p != block; p = p->getParentOp()) {
    if (auto inthreads = dyn_cast<InthreadsOp>(p))
      guards.push_back(inthreads);
    if (auto parallel = dyn_cast<ParallelOp>(p)) {
      if (parallel.getLevel() == ParallelLevel::Thread)
        return std::nullopt;
      if (parallel.getLevel() == ParallelLevel::Warpgroup && !warpgroups)
        warpgroups = parallel;
    }
  }
  int64_t groups = 1;
  ArrayRef<int64_t> extents;
  if (warpgroups) {
    extents = warpgroups.getStaticExtents();
    // A block has at most 8 warpgroups; more (or dynamic extents) cannot
    // be evaluated group by group.
    for (int64_t e : extents) {
      if (ShapedType::isDynamic(e) || e < 0)
        return std::nullopt;
      groups = saturatingMul(groups, e);
      if (groups > kMaxBlockThreads / kWarpgroupSize)
        return std::nullopt;
    }
  }
  WarpgroupsRunning result{warpgroups, {}};
  for (int64_t g = 0; g < groups; ++g) {
    InthreadsOp unknown;
    std::optional<bool> runs = guardsHold(warpgroups, g, guards, unknown);
    if (!runs)
      return std::nullopt;
    result.running.push_back(*runs);
  }
  return result;
}
