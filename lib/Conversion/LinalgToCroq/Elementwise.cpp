//===- Elementwise.cpp - elementwise linalg ops as croq kernels -----------===//
//
// One croq kernel per elementwise linalg.generic. The loops are taken in
// the order of the first output's dimensions: the last one (its innermost,
// contiguous dimension) is split in chunks of V elements, V = 16 bytes of
// the widest element read or written along it, and every thread of a grid
// of 256-thread blocks computes one chunk. Where the rows are whole chunks
// and every vector operand is aligned (croq.is_aligned, the same for every
// thread), the chunks are taken as they come; otherwise each row is peeled
// to the first aligned chunk of a reference operand (the first output read
// as vectors, else the first input; RowPeeling.h), misaligned by p(row)
// elements from its row's start, and a thread takes a slot of a row:
//
//   croq.parallel (%bx) in [cdiv(rows * S, 256)] : block {
//     croq.parallel (%t) in [256] : thread {
//       if (N % V == 0 && every vector operand is aligned) {
//         chunk = bx * 256 + t; row = chunk / (N / V); col = chunk % .. * V
//         vector reads; the body once per lane; vector writes
//       } else {
//         slot = (bx * 256 + t) % S of row (bx * 256 + t) / S
//         head = (V - p(row)) % V; chunks M = (N - head) / V
//         if (slot < M) chunk at head + slot * V: vectors for the operands
//                       misaligned like the reference, elements otherwise
//         if (slot < edges) one head or tail column, element by element
//       }
//     }
//   }
//
// with S = max(cdiv(N, V), min(N, 2 * V - 2)) slots a row: one per chunk
// and one per edge column, so that consecutive threads take consecutive
// chunks of a row and a block covers parts of one row or more.
//
// An input indexed without the innermost loop (a broadcast along it) is read
// once per chunk; one indexed by it in another dimension (a transposed
// operand) element by element. A loop missing from an input's map, or
// indexed by a constant 0, is a broadcast dimension.
//
//===----------------------------------------------------------------------===//

#include "Elementwise.h"
#include "ExtentChecks.h"
#include "IndexBuilder.h"
#include "KernelRegions.h"
#include "RowPeeling.h"

#include "Croq/Dialect/Croq/IR/BufferUtils.h"
#include "Croq/Dialect/Croq/IR/CroqOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::croq;

/// Threads of a block of an elementwise kernel.
static constexpr int64_t kThreads = 256;

namespace {
/// How a chunk of V lanes reads or writes an operand.
enum class Access {
  /// One V-element vector: its innermost dimension is the chunk's loop.
  Vector,
  /// One element for every lane: the chunk's loop does not index it.
  Broadcast,
  /// Element by element: the chunk's loop indexes another dimension, or
  /// the innermost one is not contiguous.
  Elements,
};

/// The loops of an elementwise generic as its kernel walks them.
struct LoopSpace {
  /// The loops in the order of the first output's dimensions.
  SmallVector<unsigned> order;
  /// The chunk width along the last of them.
  int64_t vector = 1;
};
} // namespace

/// How `operand`, indexed by `map`, is accessed by the chunks of `inner`.
static Access getAccess(Value operand, AffineMap map, unsigned inner) {
  if (getSplatConstant(operand) || !map.isFunctionOfDim(inner))
    return Access::Broadcast;
  auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
  if (!last || last.getPosition() != inner || !hasContiguousRows(operand) ||
      !getVectorBytes(operand))
    return Access::Elements;
  return Access::Vector;
}

/// The loop order and chunk width of `op`.
static LoopSpace getLoopSpace(linalg::GenericOp op) {
  LoopSpace space;
  AffineMap first = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  for (AffineExpr result : first.getResults())
    space.order.push_back(cast<AffineDimExpr>(result).getPosition());
  if (space.order.empty())
    return space;
  unsigned inner = space.order.back();
  int64_t widest = 0, narrowest = 16;
  for (OpOperand &operand : op->getOpOperands()) {
    if (getAccess(operand.get(), op.getMatchingIndexingMap(&operand), inner) !=
        Access::Vector)
      continue;
    int64_t bytes = getVectorBytes(operand.get());
    widest = std::max(widest, bytes);
    narrowest = std::min(narrowest, bytes);
  }
  // Vector accesses move 4 to 16 bytes: the narrowest operand's chunk must
  // reach 4.
  if (widest != 0 && 16 / widest * narrowest >= 4)
    space.vector = 16 / widest;
  return space;
}

namespace {
/// Emits the body of one thread of an elementwise kernel.
struct ChunkEmitter {
  OpBuilder &b;
  Location loc;
  linalg::GenericOp op;
  const LoopSpace &space;
  /// The chunk's loop indices: the last one is the chunk's first column.
  SmallVector<Value> loops;

  /// The indices of `map`'s results at `loops`, with column `col` for the
  /// chunk's loop.
  SmallVector<Value> getIndices(AffineMap map, Value col) {
    IndexBuilder e{b, loc};
    SmallVector<Value> indices;
    for (AffineExpr result : map.getResults()) {
      auto dim = dyn_cast<AffineDimExpr>(result);
      if (!dim) {
        indices.push_back(e.c(0));
        continue;
      }
      indices.push_back(dim.getPosition() == space.order.back()
                            ? col
                            : loops[dim.getPosition()]);
    }
    return indices;
  }

  /// Reads `operand`'s element for column `col`.
  Value readElement(OpOperand &operand, Value col) {
    if (TypedAttr splat = getSplatConstant(operand.get()))
      return arith::ConstantOp::create(b, loc, splat);
    if (!isa<MemRefType>(operand.get().getType()))
      return operand.get();
    AffineMap map = op.getMatchingIndexingMap(&operand);
    return ReadOp::create(b, loc, getElementTypeOrSelf(operand.get().getType()),
                          operand.get(), getIndices(map, col),
                          /*inBounds=*/true);
  }

  /// Computes the body for the lane at column `col` from the block
  /// arguments' values, and returns the yielded values.
  SmallVector<Value> computeLane(ArrayRef<Value> arguments, Value col) {
    IRMapping mapping;
    Block &body = op.getRegion().front();
    mapping.map(body.getArguments(), arguments);
    for (Operation &inner : body.without_terminator()) {
      if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
        unsigned dim = index.getDim();
        mapping.map(index.getResult(),
                    dim == space.order.back() ? col : loops[dim]);
        continue;
      }
      b.clone(inner, mapping);
    }
    SmallVector<Value> results;
    for (Value yielded : body.getTerminator()->getOperands())
      results.push_back(mapping.lookupOrDefault(yielded));
    return results;
  }

  /// A value of `type` for a block argument without uses (folded away).
  Value getUnusedValue(Type type) {
    return arith::ConstantOp::create(b, loc,
                                     cast<TypedAttr>(b.getZeroAttr(type)));
  }

  /// Whether the body reads the current value of `init`.
  bool readsInit(OpOperand &init) {
    return !op.getMatchingBlockArgument(&init).use_empty();
  }

  /// The element-by-element form of lane `col`: reads, body, writes.
  void emitLane(Value col) {
    SmallVector<Value> arguments;
    for (OpOperand &operand : op->getOpOperands()) {
      bool isInit = op.isDpsInit(&operand);
      arguments.push_back(
          isInit && !readsInit(operand) ? Value() : readElement(operand, col));
    }
    // An unread output's block argument has no uses: any value stands for
    // it.
    for (auto [i, arg] : llvm::enumerate(arguments))
      if (!arg)
        arg = getUnusedValue(op.getRegion().front().getArgument(i).getType());
    SmallVector<Value> results = computeLane(arguments, col);
    for (auto [init, result] : llvm::zip(op.getDpsInitsMutable(), results)) {
      AffineMap map = op.getMatchingIndexingMap(&init);
      WriteOp::create(b, loc, result, init.get(), getIndices(map, col),
                      /*inBounds=*/true);
    }
  }

  /// The chunk lane by lane, each lane past the row's end (`inner`)
  /// skipped.
  void emitLanes(Value col0, Value inner) {
    IndexBuilder e{b, loc};
    for (int64_t lane = 0; lane < space.vector; ++lane) {
      Value col = e.add(col0, e.c(lane));
      if (space.vector == 1) {
        emitLane(col);
        continue;
      }
      auto inside = scf::IfOp::create(b, loc, e.less(col, inner));
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(inside.thenBlock());
      emitLane(col);
    }
  }

  /// The V elements of Vector operand `operand` from `col0` as a vector:
  /// one vector read, or element reads where `aligned` (if given) is false.
  Value readChunk(OpOperand &operand, Value col0, Value aligned) {
    IndexBuilder e{b, loc};
    AffineMap map = op.getMatchingIndexingMap(&operand);
    Type element = getElementTypeOrSelf(operand.get().getType());
    auto type = VectorType::get({space.vector}, element);
    auto readVector = [&] {
      return ReadOp::create(b, loc, type, operand.get(), getIndices(map, col0),
                            /*inBounds=*/true)
          .getResult();
    };
    if (!aligned)
      return readVector();
    auto choice = scf::IfOp::create(b, loc, TypeRange{type}, aligned,
                                    /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(choice.thenBlock());
    scf::YieldOp::create(b, loc, readVector());
    b.setInsertionPointToStart(choice.elseBlock());
    SmallVector<Value> lanes;
    for (int64_t lane = 0; lane < space.vector; ++lane)
      lanes.push_back(readElement(operand, e.add(col0, e.c(lane))));
    scf::YieldOp::create(
        b, loc,
        vector::FromElementsOp::create(b, loc, type, lanes).getResult());
    return choice.getResult(0);
  }

  /// Writes `values` (V lanes) to output `init` from `col0`: one vector
  /// write where it is a Vector operand (and `aligned`, if given, holds),
  /// element writes otherwise.
  void writeChunk(OpOperand &init, ArrayRef<Value> values, Value col0,
                  Value aligned) {
    IndexBuilder e{b, loc};
    AffineMap map = op.getMatchingIndexingMap(&init);
    auto writeElements = [&] {
      for (auto [lane, value] : llvm::enumerate(values))
        WriteOp::create(b, loc, value, init.get(),
                        getIndices(map, e.add(col0, e.c(lane))),
                        /*inBounds=*/true);
    };
    if (getAccess(init.get(), map, space.order.back()) != Access::Vector) {
      writeElements();
      return;
    }
    OpBuilder::InsertionGuard guard(b);
    if (aligned) {
      auto choice = scf::IfOp::create(b, loc, aligned, /*withElseRegion=*/true);
      b.setInsertionPointToStart(choice.elseBlock());
      writeElements();
      b.setInsertionPointToStart(choice.thenBlock());
    }
    auto type = VectorType::get({space.vector}, values.front().getType());
    Value vector = vector::FromElementsOp::create(b, loc, type, values);
    WriteOp::create(b, loc, vector, init.get(), getIndices(map, col0),
                    /*inBounds=*/true);
  }

  /// The chunk as vectors: every Vector operand read or written at once,
  /// or, where `aligned` maps its operand number to a false value, element
  /// by element.
  void emitVectors(Value col0, const llvm::DenseMap<unsigned, Value> &aligned =
                                   llvm::DenseMap<unsigned, Value>()) {
    IndexBuilder e{b, loc};
    unsigned inner = space.order.back();
    int64_t width = space.vector;
    // Per operand, the value of each lane.
    SmallVector<SmallVector<Value>> lanes;
    for (OpOperand &operand : op->getOpOperands()) {
      SmallVector<Value> values(width);
      if (op.isDpsInit(&operand) && !readsInit(operand)) {
        Value unused =
            getUnusedValue(op.getMatchingBlockArgument(&operand).getType());
        lanes.push_back(SmallVector<Value>(width, unused));
        continue;
      }
      AffineMap map = op.getMatchingIndexingMap(&operand);
      Access access = isa<MemRefType>(operand.get().getType())
                          ? getAccess(operand.get(), map, inner)
                          : Access::Broadcast;
      if (access == Access::Vector) {
        Value vector = readChunk(operand, col0,
                                 aligned.lookup(operand.getOperandNumber()));
        for (int64_t lane = 0; lane < width; ++lane)
          values[lane] = vector::ExtractOp::create(b, loc, vector, lane);
      } else if (access == Access::Broadcast) {
        values.assign(width, readElement(operand, col0));
      } else {
        for (int64_t lane = 0; lane < width; ++lane)
          values[lane] = readElement(operand, e.add(col0, e.c(lane)));
      }
      lanes.push_back(std::move(values));
    }
    // The body once per lane.
    SmallVector<SmallVector<Value>> results(op.getNumDpsInits());
    for (int64_t lane = 0; lane < width; ++lane) {
      SmallVector<Value> arguments;
      for (auto &values : lanes)
        arguments.push_back(values[lane]);
      for (auto [i, value] :
           llvm::enumerate(computeLane(arguments, e.add(col0, e.c(lane)))))
        results[i].push_back(value);
    }
    for (auto [init, values] : llvm::zip(op.getDpsInitsMutable(), results))
      writeChunk(init, values, col0, aligned.lookup(init.getOperandNumber()));
  }

  /// Whether the chunk at `col0` can take the vector form: it lies inside
  /// its row, and every Vector operand's origin and row strides are
  /// aligned to V elements.
  Value emitVectorCondition(Value col0, Value inner) {
    IndexBuilder e{b, loc};
    return emitAlignedCondition(
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule,
                              e.add(col0, e.c(space.vector)), inner));
  }

  /// `ok` and, for every Vector operand, whether its origin and row strides
  /// are aligned to V elements.
  Value emitAlignedCondition(Value ok) {
    std::optional<int64_t> known = getConstantIntValue(ok);
    if (known && *known == 0)
      return ok;
    for (OpOperand *operand : getVectorOperands()) {
      int64_t bytes = getVectorBytes(operand->get());
      Value isAligned =
          IsAlignedOp::create(b, loc, operand->get(), bytes * space.vector);
      ok = b.createOrFold<arith::AndIOp>(loc, ok, isAligned);
    }
    return ok;
  }

  /// The operands read or written as vectors, outputs last.
  SmallVector<OpOperand *> getVectorOperands() {
    SmallVector<OpOperand *> operands;
    for (OpOperand &operand : op->getOpOperands())
      if (isa<MemRefType>(operand.get().getType()) &&
          getAccess(operand.get(), op.getMatchingIndexingMap(&operand),
                    space.order.back()) == Access::Vector)
        operands.push_back(&operand);
    return operands;
  }

  /// Slot `slot` of a row (its loops set) of `inner` columns, peeled to
  /// the first aligned chunk of the first Vector output (else input): full
  /// chunk `slot` as vectors, element by element for the operands whose
  /// row starts misaligned differently, then edge column `slot` (head or
  /// tail) alone.
  void emitPeeledSlot(Value slot, Value inner) {
    IndexBuilder e{b, loc};
    SmallVector<OpOperand *> vectors = getVectorOperands();
    auto misalignment = [&](OpOperand *operand) {
      AffineMap map = op.getMatchingIndexingMap(operand);
      return emitMisalignment(b, loc, operand->get(), getIndices(map, e.c(0)),
                              space.vector);
    };
    auto output = llvm::find_if(
        vectors, [&](OpOperand *operand) { return op.isDpsInit(operand); });
    OpOperand *reference = output != vectors.end() ? *output : vectors.front();
    Value shift = misalignment(reference);
    PeeledRow row = PeeledRow::create(b, loc, shift, inner, space.vector);
    OpBuilder::InsertionGuard guard(b);
    auto chunk = scf::IfOp::create(b, loc, e.less(slot, row.chunks));
    b.setInsertionPointToStart(chunk.thenBlock());
    llvm::DenseMap<unsigned, Value> aligned;
    for (OpOperand *operand : vectors)
      if (operand != reference)
        aligned[operand->getOperandNumber()] = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::eq, misalignment(operand), shift);
    Value col0 = e.add(row.head, e.mul(slot, e.c(space.vector)));
    loops[space.order.back()] = col0;
    emitVectors(col0, aligned);
    b.setInsertionPointAfter(chunk);
    auto edge = scf::IfOp::create(b, loc, e.less(slot, row.edges));
    b.setInsertionPointToStart(edge.thenBlock());
    Value col = row.getEdgeColumn(b, loc, slot);
    loops[space.order.back()] = col;
    emitLane(col);
  }
};
} // namespace

/// `op` over one loop, on 1-d views (memref.collapse_shape) of its
/// operands, where every operand is a contiguous row-major buffer indexed
/// by the loops in order (or a scalar), and the body does not read the loop
/// indices: the chunks then run along the whole buffer, whose rows need not
/// be multiples of a chunk. Null where `op` is not such an op.
static linalg::GenericOp buildFlatGeneric(OpBuilder &b, linalg::GenericOp op) {
  unsigned rank = op.getNumLoops();
  if (rank < 2 || !op.getRegion().front().getOps<linalg::IndexOp>().empty())
    return nullptr;
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (type ? !map.isIdentity() || !type.getLayout().isIdentity()
             : map.getNumResults() != 0)
      return nullptr;
  }
  Location loc = op.getLoc();
  SmallVector<ReassociationIndices> all(1);
  for (unsigned d = 0; d < rank; ++d)
    all.front().push_back(d);
  MLIRContext *context = op.getContext();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(1, context);
  AffineMap scalar = AffineMap::get(1, 0, context);
  auto flatten = [&](ValueRange operands, SmallVector<AffineMap> &maps) {
    SmallVector<Value> flat;
    for (Value operand : operands) {
      if (!isa<MemRefType>(operand.getType())) {
        flat.push_back(operand);
        maps.push_back(scalar);
        continue;
      }
      flat.push_back(memref::CollapseShapeOp::create(b, loc, operand, all));
      maps.push_back(identity);
    }
    return flat;
  };
  SmallVector<AffineMap> maps, outputMaps;
  SmallVector<Value> inputs = flatten(op.getDpsInputs(), maps);
  SmallVector<Value> outputs = flatten(op.getDpsInits(), outputMaps);
  llvm::append_range(maps, outputMaps);
  auto flat = linalg::GenericOp::create(
      b, loc, TypeRange{}, inputs, outputs, maps,
      SmallVector<utils::IteratorType>{utils::IteratorType::parallel});
  IRMapping mapping;
  op.getRegion().cloneInto(&flat.getRegion(), mapping);
  return flat;
}

/// The chunk at `col0` of `emitter`'s op: as vectors where it lies inside
/// its row and the operands are aligned, lane by lane otherwise.
static void emitChunk(ChunkEmitter &emitter, Value col0, Value inner) {
  OpBuilder &b = emitter.b;
  const LoopSpace &space = emitter.space;
  if (!space.order.empty())
    emitter.loops[space.order.back()] = col0;
  if (space.vector == 1) {
    emitter.emitLanes(col0, inner);
    return;
  }
  auto vectorized = scf::IfOp::create(b, emitter.loc,
                                      emitter.emitVectorCondition(col0, inner),
                                      /*withElseRegion=*/true);
  b.setInsertionPointToStart(vectorized.thenBlock());
  emitter.emitVectors(col0);
  b.setInsertionPointToStart(vectorized.elseBlock());
  emitter.emitLanes(col0, inner);
}

/// Sets `emitter`'s loops before the last to row `row` of `rowExtents`
/// (delinearized, the last extent innermost).
static void setRowLoops(ChunkEmitter &emitter, Value row,
                        ArrayRef<Value> rowExtents) {
  IndexBuilder e{emitter.b, emitter.loc};
  for (int64_t i = static_cast<int64_t>(rowExtents.size()) - 1; i >= 0; --i) {
    unsigned dim = emitter.space.order[i];
    if (i == 0) {
      emitter.loops[dim] = row;
      break;
    }
    emitter.loops[dim] = e.rem(row, rowExtents[i]);
    row = e.div(row, rowExtents[i]);
  }
}

/// emitElementwiseKernel, with the host's extent checks if `checkExtents`.
static void emitKernel(OpBuilder &b, linalg::GenericOp op, bool checkExtents);

void mlir::croq::emitElementwiseKernel(OpBuilder &b, linalg::GenericOp op) {
  emitKernel(b, op, /*checkExtents=*/true);
}

static void emitKernel(OpBuilder &b, linalg::GenericOp op, bool checkExtents) {
  Location loc = op.getLoc();
  IndexBuilder e{b, loc};
  SmallVector<Value> extents;
  for (Range range :
       cast<linalg::LinalgOp>(op.getOperation()).createLoopRanges(b, loc))
    extents.push_back(getValueOrCreateConstantIndexOp(b, loc, range.size));
  // Every operand's extents match the loops that index them, or the call
  // fails before it launches anything.
  if (checkExtents)
    requireOperandExtents(b, loc, op, extents);
  if (linalg::GenericOp flat = buildFlatGeneric(b, op)) {
    emitKernel(b, flat, /*checkExtents=*/false);
    flat.erase();
    return;
  }
  LoopSpace space = getLoopSpace(op);
  // The rows are the loops before the last, in the output's order.
  SmallVector<Value> rowExtents;
  for (unsigned dim : ArrayRef(space.order).drop_back())
    rowExtents.push_back(extents[dim]);
  Value inner = space.order.empty() ? e.c(1) : extents[space.order.back()];
  Value rows = e.product(rowExtents);
  Value chunksPerRow = e.ceilDiv(inner, space.vector);
  Value chunks = e.mul(rows, chunksPerRow);
  // Peeled rows take a slot per full chunk and per edge column (at most
  // 2 * V - 2 of them, or all of a row shorter than that).
  bool peel = space.vector > 1;
  int64_t maxEdges = 2 * space.vector - 2;
  Value slotsPerRow =
      peel ? e.max(chunksPerRow, e.min(inner, e.c(maxEdges))) : chunksPerRow;
  Value slots = e.mul(rows, slotsPerRow);
  OpBuilder::InsertionGuard guard(b);
  Value blockId = createLinearGrid(b, loc, slots, e.c(kThreads));
  Value thread = createThreadRegion(b, loc, kThreads);
  Value chunk = e.add(e.mul(blockId, e.c(kThreads)), thread);
  ChunkEmitter emitter{b, loc, op, space, {}};
  emitter.loops.assign(extents.size(), Value());
  // Rows of whole chunks with every Vector operand aligned: the chunks as
  // they come, V columns a thread.
  Value whole = b.createOrFold<arith::CmpIOp>(
      loc, arith::CmpIPredicate::eq, e.rem(inner, e.c(space.vector)), e.c(0));
  Value aligned = peel ? emitter.emitAlignedCondition(whole) : Value();
  std::optional<int64_t> known =
      aligned ? getConstantIntValue(aligned) : std::optional<int64_t>(1);
  scf::IfOp form;
  if (!known) {
    form = scf::IfOp::create(b, loc, aligned, /*withElseRegion=*/true);
    b.setInsertionPointToStart(form.thenBlock());
  }
  if (!known || *known) {
    OpBuilder::InsertionGuard inForm(b);
    auto inside = scf::IfOp::create(b, loc, e.less(chunk, chunks));
    b.setInsertionPointToStart(inside.thenBlock());
    Value col0 = e.mul(rowExtents.empty() ? chunk : e.rem(chunk, chunksPerRow),
                       e.c(space.vector));
    if (!rowExtents.empty())
      setRowLoops(emitter, e.div(chunk, chunksPerRow), rowExtents);
    // Chunks inside their rows, operands aligned: vectors throughout.
    if (peel) {
      emitter.loops[space.order.back()] = col0;
      emitter.emitVectors(col0);
    } else {
      emitChunk(emitter, col0, inner);
    }
  }
  if (known && *known)
    return;
  // Otherwise every row peeled to the first aligned chunk of its
  // reference operand: a thread per slot.
  if (form)
    b.setInsertionPointToStart(form.elseBlock());
  auto inside = scf::IfOp::create(b, loc, e.less(chunk, slots));
  b.setInsertionPointToStart(inside.thenBlock());
  if (rowExtents.empty()) {
    emitter.emitPeeledSlot(chunk, inner);
    return;
  }
  setRowLoops(emitter, e.div(chunk, slotsPerRow), rowExtents);
  emitter.emitPeeledSlot(e.rem(chunk, slotsPerRow), inner);
}

int64_t mlir::croq::getElementwiseChunkWidth(linalg::GenericOp op) {
  return getLoopSpace(op).vector;
}

void mlir::croq::emitElementwiseChunk(OpBuilder &b, Location loc,
                                      linalg::GenericOp op,
                                      ArrayRef<Value> loops, Value col0,
                                      Value inner) {
  LoopSpace space = getLoopSpace(op);
  ChunkEmitter emitter{b, loc, op, space, llvm::to_vector(loops)};
  OpBuilder::InsertionGuard guard(b);
  emitChunk(emitter, col0, inner);
}
