//===- PipelineAnalysis.cpp - what croq-pipeline-loops can pipeline -------===//
//
// The checks and slices of a candidate loop, and its stage count.
//
//===----------------------------------------------------------------------===//

#include "Pipeliner.h"

#include "Croq/Dialect/Croq/IR/ThreadGroups.h"

#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "croq-pipeline-loops"

using namespace mlir;
using namespace mlir::croq;
using namespace mlir::croq::pipeliner;

/// The tile `alloc` allocates.
static TileType getTile(AllocOp alloc) {
  return dyn_cast<TileType>(alloc.getResult().getType());
}

int64_t pipeliner::getSharedBufferBytes(Type type) {
  if (auto tile = dyn_cast<TileType>(type))
    return tile.isShared() ? tile.getSizeInBytes() : 0;
  if (auto tiles = dyn_cast<TilesType>(type))
    return tiles.getMemorySpace() == MemorySpace::Shared
               ? tiles.getTileType().getSizeInBytes() * tiles.getNumStages()
               : 0;
  return 0;
}

/// The synchronous tma loads at the top level of `loop`'s body into shared
/// tiles allocated in `block`'s body.
SmallVector<TileLoad> pipeliner::findTileLoads(ParallelOp block,
                                               scf::ForOp loop) {
  SmallVector<TileLoad> loads;
  for (Operation &op : loop.getBody()->getOperations()) {
    Value dest;
    if (auto copy = dyn_cast<CopyOp>(op)) {
      if (copy.getEngine() != CopyEngine::TMA || copy.isAsync())
        continue;
      dest = copy.getDest();
    } else if (auto load = dyn_cast<Im2colOp>(op)) {
      if (load.isAsync())
        continue;
      dest = load.getDest();
    } else {
      continue;
    }
    auto alloc = dest.getDefiningOp<AllocOp>();
    if (!alloc || alloc->getBlock() != &block.getBody().front())
      continue;
    TileType tile = getTile(alloc);
    if (!tile || !tile.isShared())
      continue;
    loads.push_back({&op, alloc});
  }
  return loads;
}

/// Why a tile `candidate` loads is not written once per iteration by its
/// load and read only after it in the same iteration, or an empty string.
static std::string checkLoadedTiles(PipelineCandidate &candidate) {
  Block *body = candidate.loop.getBody();
  for (TileLoad &load : candidate.loads) {
    for (OpOperand &use : load.alloc.getResult().getUses()) {
      Operation *user = use.getOwner();
      if (user == load.copy)
        continue;
      Operation *inBody = body->findAncestorOpInBlock(*user);
      if (!inBody)
        return "a loaded tile is used outside the loop";
      if (!load.copy->isBeforeInBlock(inBody))
        return "a loaded tile is used before its load in the iteration";
      if (auto copy = dyn_cast<CopyOp>(user);
          copy && copy.getDest() == load.alloc.getResult())
        return "a loaded tile is written by another copy in the loop";
      if (auto other = dyn_cast<Im2colOp>(user);
          other && other.getDest() == load.alloc.getResult())
        return "a loaded tile is written by another copy in the loop";
    }
  }
  return "";
}

/// Whether `loop` is pipelined by hand: it already synchronizes through
/// events or futures, or commits mma groups with pending groups, which
/// keep a stage busy past its iteration.
static bool isPipelinedByHand(scf::ForOp loop) {
  WalkResult walk = loop.walk([&](Operation *op) -> WalkResult {
    if (isa<EventAllocOp, EventTriggerOp, EventWaitOp, WaitOp>(op))
      return WalkResult::interrupt();
    if (auto commit = dyn_cast<MmaCommitOp>(op); commit && commit.getPending())
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return walk.wasInterrupted();
}

/// Why `candidate`'s loop cannot be pipelined, or an empty string. Fills
/// the slices the rewrite clones or keeps in place.
std::string pipeliner::analyze(PipelineCandidate &candidate) {
  scf::ForOp loop = candidate.loop;
  Block *body = loop.getBody();
  Block *blockBody = &candidate.block.getBody().front();

  if (std::string why = checkLoadedTiles(candidate); !why.empty())
    return why;
  if (isPipelinedByHand(loop))
    return "the loop already synchronizes through events or futures, or "
           "commits mma groups with pending > 0";

  // The loads' views: pure ops of the loop body, from the induction
  // variable and values defined before the loop.
  SetVector<Operation *> inLoop;
  SmallVector<Value> worklist;
  // (An im2col load's coordinates and offsets; its tensor and map come
  // from the host.)
  for (TileLoad &load : candidate.loads)
    for (Value operand : load.copy->getOperands())
      if (operand != load.alloc.getResult())
        worklist.push_back(operand);
  Block *tileBody = candidate.tileLoop ? candidate.tileLoop.getBody() : nullptr;
  SetVector<Operation *> inTile;
  auto addOuter = [&](Value value) -> bool {
    Operation *def = value.getDefiningOp();
    if (def && tileBody && def->getBlock() == tileBody) {
      // Computed per tile (the tile's coordinates): the producer computes
      // it again in its own tile loop, at the same point of each tile.
      if (!isMemoryEffectFree(def) || def->getNumRegions() != 0)
        return false;
      if (inTile.insert(def))
        llvm::append_range(worklist, def->getOperands());
      return true;
    }
    if (!def || def->getBlock() != blockBody)
      return true;
    // The producer computes it again at the start of the block, where
    // every thread computed it: it need not be speculatable (a division
    // by a grid extent), only free of memory effects.
    if (!isMemoryEffectFree(def) || def->getNumRegions() != 0)
      return false;
    if (candidate.outerSlice.contains(def))
      return true;
    // Operands first, so that the slice is in dominance order.
    for (Value operand : def->getOperands())
      worklist.push_back(operand);
    candidate.outerSlice.insert(def);
    return true;
  };
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (value == loop.getInductionVar())
      continue;
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (arg.getOwner() == body)
        return "a load's view depends on the loop's iteration values";
      continue;
    }
    Operation *def = value.getDefiningOp();
    if (def->getBlock() == body) {
      if (!isPure(def) || def->getNumRegions() != 0)
        return "a load's view is computed by an op with side effects";
      if (inLoop.insert(def))
        llvm::append_range(worklist, def->getOperands());
      continue;
    }
    if (!addOuter(value))
      return "a load's view uses a value computed with side effects in the "
             "block";
  }
  SmallVector<Value> bounds = {loop.getLowerBound(), loop.getUpperBound(),
                               loop.getStep()};
  if (scf::ForOp tiles = candidate.tileLoop) {
    // The ring counts iterations across tiles: as n x count where every
    // tile runs the same number of them, else in a value the tile loops
    // carry (the bounds computed again by the producer, as the views).
    for (Value bound : bounds)
      if (Operation *def = bound.getDefiningOp();
          def && def->getBlock() == tileBody &&
          !matchPattern(bound, m_Constant()))
        candidate.varyingBounds = true;
    if (tiles.getNumResults() != 0)
      return "the tile loop carries values";
    llvm::append_range(bounds,
                       ValueRange{tiles.getLowerBound(), tiles.getUpperBound(),
                                  tiles.getStep()});
  }
  for (Value bound : bounds) {
    worklist.push_back(bound);
    while (!worklist.empty())
      if (!addOuter(worklist.pop_back_val()))
        return "the loop bounds are computed with side effects in the block";
  }
  candidate.loadSlice.assign(inLoop.begin(), inLoop.end());
  llvm::sort(candidate.loadSlice,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  candidate.tileSlice.assign(inTile.begin(), inTile.end());
  llvm::sort(candidate.tileSlice,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  SmallVector<Operation *> outer(candidate.outerSlice.begin(),
                                 candidate.outerSlice.end());
  llvm::sort(outer,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  candidate.outerSlice = SetVector<Operation *>(outer.begin(), outer.end());
  return "";
}

/// Whether the block's threads can be split into a producer and a consumer
/// warpgroup: the block has no thread regions of its own.
bool pipeliner::canWarpSpecialize(PipelineCandidate &candidate) {
  bool nested = false;
  candidate.block.getBody().walk([&](Operation *op) {
    if (isa<ParallelOp, InthreadsOp>(op))
      nested = true;
  });
  return !nested;
}

/// The number of stages: the loop's attribute, the pass option, or as many
/// as fit next to the block's other shared buffers. 0 if fewer than two
/// fit.
int64_t pipeliner::chooseStages(PipelineCandidate &candidate, int64_t option,
                                const TargetDescription &target,
                                std::string &why) {
  if (auto attr = candidate.loop->getAttrOfType<IntegerAttr>(kStagesAttrName))
    return attr.getInt();
  if (option == 1)
    return 1;
  if (option > 1)
    return option;
  SmallVector<int64_t> stageBytes, otherBytes;
  for (TileLoad &load : candidate.loads)
    stageBytes.push_back(
        getSharedBufferBytes(load.alloc.getResult().getType()));
  candidate.block.walk([&](AllocOp alloc) {
    if (llvm::none_of(candidate.loads,
                      [&](TileLoad &load) { return load.alloc == alloc; }))
      otherBytes.push_back(getSharedBufferBytes(alloc.getResult().getType()));
  });
  int64_t stages = countRingStages(target.sharedMemoryPerBlock, otherBytes,
                                   stageBytes, kMaxAutoStages);
  LLVM_DEBUG({
    llvm::dbgs() << "[" DEBUG_TYPE "] " << candidate.loop.getLoc() << ": "
                 << stages << " stages of";
    for (int64_t bytes : stageBytes)
      llvm::dbgs() << " " << bytes;
    llvm::dbgs() << " bytes fit next to " << otherBytes.size()
                 << " other buffers in " << target.sharedMemoryPerBlock
                 << " bytes\n";
  });
  if (stages < 2) {
    int64_t twoStages = 0;
    for (int64_t bytes : stageBytes)
      twoStages += getSharedRoom(2 * bytes);
    int64_t left = getSharedBytesLeft(target.sharedMemoryPerBlock, otherBytes);
    why = "two stages of the loaded tiles need " + std::to_string(twoStages) +
          " bytes of shared memory and " +
          std::to_string(std::max<int64_t>(left, 0)) +
          " are left next to the block's other buffers";
    return 0;
  }
  return stages;
}

MmaCommitOp pipeliner::getTrailingCommit(scf::ForOp loop) {
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (auto commit : loop.getBody()->getOps<MmaCommitOp>()) {
    if (commit.getPending() != 0 || !commit.getResult().hasOneUse() ||
        *commit.getResult().getUsers().begin() != yield)
      continue;
    return commit;
  }
  return nullptr;
}

MmaCommitOp pipeliner::keepGroupInFlight(scf::ForOp loop, MmaCommitOp commit) {
  commit.setPending(1);
  // After the loop, the last group completes before the accumulator is
  // used.
  unsigned index = commit.getResult().use_begin()->getOperandNumber();
  Value result = loop.getResult(index);
  OpBuilder b(loop->getContext());
  b.setInsertionPointAfter(loop);
  auto last = MmaCommitOp::create(b, commit.getLoc(), result);
  result.replaceAllUsesExcept(last.getResult(), last);
  return last;
}
