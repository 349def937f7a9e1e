//===- FuseElementwise.cpp - elementwise producers fused on buffers -------===//
//
// croq-fuse-elementwise: an elementwise linalg.generic that fills a
// temporary buffer is recomputed inside each generic that reads the
// temporary, and the producer and the temporary go away.
//
//===----------------------------------------------------------------------===//

#include "DecomposeSoftmax.h"
#include "FoldUnitViews.h"
#include "HostBuffers.h"
#include "SplitTemporaries.h"

#include "Croq/Conversion/Passes.h"
#include "Croq/Dialect/Croq/IR/CroqOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "croq-fuse-elementwise"

namespace mlir {
namespace croq {
#define GEN_PASS_DEF_CROQFUSEELEMENTWISE
#include "Croq/Conversion/Passes.h.inc"
} // namespace croq
} // namespace mlir

using namespace mlir;
using namespace mlir::croq;

/// Whether `op` may write the buffer `root` (or a view of it).
static bool mayWrite(Operation *op, Value root) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return op->getNumRegions() != 0 || !isMemoryEffectFree(op);
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  for (const MemoryEffects::EffectInstance &effect : instances) {
    if (!isa<MemoryEffects::Write>(effect.getEffect()))
      continue;
    Value written = effect.getValue();
    if (!written || getRootBuffer(written) == root)
      return true;
  }
  return false;
}

/// The producer `op` can be fused into its consumers: what they are. The
/// values `op` writes into its output buffer X are read, until X is
/// written whole again or, for a temporary, to the end of its block, only
/// by generics of the same block that read X itself as inputs (a consumer
/// may then write X in place). A producer that updates X in place (reads
/// each element of X where it writes it, as bufferization leaves a chain of
/// elementwise ops into a function's result) may be fused too: its
/// consumers then read X as it was before it, so X must keep those values
/// until the last has read them (only that one writes X, in place).
static std::optional<SmallVector<linalg::GenericOp>>
getFusableConsumers(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 0 ||
      !op.hasPureBufferSemantics() ||
      !op.getRegion().front().getOps<linalg::IndexOp>().empty())
    return std::nullopt;
  OpOperand *init = op.getDpsInitOperand(0);
  Value buffer = init->get();
  AffineMap written = op.getMatchingIndexingMap(init);
  // Whether `generic` reads X, if at all, only at the elements it writes
  // (through its output's map).
  auto readsInPlace = [&](linalg::GenericOp generic, AffineMap outMap) {
    return llvm::all_of(generic.getDpsInputOperands(), [&](OpOperand *in) {
      return in->get() != buffer ||
             generic.getMatchingIndexingMap(in) == outMap;
    });
  };
  bool inPlace = llvm::is_contained(op.getDpsInputs(), buffer);
  if (!written.isPermutation() ||
      !op.getMatchingBlockArgument(init).use_empty() ||
      (inPlace && !readsInPlace(op, written)) ||
      getRootBuffer(buffer) != buffer)
    return std::nullopt;
  for (Operation &inner : op.getRegion().front().without_terminator())
    if (inner.getNumRegions() != 0 || !isMemoryEffectFree(&inner))
      return std::nullopt;
  SmallVector<linalg::GenericOp> consumers;
  bool overwritten = false;
  for (Operation *next = op->getNextNode(); next && !overwritten;
       next = next->getNextNode()) {
    if (!usesBuffer(next, buffer))
      continue;
    if (auto dealloc = dyn_cast<memref::DeallocOp>(next);
        dealloc && dealloc.getMemref() == buffer)
      break;
    overwritten = overwritesWhole(next, buffer);
    auto consumer = dyn_cast<linalg::GenericOp>(next);
    if (!consumer || !llvm::is_contained(consumer.getDpsInputs(), buffer)) {
      if (overwritten)
        break;
      return std::nullopt;
    }
    // It reads X only as inputs (or writes it whole), not through views.
    for (OpOperand &operand : consumer->getOpOperands())
      if (operand.get() != buffer && isa<MemRefType>(operand.get().getType()) &&
          getRootBuffer(operand.get()) == buffer)
        return std::nullopt;
    bool writes = llvm::is_contained(consumer.getDpsInits(), buffer);
    if (writes && !overwritesWhole(consumer, buffer))
      return std::nullopt;
    // After an in-place producer the consumer reads X as it was; writing
    // X, it must read each element where it writes it.
    if (inPlace && writes &&
        !readsInPlace(consumer, consumer.getMatchingIndexingMap(
                                    consumer.getDpsInitOperand(0))))
      return std::nullopt;
    overwritten = writes;
    consumers.push_back(consumer);
  }
  // A buffer that is not overwritten keeps the producer's values past the
  // block: only a temporary of the block may lose them.
  auto alloc = buffer.getDefiningOp<memref::AllocOp>();
  if (consumers.empty() ||
      (!overwritten && (!alloc || alloc->getBlock() != op->getBlock())))
    return std::nullopt;
  // The producer's inputs keep their values until its last consumer has
  // read them (no consumer writes them either).
  // (X itself, for an in-place producer: only its last consumer writes
  // it, in place, checked above.)
  SmallVector<Value> roots;
  for (Value input : op.getDpsInputs())
    if (isa<MemRefType>(input.getType()) && input != buffer)
      roots.push_back(getRootBuffer(input));
  Operation *last = consumers.back();
  for (Operation *between = op->getNextNode(); between != last->getNextNode();
       between = between->getNextNode())
    for (Value root : roots)
      if (mayWrite(between, root))
        return std::nullopt;
  return consumers;
}

/// Replaces `consumer` by a generic that computes `producer`'s element
/// wherever it read it from the producer's output buffer.
static void fuseInto(linalg::GenericOp producer, linalg::GenericOp consumer) {
  Value buffer = producer.getDpsInits()[0];
  AffineMap fromBuffer = inversePermutation(
      producer.getMatchingIndexingMap(producer.getDpsInitOperand(0)));
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  SmallVector<OpOperand *> reads;
  for (OpOperand *input : consumer.getDpsInputOperands()) {
    if (input->get() == buffer) {
      reads.push_back(input);
      continue;
    }
    inputs.push_back(input->get());
    maps.push_back(consumer.getMatchingIndexingMap(input));
  }
  // The producer's inputs once per read, at the producer's loops from the
  // buffer's indices as the consumer reads it.
  for (OpOperand *read : reads) {
    AffineMap toProducer =
        fromBuffer.compose(consumer.getMatchingIndexingMap(read));
    for (OpOperand *input : producer.getDpsInputOperands()) {
      inputs.push_back(input->get());
      maps.push_back(
          producer.getMatchingIndexingMap(input).compose(toProducer));
    }
  }
  for (OpOperand &init : consumer.getDpsInitsMutable())
    maps.push_back(consumer.getMatchingIndexingMap(&init));
  OpBuilder b(consumer);
  Location loc = consumer.getLoc();
  auto fused = linalg::GenericOp::create(b, loc, TypeRange{}, inputs,
                                         consumer.getDpsInits(), maps,
                                         consumer.getIteratorTypesArray());
  // The body: the producer's once per read, then the consumer's on them.
  Block *body = b.createBlock(&fused.getRegion());
  IRMapping mapping;
  auto addArgument = [&](BlockArgument arg) {
    mapping.map(arg, body->addArgument(arg.getType(), loc));
  };
  for (OpOperand *input : consumer.getDpsInputOperands())
    if (input->get() != buffer)
      addArgument(consumer.getMatchingBlockArgument(input));
  SmallVector<IRMapping> perRead(reads.size());
  for (IRMapping &readMapping : perRead)
    for (OpOperand *input : producer.getDpsInputOperands())
      readMapping.map(
          producer.getMatchingBlockArgument(input),
          body->addArgument(producer.getMatchingBlockArgument(input).getType(),
                            loc));
  for (OpOperand &init : consumer.getDpsInitsMutable())
    addArgument(consumer.getMatchingBlockArgument(&init));
  Block &producerBody = producer.getRegion().front();
  for (auto [read, readMapping] : llvm::zip(reads, perRead)) {
    for (Operation &inner : producerBody.without_terminator())
      b.clone(inner, readMapping);
    mapping.map(consumer.getMatchingBlockArgument(read),
                readMapping.lookupOrDefault(
                    producerBody.getTerminator()->getOperand(0)));
  }
  for (Operation &inner : consumer.getRegion().front())
    b.clone(inner, mapping);
  consumer.erase();
}

namespace {
struct CroqFuseElementwisePass
    : croq::impl::CroqFuseElementwiseBase<CroqFuseElementwisePass> {
  void runOnOperation() override {
    // Named elementwise ops and reductions (linalg.add, linalg.copy,
    // linalg.transpose, linalg.reduce, ...) take part as generics; fills,
    // products and convolutions stay as they are.
    SmallVector<linalg::LinalgOp> named;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (!isa<linalg::GenericOp, linalg::FillOp>(op) &&
          !op->getParentOfType<ParallelOp>() && op.hasPureBufferSemantics() &&
          !linalg::isaContractionOpInterface(op) &&
          !linalg::isaConvolutionOpInterface(op))
        named.push_back(op);
    });
    // A softmax on buffers takes part as the generics of its definition.
    SmallVector<linalg::SoftmaxOp> softmaxes;
    getOperation().walk([&](linalg::SoftmaxOp op) {
      if (!op->getParentOfType<ParallelOp>())
        softmaxes.push_back(op);
    });
    for (linalg::SoftmaxOp op : softmaxes)
      (void)decomposeSoftmax(op);
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : named) {
      rewriter.setInsertionPoint(op);
      (void)linalg::generalizeNamedOp(rewriter, op);
    }
    // Generics read and write the sources of unit-dimension reshapes, and
    // a temporary bufferization reused for a new value gets a buffer per
    // value.
    foldUnitViews(getOperation());
    splitTemporaries(getOperation());
    // Producers in order: a consumer fused first may become a producer.
    bool changed = true;
    while (changed) {
      changed = false;
      SmallVector<linalg::GenericOp> producers;
      getOperation().walk([&](linalg::GenericOp op) {
        if (!op->getParentOfType<ParallelOp>())
          producers.push_back(op);
      });
      for (linalg::GenericOp producer : producers) {
        std::optional<SmallVector<linalg::GenericOp>> consumers =
            getFusableConsumers(producer);
        if (!consumers)
          continue;
        LLVM_DEBUG(llvm::dbgs() << "fusing " << producer << " into "
                                << consumers->size() << " consumer(s)\n");
        for (linalg::GenericOp consumer : *consumers)
          fuseInto(producer, consumer);
        Value buffer = producer.getDpsInits()[0];
        producer.erase();
        // A temporary that only deallocations use now goes away.
        auto alloc = buffer.getDefiningOp<memref::AllocOp>();
        if (alloc && llvm::all_of(buffer.getUsers(), [](Operation *user) {
              return isa<memref::DeallocOp>(user);
            })) {
          for (Operation *user : llvm::make_early_inc_range(buffer.getUsers()))
            user->erase();
          alloc.erase();
        }
        changed = true;
        break;
      }
    }
  }
};
} // namespace
