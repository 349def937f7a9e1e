//===- Reduction.h - linalg reductions as croq kernels ----------*- C++ -*-===//
//
// What convert-linalg-to-croq emits for a linalg.generic with reduction
// loops (linalg.reduce and the named reductions become such generics
// first): one croq kernel that computes every element of its outputs.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_LIB_CONVERSION_LINALGTOCROQ_REDUCTION_H
#define CROQ_LIB_CONVERSION_LINALGTOCROQ_REDUCTION_H

#include "Elementwise.h"
#include "IndexBuilder.h"

#include "Croq/Dialect/Croq/IR/CroqOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

#include <string>

namespace mlir {
namespace croq {

/// Why the reduction kernel cannot compute `op` (a linalg.generic on
/// memrefs with reduction loops), or an empty string if it can.
std::string getReductionDecline(linalg::GenericOp op);

/// Emits, before `op`, the croq kernel that computes it. Where the first
/// input's innermost dimension is reduced and every output's body combines
/// its element with one associative op (addf, maximumf, ...), a warp
/// computes each output element: its lanes reduce interleaved parts of the
/// reduction loops and combine them with shuffles. Otherwise each thread
/// computes one output element in loop order (coalesced where the reduced
/// dimensions are outer ones). With `start` (the value of a linalg.fill of
/// the output right before), the reduction starts from it instead of the
/// output's elements. `op` must have passed getReductionDecline; it is not
/// erased.
void emitReductionKernel(OpBuilder &b, linalg::GenericOp op,
                         Value start = Value());

/// The associative op that combines an output's element in a reduction's
/// body (`yield c(x, out)`), and its kind.
using Combiner = std::pair<Operation *, arith::AtomicRMWKind>;

/// The combiners of every output of `op` (of at most 32 bits, which
/// shuffles move), or none if one has none.
SmallVector<Combiner> getCombiners(linalg::GenericOp op);

/// `combiner` (a clone of it) applied to `lhs` and `rhs`, as its first and
/// second operands.
Value combineValues(OpBuilder &b, Operation *combiner, Value lhs, Value rhs);

/// Combines `value` across the lanes of a warp with `combiner` (five
/// butterfly shuffles): every lane gets the result.
Value emitWarpCombine(OpBuilder &b, Location loc, Value value,
                      Operation *combiner);

/// Emits the body of one thread (or warp) of a reduction kernel.
struct ReductionEmitter {
  OpBuilder &b;
  Location loc;
  linalg::GenericOp op;
  /// The value of every loop at the current point.
  SmallVector<Value> loops;

  /// `operand`'s indices at `loops`.
  SmallVector<Value> getIndices(OpOperand &operand) {
    IndexBuilder e{b, loc};
    SmallVector<Value> indices;
    for (AffineExpr result : op.getMatchingIndexingMap(&operand).getResults()) {
      auto dim = dyn_cast<AffineDimExpr>(result);
      indices.push_back(dim ? loops[dim.getPosition()] : e.c(0));
    }
    return indices;
  }

  /// `operand`'s element at `loops` (a scalar operand itself).
  Value read(OpOperand &operand) {
    if (TypedAttr splat = getSplatConstant(operand.get()))
      return arith::ConstantOp::create(b, loc, splat);
    if (!isa<MemRefType>(operand.get().getType()))
      return operand.get();
    return ReadOp::create(b, loc, getElementTypeOrSelf(operand.get().getType()),
                          operand.get(), getIndices(operand),
                          /*inBounds=*/true);
  }

  /// Clones the body at `loops` with the inputs read (or, for the block
  /// arguments in `given`, those values) and the outputs' block arguments
  /// bound to `accumulators`, leaving out the ops in `skip`; returns the
  /// mapping.
  IRMapping cloneBody(ValueRange accumulators, ArrayRef<Operation *> skip = {},
                      const llvm::DenseMap<Value, Value> &given =
                          llvm::DenseMap<Value, Value>()) {
    IRMapping mapping;
    Block &body = op.getRegion().front();
    for (OpOperand *input : op.getDpsInputOperands()) {
      BlockArgument arg = op.getMatchingBlockArgument(input);
      auto it = given.find(arg);
      mapping.map(arg, it != given.end() ? it->second : read(*input));
    }
    for (auto [init, acc] : llvm::zip(op.getDpsInitsMutable(), accumulators))
      if (acc)
        mapping.map(op.getMatchingBlockArgument(&init), acc);
    for (Operation &inner : body.without_terminator()) {
      if (llvm::is_contained(skip, &inner))
        continue;
      if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
        mapping.map(index.getResult(), loops[index.getDim()]);
        continue;
      }
      b.clone(inner, mapping);
    }
    return mapping;
  }

  /// Sets the loops of `dims` from `linear`, a position in their row-major
  /// order with `extents`.
  void delinearize(Value linear, ArrayRef<unsigned> dims,
                   ArrayRef<Value> extents) {
    IndexBuilder e{b, loc};
    for (int64_t i = static_cast<int64_t>(dims.size()) - 1; i >= 0; --i) {
      if (i == 0) {
        loops[dims[0]] = linear;
        break;
      }
      loops[dims[i]] = e.rem(linear, extents[dims[i]]);
      linear = e.div(linear, extents[dims[i]]);
    }
  }

  /// The output elements at `loops`.
  SmallVector<Value> readOutputs() {
    SmallVector<Value> values;
    for (OpOperand &init : op.getDpsInitsMutable())
      values.push_back(read(init));
    return values;
  }

  void writeOutputs(ValueRange values) {
    for (auto [init, value] : llvm::zip(op.getDpsInitsMutable(), values))
      WriteOp::create(b, loc, value, init.get(), getIndices(init),
                      /*inBounds=*/true);
  }

  /// The body over the reduction loops `dims` (outermost first) in order,
  /// from `accumulators`; returns the results.
  SmallVector<Value> emitSequential(ArrayRef<unsigned> dims,
                                    ArrayRef<Value> extents,
                                    ValueRange accumulators) {
    if (dims.empty()) {
      IRMapping mapping = cloneBody(accumulators);
      SmallVector<Value> results;
      for (Value yielded :
           op.getRegion().front().getTerminator()->getOperands())
        results.push_back(mapping.lookupOrDefault(yielded));
      return results;
    }
    IndexBuilder e{b, loc};
    auto loop = scf::ForOp::create(b, loc, e.c(0), extents[dims.front()],
                                   e.c(1), accumulators);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    loops[dims.front()] = loop.getInductionVar();
    SmallVector<Value> results =
        emitSequential(dims.drop_front(), extents, loop.getRegionIterArgs());
    scf::YieldOp::create(b, loc, results);
    return SmallVector<Value>(loop.getResults());
  }
};

/// `partials` with each output's element of the body at the emitter's loops
/// folded in by its combiner (`given`: block arguments already read), each
/// element replaced by its identity where `inside` is false.
SmallVector<Value> foldElement(ReductionEmitter &emitter,
                               ArrayRef<Combiner> combiners,
                               ValueRange partials, ArrayRef<Value> identities,
                               const llvm::DenseMap<Value, Value> &given,
                               Value inside = Value());

} // namespace croq
} // namespace mlir

#endif // CROQ_LIB_CONVERSION_LINALGTOCROQ_REDUCTION_H
