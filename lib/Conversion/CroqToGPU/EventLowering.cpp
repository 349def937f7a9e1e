//===- EventLowering.cpp - event arrays to mbarriers ----------------------===//
//
// Lowers croq event arrays to mbarrier groups in shared memory. The arrival
// count of each array is derived from its triggers before anything is
// rewritten: a trigger after tma loads is one arrival (with the loads' bytes
// as the expected transaction count), a plain trigger is one arrival per warp
// that runs it. Each thread tracks the phase of every slot it waits on in a
// bit mask, so a ring of N slots over a loop needs no phase arithmetic in the
// program.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::croq;

/// Spins of one mbarrier try-wait before it is retried.
static constexpr int64_t kTryWaitTicks = 10000000;
/// Slots an event array can have: its phase mask is one i64 per thread.
static constexpr int64_t kMaxEventSlots = 64;

//===----------------------------------------------------------------------===//
// Arrival counts
//===----------------------------------------------------------------------===//

/// Evaluates an index or i1 value built from constants and the values bound
/// in `env` with arith ops, or returns std::nullopt.
static std::optional<int64_t> evaluate(Value value,
                                       const llvm::DenseMap<Value, int64_t> &env,
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

FailureOr<int64_t> mlir::croq::countWarpsRunning(Operation *op,
                                                 const SharedMemoryPlan &plan) {
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

  int64_t groups = 1, groupSize = plan.blockThreads.lookup(block);
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
  int64_t running = 0;
  for (int64_t g = 0; g < groups; ++g) {
    llvm::DenseMap<Value, int64_t> env;
    if (warpgroups) {
      int64_t rest = g;
      ArrayRef<int64_t> extents = warpgroups.getStaticExtents();
      for (int64_t d = static_cast<int64_t>(extents.size()) - 1; d >= 0; --d) {
        env[warpgroups.getInductionVars()[d]] = rest % extents[d];
        rest /= extents[d];
      }
    }
    bool runs = true;
    for (InthreadsOp guard : guards) {
      std::optional<int64_t> holds = evaluate(guard.getCondition(), env);
      if (!holds)
        return guard.emitOpError(
                   "encloses an event trigger, but whether its condition "
                   "holds cannot be computed from the warpgroup indices and "
                   "constants, so the number of arrivals the event expects "
                   "is unknown");
      runs = runs && *holds;
    }
    if (runs)
      running += groupSize / kWarpSize;
  }
  return running;
}

LogicalResult EventPlan::build(Operation *root, const SharedMemoryPlan &plan) {
  WalkResult result = root->walk([&](EventAllocOp alloc) {
    int64_t slots = alloc.getEvents().getType().getCount();
    if (slots > kMaxEventSlots) {
      alloc.emitOpError("event arrays of more than ")
          << kMaxEventSlots << " slots are not lowered, got " << slots;
      return WalkResult::interrupt();
    }
    int64_t count = 0;
    for (Operation *user : alloc.getEvents().getUsers()) {
      if (isa<EventWaitOp>(user))
        continue;
      auto trigger = dyn_cast<EventTriggerOp>(user);
      if (!trigger) {
        user->emitOpError("uses an event array; only croq.event.trigger and "
                          "croq.event.wait can be lowered");
        return WalkResult::interrupt();
      }
      if (!trigger.getFutures().empty()) {
        for (Value future : trigger.getFutures()) {
          auto copy = future.getDefiningOp<CopyOp>();
          if (!copy || copy.getEngine() != CopyEngine::TMA) {
            trigger.emitOpError("is lowered after tma loads only; wait for "
                                "a dma copy with croq.wait before triggering");
            return WalkResult::interrupt();
          }
        }
        // One thread arrives and expects the loads' bytes.
        count += 1;
        continue;
      }
      FailureOr<int64_t> warps = countWarpsRunning(trigger, plan);
      if (failed(warps))
        return WalkResult::interrupt();
      count += *warps;
    }
    if (count == 0) {
      alloc.emitOpError("is never triggered, so waiting on it would hang");
      return WalkResult::interrupt();
    }
    arrivals[alloc] = count;
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

/// The phase mask of the event array `events` (an original IR value).
static FailureOr<Value> getPhaseMask(Operation *op, Value events,
                                     const EventPlan &plan) {
  auto alloc = events.getDefiningOp<EventAllocOp>();
  auto it = alloc ? plan.phaseMasks.find(alloc) : plan.phaseMasks.end();
  if (it == plan.phaseMasks.end())
    return op->emitOpError("uses an event array that is not a "
                           "croq.event.alloc of its block");
  return it->second;
}

namespace {
/// croq.event.alloc  =>  nvgpu.mbarrier.create, initialized by thread 0 with
/// the array's arrival count, and each thread's phase mask (all ones for
/// `ready` arrays, so that the first wait on each slot passes).
struct EventAllocOpLowering : OpConversionPattern<EventAllocOp> {
  EventAllocOpLowering(const TypeConverter &converter, MLIRContext *context,
                       EventPlan &plan)
      : OpConversionPattern(converter, context), plan(plan) {}
  LogicalResult
  matchAndRewrite(EventAllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = getTypeConverter()->convertType<nvgpu::MBarrierGroupType>(
        op.getEvents().getType());
    if (!type)
      return failure();
    Value barriers = nvgpu::MBarrierCreateOp::create(rewriter, loc, type);
    Value tid = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
    Value zero = indexConstant(rewriter, loc, 0);
    Value first = arith::CmpIOp::create(rewriter, loc,
                                        arith::CmpIPredicate::eq, tid, zero);
    Value count = indexConstant(rewriter, loc, plan.arrivals.lookup(op));
    for (int64_t slot = 0, e = op.getEvents().getType().getCount(); slot < e;
         ++slot)
      nvgpu::MBarrierInitOp::create(rewriter, loc, barriers, count,
                                    indexConstant(rewriter, loc, slot), first);
    Value mask = memref::AllocaOp::create(
        rewriter, loc, MemRefType::get({1}, rewriter.getI64Type()));
    int64_t initial = op.getReady() ? -1 : 0;
    memref::StoreOp::create(
        rewriter, loc,
        arith::ConstantIntOp::create(rewriter, loc, initial, 64), mask, zero);
    plan.phaseMasks[op] = mask;
    // The barriers are initialized before any thread uses them.
    gpu::BarrierOp::create(rewriter, loc);
    rewriter.replaceOp(op, barriers);
    return success();
  }
  EventPlan &plan;
};

/// croq.event.trigger %e[%i] after (%f...)  =>  the group's first thread
/// arrives on mbarrier %i expecting the bytes of the tma loads (which
/// complete on it); croq.event.trigger %e[%i]  =>  lane 0 of each warp
/// arrives once the warp's threads are done.
struct EventTriggerOpLowering : OpConversionPattern<EventTriggerOp> {
  EventTriggerOpLowering(const TypeConverter &converter, MLIRContext *context,
                         const TmaState &tma)
      : OpConversionPattern(converter, context), tma(tma) {}
  LogicalResult
  matchAndRewrite(EventTriggerOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<ThreadGroup> group = getThreadGroup(rewriter, op);
    if (failed(group))
      return failure();
    if (!op.getFutures().empty()) {
      // Only the loads that took the TMA path complete bytes on the
      // barrier; the others were software copies, done before the arrive.
      Value zero = indexConstant(rewriter, loc, 0);
      Value bytes;
      for (Value future : op.getFutures()) {
        auto copy = future.getDefiningOp<CopyOp>();
        Value size = indexConstant(
            rewriter, loc,
            cast<TileType>(copy.getDest().getType()).getSizeInBytes());
        if (Value usable = tma.usable.lookup(copy))
          size = arith::SelectOp::create(rewriter, loc, usable, size, zero);
        bytes = bytes ? arith::AddIOp::create(rewriter, loc, bytes, size)
                            .getResult()
                      : size;
      }
      Value leader = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::eq, group->threadIndex, zero);
      nvgpu::MBarrierArriveExpectTxOp::create(
          rewriter, loc, adaptor.getEvents(), bytes, adaptor.getIndex(),
          leader);
      rewriter.eraseOp(op);
      return success();
    }
    // The warp's accesses before the trigger happen before lane 0's arrive
    // (a release), so they happen before the waiters' accesses.
    NVVM::SyncWarpOp::create(
        rewriter, loc,
        arith::ConstantIntOp::create(rewriter, loc, 0xffffffff, 32));
    Value tid = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
    Value lane = arith::RemUIOp::create(
        rewriter, loc, tid, indexConstant(rewriter, loc, kWarpSize));
    Value laneZero = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, lane,
        indexConstant(rewriter, loc, 0));
    auto ifLane = scf::IfOp::create(rewriter, loc, laneZero, false);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(ifLane.thenBlock());
      nvgpu::MBarrierArriveOp::create(
          rewriter, loc, nvgpu::MBarrierTokenType::get(rewriter.getContext()),
          adaptor.getEvents(), adaptor.getIndex());
    }
    rewriter.eraseOp(op);
    return success();
  }
  const TmaState &tma;
};

/// croq.event.wait %e[%i]  =>  wait for the phase of mbarrier %i that bit %i
/// of this thread's mask names, then flip the bit.
struct EventWaitOpLowering : OpConversionPattern<EventWaitOp> {
  EventWaitOpLowering(const TypeConverter &converter, MLIRContext *context,
                      EventPlan &plan)
      : OpConversionPattern(converter, context), plan(plan) {}
  LogicalResult
  matchAndRewrite(EventWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<Value> mask = getPhaseMask(op, op.getEvents(), plan);
    if (failed(mask))
      return failure();
    Value zero = indexConstant(rewriter, loc, 0);
    Value bits = memref::LoadOp::create(rewriter, loc, *mask, zero);
    Value slot = arith::IndexCastUIOp::create(
        rewriter, loc, rewriter.getI64Type(), adaptor.getIndex());
    Value one = arith::ConstantIntOp::create(rewriter, loc, 1, 64);
    Value bit = arith::ShLIOp::create(rewriter, loc, one, slot);
    Value parity = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ne,
        arith::AndIOp::create(rewriter, loc, bits, bit),
        arith::ConstantIntOp::create(rewriter, loc, 0, 64));
    nvgpu::MBarrierTryWaitParityOp::create(
        rewriter, loc, adaptor.getEvents(), parity,
        indexConstant(rewriter, loc, kTryWaitTicks), adaptor.getIndex());
    memref::StoreOp::create(rewriter, loc,
                            arith::XOrIOp::create(rewriter, loc, bits, bit),
                            *mask, zero);
    rewriter.eraseOp(op);
    return success();
  }
  EventPlan &plan;
};
} // namespace

void mlir::croq::populateCroqEventToGPUPatterns(CroqTypeConverter &converter,
                                                EventPlan &plan,
                                                const TmaState &tma,
                                                RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<EventAllocOpLowering, EventWaitOpLowering>(converter, context,
                                                          plan);
  patterns.add<EventTriggerOpLowering>(converter, context, tma);
}
