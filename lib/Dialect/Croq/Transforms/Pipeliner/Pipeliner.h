//===- Pipeliner.h - croq-pipeline-loops' analysis ---------------*- C++
//-*-===//
//
// What croq-pipeline-loops knows about a loop before it rewrites it: the
// synchronous tma loads it pipelines, the ops their views are computed
// from, and the number of stages. The rewrite is in PipelineLoops.cpp, the
// step for rings written by hand in PipelineInFlight.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_LIB_DIALECT_CROQ_TRANSFORMS_PIPELINER_PIPELINER_H
#define CROQ_LIB_DIALECT_CROQ_TRANSFORMS_PIPELINER_PIPELINER_H

#include "Croq/Dialect/Croq/IR/CroqOps.h"
#include "Croq/Dialect/Croq/IR/TargetDescription.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SetVector.h"

#include <string>

namespace mlir {
namespace croq {
namespace pipeliner {

/// The loop attribute that fixes a loop's stage count.
constexpr llvm::StringLiteral kStagesAttrName = "croq.stages";

/// A synchronous tma load of the loop into a shared tile of the block: a
/// `croq.copy tma` or a `croq.im2col`.
struct TileLoad {
  Operation *copy;
  AllocOp alloc;
};

/// A loop the pass can pipeline, and what it needs to know about it.
struct PipelineCandidate {
  ParallelOp block;
  scf::ForOp loop;
  /// The loop over the block's tiles that `loop` is directly in (a
  /// persistent block, croq-persistent-blocks), or null when `loop` is
  /// directly in the block.
  scf::ForOp tileLoop;
  SmallVector<TileLoad> loads;
  /// Whether `loop`'s bounds are computed in the tile loop, so that its
  /// trip count may change from tile to tile (a stream-K block's ranges):
  /// the ring then counts iterations in a value the tile loops carry.
  bool varyingBounds = false;
  /// The ops of the loop body the loads' views are computed from, in order.
  SmallVector<Operation *> loadSlice;
  /// The ops of the tile loop's body before `loop` that the load views use,
  /// in order.
  SmallVector<Operation *> tileSlice;
  /// The ops of the block before the loop that the loop bounds and the load
  /// views use, in order.
  SetVector<Operation *> outerSlice;
};

/// Bytes a shared buffer of `type` holds (0 for other types).
int64_t getSharedBufferBytes(Type type);

/// The synchronous tma loads at the top level of `loop`'s body into shared
/// tiles allocated in `block`'s body.
SmallVector<TileLoad> findTileLoads(ParallelOp block, scf::ForOp loop);

/// Why `candidate`'s loop cannot be pipelined, or an empty string. Fills
/// the slices the rewrite clones or keeps in place.
std::string analyze(PipelineCandidate &candidate);

/// Whether the block's threads can be split into a producer and a consumer
/// warpgroup: the block has no thread regions of its own.
bool canWarpSpecialize(PipelineCandidate &candidate);

/// The number of stages: the loop's attribute, the pass option, or as many
/// as fit next to the block's other shared buffers. 0 if fewer than two
/// fit, with `why` saying so.
int64_t chooseStages(PipelineCandidate &candidate, int64_t option,
                     const TargetDescription &target, std::string &why);

/// The commit at the end of `loop`'s body that waits for all of the
/// iteration's mma groups, when its accumulator goes only to the next
/// iteration: `%done = croq.mma.commit %sum` yielded and used nowhere else.
MmaCommitOp getTrailingCommit(scf::ForOp loop);

/// Lets `commit`, `loop`'s trailing commit, leave the iteration's group
/// running into the next (`pending = 1`), and makes the loop's result wait
/// for the last group after the loop; returns that wait. The caller frees
/// the stage the group reads once it has completed.
MmaCommitOp keepGroupInFlight(scf::ForOp loop, MmaCommitOp commit);

/// Lets the mma groups of rings written by hand run on into the next
/// iteration (PipelineInFlight.cpp): in every consumer loop under `root`
/// that waits for its stage to be full, multiplies, commits and frees the
/// stage, the commit keeps one group pending and the loop frees the
/// previous iteration's stage instead (the last one after the loop).
void keepHandWrittenGroupsInFlight(Operation *root);

} // namespace pipeliner
} // namespace croq
} // namespace mlir

#endif // CROQ_LIB_DIALECT_CROQ_TRANSFORMS_PIPELINER_PIPELINER_H
