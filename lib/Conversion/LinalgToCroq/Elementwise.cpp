//===- Elementwise.cpp - elementwise linalg ops as croq kernels -----------===//
//
// One croq kernel per elementwise linalg.generic. The loops are taken in
// the order of the first output's dimensions: the last one (its innermost,
// contiguous dimension) is split in chunks of V elements, V = 16 bytes of
// the widest element read or written along it, and every thread of a grid
// of 256-thread blocks computes one chunk:
//
//   croq.parallel (%bx) in [cdiv(rows * cdiv(N, V), 256)] : block {
//     croq.parallel (%t) in [256] : thread {
//       chunk = bx * 256 + t; row = chunk / cdiv(N, V); col = chunk % .. * V
//       if (col + V <= N && every vector operand is aligned) {
//         vector reads; the body once per lane; vector writes
//       } else {
//         for each lane inside the row: element reads, body, element writes
//       }
//     }
//   }
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

#include "Croq/Dialect/Croq/IR/BufferUtils.h"
#include "Croq/Dialect/Croq/IR/CroqOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/Support/raw_ostream.h"

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

TypedAttr mlir::croq::getSplatConstant(Value buffer) {
  auto get = buffer.getDefiningOp<memref::GetGlobalOp>();
  if (!get)
    return nullptr;
  auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
      get, get.getNameAttr());
  if (!global || !global.getConstant())
    return nullptr;
  auto value =
      dyn_cast_or_null<DenseElementsAttr>(global.getConstantInitValue());
  if (!value || !value.isSplat())
    return nullptr;
  return value.getSplatValue<TypedAttr>();
}

/// The byte width of `type`'s elements where a vector access can move them.
static std::optional<int64_t> getVectorElementBytes(Type type) {
  Type element = getElementTypeOrSelf(type);
  if (!element.isIntOrFloat())
    return std::nullopt;
  unsigned bits = element.getIntOrFloatBitWidth();
  if (bits < 8 || bits > 64 || !llvm::isPowerOf2_32(bits))
    return std::nullopt;
  return bits / 8;
}

/// How `operand`, indexed by `map`, is accessed by the chunks of `inner`.
static Access getAccess(Value operand, AffineMap map, unsigned inner) {
  if (getSplatConstant(operand) || !map.isFunctionOfDim(inner))
    return Access::Broadcast;
  auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
  if (!last || last.getPosition() != inner || !hasContiguousRows(operand) ||
      !getVectorElementBytes(operand.getType()))
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
    int64_t bytes = *getVectorElementBytes(operand.get().getType());
    widest = std::max(widest, bytes);
    narrowest = std::min(narrowest, bytes);
  }
  // Vector accesses move 4 to 16 bytes: the narrowest operand's chunk must
  // reach 4.
  if (widest != 0 && 16 / widest * narrowest >= 4)
    space.vector = 16 / widest;
  return space;
}

/// Whether `result` of an input map is a constant 0 (a unit dimension read
/// at 0) or a loop.
static bool isDimOrZero(AffineExpr result) {
  if (isa<AffineDimExpr>(result))
    return true;
  auto constant = dyn_cast<AffineConstantExpr>(result);
  return constant && constant.getValue() == 0;
}

std::string mlir::croq::getInputsAndBodyDecline(linalg::GenericOp op) {
  std::string reason;
  llvm::raw_string_ostream os(reason);
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (!isa<MemRefType>(input->get().getType()))
      continue;
    AffineMap map = op.getMatchingIndexingMap(input);
    if (!llvm::all_of(map.getResults(), isDimOrZero)) {
      os << "input " << input->getOperandNumber() << " is indexed by " << map
         << "; croq takes loops and constant 0s as indices";
      return reason;
    }
  }
  for (Value operand : op->getOperands()) {
    Type element = getElementTypeOrSelf(operand.getType());
    if (!element.isIntOrFloat() && isa<MemRefType>(operand.getType())) {
      os << "its operand of type " << operand.getType()
         << " has elements that are neither integers nor floats";
      return reason;
    }
  }
  for (Operation &inner : op.getRegion().front().without_terminator()) {
    if (isa<linalg::IndexOp>(inner))
      continue;
    if (inner.getNumRegions() != 0 || !isMemoryEffectFree(&inner)) {
      os << "its body's '" << inner.getName()
         << "' has regions or touches memory; croq computes bodies of pure "
            "operations";
      return reason;
    }
  }
  return reason;
}

std::string mlir::croq::getElementwiseDecline(linalg::GenericOp op) {
  std::string reason;
  llvm::raw_string_ostream os(reason);
  for (OpOperand &init : op.getDpsInitsMutable()) {
    AffineMap map = op.getMatchingIndexingMap(&init);
    if (!map.isPermutation()) {
      os << "output " << init.getOperandNumber() - op.getNumDpsInputs()
         << " is indexed by " << map
         << ", which is not a permutation of the loops";
      return reason;
    }
  }
  return getInputsAndBodyDecline(op);
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

  /// The chunk as vectors: every Vector operand read or written at once.
  void emitVectors(Value col0) {
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
        Type element = getElementTypeOrSelf(operand.get().getType());
        Value vector = ReadOp::create(b, loc, VectorType::get({width}, element),
                                      operand.get(), getIndices(map, col0),
                                      /*inBounds=*/true);
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
    for (auto [init, values] : llvm::zip(op.getDpsInitsMutable(), results)) {
      AffineMap map = op.getMatchingIndexingMap(&init);
      if (getAccess(init.get(), map, inner) == Access::Vector) {
        auto type = VectorType::get({width}, values.front().getType());
        Value vector = vector::FromElementsOp::create(b, loc, type, values);
        WriteOp::create(b, loc, vector, init.get(), getIndices(map, col0),
                        /*inBounds=*/true);
        continue;
      }
      for (int64_t lane = 0; lane < width; ++lane)
        WriteOp::create(b, loc, values[lane], init.get(),
                        getIndices(map, e.add(col0, e.c(lane))),
                        /*inBounds=*/true);
    }
  }

  /// Whether the chunk at `col0` can take the vector form: it lies inside
  /// its row, and every Vector operand's origin and row strides are
  /// aligned to V elements.
  Value emitVectorCondition(Value col0, Value inner) {
    IndexBuilder e{b, loc};
    Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule,
                                     e.add(col0, e.c(space.vector)), inner);
    for (OpOperand &operand : op->getOpOperands()) {
      if (!isa<MemRefType>(operand.get().getType()) ||
          getAccess(operand.get(), op.getMatchingIndexingMap(&operand),
                    space.order.back()) != Access::Vector)
        continue;
      int64_t bytes = *getVectorElementBytes(operand.get().getType());
      Value aligned =
          IsAlignedOp::create(b, loc, operand.get(), bytes * space.vector);
      ok = b.createOrFold<arith::AndIOp>(loc, ok, aligned);
    }
    return ok;
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
  Value chunksPerRow = e.ceilDiv(inner, space.vector);
  Value chunks = e.mul(e.product(rowExtents), chunksPerRow);
  OpBuilder::InsertionGuard guard(b);
  Value blockId = createLinearGrid(b, loc, chunks, e.c(kThreads));
  Value thread = createThreadRegion(b, loc, kThreads);
  Value chunk = e.add(e.mul(blockId, e.c(kThreads)), thread);
  auto inside = scf::IfOp::create(b, loc, e.less(chunk, chunks));
  b.setInsertionPointToStart(inside.thenBlock());

  // The chunk's loop indices: the row delinearized over the outer loops.
  ChunkEmitter emitter{b, loc, op, space, {}};
  emitter.loops.assign(extents.size(), Value());
  // One row: the chunk is the column's.
  Value row = rowExtents.empty() ? e.c(0) : e.div(chunk, chunksPerRow);
  Value col0 = e.mul(rowExtents.empty() ? chunk : e.rem(chunk, chunksPerRow),
                     e.c(space.vector));
  for (int64_t i = static_cast<int64_t>(rowExtents.size()) - 1; i >= 0; --i) {
    unsigned dim = space.order[i];
    if (i == 0) {
      emitter.loops[dim] = row;
      break;
    }
    emitter.loops[dim] = e.rem(row, rowExtents[i]);
    row = e.div(row, rowExtents[i]);
  }
  emitChunk(emitter, col0, inner);
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
