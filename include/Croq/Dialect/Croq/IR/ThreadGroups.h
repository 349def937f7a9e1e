//===- ThreadGroups.h - threads, warps and shared buffers of croq IR -*- C++
//-*-===//
//
// Facts of croq IR that several passes read before it is lowered: how many
// threads a block has, how many warps run an op, and the alignment a shared
// buffer's layout needs.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_DIALECT_CROQ_IR_THREADGROUPS_H
#define CROQ_DIALECT_CROQ_IR_THREADGROUPS_H

#include "Croq/Dialect/Croq/IR/CroqOps.h"
#include "Croq/Dialect/Croq/IR/TargetDescription.h"
#include "llvm/ADT/BitVector.h"

namespace mlir {
namespace croq {

/// Threads in a warp and in a warpgroup.
constexpr int64_t kThreadsPerWarp = 32;
constexpr int64_t kWarpgroupSize = 128;
/// Rows of accumulator one warpgroup's wgmma computes (its M): the rows of
/// each consumer warpgroup of a block that shares an accumulator by rows.
constexpr int64_t kWarpgroupRows = 64;
/// Threads of a block that has no nested warpgroup or thread region.
constexpr int64_t kDefaultBlockThreads = 128;
/// Threads of a block at most.
constexpr int64_t kMaxBlockThreads = 1024;
/// Warpgroups of a block at most.
constexpr int64_t kMaxWarpgroups = kMaxBlockThreads / kWarpgroupSize;
/// The hardware barriers of a block: barrier 0 is the whole block's, 1 + w
/// warpgroup w's (croq.barrier warpgroup), and the croq.named_barrier ops
/// use those after them, as ids 0 to kNamedBarriers - 1.
constexpr int64_t kHardwareBarriers = 16;
constexpr int64_t kFirstNamedBarrier = 1 + kMaxWarpgroups;
constexpr int64_t kNamedBarriers = kHardwareBarriers - kFirstNamedBarrier;

/// `a * b` for non-negative `a` and `b`, or the int64_t maximum where the
/// product does not fit.
int64_t saturatingMul(int64_t a, int64_t b);

/// Calls `fn` on each block-level croq.parallel (each kernel) under `root`,
/// without looking inside them; stops at the first one `fn` fails on.
LogicalResult forEachKernel(Operation *root,
                            function_ref<LogicalResult(ParallelOp)> fn);

/// forEachKernel with the target `root` compiles for (getModuleTarget):
/// fails, after the error, where croq has no description of its chip.
LogicalResult forEachKernelOfTarget(
    Operation *root,
    function_ref<LogicalResult(ParallelOp, const TargetDescription &)> fn);

/// The alignment, in bytes, a shared buffer of this swizzle needs (TMA's
/// swizzle pattern repeats every 8 spans: 1024 bytes for 128B).
int64_t getSharedAlignment(Swizzle swizzle);

/// Shared bytes a block keeps for its static shared memory (its events'
/// mbarriers), which counts against the block's limit with the dynamic.
constexpr int64_t kStaticSharedBytes = 1024;

/// The most shared bytes a buffer of `bytes` takes when
/// croq-plan-shared-memory places it after others: each buffer goes at its
/// alignment (at most 1024 bytes, 128B swizzle) from an aligned base, so
/// one rounded up to 1024 bytes bounds its room.
int64_t getSharedRoom(int64_t bytes);

/// The shared bytes left of `capacity` next to the static shared memory and
/// buffers of `otherBytes`, counted by getSharedRoom; -1 if they do not fit.
int64_t getSharedBytesLeft(int64_t capacity, ArrayRef<int64_t> otherBytes);

/// The most stages croq-pipeline-loops gives a ring by itself (a loop's
/// croq.stages or the pass's option may ask for more); the cost model of
/// GEMMs from linalg counts the same. GEMMs of few rows, whose blocks wait
/// for their loads, ran slower with 13 (as cuBLAS's kernel there) and with
/// 4 or 6: 64x64 tiles at 128x3000x3000 0.65 / 0.58 / 0.70 of cuBLAS
/// against 0.70-0.72 with 8 (H200, bench/RESULTS.md).
constexpr int64_t kMaxAutoStages = 8;

/// The most stages, up to `maxStages`, of rings whose stages take
/// `stageBytes` each that fit in `capacity` bytes of shared memory next to
/// buffers of `otherBytes` and the static shared memory, counted by
/// getSharedRoom: what croq-pipeline-loops gives a ring, and the cost
/// model of convert-linalg-to-croq expects it to give.
int64_t countRingStages(int64_t capacity, ArrayRef<int64_t> otherBytes,
                        ArrayRef<int64_t> stageBytes, int64_t maxStages);

/// The number of threads of a block-level region: from its nested warpgroup
/// and thread regions, or the default. Fails, with an error, if they are
/// dynamic or more than a block can have.
FailureOr<int64_t> getBlockThreadCount(ParallelOp block);

/// The threads that run an op of `parallel`'s region together.
struct GroupShape {
  ParallelLevel level;
  int64_t size;
};
/// The group of `parallel` (the innermost croq.parallel around an op): its
/// block (getBlockThreadCount threads), one of its warpgroups, or one thread
/// at thread level or where `perThread` (a move with a local side). Fails,
/// with getBlockThreadCount's error, for a block of unknown size.
FailureOr<GroupShape> getGroupShape(ParallelOp parallel, bool perThread);

/// The warps of a block that run `op`, one bit per warp of the block
/// (warp w of warpgroup g is bit 4 g + w): the warps of its block or of its
/// warpgroups for which the enclosing inthreads conditions hold, evaluated
/// for each warp from the warpgroup indices and the thread index
/// (croq.thread_index, where a condition holds for all of a warp's threads
/// or none). Fails, with an error, where a condition cannot be evaluated
/// so at compile time, or in a thread-level region.
FailureOr<llvm::BitVector> getWarpsRunning(Operation *op);

/// The number of warps getWarpsRunning gives.
FailureOr<int64_t> countWarpsRunning(Operation *op);

/// The first warp of each group (warpgroup, or the block) that runs `op`, in
/// getWarpsRunning's bits: the warps whose first thread issues a tma copy
/// or the arrival of a trigger after one. Fails, with an error, where a
/// group runs `op` but not on its first warp, or where getWarpsRunning
/// fails.
FailureOr<llvm::BitVector> getIssuingWarps(Operation *op);

/// Whether `region` is a role of a warp-specialized block: an async
/// croq.inthreads of a warpgroup region, not nested in another croq.inthreads
/// of it.
bool isWarpgroupRole(InthreadsOp region);

/// The warpgroups of a block that run an op.
struct WarpgroupsRunning {
  /// The warpgroup-level croq.parallel whose groups these are; null for a
  /// block without one (a single group: the block).
  ParallelOp warpgroups;
  /// For each group (in the order of its linearized indices), whether the
  /// croq.inthreads conditions around the op hold.
  SmallVector<bool> running;
};

/// The warpgroups that run `op` (with `op` itself if it is a
/// croq.inthreads): those with a warp for which every enclosing
/// croq.inthreads condition holds, evaluated as getWarpsRunning does.
/// std::nullopt where a condition cannot be computed so,
/// where the warpgroup region's extents are dynamic, or inside a
/// thread-level region.
std::optional<WarpgroupsRunning> getWarpgroupsRunning(Operation *op);

} // namespace croq
} // namespace mlir

#endif // CROQ_DIALECT_CROQ_IR_THREADGROUPS_H
