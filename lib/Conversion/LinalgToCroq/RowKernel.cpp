//===- RowKernel.cpp - the kernel of a row chain
//---------------------------===//
//
// The kernels of a row chain (RowChains.cpp): where a row fits, the
// register form of RowRegisters.cpp; otherwise the streaming form here:
// blocks of 256 threads in groups of 32 to 256, each group one row, which
// run the chain's ops in order with a block barrier between them. A
// reduction folds each thread's columns (16-byte chunks where aligned),
// combines each warp by shuffles and the group's warps through a shared
// tile; an elementwise op computes the row in vector chunks; an op over
// per-row values runs on the group's first thread. Row lengths known only
// at run time get a kernel per form and a host branch between them.
//
//===----------------------------------------------------------------------===//

#include "Elementwise.h"
#include "ExtentChecks.h"
#include "IndexBuilder.h"
#include "KernelRegions.h"
#include "Reduction.h"
#include "RowChains.h"

#include "Croq/Dialect/Croq/IR/BufferUtils.h"
#include "Croq/Dialect/Croq/IR/CroqOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::croq;

/// Threads of a row's block, and of a warp.
static constexpr int64_t kThreads = kRowThreads;
static constexpr int64_t kWarp = 32;

namespace {
/// Emits the ops of a chain for the row of one group of threads. A block of
/// 256 threads holds 256 / T groups of T threads (T from 32 to 256, a
/// power of two: about 8 elements of a row per thread), each computing one
/// row; every group runs every op, rows past the end doing nothing
/// between the block's barriers.
struct RowEmitter {
  OpBuilder &b;
  Location loc;
  /// The group's row; whether it is one; the thread's index in its group;
  /// the group's threads.
  Value row, valid, thread, groupThreads;
  /// The thread's warp in the block, the group's first warp, the group's
  /// warps.
  Value warp, firstWarp, groupWarps;

  /// The loops of `member` at the group's row (getRowLoops).
  SmallVector<Value> getRowLoops(RowMember member, ArrayRef<Value> extents) {
    return croq::getRowLoops(b, loc, member, row, extents);
  }

  /// An scf.if on `condition` (the group's row exists, by default) whose
  /// body is where `b` inserts until the guard goes.
  scf::IfOp openIf(Value condition = Value()) {
    auto op = scf::IfOp::create(b, loc, condition ? condition : valid);
    b.setInsertionPointToStart(op.thenBlock());
    return op;
  }
  Value isFirstThread() {
    IndexBuilder e{b, loc};
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, thread,
                                 e.c(0));
  }

  void emitReduction(RowMember member, ArrayRef<Value> extents,
                     ArrayRef<Value> scratch);
  scf::ForOp emitChunkLoop(ReductionEmitter &emitter,
                           ArrayRef<Combiner> combiners,
                           ArrayRef<Value> identities, Value columns);
  void emitElementwise(RowMember member, ArrayRef<Value> extents);
  void emitPerRow(RowMember member, ArrayRef<Value> extents);
};
} // namespace

/// The inputs of a row reduction that its chunks read as vectors: indexed
/// by the columns' loop last, with contiguous rows of 1- to 8-byte
/// elements.
static SmallVector<OpOperand *> getVectorInputs(linalg::GenericOp op) {
  SmallVector<OpOperand *> inputs;
  unsigned columns = op.getNumLoops() - 1;
  for (OpOperand *input : op.getDpsInputOperands()) {
    Value value = input->get();
    AffineMap map = op.getMatchingIndexingMap(input);
    Type element = getElementTypeOrSelf(value.getType());
    if (!isa<MemRefType>(value.getType()) || getSplatConstant(value) ||
        map.getNumResults() == 0 || !element.isIntOrFloat() ||
        !hasContiguousRows(value))
      continue;
    auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
    unsigned bits = element.getIntOrFloatBitWidth();
    if (last && last.getPosition() == columns && bits >= 8 && bits <= 64 &&
        llvm::isPowerOf2_32(bits))
      inputs.push_back(input);
  }
  return inputs;
}

/// The elements of a chunk: 16 bytes of the widest vector input (at least
/// 4 bytes of the narrowest), 1 without vector inputs.
static int64_t getChunkWidth(ArrayRef<OpOperand *> inputs) {
  int64_t widest = 0, narrowest = 8;
  for (OpOperand *input : inputs) {
    int64_t bytes =
        getElementTypeOrSelf(input->get().getType()).getIntOrFloatBitWidth() /
        8;
    widest = std::max(widest, bytes);
    narrowest = std::min(narrowest, bytes);
  }
  if (widest == 0 || 16 / widest * narrowest < 4)
    return 1;
  return 16 / widest;
}

/// Each thread's columns of a row reduction folded from the identities, a
/// chunk of V columns a step: read as vectors where the chunk lies inside
/// the row and the vector inputs are aligned, element by element (clamped
/// into the row, the identity past it) otherwise.
scf::ForOp RowEmitter::emitChunkLoop(ReductionEmitter &emitter,
                                     ArrayRef<Combiner> combiners,
                                     ArrayRef<Value> identities,
                                     Value columns) {
  IndexBuilder e{b, loc};
  linalg::GenericOp op = emitter.op;
  unsigned columnLoop = op.getNumLoops() - 1;
  SmallVector<OpOperand *> vectorInputs = getVectorInputs(op);
  int64_t width = getChunkWidth(vectorInputs);
  auto loop = scf::ForOp::create(b, loc, e.mul(thread, e.c(width)), columns,
                                 e.mul(groupThreads, e.c(width)), identities);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value col0 = loop.getInductionVar();
  if (width == 1) {
    emitter.loops[columnLoop] = col0;
    scf::YieldOp::create(b, loc,
                         foldElement(emitter, combiners,
                                     loop.getRegionIterArgs(), identities,
                                     llvm::DenseMap<Value, Value>()));
    return loop;
  }
  Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule,
                                       e.add(col0, e.c(width)), columns);
  for (OpOperand *input : vectorInputs) {
    int64_t bytes =
        getElementTypeOrSelf(input->get().getType()).getIntOrFloatBitWidth() /
        8;
    inside = b.createOrFold<arith::AndIOp>(
        loc, inside, IsAlignedOp::create(b, loc, input->get(), bytes * width));
  }
  TypeRange types = loop.getResultTypes();
  auto chunk = scf::IfOp::create(b, loc, types, inside, /*withElse=*/true);
  {
    // The chunk as vectors.
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPointToStart(chunk.thenBlock());
    emitter.loops[columnLoop] = col0;
    SmallVector<Value> vectors;
    for (OpOperand *input : vectorInputs) {
      Type element = getElementTypeOrSelf(input->get().getType());
      vectors.push_back(ReadOp::create(b, loc,
                                       VectorType::get({width}, element),
                                       input->get(), emitter.getIndices(*input),
                                       /*inBounds=*/true));
    }
    SmallVector<Value> partials(loop.getRegionIterArgs());
    for (int64_t lane = 0; lane < width; ++lane) {
      emitter.loops[columnLoop] = e.add(col0, e.c(lane));
      llvm::DenseMap<Value, Value> given;
      for (auto [input, vector] : llvm::zip(vectorInputs, vectors))
        given[op.getMatchingBlockArgument(input)] =
            vector::ExtractOp::create(b, loc, vector, lane);
      partials = foldElement(emitter, combiners, partials, identities, given);
    }
    scf::YieldOp::create(b, loc, partials);
  }
  {
    // Element by element, at the row's end or where unaligned.
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPointToStart(chunk.elseBlock());
    Value last = e.sub(columns, e.c(1));
    SmallVector<Value> partials(loop.getRegionIterArgs());
    for (int64_t lane = 0; lane < width; ++lane) {
      Value col = e.add(col0, e.c(lane));
      emitter.loops[columnLoop] = e.min(col, last);
      partials =
          foldElement(emitter, combiners, partials, identities,
                      llvm::DenseMap<Value, Value>(), e.less(col, columns));
    }
    scf::YieldOp::create(b, loc, partials);
  }
  scf::YieldOp::create(b, loc, chunk.getResults());
  return loop;
}

void RowEmitter::emitReduction(RowMember member, ArrayRef<Value> extents,
                               ArrayRef<Value> scratch) {
  IndexBuilder e{b, loc};
  linalg::GenericOp op = member.op;
  SmallVector<Combiner> combiners = getCombiners(op);
  ReductionEmitter emitter{b, loc, op, {}};
  unsigned columns = op.getNumLoops() - 1;
  {
    // Each thread's columns folded from the identities; each warp's
    // partials combined by shuffles into the scratch tiles.
    OpBuilder::InsertionGuard guard(b);
    openIf();
    emitter.loops = getRowLoops(member, extents);
    SmallVector<Value> identities;
    for (auto [init, combiner] : llvm::zip(op.getDpsInitsMutable(), combiners))
      identities.push_back(arith::getIdentityValue(
          combiner.second, op.getMatchingBlockArgument(&init).getType(), b,
          loc));
    scf::ForOp loop =
        emitChunkLoop(emitter, combiners, identities, extents[columns]);
    SmallVector<Value> warpTotals;
    for (auto [partial, combiner] : llvm::zip(loop.getResults(), combiners))
      warpTotals.push_back(emitWarpCombine(b, loc, partial, combiner.first));
    Value lane = e.rem(thread, e.c(kWarp));
    openIf(
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, e.c(0)));
    for (auto [total, tile] : llvm::zip(warpTotals, scratch))
      WriteOp::create(b, loc, total, tile, ValueRange{warp}, /*inBounds=*/true);
  }
  BarrierOp::create(b, loc, ParallelLevel::Block);
  // The group's warps' partials, combined by every thread in one order; the
  // first thread combines the totals with the output's elements.
  OpBuilder::InsertionGuard guard(b);
  openIf();
  emitter.loops = getRowLoops(member, extents);
  SmallVector<Value> totals;
  for (auto [tile, combiner] : llvm::zip(scratch, combiners)) {
    Type type = cast<TileType>(tile.getType()).getElementType();
    Value first = ReadOp::create(b, loc, type, tile, ValueRange{firstWarp},
                                 /*inBounds=*/true);
    auto fold = scf::ForOp::create(b, loc, e.c(1), groupWarps, e.c(1),
                                   ValueRange{first});
    {
      OpBuilder::InsertionGuard inner(b);
      b.setInsertionPointToStart(fold.getBody());
      Value other =
          ReadOp::create(b, loc, type, tile,
                         ValueRange{e.add(firstWarp, fold.getInductionVar())},
                         /*inBounds=*/true);
      scf::YieldOp::create(
          b, loc,
          combineValues(b, combiner.first, fold.getRegionIterArgs()[0], other));
    }
    totals.push_back(fold.getResult(0));
  }
  openIf(isFirstThread());
  SmallVector<Value> results;
  for (auto [init, total, combiner] :
       llvm::zip(op.getDpsInitsMutable(), totals, combiners)) {
    Value current =
        member.start ? member.start.getDpsInputs()[0] : emitter.read(init);
    results.push_back(combineValues(b, combiner.first, current, total));
  }
  emitter.writeOutputs(results);
}

void RowEmitter::emitElementwise(RowMember member, ArrayRef<Value> extents) {
  IndexBuilder e{b, loc};
  OpBuilder::InsertionGuard guard(b);
  openIf();
  linalg::GenericOp op = member.op;
  int64_t width = getElementwiseChunkWidth(op);
  Value columns = extents[op.getNumLoops() - 1];
  auto loop = scf::ForOp::create(b, loc, e.mul(thread, e.c(width)), columns,
                                 e.mul(groupThreads, e.c(width)));
  b.setInsertionPointToStart(loop.getBody());
  emitElementwiseChunk(b, loc, op, getRowLoops(member, extents),
                       loop.getInductionVar(), columns);
}

void RowEmitter::emitPerRow(RowMember member, ArrayRef<Value> extents) {
  OpBuilder::InsertionGuard guard(b);
  openIf();
  openIf(isFirstThread());
  ReductionEmitter emitter{b, loc, member.op, getRowLoops(member, extents)};
  emitter.writeOutputs(
      emitter.emitSequential({}, extents, emitter.readOutputs()));
}

/// The threads of a row's group for `columns` (about 8 elements a thread):
/// 32 up to 256 columns, then 64, 128, 256 from 1024; 256 where the columns
/// are known only at run time (a group size that is a value measured twice
/// as slow on an H200: its loops' steps are values too).
static Value getGroupThreads(IndexBuilder &e, Value columns) {
  std::optional<int64_t> known = getConstantIntValue(columns);
  int64_t threads = kThreads;
  for (int64_t t = kThreads / 2; known && t >= kWarp; t /= 2)
    if (*known <= t * 8)
      threads = t;
  return e.c(threads);
}

/// The register forms of a chain of chunk width `width` over `columns`,
/// the first whose groups hold a row to be taken: a warp per row up to 32
/// elements a thread (no block barriers), then groups of 128 and 256
/// threads with 16 elements a thread (more kept registers and
/// occupancy: measured faster than 32 on 4096 f16 columns), then 256
/// threads with 32. For a known row length, only the form taken, with the
/// slots its rows need.
static SmallVector<RegisterRows> getRegisterShapes(Value columns,
                                                   int64_t width) {
  SmallVector<RegisterRows> shapes;
  for (auto [threads, elements] : {std::pair<int64_t, int64_t>{kWarp, 32},
                                   {128, 16},
                                   {kThreads, 16},
                                   {kThreads, 32}})
    shapes.push_back({width, threads, std::max<int64_t>(1, elements / width)});
  std::optional<int64_t> known = getConstantIntValue(columns);
  if (!known)
    return shapes;
  if (*known == 0)
    return {};
  int64_t chunks = *known / width;
  for (RegisterRows shape : shapes) {
    if (chunks > shape.groupThreads * shape.slots)
      continue;
    shape.slots =
        std::max<int64_t>(1, llvm::divideCeil(chunks, shape.groupThreads));
    return {shape};
  }
  return {};
}

/// Emits the streaming form of a chain (rows too long for registers, or of
/// unknown length): groups of `groupThreads` threads that read each op's
/// operands from memory, with a block barrier between the ops.
static void emitStreamingRows(OpBuilder &b, Location loc, const RowChain &chain,
                              ArrayRef<SmallVector<Value>> extents, Value rows,
                              Value block, Value thread, Value groupThreads,
                              ArrayRef<SmallVector<Value>> scratch) {
  IndexBuilder e{b, loc};
  Value groups = e.div(e.c(kThreads), groupThreads);
  Value group = e.div(thread, groupThreads);
  Value row = e.add(e.mul(block, groups), group);
  Value groupWarps = e.div(groupThreads, e.c(kWarp));
  RowEmitter emitter{b,
                     loc,
                     row,
                     e.less(row, rows),
                     e.rem(thread, groupThreads),
                     groupThreads,
                     e.div(thread, e.c(kWarp)),
                     e.mul(group, groupWarps),
                     groupWarps};
  // The barriers are outside the ifs: every thread of the block reaches
  // them.
  for (auto [i, member] : llvm::enumerate(chain.members)) {
    if (i != 0)
      BarrierOp::create(b, loc, ParallelLevel::Block);
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

/// Emits the kernel of `chain` in the register form `shape`, or in the
/// streaming form where there is none.
static void emitFormKernel(OpBuilder &b, Location loc, const RowChain &chain,
                           ArrayRef<SmallVector<Value>> extents, Value rows,
                           std::optional<RegisterRows> shape) {
  IndexBuilder e{b, loc};
  RowMember first = chain.members.front();
  Value columns = extents.front()[first.op.getNumLoops() - 1];
  Value groupThreads =
      shape ? e.c(shape->groupThreads) : getGroupThreads(e, columns);
  OpBuilder::InsertionGuard guard(b);
  Value block =
      createLinearGrid(b, loc, rows, e.div(e.c(kThreads), groupThreads));
  // A tile of the warps' partials for each output of each reduction.
  SmallVector<SmallVector<Value>> scratch;
  for (RowMember member : chain.members) {
    SmallVector<Value> tiles;
    if (member.kind == RowMember::Reduction &&
        (!shape || shape->groupThreads > kWarp))
      for (Value init : member.op.getDpsInits()) {
        auto type = TileType::get(b.getContext(), {kThreads / kWarp},
                                  getElementTypeOrSelf(init.getType()),
                                  MemorySpace::Shared, Swizzle::None);
        tiles.push_back(
            AllocOp::create(b, loc, type, /*offset=*/nullptr).getResult());
      }
    scratch.push_back(tiles);
  }
  Value thread = createThreadRegion(b, loc, kThreads);
  if (shape)
    emitRegisterRows(b, loc, chain, extents, *shape, block, thread, rows,
                     scratch);
  else
    emitStreamingRows(b, loc, chain, extents, rows, block, thread, groupThreads,
                      scratch);
}

void mlir::croq::emitRowChainKernel(OpBuilder &b, const RowChain &chain) {
  b.setInsertionPoint(RowMember(chain.members.back()).op);
  Location loc = RowMember(chain.members.front()).op.getLoc();
  IndexBuilder e{b, loc};
  // Every op's loop extents on the host, checked against its operands.
  SmallVector<SmallVector<Value>> extents;
  for (RowMember member : chain.members) {
    SmallVector<Value> sizes;
    for (Range range : cast<linalg::LinalgOp>(member.op.getOperation())
                           .createLoopRanges(b, loc))
      sizes.push_back(getValueOrCreateConstantIndexOp(b, loc, range.size));
    requireOperandExtents(b, loc, member.op, sizes);
    extents.push_back(sizes);
  }
  RowMember first = chain.members.front();
  MemberShape shape = getShape(first.op, first.kind, *getLoopKeys(first.op));
  SmallVector<Value> rowExtents;
  for (unsigned dim : shape.rowLoops)
    rowExtents.push_back(extents.front()[dim]);
  Value rows = e.product(rowExtents);
  Value columns = extents.front()[first.op.getNumLoops() - 1];
  std::optional<int64_t> width = getRegisterWidth(chain);
  SmallVector<RegisterRows> shapes;
  if (width)
    shapes = getRegisterShapes(columns, *width);
  // A kernel per form, each with the registers it needs; the host launches
  // the first register form whose groups hold a row (rows and columns
  // present), else the streaming one.
  OpBuilder::InsertionGuard guard(b);
  auto isNonZero = [&](Value value) {
    return b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ne, value,
                                         e.c(0));
  };
  Value present =
      b.createOrFold<arith::AndIOp>(loc, isNonZero(rows), isNonZero(columns));
  for (RegisterRows rowShape : shapes) {
    Value fits = b.createOrFold<arith::CmpIOp>(
        loc, arith::CmpIPredicate::ule, e.div(columns, e.c(rowShape.width)),
        e.c(rowShape.groupThreads * rowShape.slots));
    fits = b.createOrFold<arith::AndIOp>(loc, fits, present);
    std::optional<int64_t> known = getConstantIntValue(fits);
    if (known && *known == 0)
      continue;
    if (known) {
      emitFormKernel(b, loc, chain, extents, rows, rowShape);
      return;
    }
    auto choice = scf::IfOp::create(b, loc, fits, /*withElse=*/true);
    b.setInsertionPoint(choice.thenBlock()->getTerminator());
    emitFormKernel(b, loc, chain, extents, rows, rowShape);
    b.setInsertionPoint(choice.elseBlock()->getTerminator());
  }
  emitFormKernel(b, loc, chain, extents, rows, std::nullopt);
}
