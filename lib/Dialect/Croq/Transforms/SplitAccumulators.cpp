//===- SplitAccumulators.cpp - consumer warpgroups split the accumulator --===//
//
// Implements croq-split-accumulators: the consumer of a warp-specialized
// block runs on C warpgroups, consumer c computing rows
// [c * M / C, (c + 1) * M / C) of each accumulator of M rows. Types change
// in place; the A operands, stores and copies of stored tiles are narrowed
// by croq.subspan, and the row index of croq.mma.map bodies is offset.
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/CroqOps.h"
#include "Croq/Dialect/Croq/IR/ThreadGroups.h"
#include "Croq/Dialect/Croq/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace croq {
#define GEN_PASS_DEF_CROQSPLITACCUMULATORS
#include "Croq/Dialect/Croq/Transforms/Passes.h.inc"
} // namespace croq
} // namespace mlir

using namespace mlir;
using namespace mlir::croq;

/// Consumers chosen when neither the block nor the option says.
static constexpr int64_t kAutoConsumers = 2;

namespace {
/// A warp-specialized block as croq-pipeline-loops makes it.
struct Roles {
  ParallelOp block;
  /// `croq.parallel (%role) in [2] : warpgroup`.
  ParallelOp roles;
  /// The region of `%role != 0`.
  InthreadsOp consumer;
};

/// What the split changes, found before anything changes.
struct SplitPlan {
  /// Values of accumulator type, split by rows.
  SetVector<Value> accumulators;
  /// Loads of A operands, their source narrowed to the consumer's rows
  /// (dimension 0 for a row-major A, 1 for a column-major one).
  SmallVector<std::pair<MmaLoadOp, unsigned>> aLoads;
  SmallVector<MmaStoreOp> stores;
  /// Sums across a cluster: each consumer exchanges its rows through its
  /// own rows of the scratch tile.
  SmallVector<MmaClusterSumOp> clusterSums;
  /// Copies of stored tiles: both sides narrowed.
  SmallVector<CopyOp> copies;
  SmallVector<MmaMapOp> maps;
  /// Vectors per row, split like the accumulators' rows, and the maps
  /// that compute them (their index counts from the block's first row).
  SetVector<Value> rowVectors;
  SmallVector<VecMapOp> rowMaps;
  /// The buffers accumulators are stored into.
  SetVector<Value> storedTiles;
  /// Those stored transposed: each consumer's rows are columns of theirs,
  /// which split by columns.
  DenseSet<Value> transposedTiles;
};
} // namespace

/// Whether `cond` is `arith.cmpi <pred>, %role, 0`.
static bool isRoleTest(Value cond, Value role, arith::CmpIPredicate pred) {
  auto cmp = cond.getDefiningOp<arith::CmpIOp>();
  return cmp && cmp.getPredicate() == pred && cmp.getLhs() == role &&
         matchPattern(cmp.getRhs(), m_Zero());
}

/// The producer/consumer roles directly in `block`, if it has them.
static std::optional<Roles> findRoles(ParallelOp block) {
  for (auto roles : block.getBody().front().getOps<ParallelOp>()) {
    if (roles.getLevel() != ParallelLevel::Warpgroup ||
        !roles.getDynamicExtents().empty() ||
        roles.getStaticExtents() != ArrayRef<int64_t>{2})
      continue;
    Value role = roles.getBody().getArgument(0);
    InthreadsOp producer, consumer;
    for (auto region : roles.getBody().front().getOps<InthreadsOp>()) {
      if (isRoleTest(region.getCondition(), role, arith::CmpIPredicate::eq))
        producer = region;
      else if (isRoleTest(region.getCondition(), role,
                          arith::CmpIPredicate::ne))
        consumer = region;
      else
        return std::nullopt;
    }
    if (producer && consumer)
      return Roles{block, roles, consumer};
  }
  return std::nullopt;
}

/// The view of part of a tile, view or static memref of rank 2 (or 3, a
/// batched matrix): 1/count of it along `dim`.
static FailureOr<ViewType> getNarrowedView(Type type, unsigned dim,
                                           int64_t count) {
  if (!isa<TileType, ViewType, MemRefType>(type))
    return failure();
  auto shaped = cast<ShapedType>(type);
  if (!shaped.hasStaticShape() || shaped.getRank() < 2 ||
      shaped.getRank() > 3 || shaped.getDimSize(dim) % count != 0)
    return failure();
  SmallVector<int64_t> shape(shaped.getShape());
  shape[dim] /= count;
  return ViewType::get(type.getContext(), shape, shaped.getElementType(),
                       *getMemorySpaceOf(type), getSwizzleOf(type));
}

/// The dimension of a buffer's rows: the first of a matrix, the second of a
/// batched matrix (1 x rows x cols).
static unsigned getRowDim(Type type) {
  return cast<ShapedType>(type).getRank() - 2;
}

/// The dimension a buffer an accumulator is stored into splits along:
/// its rows, or its columns where the accumulator is stored transposed.
static unsigned getSplitDim(Type type, bool transposed) {
  return getRowDim(type) + (transposed ? 1 : 0);
}

/// The rows of an accumulator type.
static int64_t getRows(Type type) { return cast<AccType>(type).getShape()[0]; }

/// Checks the accumulators of an op's results and operands.
static std::string checkAccumulators(Operation *op, int64_t count,
                                     SplitPlan &plan) {
  auto record = [&](Value value) -> std::string {
    if (!isa<AccType>(value.getType()))
      return "";
    if (getRows(value.getType()) % (kWarpgroupRows * count) != 0)
      return "an accumulator of " + std::to_string(getRows(value.getType())) +
             " rows cannot be split among " + std::to_string(count) +
             " warpgroups of " + std::to_string(kWarpgroupRows) + " rows";
    plan.accumulators.insert(value);
    return "";
  };
  for (Value result : op->getResults())
    if (std::string why = record(result); !why.empty())
      return why;
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (BlockArgument arg : block.getArguments())
        if (std::string why = record(arg); !why.empty())
          return why;
  return "";
}

/// Whether `op` carries or computes accumulators.
static bool touchesAccumulators(Operation *op) {
  auto isAcc = [](Type type) { return isa<AccType>(type); };
  return llvm::any_of(op->getOperandTypes(), isAcc) ||
         llvm::any_of(op->getResultTypes(), isAcc);
}

/// Whether `type` is a vector of one value per accumulator column.
static bool isColumnVector(Type type) {
  auto vec = dyn_cast<VecType>(type);
  return vec && vec.getAxis() == AccAxis::Cols;
}

/// Checks a vector per row that the consumer computes or broadcasts: it is
/// split like the rows of the accumulators.
static std::string recordRowVector(Value value, int64_t count,
                                   SplitPlan &plan) {
  auto vec = cast<VecType>(value.getType());
  if (vec.getSize() % (kWarpgroupRows * count) != 0)
    return "a vector of " + std::to_string(vec.getSize()) +
           " rows cannot be split among " + std::to_string(count) +
           " warpgroups of " + std::to_string(kWarpgroupRows) + " rows";
  plan.rowVectors.insert(value);
  return "";
}

/// Checks one op of the consumer; records what the split changes.
static std::string checkOp(Operation *op, int64_t count, SplitPlan &plan) {
  if (std::string why = checkAccumulators(op, count, plan); !why.empty())
    return why;
  if (auto mma = dyn_cast<MmaOp>(op)) {
    auto load = mma.getA().getDefiningOp<MmaLoadOp>();
    if (!load)
      return "an mma's A operand is not loaded from shared memory";
    unsigned dim = mma.getLayoutA() == MmaLayout::Row ? 0 : 1;
    if (llvm::any_of(load.getResult().getUsers(), [&](Operation *user) {
          auto other = dyn_cast<MmaOp>(user);
          return !other || other.getB() == load.getResult();
        }))
      return "an A operand's fragment is used other than as A";
    if (llvm::none_of(plan.aLoads,
                      [&](auto &entry) { return entry.first == load; }))
      plan.aLoads.push_back({load, dim});
    return "";
  }
  if (auto store = dyn_cast<MmaStoreOp>(op)) {
    // Each consumer's rows of a transposed store are columns of its
    // buffer: the buffer splits by columns.
    bool transpose = store.getTranspose();
    auto acc = cast<AccType>(store.getAcc().getType());
    Type dest = store.getDest().getType();
    if (transpose && store.getDest().getDefiningOp<SpanAsOp>())
      return "a batched matrix's tile is stored transposed";
    FailureOr<ViewType> narrowed =
        getNarrowedView(dest, transpose ? 1 : 0, count);
    int64_t accCols = acc.getShape()[1];
    if (failed(narrowed) || narrowed->getShape()[transpose ? 0 : 1] != accCols)
      return "an accumulator is stored into a buffer of another shape";
    bool seen = plan.storedTiles.contains(store.getDest());
    if (seen && plan.transposedTiles.contains(store.getDest()) != transpose)
      return "a buffer is stored into both transposed and not";
    plan.stores.push_back(store);
    plan.storedTiles.insert(store.getDest());
    if (transpose)
      plan.transposedTiles.insert(store.getDest());
    // A batched matrix's tile is 1 x rows x cols, stored as rows x cols.
    if (auto span = store.getDest().getDefiningOp<SpanAsOp>())
      plan.storedTiles.insert(span.getSource());
    return "";
  }
  if (auto sum = dyn_cast<MmaClusterSumOp>(op)) {
    if (failed(getNarrowedView(sum.getScratch().getType(), 0, count)))
      return "a cluster sum's scratch tile cannot be split by rows";
    plan.clusterSums.push_back(sum);
    return "";
  }
  if (auto copy = dyn_cast<CopyOp>(op)) {
    if (!plan.storedTiles.contains(copy.getSource()) || copy.getMap() ||
        copy.getUsable())
      return "the consumer copies a buffer it did not store an accumulator "
             "into";
    if (failed(getNarrowedView(
            copy.getDest().getType(),
            getSplitDim(copy.getDest().getType(),
                        plan.transposedTiles.contains(copy.getSource())),
            count)))
      return "a stored tile is copied into a buffer that cannot be split "
             "like it";
    plan.copies.push_back(copy);
    return "";
  }
  if (auto map = dyn_cast<MmaMapOp>(op)) {
    // A vector per column is the same for each part of the rows; one per
    // row is split with them.
    for (Value input : map.getInputs())
      if (isa<VecType>(input.getType()) && !isColumnVector(input.getType()))
        if (std::string why = recordRowVector(input, count, plan); !why.empty())
          return why;
    plan.maps.push_back(map);
    return "";
  }
  // Each part computes the vectors it broadcasts: per column all of them,
  // per row those of its rows.
  if (isa<VecFillOp, VecMapOp>(op)) {
    Value result = op->getResult(0);
    if (isColumnVector(result.getType()))
      return "";
    for (Value value : op->getOperands())
      if (isa<VecType>(value.getType()))
        if (std::string why = recordRowVector(value, count, plan); !why.empty())
          return why;
    if (std::string why = recordRowVector(result, count, plan); !why.empty())
      return why;
    if (auto map = dyn_cast<VecMapOp>(op))
      plan.rowMaps.push_back(map);
    return "";
  }
  // Vectors per row that loops carry (a block-scaled GEMM's scales, read a
  // step ahead) and branches yield split with the rows too.
  if (isa<scf::ForOp, scf::IfOp>(op)) {
    SmallVector<Value> values(op->getResults());
    for (Region &region : op->getRegions())
      for (Block &block : region)
        llvm::append_range(values, block.getArguments());
    for (Value value : values)
      if (isa<VecType>(value.getType()) && !isColumnVector(value.getType()))
        if (std::string why = recordRowVector(value, count, plan); !why.empty())
          return why;
  }
  // A slice takes columns of every row: it splits with its accumulator.
  if (isa<MmaFillOp, MmaCommitOp, MmaWaitOp, MmaLoadOp, MmaSliceOp, EventWaitOp,
          EventTriggerOp, WaitOp, scf::ForOp, scf::IfOp, scf::YieldOp>(op))
    return "";
  if (touchesAccumulators(op))
    return "'" + op->getName().getStringRef().str() +
           "' computes on an accumulator";
  if (isMemoryEffectFree(op) && op->getNumRegions() == 0)
    return "";
  return "'" + op->getName().getStringRef().str() +
         "' in the consumer is not one the split knows how to share";
}

/// Why the consumer of `roles` cannot be split among `count` warpgroups,
/// or an empty string; fills `plan`.
static std::string analyze(Roles roles, int64_t count, SplitPlan &plan) {
  std::string why;
  roles.consumer.getBody().walk<WalkOrder::PreOrder>(
      [&](Operation *op) -> WalkResult {
        why = checkOp(op, count, plan);
        if (!why.empty())
          return WalkResult::interrupt();
        // A map's body computes on one element: nothing to split.
        return isa<MmaMapOp, VecMapOp>(op) ? WalkResult::skip()
                                           : WalkResult::advance();
      });
  if (!why.empty())
    return why;
  // A stored tile is read by the copies that were checked, and written by
  // the split stores only.
  for (Value tile : plan.storedTiles)
    for (Operation *user : tile.getUsers())
      if (!(isa<MmaStoreOp, CopyOp>(user) ||
            (isa<SpanAsOp>(user) &&
             plan.storedTiles.contains(user->getResult(0)))) ||
          (isa<CopyOp>(user) && cast<CopyOp>(user).getSource() != tile))
        return "a tile an accumulator is stored into is also used by '" +
               user->getName().getStringRef().str() + "'";
  if (plan.accumulators.empty())
    return "the consumer computes no accumulator";
  return "";
}

/// `croq.subspan` of part `index` of `count` of `buffer` along `dim`. A
/// tile of a subspan grid becomes a tile of a grid `count` times finer, so
/// that the part is one window of the source (which tma copies need)
/// rather than a window of a window.
static Value narrow(OpBuilder &b, Location loc, Value buffer, unsigned dim,
                    int64_t count, Value index, Value zero) {
  ViewType type = *getNarrowedView(buffer.getType(), dim, count);
  Value source = buffer;
  SmallVector<Value> at(type.getRank(), zero);
  at[dim] = index;
  if (auto subspan = buffer.getDefiningOp<SubspanOp>();
      subspan && subspan.getSizes().empty() && subspan.getSteps().empty() &&
      !subspan.getStaticSteps() &&
      subspan.getIndices().size() == static_cast<size_t>(type.getRank())) {
    source = subspan.getSource();
    at.assign(subspan.getIndices().begin(), subspan.getIndices().end());
    Value scaled = arith::MulIOp::create(
        b, loc, at[dim], arith::ConstantIndexOp::create(b, loc, count));
    at[dim] = arith::AddIOp::create(b, loc, scaled, index);
  }
  return SubspanOp::create(b, loc, type, source, /*sizes=*/ValueRange{},
                           type.getShape(), /*steps=*/ValueRange{},
                           /*staticSteps=*/nullptr, at)
      .getResult();
}

/// Makes the row index (argument 0) of `map`'s body count from the first
/// row of consumer `index`'s part of `rows` rows.
static void offsetRowIndex(OpBuilder &b, Location loc, Operation *map,
                           int64_t rows, Value index) {
  Block &body = map->getRegion(0).front();
  BlockArgument row = body.getArgument(0);
  b.setInsertionPoint(map);
  Value rowsValue = arith::ConstantIndexOp::create(b, loc, rows);
  Value first = arith::MulIOp::create(b, loc, index, rowsValue);
  b.setInsertionPointToStart(&body);
  Value blockRow = arith::AddIOp::create(b, loc, row, first);
  row.replaceAllUsesExcept(blockRow, blockRow.getDefiningOp());
}

/// Splits the consumer of `roles` as `plan` says.
static void split(Roles roles, int64_t count, SplitPlan &plan) {
  MLIRContext *context = roles.block.getContext();
  roles.roles.setStaticExtents({1 + count});
  Block &body = roles.consumer.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&body);
  Location loc = roles.consumer.getLoc();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value index =
      arith::SubIOp::create(b, loc, roles.roles.getBody().getArgument(0), one);

  for (auto [load, dim] : plan.aLoads) {
    b.setInsertionPoint(load);
    Value source =
        narrow(b, load.getLoc(), load.getSource(), dim, count, index, zero);
    load.getSourceMutable().set(source);
    auto frag = cast<FragType>(load.getResult().getType());
    SmallVector<int64_t> shape(frag.getShape());
    shape[dim] /= count;
    load.getResult().setType(FragType::get(
        context, shape, frag.getElementType(), frag.getInRegisters()));
  }
  // A shared tile of the block that accumulators are stored into becomes
  // an array of one tile per consumer: each consumer's part is a whole
  // tile, which tma copies need.
  DenseMap<Value, Value> parts;
  for (Value tile : plan.storedTiles) {
    auto alloc = tile.getDefiningOp<AllocOp>();
    auto type = dyn_cast<TileType>(tile.getType());
    if (!alloc || !type || !type.isShared() ||
        alloc->getBlock() != &roles.block.getBody().front())
      continue;
    SmallVector<int64_t> shape(type.getShape());
    shape[getSplitDim(type, plan.transposedTiles.contains(tile))] /= count;
    OpBuilder ab(alloc);
    auto tilesType =
        TilesType::get(context, count, shape, type.getElementType(),
                       type.getMemorySpace(), type.getSwizzle());
    auto tiles = AllocOp::create(ab, alloc.getLoc(), tilesType,
                                 /*offset=*/IntegerAttr());
    tiles->setAttrs(alloc->getAttrs());
    b.setInsertionPointAfter(index.getDefiningOp());
    Value part = StageOp::create(b, alloc.getLoc(), tiles, index);
    parts[tile] = part;
  }
  auto partOf = [&](OpBuilder &pb, Location at, Value buffer) {
    if (Value part = parts.lookup(buffer))
      return part;
    // As checkOp narrowed a store's destination: rows, or columns where
    // stored transposed.
    return narrow(pb, at, buffer, plan.transposedTiles.contains(buffer) ? 1 : 0,
                  count, index, zero);
  };
  SmallVector<SpanAsOp> oldSpans;
  for (MmaStoreOp store : plan.stores) {
    b.setInsertionPoint(store);
    Value dest = store.getDest();
    // The matrix of a batched tile's part.
    if (auto span = dest.getDefiningOp<SpanAsOp>();
        span && parts.lookup(span.getSource())) {
      auto type = cast<TileType>(span.getType());
      SmallVector<int64_t> shape(type.getShape());
      shape[0] /= count;
      auto partType = TileType::get(context, shape, type.getElementType(),
                                    type.getMemorySpace(), type.getSwizzle());
      store.getDestMutable().set(SpanAsOp::create(
          b, span.getLoc(), partType, parts.lookup(span.getSource())));
      oldSpans.push_back(span);
      continue;
    }
    store.getDestMutable().set(partOf(b, store.getLoc(), dest));
  }
  // The scratch's rows are whole slots of the accumulator's rows: each
  // consumer's part of it is (S - 1) x its rows, contiguous.
  for (MmaClusterSumOp sum : plan.clusterSums) {
    b.setInsertionPoint(sum);
    sum.getScratchMutable().set(
        narrow(b, sum.getLoc(), sum.getScratch(), 0, count, index, zero));
  }
  for (CopyOp copy : plan.copies) {
    b.setInsertionPoint(copy);
    bool transposed = plan.transposedTiles.contains(copy.getSource());
    Value source = partOf(b, copy.getLoc(), copy.getSource());
    Value dest = narrow(b, copy.getLoc(), copy.getDest(),
                        getSplitDim(copy.getDest().getType(), transposed),
                        count, index, zero);
    copy.getSourceMutable().set(source);
    copy.getDestMutable().set(dest);
  }
  for (SpanAsOp span : oldSpans)
    if (span->use_empty())
      span->erase();
  for (auto [tile, part] : parts)
    tile.getDefiningOp()->erase();
  // The row index of a map's body counts from the block's first row, as
  // before the split.
  for (MmaMapOp map : plan.maps)
    offsetRowIndex(b, loc, map, getRows(map.getResult().getType()) / count,
                   index);
  for (VecMapOp map : plan.rowMaps)
    offsetRowIndex(b, loc, map, map.getVec().getType().getSize() / count,
                   index);
  for (Value value : plan.rowVectors) {
    auto vec = cast<VecType>(value.getType());
    value.setType(VecType::get(context, vec.getSize() / count,
                               vec.getElementType(), AccAxis::Rows));
  }
  for (Value value : plan.accumulators) {
    auto acc = cast<AccType>(value.getType());
    SmallVector<int64_t> shape(acc.getShape());
    shape[0] /= count;
    value.setType(AccType::get(context, shape, acc.getElementType()));
  }
}

/// Whether the consumer computes accumulators, all with a multiple of
/// `rows` rows.
static bool allAccumulatorsHaveRows(Roles roles, int64_t rows) {
  bool any = false, all = true;
  roles.consumer.getBody().walk([&](Operation *op) {
    for (Type type : op->getResultTypes())
      if (isa<AccType>(type)) {
        any = true;
        all = all && getRows(type) % rows == 0;
      }
  });
  return any && all;
}

namespace {
struct CroqSplitAccumulatorsPass
    : croq::impl::CroqSplitAccumulatorsBase<CroqSplitAccumulatorsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<Roles> found;
    getOperation()->walk([&](ParallelOp block) {
      if (block.getLevel() != ParallelLevel::Block)
        return;
      if (std::optional<Roles> roles = findRoles(block)) {
        found.push_back(*roles);
        return;
      }
      // Without a producer and a consumer there is nothing to split.
      if (auto attr = block->getAttrOfType<IntegerAttr>(
              CroqDialect::ConsumersAttrHelper::getNameStr())) {
        if (attr.getInt() > 1)
          block.emitWarning("croq.consumers = ")
              << attr.getInt() << " ignored: the block is not warp-specialized";
        block->removeAttr(CroqDialect::ConsumersAttrHelper::getNameStr());
      }
    });
    for (Roles &roles : found) {
      // The block's attribute, else the option; 0 in the attribute lets
      // the pass choose, and a block with neither keeps its consumer.
      int64_t count = consumers;
      bool forced = count != 0;
      if (auto attr = roles.block->getAttrOfType<IntegerAttr>(
              CroqDialect::ConsumersAttrHelper::getNameStr())) {
        count = attr.getInt();
        forced = count != 0;
        roles.block->removeAttr(CroqDialect::ConsumersAttrHelper::getNameStr());
      } else if (!forced) {
        continue;
      }
      if (count < 0 || count > kMaxConsumerWarpgroups) {
        roles.block.emitError("croq-split-accumulators takes 1 to ")
            << kMaxConsumerWarpgroups << " consumer warpgroups, got " << count;
        return signalPassFailure();
      }
      SplitPlan plan;
      if (count == 0) {
        // Two consumers where every accumulator has room for them.
        count = kAutoConsumers;
        if (!allAccumulatorsHaveRows(roles, kWarpgroupRows * count))
          continue;
      }
      if (count == 1)
        continue;
      if (std::string why = analyze(roles, count, plan); !why.empty()) {
        if (forced) {
          roles.block.emitError("cannot split the consumer among ")
              << count << " warpgroups: " << why;
          return signalPassFailure();
        }
        roles.block.emitWarning("consumer not split among ")
            << count << " warpgroups: " << why;
        continue;
      }
      split(roles, count, plan);
    }
  }
};
} // namespace
