//===- RowRegisters.cpp - row chains computed from registers --------------===//
//
// The register form of a row chain's kernel (RowKernel.cpp picks it when a
// row fits): a group of G threads (32 to 256) computes one row, each thread
// holding its part of the row in registers from the first op that reads it
// to the last. A thread's part is K slots of V consecutive columns (16-byte
// chunks) and one edge column:
//
//   p = columns before the first aligned chunk (the row's start peeled off)
//   M = (N - p) / V full chunks after them; chunk j at column p + j * V
//   slot k of thread t: chunk t + k * G, if that is below M
//   edge of thread t: column t of the head (t < p), or of the tail after
//                     the last full chunk (p + M * V + t - p), if any
//
// so chunks are read and written as vectors whatever a row's alignment,
// wherever an operand's row starts as misaligned as the first input's
// (the split is RowPeeling.h's, shared with the elementwise kernel).
// Rows and per-row values that the chain writes stay in registers: buffers
// it only uses itself (device temporaries) are never written, and its ops
// need no barriers between them. A reduction combines its warps by
// shuffles, and the group's warps through a shared tile behind one block
// barrier (none when the group is one warp).
//
//===----------------------------------------------------------------------===//

#include "RowChains.h"

#include "Elementwise.h"
#include "IndexBuilder.h"
#include "Reduction.h"
#include "RowPeeling.h"

#include "Croq/Dialect/Croq/IR/BufferUtils.h"
#include "Croq/Dialect/Croq/IR/CroqOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::croq;

static constexpr int64_t kWarp = 32;

/// Whether `operand` of `op` is read or written along the columns in
/// vectors: a contiguous buffer whose last index is the columns' loop.
static bool isVectorOperand(linalg::GenericOp op, OpOperand &operand) {
  Value value = operand.get();
  AffineMap map = op.getMatchingIndexingMap(&operand);
  if (!isa<MemRefType>(value.getType()) || getSplatConstant(value) ||
      map.getNumResults() == 0 || !getVectorBytes(value) ||
      !hasContiguousRows(value))
    return false;
  auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
  return last && last.getPosition() == op.getNumLoops() - 1;
}

/// Whether `operand` of `op` has an element per column.
static bool isColumnOperand(linalg::GenericOp op, OpOperand &operand) {
  return isa<MemRefType>(operand.get().getType()) &&
         !getSplatConstant(operand.get()) &&
         op.getMatchingIndexingMap(&operand).isFunctionOfDim(op.getNumLoops() -
                                                             1);
}

/// Whether the kernel may leave `buffer` unwritten: an allocation that only
/// the chain's ops, their starting fills and its deallocation use.
static bool isChainTemporary(Value buffer, const RowChain &chain) {
  if (!buffer.getDefiningOp<memref::AllocOp>())
    return false;
  for (Operation *user : buffer.getUsers()) {
    bool isMember = llvm::any_of(chain.members, [&](RowMember member) {
      return member.op == user || member.start == user;
    });
    if (!isMember && !isa<memref::DeallocOp>(user))
      return false;
  }
  return true;
}

std::optional<int64_t> mlir::croq::getRegisterWidth(const RowChain &chain) {
  int64_t widest = 0;
  for (RowMember member : chain.members) {
    linalg::GenericOp op = member.op;
    for (OpOperand &operand : op->getOpOperands()) {
      // An elementwise op's outputs hold an element per column.
      if (member.kind == RowMember::Elementwise && op.isDpsInit(&operand) &&
          !isColumnOperand(op, operand))
        return std::nullopt;
      if (isVectorOperand(op, operand) &&
          !isChainTemporary(operand.get(), chain))
        widest = std::max(widest, getVectorBytes(operand.get()));
    }
  }
  if (widest == 0)
    return std::nullopt;
  return 16 / widest;
}

namespace {
/// Emits the chain's ops for the row of one group of G threads, each
/// thread's lanes (K slots of V columns, then the edge column) in
/// registers.
struct RegisterRowEmitter {
  RegisterRowEmitter(OpBuilder &b, Location loc, const RowChain &chain,
                     RegisterRows shape)
      : b(b), loc(loc), chain(chain), shape(shape) {}
  OpBuilder &b;
  Location loc;
  const RowChain &chain;
  RegisterRows shape;
  /// The group's row (the last one for groups past the end), whether it
  /// exists, the thread's index in its group, its warp in the block, the
  /// group's first warp, the row's columns.
  Value row, valid, thread, warp, firstWarp, columns;
  /// Per slot, its first column and whether it holds a full chunk; the
  /// edge column and whether the thread has one.
  SmallVector<Value> slotColumns, slotInside;
  Value edgeColumn, edgeInside;
  /// The misalignment (in elements, modulo V) of the first vector input's
  /// row: operands misaligned alike are read as vectors.
  Value shift;
  /// The lanes of the rows, and the per-row values, the chain has read or
  /// written.
  llvm::DenseMap<Value, SmallVector<Value>> rowValues;
  llvm::DenseMap<Value, Value> perRowValues;

  int64_t getLaneCount() const { return shape.slots * shape.width + 1; }
  Value getLaneColumn(int64_t lane) {
    IndexBuilder e{b, loc};
    if (lane == shape.slots * shape.width)
      return edgeColumn;
    return e.add(slotColumns[lane / shape.width], e.c(lane % shape.width));
  }

  SmallVector<Value> getLoops(RowMember member, ArrayRef<Value> extents);
  Value getMisalignment(Value buffer, ArrayRef<Value> indices);
  void setUp(RowMember first, ArrayRef<Value> extents);
  SmallVector<Value> getIndices(linalg::GenericOp op, OpOperand &operand,
                                ArrayRef<Value> loops, Value column);
  Value isVectorAligned(linalg::GenericOp op, OpOperand &operand,
                        ArrayRef<Value> loops);
  SmallVector<Value> getRow(linalg::GenericOp op, OpOperand &operand,
                            ArrayRef<Value> loops);
  Value getPerRow(linalg::GenericOp op, OpOperand &operand,
                  ArrayRef<Value> loops);
  void storeRow(linalg::GenericOp op, OpOperand &init, ArrayRef<Value> loops,
                ArrayRef<Value> lanes);
  void storePerRow(linalg::GenericOp op, OpOperand &init, ArrayRef<Value> loops,
                   Value value);
  void emitReduction(RowMember member, ArrayRef<Value> extents,
                     ArrayRef<Value> scratch);
  void emitElementwise(RowMember member, ArrayRef<Value> extents);
  void emitPerRow(RowMember member, ArrayRef<Value> extents);
};
} // namespace

/// The loops of `member` at the group's row, the columns' loop unset.
SmallVector<Value> RegisterRowEmitter::getLoops(RowMember member,
                                                ArrayRef<Value> extents) {
  return getRowLoops(b, loc, member, row, extents);
}

/// The address of `buffer[indices]` in elements, modulo V.
Value RegisterRowEmitter::getMisalignment(Value buffer,
                                          ArrayRef<Value> indices) {
  return emitMisalignment(b, loc, buffer, indices, shape.width);
}

/// `operand`'s indices at `loops`, the columns' loop at `column`.
SmallVector<Value> RegisterRowEmitter::getIndices(linalg::GenericOp op,
                                                  OpOperand &operand,
                                                  ArrayRef<Value> loops,
                                                  Value column) {
  IndexBuilder e{b, loc};
  SmallVector<Value> indices;
  unsigned columnLoop = op.getNumLoops() - 1;
  for (AffineExpr result : op.getMatchingIndexingMap(&operand).getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(result);
    if (!dim)
      indices.push_back(e.c(0));
    else if (dim.getPosition() == columnLoop)
      indices.push_back(column);
    else
      indices.push_back(loops[dim.getPosition()]);
  }
  return indices;
}

/// Whether `operand`'s chunks at the slots' columns are aligned vectors.
Value RegisterRowEmitter::isVectorAligned(linalg::GenericOp op,
                                          OpOperand &operand,
                                          ArrayRef<Value> loops) {
  IndexBuilder e{b, loc};
  Value misalignment =
      getMisalignment(operand.get(), getIndices(op, operand, loops, e.c(0)));
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, misalignment,
                               shift);
}

/// Sets the lanes' columns from the first member's first vector input.
void RegisterRowEmitter::setUp(RowMember first, ArrayRef<Value> extents) {
  IndexBuilder e{b, loc};
  int64_t width = shape.width;
  shift = e.c(0);
  SmallVector<Value> loops = getLoops(first, extents);
  for (OpOperand *input : first.op.getDpsInputOperands())
    if (isVectorOperand(first.op, *input)) {
      shift = getMisalignment(input->get(),
                              getIndices(first.op, *input, loops, e.c(0)));
      break;
    }
  PeeledRow peeled = PeeledRow::create(b, loc, shift, columns, width);
  for (int64_t k = 0; k < shape.slots; ++k) {
    Value chunk = e.add(thread, e.c(k * shape.groupThreads));
    slotColumns.push_back(e.add(peeled.head, e.mul(chunk, e.c(width))));
    slotInside.push_back(e.less(chunk, peeled.chunks));
  }
  edgeColumn = peeled.getEdgeColumn(b, loc, thread);
  edgeInside = e.less(thread, peeled.edges);
}

/// The row of `operand` (an element per column) at `loops`, packed: a
/// V-element vector per slot, then the edge element. The chain's values
/// where it wrote or read them, read from memory otherwise.
SmallVector<Value> RegisterRowEmitter::getRow(linalg::GenericOp op,
                                              OpOperand &operand,
                                              ArrayRef<Value> loops) {
  auto it = rowValues.find(operand.get());
  if (it != rowValues.end())
    return it->second;
  IndexBuilder e{b, loc};
  Value buffer = operand.get();
  Type element = getElementTypeOrSelf(buffer.getType());
  int64_t width = shape.width;
  auto type = VectorType::get({width}, element);
  bool isVector = isVectorOperand(op, operand);
  Value aligned = isVector ? isVectorAligned(op, operand, loops) : Value();
  auto readElement = [&](Value column) {
    return ReadOp::create(b, loc, element, buffer,
                          getIndices(op, operand, loops, column),
                          /*inBounds=*/true)
        .getResult();
  };
  auto readElements = [&](Value first) {
    SmallVector<Value> lanes;
    for (int64_t lane = 0; lane < width; ++lane)
      lanes.push_back(readElement(e.add(first, e.c(lane))));
    scf::YieldOp::create(
        b, loc,
        vector::FromElementsOp::create(b, loc, type, lanes).getResult());
  };
  SmallVector<Value> packed;
  for (int64_t k = 0; k < shape.slots; ++k) {
    Value column = slotColumns[k];
    auto inside = scf::IfOp::create(b, loc, TypeRange{type}, slotInside[k],
                                    /*withElse=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(inside.elseBlock());
    scf::YieldOp::create(
        b, loc,
        arith::ConstantOp::create(b, loc, cast<TypedAttr>(b.getZeroAttr(type)))
            .getResult());
    b.setInsertionPointToStart(inside.thenBlock());
    if (!isVector) {
      readElements(column);
    } else {
      auto vector = scf::IfOp::create(b, loc, TypeRange{type}, aligned,
                                      /*withElse=*/true);
      scf::YieldOp::create(b, loc, vector.getResults());
      b.setInsertionPointToStart(vector.elseBlock());
      readElements(column);
      b.setInsertionPointToStart(vector.thenBlock());
      scf::YieldOp::create(
          b, loc,
          ReadOp::create(b, loc, type, buffer,
                         getIndices(op, operand, loops, column),
                         /*inBounds=*/true)
              .getResult());
    }
    packed.push_back(inside.getResult(0));
  }
  auto edge = scf::IfOp::create(b, loc, TypeRange{element}, edgeInside,
                                /*withElse=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(edge.thenBlock());
    scf::YieldOp::create(b, loc, readElement(edgeColumn));
    b.setInsertionPointToStart(edge.elseBlock());
    scf::YieldOp::create(b, loc,
                         arith::ConstantOp::create(
                             b, loc, cast<TypedAttr>(b.getZeroAttr(element)))
                             .getResult());
  }
  packed.push_back(edge.getResult(0));
  rowValues[buffer] = packed;
  return packed;
}

/// Lane `lane` of a row packed as getRow packs it.
static Value getLane(OpBuilder &b, Location loc, ArrayRef<Value> packed,
                     int64_t lane) {
  auto type = cast<VectorType>(packed.front().getType());
  int64_t width = type.getNumElements();
  if (lane / width == static_cast<int64_t>(packed.size()) - 1)
    return packed.back();
  return vector::ExtractOp::create(b, loc, packed[lane / width], lane % width);
}

/// The value of `operand` (no element per column) at `loops`.
Value RegisterRowEmitter::getPerRow(linalg::GenericOp op, OpOperand &operand,
                                    ArrayRef<Value> loops) {
  auto it = perRowValues.find(operand.get());
  if (it != perRowValues.end())
    return it->second;
  ReductionEmitter reader{b, loc, op, llvm::to_vector(loops)};
  return reader.read(operand);
}

/// Writes the lanes of output `init` at `loops`, unless the chain keeps it.
void RegisterRowEmitter::storeRow(linalg::GenericOp op, OpOperand &init,
                                  ArrayRef<Value> loops,
                                  ArrayRef<Value> lanes) {
  IndexBuilder e{b, loc};
  int64_t width = shape.width;
  auto type = VectorType::get({width}, lanes.front().getType());
  SmallVector<Value> packed;
  for (int64_t k = 0; k < shape.slots; ++k)
    packed.push_back(vector::FromElementsOp::create(
        b, loc, type, lanes.slice(k * width, width)));
  packed.push_back(lanes.back());
  rowValues[init.get()] = packed;
  if (isChainTemporary(init.get(), chain))
    return;
  bool isVector = isVectorOperand(op, init);
  Value aligned = isVector ? isVectorAligned(op, init, loops) : Value();
  auto writeElement = [&](Value value, Value column) {
    WriteOp::create(b, loc, value, init.get(),
                    getIndices(op, init, loops, column), /*inBounds=*/true);
  };
  auto writeElements = [&](int64_t k) {
    for (int64_t lane = 0; lane < width; ++lane)
      writeElement(lanes[k * width + lane], e.add(slotColumns[k], e.c(lane)));
  };
  for (int64_t k = 0; k < shape.slots; ++k) {
    OpBuilder::InsertionGuard guard(b);
    auto inside = scf::IfOp::create(
        b, loc, arith::AndIOp::create(b, loc, slotInside[k], valid));
    b.setInsertionPointToStart(inside.thenBlock());
    if (!isVector) {
      writeElements(k);
      continue;
    }
    auto vector = scf::IfOp::create(b, loc, aligned, /*withElse=*/true);
    b.setInsertionPointToStart(vector.elseBlock());
    writeElements(k);
    b.setInsertionPointToStart(vector.thenBlock());
    WriteOp::create(b, loc, packed[k], init.get(),
                    getIndices(op, init, loops, slotColumns[k]),
                    /*inBounds=*/true);
  }
  OpBuilder::InsertionGuard guard(b);
  auto edge = scf::IfOp::create(
      b, loc, arith::AndIOp::create(b, loc, edgeInside, valid));
  b.setInsertionPointToStart(edge.thenBlock());
  writeElement(lanes.back(), edgeColumn);
}

/// Keeps `value` for output `init` at `loops`; the group's first thread
/// writes it unless the chain keeps it.
void RegisterRowEmitter::storePerRow(linalg::GenericOp op, OpOperand &init,
                                     ArrayRef<Value> loops, Value value) {
  perRowValues[init.get()] = value;
  if (isChainTemporary(init.get(), chain))
    return;
  IndexBuilder e{b, loc};
  Value first =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, thread, e.c(0));
  OpBuilder::InsertionGuard guard(b);
  auto write =
      scf::IfOp::create(b, loc, arith::AndIOp::create(b, loc, first, valid));
  b.setInsertionPointToStart(write.thenBlock());
  ReductionEmitter writer{b, loc, op, llvm::to_vector(loops)};
  WriteOp::create(b, loc, value, init.get(), writer.getIndices(init),
                  /*inBounds=*/true);
}

/// The inputs of `op` as block arguments' values for lane `lane`, from
/// `rows` (the packed rows of inputs with columns) and `scalars`.
static llvm::DenseMap<Value, Value>
getLaneArguments(OpBuilder &b, Location loc, linalg::GenericOp op,
                 const llvm::DenseMap<OpOperand *, SmallVector<Value>> &rows,
                 const llvm::DenseMap<OpOperand *, Value> &scalars,
                 int64_t lane) {
  llvm::DenseMap<Value, Value> given;
  for (OpOperand *input : op.getDpsInputOperands()) {
    BlockArgument arg = op.getMatchingBlockArgument(input);
    if (arg.use_empty()) {
      // Unread: any value stands for it (folded away).
      given[arg] = arith::ConstantOp::create(
          b, loc, cast<TypedAttr>(b.getZeroAttr(arg.getType())));
      continue;
    }
    auto it = rows.find(input);
    given[op.getMatchingBlockArgument(input)] =
        it != rows.end() ? getLane(b, loc, it->second, lane)
                         : scalars.lookup(input);
  }
  return given;
}

void RegisterRowEmitter::emitReduction(RowMember member,
                                       ArrayRef<Value> extents,
                                       ArrayRef<Value> scratch) {
  IndexBuilder e{b, loc};
  linalg::GenericOp op = member.op;
  SmallVector<Combiner> combiners = getCombiners(op);
  unsigned columnLoop = op.getNumLoops() - 1;
  SmallVector<Value> loops = getLoops(member, extents);
  llvm::DenseMap<OpOperand *, SmallVector<Value>> rows;
  llvm::DenseMap<OpOperand *, Value> scalars;
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (op.getMatchingBlockArgument(input).use_empty())
      continue;
    if (isColumnOperand(op, *input))
      rows[input] = getRow(op, *input, loops);
    else
      scalars[input] = getPerRow(op, *input, loops);
  }
  SmallVector<Value> identities;
  for (auto [init, combiner] : llvm::zip(op.getDpsInitsMutable(), combiners))
    identities.push_back(arith::getIdentityValue(
        combiner.second, op.getMatchingBlockArgument(&init).getType(), b, loc));
  // Each slot folded from the identities, then into the thread's partials
  // where it holds a chunk.
  ReductionEmitter emitter{b, loc, op, loops};
  SmallVector<Value> partials(identities);
  for (int64_t k = 0; k <= shape.slots; ++k) {
    bool isEdge = k == shape.slots;
    int64_t count = isEdge ? 1 : shape.width;
    SmallVector<Value> slot(identities);
    for (int64_t i = 0; i < count; ++i) {
      int64_t lane = k * shape.width + i;
      emitter.loops[columnLoop] = getLaneColumn(lane);
      slot = foldElement(emitter, combiners, slot, identities,
                         getLaneArguments(b, loc, op, rows, scalars, lane));
    }
    Value inside = isEdge ? edgeInside : slotInside[k];
    for (auto [partial, value, identity, combiner] :
         llvm::zip(partials, slot, identities, combiners))
      partial = combineValues(
          b, combiner.first, partial,
          arith::SelectOp::create(b, loc, inside, value, identity));
  }
  // The warps' totals; the group's, through the scratch tiles.
  SmallVector<Value> totals;
  for (auto [partial, combiner] : llvm::zip(partials, combiners))
    totals.push_back(emitWarpCombine(b, loc, partial, combiner.first));
  int64_t groupWarps = shape.groupThreads / kWarp;
  if (groupWarps > 1) {
    {
      OpBuilder::InsertionGuard guard(b);
      Value lane = e.rem(thread, e.c(kWarp));
      auto first = scf::IfOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane,
                                e.c(0)));
      b.setInsertionPointToStart(first.thenBlock());
      for (auto [total, tile] : llvm::zip(totals, scratch))
        WriteOp::create(b, loc, total, tile, ValueRange{warp},
                        /*inBounds=*/true);
    }
    BarrierOp::create(b, loc, ParallelLevel::Block);
    for (auto [total, tile, combiner] : llvm::zip(totals, scratch, combiners)) {
      Type type = cast<TileType>(tile.getType()).getElementType();
      total = ReadOp::create(b, loc, type, tile, ValueRange{firstWarp},
                             /*inBounds=*/true);
      for (int64_t w = 1; w < groupWarps; ++w) {
        Value other = ReadOp::create(b, loc, type, tile,
                                     ValueRange{e.add(firstWarp, e.c(w))},
                                     /*inBounds=*/true);
        total = combineValues(b, combiner.first, total, other);
      }
    }
  }
  for (auto [init, total, combiner] :
       llvm::zip(op.getDpsInitsMutable(), totals, combiners)) {
    Value current = member.start ? member.start.getDpsInputs()[0]
                                 : getPerRow(op, init, loops);
    storePerRow(op, init, loops,
                combineValues(b, combiner.first, current, total));
  }
}

void RegisterRowEmitter::emitElementwise(RowMember member,
                                         ArrayRef<Value> extents) {
  linalg::GenericOp op = member.op;
  unsigned columnLoop = op.getNumLoops() - 1;
  SmallVector<Value> loops = getLoops(member, extents);
  llvm::DenseMap<OpOperand *, SmallVector<Value>> rows;
  llvm::DenseMap<OpOperand *, Value> scalars;
  for (OpOperand &operand : op->getOpOperands()) {
    if (op.getMatchingBlockArgument(&operand).use_empty())
      continue;
    if (isColumnOperand(op, operand))
      rows[&operand] = getRow(op, operand, loops);
    else
      scalars[&operand] = getPerRow(op, operand, loops);
  }
  ReductionEmitter emitter{b, loc, op, loops};
  SmallVector<SmallVector<Value>> results(op.getNumDpsInits());
  for (int64_t lane = 0; lane < getLaneCount(); ++lane) {
    emitter.loops[columnLoop] = getLaneColumn(lane);
    SmallVector<Value> accumulators;
    for (OpOperand &init : op.getDpsInitsMutable()) {
      auto it = rows.find(&init);
      accumulators.push_back(it != rows.end()
                                 ? getLane(b, loc, it->second, lane)
                                 : scalars.lookup(&init));
    }
    IRMapping mapping = emitter.cloneBody(
        accumulators, {}, getLaneArguments(b, loc, op, rows, scalars, lane));
    for (auto [i, yielded] :
         llvm::enumerate(op.getRegion().front().getTerminator()->getOperands()))
      results[i].push_back(mapping.lookupOrDefault(yielded));
  }
  for (auto [init, lanes] : llvm::zip(op.getDpsInitsMutable(), results))
    storeRow(op, init, loops, lanes);
}

void RegisterRowEmitter::emitPerRow(RowMember member, ArrayRef<Value> extents) {
  linalg::GenericOp op = member.op;
  SmallVector<Value> loops = getLoops(member, extents);
  llvm::DenseMap<Value, Value> given;
  for (OpOperand *input : op.getDpsInputOperands()) {
    BlockArgument arg = op.getMatchingBlockArgument(input);
    given[arg] =
        arg.use_empty()
            ? arith::ConstantOp::create(
                  b, loc, cast<TypedAttr>(b.getZeroAttr(arg.getType())))
                  .getResult()
            : getPerRow(op, *input, loops);
  }
  SmallVector<Value> accumulators;
  for (OpOperand &init : op.getDpsInitsMutable())
    accumulators.push_back(op.getMatchingBlockArgument(&init).use_empty()
                               ? Value()
                               : getPerRow(op, init, loops));
  ReductionEmitter emitter{b, loc, op, loops};
  IRMapping mapping = emitter.cloneBody(accumulators, {}, given);
  for (auto [init, yielded] :
       llvm::zip(op.getDpsInitsMutable(),
                 op.getRegion().front().getTerminator()->getOperands()))
    storePerRow(op, init, loops, mapping.lookupOrDefault(yielded));
}

void mlir::croq::emitRegisterRows(OpBuilder &b, Location loc,
                                  const RowChain &chain,
                                  ArrayRef<SmallVector<Value>> extents,
                                  RegisterRows shape, Value block,
                                  Value blockThread, Value rows,
                                  ArrayRef<SmallVector<Value>> scratch) {
  IndexBuilder e{b, loc};
  RowMember first = chain.members.front();
  Value groupThreads = e.c(shape.groupThreads);
  Value group = e.div(blockThread, groupThreads);
  Value row = e.add(e.mul(block, e.c(kRowThreads / shape.groupThreads)), group);
  Value last = e.sub(rows, e.c(1));
  RegisterRowEmitter emitter(b, loc, chain, shape);
  emitter.row = e.min(row, last);
  emitter.valid = e.less(row, rows);
  emitter.thread = e.rem(blockThread, groupThreads);
  emitter.warp = e.div(blockThread, e.c(kWarp));
  emitter.firstWarp = e.mul(group, e.c(shape.groupThreads / kWarp));
  emitter.columns = extents.front()[first.op.getNumLoops() - 1];
  emitter.setUp(first, extents.front());
  for (auto [i, member] : llvm::enumerate(chain.members)) {
    switch (member.kind) {
    case RowMember::Reduction:
      emitter.emitReduction(member, extents[i], scratch[i]);
      break;
    case RowMember::Elementwise:
      emitter.emitElementwise(member, extents[i]);
      break;
    case RowMember::PerRow:
      emitter.emitPerRow(member, extents[i]);
      break;
    }
  }
}
