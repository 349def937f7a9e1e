//===- RowChains.cpp - row-wise chains of linalg ops as one kernel --------===//
//
// After croq-fuse-elementwise, a softmax is three ops over the same rows:
// the row maxima, the sums of exp(x - max), and exp(x - max) / sum; a layer
// norm the sums, the sums of squared deviations, and the normalized row.
// One kernel per op reads every row from memory once per op. Such ops are
// gathered here into chains, each of which becomes one kernel instead
// (RowKernel.cpp): a block per row runs the ops one after the other, with a
// barrier between them, so that the per-row values one op writes are there
// for the next, and the row, read from memory by the first op, is read
// again from the L2.
//
// The ops of a chain are consecutive in host code (only ops without memory
// effects, allocations and views between them), the first a reduction;
// every op's loops other than its last are the chain's rows (extents
// compared as constants or as dimensions of the same buffers; unit loops
// left out), and its last loop is the chain's columns, or the op has no
// columns (an op over per-row values). Buffers that an op of the chain
// writes are read and written by the others a row at a time.
//
//===----------------------------------------------------------------------===//

#include "RowChains.h"
#include "IndexBuilder.h"
#include "Reduction.h"

#include "Croq/Dialect/Croq/IR/CroqOps.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::croq;

static ExtentKey getDimKey(Value buffer, int64_t dim);

/// The key of an index value: a constant, a buffer's dimension, or itself.
/// A `memref.dim` whose constant index is not one of its buffer's
/// dimensions verifies (its result is undefined) and stays itself.
static ExtentKey getKey(Value index) {
  if (std::optional<int64_t> constant = getConstantIntValue(index))
    return {Value(), *constant};
  if (auto dim = index.getDefiningOp<memref::DimOp>())
    if (std::optional<int64_t> i = dim.getConstantIndex();
        i && *i >= 0 &&
        *i < cast<MemRefType>(dim.getSource().getType()).getRank())
      return getDimKey(dim.getSource(), *i);
  return {index, -1};
}

/// The key of dimension `dim` of `buffer`, through the sizes of its
/// allocation.
static ExtentKey getDimKey(Value buffer, int64_t dim) {
  auto type = cast<MemRefType>(buffer.getType());
  if (!type.isDynamicDim(dim))
    return {Value(), type.getDimSize(dim)};
  if (auto alloc = buffer.getDefiningOp<memref::AllocOp>())
    return getKey(alloc.getDynamicSizes()[type.getDynamicDimIndex(dim)]);
  return {buffer, dim};
}

/// The key of every loop of `op`, from the first operand it indexes.
std::optional<SmallVector<ExtentKey>>
mlir::croq::getLoopKeys(linalg::GenericOp op) {
  SmallVector<std::optional<ExtentKey>> keys(op.getNumLoops());
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<MemRefType>(operand.get().getType()))
      continue;
    for (auto [i, result] :
         llvm::enumerate(op.getMatchingIndexingMap(&operand).getResults()))
      if (auto dim = dyn_cast<AffineDimExpr>(result);
          dim && !keys[dim.getPosition()])
        keys[dim.getPosition()] = getDimKey(operand.get(), i);
  }
  SmallVector<ExtentKey> all;
  for (std::optional<ExtentKey> key : keys) {
    if (!key)
      return std::nullopt;
    all.push_back(*key);
  }
  return all;
}

/// The shape of `op` as a member of kind `kind`.
MemberShape mlir::croq::getShape(linalg::GenericOp op, RowMember::Kind kind,
                                 ArrayRef<ExtentKey> keys) {
  MemberShape shape;
  unsigned loops = op.getNumLoops();
  unsigned rowLoops = kind == RowMember::PerRow ? loops : loops - 1;
  for (unsigned d = 0; d < rowLoops; ++d) {
    if (keys[d].isOne())
      continue;
    shape.rows.push_back(keys[d]);
    shape.rowLoops.push_back(d);
  }
  if (kind != RowMember::PerRow)
    shape.columns = keys[loops - 1];
  return shape;
}

/// Whether `op` can be a reduction of a chain: one reduction loop, its
/// last, outputs indexed by the other loops in order, combiners.
static bool isRowReduction(linalg::GenericOp op) {
  unsigned loops = op.getNumLoops();
  if (loops < 2 || op.getNumReductionLoops() != 1 ||
      op.getIteratorTypesArray().back() != utils::IteratorType::reduction ||
      getCombiners(op).empty())
    return false;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    int64_t previous = -1;
    for (AffineExpr result : op.getMatchingIndexingMap(&init).getResults()) {
      if (auto dim = dyn_cast<AffineDimExpr>(result)) {
        if (static_cast<int64_t>(dim.getPosition()) <= previous)
          return false;
        previous = dim.getPosition();
      }
    }
  }
  return true;
}

/// Whether `map`, from an op of `shape`, reads or writes one row: its
/// loops, unit ones and constant 0s left out, are the row loops in order,
/// and then the columns' loop where `withColumns`.
static bool isRowAccess(AffineMap map, const MemberShape &shape,
                        ArrayRef<ExtentKey> keys, unsigned loops) {
  SmallVector<unsigned> dims;
  for (AffineExpr result : map.getResults()) {
    if (auto constant = dyn_cast<AffineConstantExpr>(result)) {
      if (constant.getValue() != 0)
        return false;
      continue;
    }
    auto dim = dyn_cast<AffineDimExpr>(result);
    if (!dim)
      return false;
    if (!keys[dim.getPosition()].isOne())
      dims.push_back(dim.getPosition());
  }
  SmallVector<unsigned> withColumns(shape.rowLoops);
  withColumns.push_back(loops - 1);
  return ArrayRef(dims) == ArrayRef(shape.rowLoops) ||
         (shape.columns && dims == withColumns);
}

/// The buffer `value` views, or itself.
static Value getRoot(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  return value;
}

namespace {
/// Builds the chains of one block.
struct ChainBuilder {
  SmallVectorImpl<RowChain> &chains;
  RowChain current;
  MemberShape shape;
  /// The buffers the chain's ops write.
  llvm::SmallPtrSet<Value, 8> written;

  void flush() {
    bool hasReduction = llvm::any_of(current.members, [](RowMember m) {
      return m.kind == RowMember::Reduction;
    });
    if (current.members.size() >= 2 && hasReduction)
      chains.push_back(current);
    current.members.clear();
    written.clear();
  }

  /// Whether every access of `op` (of `memberShape`) to a buffer the chain
  /// writes, or that `op` writes, reads or writes one row.
  bool accessesRows(linalg::GenericOp op, const MemberShape &memberShape,
                    ArrayRef<ExtentKey> keys) {
    llvm::SmallPtrSet<Value, 8> all(written.begin(), written.end());
    for (Value init : op.getDpsInits())
      all.insert(init);
    llvm::SmallPtrSet<Value, 8> roots;
    for (Value value : all)
      roots.insert(getRoot(value));
    for (OpOperand &operand : op->getOpOperands()) {
      Value value = operand.get();
      if (!isa<MemRefType>(value.getType()))
        continue;
      if (!all.contains(value)) {
        // Another view of a buffer the chain writes.
        if (roots.contains(getRoot(value)))
          return false;
        continue;
      }
      if (!isRowAccess(op.getMatchingIndexingMap(&operand), memberShape, keys,
                       op.getNumLoops()))
        return false;
    }
    return true;
  }

  /// Adds `op` to the chain, or returns false.
  bool tryAdd(linalg::GenericOp op, bool isReduction, linalg::FillOp start) {
    std::optional<SmallVector<ExtentKey>> keys = getLoopKeys(op);
    if (!keys)
      return false;
    std::optional<RowMember::Kind> kind;
    if (isReduction) {
      if (!isRowReduction(op))
        return false;
      kind = RowMember::Reduction;
    } else if (current.members.empty()) {
      return false;
    } else if (ArrayRef(getShape(op, RowMember::PerRow, *keys).rows) ==
               ArrayRef(shape.rows)) {
      kind = RowMember::PerRow;
    } else {
      AffineMap first = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
      if (first.getNumResults() == 0)
        return false;
      auto last = dyn_cast<AffineDimExpr>(first.getResults().back());
      if (!last || last.getPosition() != op.getNumLoops() - 1)
        return false;
      kind = RowMember::Elementwise;
    }
    MemberShape memberShape = getShape(op, *kind, *keys);
    if (current.members.empty()) {
      shape = memberShape;
    } else if (ArrayRef(memberShape.rows) != ArrayRef(shape.rows) ||
               (memberShape.columns &&
                (!shape.columns ||
                 !(*memberShape.columns == *shape.columns)))) {
      return false;
    }
    if (!accessesRows(op, memberShape, *keys))
      return false;
    current.members.push_back({op, *kind, start});
    for (Value init : op.getDpsInits())
      written.insert(init);
    return true;
  }
};
} // namespace

/// Whether `op`, between two ops of a chain, may stay where it is while the
/// chain's kernel runs at the chain's last op.
static bool canStayBetween(Operation &op) {
  return isa<memref::AllocOp, linalg::FillOp>(op) || isMemoryEffectFree(&op);
}

void mlir::croq::formRowChains(HostWork &work,
                               SmallVectorImpl<RowChain> &chains) {
  llvm::DenseMap<Operation *, linalg::FillOp> reductions;
  llvm::SmallPtrSet<Operation *, 16> elementwise, starts;
  SmallVector<Block *> blocks;
  for (auto [op, start] : work.reductions) {
    reductions[op] = start;
    if (start)
      starts.insert(start);
    if (!llvm::is_contained(blocks, op->getBlock()))
      blocks.push_back(op->getBlock());
  }
  for (linalg::GenericOp op : work.elementwise)
    elementwise.insert(op);
  size_t first = chains.size();
  for (Block *block : blocks) {
    ChainBuilder builder{chains, {}, {}, {}};
    for (Operation &op : *block) {
      auto generic = dyn_cast<linalg::GenericOp>(op);
      bool isReduction = reductions.contains(&op);
      if (!isReduction && !elementwise.contains(&op)) {
        // A fill that starts a reduction is the reduction's.
        if (starts.contains(&op) || canStayBetween(op))
          continue;
        builder.flush();
        continue;
      }
      linalg::FillOp start = isReduction ? reductions.lookup(&op) : nullptr;
      if (builder.tryAdd(generic, isReduction, start))
        continue;
      builder.flush();
      (void)builder.tryAdd(generic, isReduction, start);
    }
    builder.flush();
  }
  // The chains' ops leave the other lists.
  llvm::SmallPtrSet<Operation *, 16> chained;
  for (const RowChain &chain : ArrayRef(chains).drop_front(first))
    for (RowMember member : chain.members)
      chained.insert(member.op);
  llvm::erase_if(work.elementwise,
                 [&](linalg::GenericOp op) { return chained.contains(op); });
  llvm::erase_if(work.reductions,
                 [&](auto &entry) { return chained.contains(entry.first); });
}

SmallVector<Value> mlir::croq::getRowLoops(OpBuilder &b, Location loc,
                                           RowMember member, Value row,
                                           ArrayRef<Value> extents) {
  IndexBuilder e{b, loc};
  unsigned loops = member.op.getNumLoops();
  SmallVector<Value> values(loops, e.c(0));
  MemberShape shape = getShape(member.op, member.kind, *getLoopKeys(member.op));
  Value rest = row;
  for (int64_t i = static_cast<int64_t>(shape.rowLoops.size()) - 1; i >= 0;
       --i) {
    unsigned dim = shape.rowLoops[i];
    if (i == 0) {
      values[dim] = rest;
      break;
    }
    values[dim] = e.rem(rest, extents[dim]);
    rest = e.div(rest, extents[dim]);
  }
  if (member.kind != RowMember::PerRow)
    values[loops - 1] = Value();
  return values;
}
