//===- Reduction.cpp - linalg reductions as croq kernels ------------------===//
//
// One croq kernel per linalg.generic with reduction loops. The output
// elements (the parallel loops, in the first output's order) are spread
// over the grid in one of two ways:
//
// - By warps, where the first input's innermost dimension is a reduction
//   loop (a row sum, max or norm) and every output combines its element
//   with one associative op (`yield addf(f(inputs), out)`): the 32 lanes of
//   a warp walk the reduction loops interleaved, so that each step reads 32
//   consecutive elements, each lane folds its elements into a partial from
//   the op's identity, the partials are combined by five butterfly
//   shuffles, and lane 0 combines the sum with the output's element.
//
// - By threads, otherwise: each thread runs the body over the reduction
//   loops in order, from the output's element, as linalg defines it; where
//   the reduced dimensions are outer ones (a column sum), neighbouring
//   threads read neighbouring elements.
//
//===----------------------------------------------------------------------===//

#include "Reduction.h"
#include "Elementwise.h"
#include "ExtentChecks.h"
#include "IndexBuilder.h"
#include "KernelRegions.h"

#include "Croq/Dialect/Croq/IR/CroqOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::croq;

/// Threads of a block of a reduction kernel, and of a warp.
static constexpr int64_t kThreads = 256;
static constexpr int64_t kWarp = 32;

/// Whether a loop of iterator type `type` is parallel.
static bool isParallelLoop(utils::IteratorType type) {
  return type == utils::IteratorType::parallel;
}

/// The associative op that combines an output's element in `op`'s body
/// (`yield c(x, out)` with `out` used by `c` alone), and its kind.
static std::optional<std::pair<Operation *, arith::AtomicRMWKind>>
getCombiner(linalg::GenericOp op, OpOperand &init) {
  BlockArgument out = op.getMatchingBlockArgument(&init);
  Block &body = op.getRegion().front();
  unsigned result = init.getOperandNumber() - op.getNumDpsInputs();
  Operation *combiner =
      body.getTerminator()->getOperand(result).getDefiningOp();
  if (!combiner || combiner->getBlock() != &body || !out.hasOneUse() ||
      combiner->getNumOperands() != 2 ||
      llvm::count(combiner->getOperands(), out) != 1)
    return std::nullopt;
  using Kind = arith::AtomicRMWKind;
  std::optional<Kind> kind =
      llvm::TypeSwitch<Operation *, std::optional<Kind>>(combiner)
          .Case([](arith::AddFOp) { return Kind::addf; })
          .Case([](arith::MulFOp) { return Kind::mulf; })
          .Case([](arith::MaximumFOp) { return Kind::maximumf; })
          .Case([](arith::MinimumFOp) { return Kind::minimumf; })
          .Case([](arith::MaxNumFOp) { return Kind::maxnumf; })
          .Case([](arith::MinNumFOp) { return Kind::minnumf; })
          .Case([](arith::AddIOp) { return Kind::addi; })
          .Case([](arith::MulIOp) { return Kind::muli; })
          .Case([](arith::MaxSIOp) { return Kind::maxs; })
          .Case([](arith::MinSIOp) { return Kind::mins; })
          .Case([](arith::MaxUIOp) { return Kind::maxu; })
          .Case([](arith::MinUIOp) { return Kind::minu; })
          .Case([](arith::AndIOp) { return Kind::andi; })
          .Case([](arith::OrIOp) { return Kind::ori; })
          .Default([](Operation *) { return std::nullopt; });
  if (!kind)
    return std::nullopt;
  return std::make_pair(combiner, *kind);
}

std::string mlir::croq::getReductionDecline(linalg::GenericOp op) {
  std::string reason;
  llvm::raw_string_ostream os(reason);
  for (OpOperand &init : op.getDpsInitsMutable()) {
    AffineMap map = op.getMatchingIndexingMap(&init);
    llvm::SmallBitVector seen(op.getNumLoops());
    for (AffineExpr result : map.getResults()) {
      auto dim = dyn_cast<AffineDimExpr>(result);
      auto constant = dyn_cast<AffineConstantExpr>(result);
      if ((!dim && (!constant || constant.getValue() != 0)) ||
          (dim &&
           (seen.test(dim.getPosition()) ||
            !isParallelLoop(op.getIteratorTypesArray()[dim.getPosition()])))) {
        os << "output " << init.getOperandNumber() - op.getNumDpsInputs()
           << " is indexed by " << map
           << "; croq takes outputs indexed by each parallel loop once";
        return reason;
      }
      if (dim)
        seen.set(dim.getPosition());
    }
    if (seen.count() != op.getNumParallelLoops()) {
      os << "output " << init.getOperandNumber() - op.getNumDpsInputs()
         << " is indexed by " << map
         << ", which leaves out parallel loops; croq takes outputs indexed by "
            "each parallel loop once";
      return reason;
    }
  }
  // Inputs and bodies as the elementwise kernel takes them.
  return getInputsAndBodyDecline(op);
}

SmallVector<Combiner> mlir::croq::getCombiners(linalg::GenericOp op) {
  SmallVector<Combiner> combiners;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    // Shuffles move at most 32 bits.
    auto combiner = getCombiner(op, init);
    if (!combiner ||
        op.getMatchingBlockArgument(&init).getType().getIntOrFloatBitWidth() >
            32)
      return {};
    combiners.push_back(*combiner);
  }
  return combiners;
}

/// The warp version's loop of one lane: from the identities, its elements
/// `lane`, `lane + 32`, ... of the reduction loops folded in.
static SmallVector<Value> emitLanePartials(ReductionEmitter &emitter,
                                           ArrayRef<unsigned> dims,
                                           ArrayRef<Value> extents, Value lane,
                                           ArrayRef<Combiner> combiners) {
  OpBuilder &b = emitter.b;
  Location loc = emitter.loc;
  IndexBuilder e{b, loc};
  linalg::GenericOp op = emitter.op;
  SmallVector<Value> identities;
  for (auto [init, combiner] : llvm::zip(op.getDpsInitsMutable(), combiners))
    identities.push_back(arith::getIdentityValue(
        combiner.second, op.getMatchingBlockArgument(&init).getType(), b, loc));
  SmallVector<Value> dimExtents;
  for (unsigned dim : dims)
    dimExtents.push_back(extents[dim]);
  Value total = e.product(dimExtents);
  auto loop = scf::ForOp::create(b, loc, lane, total, e.c(kWarp), identities);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  emitter.delinearize(loop.getInductionVar(), dims, extents);
  SmallVector<Value> partials =
      foldElement(emitter, combiners, loop.getRegionIterArgs(), identities,
                  llvm::DenseMap<Value, Value>());
  scf::YieldOp::create(b, loc, partials);
  return SmallVector<Value>(loop.getResults());
}

SmallVector<Value>
mlir::croq::foldElement(ReductionEmitter &emitter, ArrayRef<Combiner> combiners,
                        ValueRange partials, ArrayRef<Value> identities,
                        const llvm::DenseMap<Value, Value> &given,
                        Value inside) {
  OpBuilder &b = emitter.b;
  linalg::GenericOp op = emitter.op;
  SmallVector<Operation *> skip;
  for (const Combiner &combiner : combiners)
    skip.push_back(combiner.first);
  SmallVector<Value> none(op.getNumDpsInits(), Value());
  IRMapping mapping = emitter.cloneBody(none, skip, given);
  SmallVector<Value> folded;
  for (auto [init, combiner, partial, identity] :
       llvm::zip(op.getDpsInitsMutable(), combiners, partials, identities)) {
    BlockArgument out = op.getMatchingBlockArgument(&init);
    Operation *c = combiner.first;
    Value element =
        c->getOperand(0) == out ? c->getOperand(1) : c->getOperand(0);
    Value value = mapping.lookupOrDefault(element);
    if (inside)
      value = arith::SelectOp::create(b, emitter.loc, inside, value, identity);
    IRMapping combine;
    combine.map(out, partial);
    combine.map(element, value);
    folded.push_back(b.clone(*c, combine)->getResult(0));
  }
  return folded;
}

Value mlir::croq::combineValues(OpBuilder &b, Operation *combiner, Value lhs,
                                Value rhs) {
  IRMapping combine;
  combine.map(combiner->getOperand(0), lhs);
  combine.map(combiner->getOperand(1), rhs);
  return b.clone(*combiner, combine)->getResult(0);
}

Value mlir::croq::emitWarpCombine(OpBuilder &b, Location loc, Value value,
                                  Operation *combiner) {
  Value width = arith::ConstantIntOp::create(b, loc, kWarp, 32);
  // Shuffles move 32 bits: narrower values travel zero-extended.
  Type type = value.getType();
  unsigned bits = type.getIntOrFloatBitWidth();
  Type i32 = b.getI32Type();
  for (int64_t offset = kWarp / 2; offset > 0; offset /= 2) {
    Value distance = arith::ConstantIntOp::create(b, loc, offset, 32);
    Value moved = value;
    if (bits < 32) {
      moved = arith::BitcastOp::create(b, loc, b.getIntegerType(bits), moved);
      moved = arith::ExtUIOp::create(b, loc, i32, moved);
    }
    Value other = gpu::ShuffleOp::create(b, loc, moved, distance, width,
                                         gpu::ShuffleMode::XOR)
                      .getShuffleResult();
    if (bits < 32) {
      other = arith::TruncIOp::create(b, loc, b.getIntegerType(bits), other);
      other = arith::BitcastOp::create(b, loc, type, other);
    }
    value = combineValues(b, combiner, value, other);
  }
  return value;
}

void mlir::croq::emitReductionKernel(OpBuilder &b, linalg::GenericOp op,
                                     Value start) {
  Location loc = op.getLoc();
  IndexBuilder e{b, loc};
  SmallVector<Value> extents;
  for (Range range :
       cast<linalg::LinalgOp>(op.getOperation()).createLoopRanges(b, loc))
    extents.push_back(getValueOrCreateConstantIndexOp(b, loc, range.size));
  requireOperandExtents(b, loc, op, extents);
  // The parallel loops in the first output's order, the reduction loops in
  // loop order with the first input's innermost one last.
  SmallVector<unsigned> parallel, reduction;
  for (AffineExpr result :
       op.getMatchingIndexingMap(op.getDpsInitOperand(0)).getResults())
    if (auto dim = dyn_cast<AffineDimExpr>(result))
      parallel.push_back(dim.getPosition());
  std::optional<unsigned> innermost;
  if (op.getNumDpsInputs() != 0 &&
      isa<MemRefType>(op.getDpsInputOperand(0)->get().getType())) {
    AffineMap map = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
    if (map.getNumResults() != 0)
      if (auto dim = dyn_cast<AffineDimExpr>(map.getResults().back());
          dim && !isParallelLoop(op.getIteratorTypesArray()[dim.getPosition()]))
        innermost = dim.getPosition();
  }
  for (unsigned dim = 0; dim < op.getNumLoops(); ++dim)
    if (!isParallelLoop(op.getIteratorTypesArray()[dim]) && dim != innermost)
      reduction.push_back(dim);
  if (innermost)
    reduction.push_back(*innermost);
  SmallVector<Combiner> combiners;
  if (innermost)
    combiners = getCombiners(op);
  // One warp or one thread per output element.
  int64_t perBlock = combiners.empty() ? kThreads : kThreads / kWarp;
  SmallVector<Value> parallelExtents;
  for (unsigned dim : parallel)
    parallelExtents.push_back(extents[dim]);
  Value outputs = e.product(parallelExtents);
  OpBuilder::InsertionGuard guard(b);
  Value blockId = createLinearGrid(b, loc, outputs, e.c(perBlock));
  Value thread = createThreadRegion(b, loc, kThreads);
  Value worker = combiners.empty() ? thread : e.div(thread, e.c(kWarp));
  Value output = e.add(e.mul(blockId, e.c(perBlock)), worker);
  // Uniform over a warp in the warp version: its shuffles need every lane.
  auto inside = scf::IfOp::create(b, loc, e.less(output, outputs));
  b.setInsertionPointToStart(inside.thenBlock());
  ReductionEmitter emitter{b, loc, op, {}};
  emitter.loops.assign(op.getNumLoops(), Value());
  emitter.delinearize(output, parallel, extents);
  if (combiners.empty()) {
    SmallVector<Value> initial =
        start ? SmallVector<Value>{start} : emitter.readOutputs();
    emitter.writeOutputs(emitter.emitSequential(reduction, extents, initial));
    return;
  }
  Value lane = e.rem(thread, e.c(kWarp));
  SmallVector<Value> partials =
      emitLanePartials(emitter, reduction, extents, lane, combiners);
  SmallVector<Value> totals;
  for (auto [partial, combiner] : llvm::zip(partials, combiners))
    totals.push_back(emitWarpCombine(b, loc, partial, combiner.first));
  auto first = scf::IfOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, e.c(0)));
  b.setInsertionPointToStart(first.thenBlock());
  // The loops of the output's element (the reduction loops are not read).
  SmallVector<Value> results;
  for (auto [init, total, combiner] :
       llvm::zip(op.getDpsInitsMutable(), totals, combiners)) {
    Value current = start ? start : emitter.read(init);
    results.push_back(combineValues(b, combiner.first, current, total));
  }
  emitter.writeOutputs(results);
}
