//===- FuseElementwise.cpp - elementwise producers fused on buffers -------===//
//
// croq-fuse-elementwise: an elementwise linalg.generic that fills a
// temporary buffer is recomputed inside each generic that reads the
// temporary, and the producer and the temporary go away.
//
//===----------------------------------------------------------------------===//

#include "DecomposeSoftmax.h"

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

/// The buffer `value` is a view of (through view-like ops), or itself.
static Value getRootBuffer(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  return value;
}

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

/// The producer `op` can be fused into its consumers: what they are.
static std::optional<SmallVector<linalg::GenericOp>>
getFusableConsumers(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 0 ||
      !op.hasPureBufferSemantics() ||
      !op.getRegion().front().getOps<linalg::IndexOp>().empty())
    return std::nullopt;
  OpOperand *init = op.getDpsInitOperand(0);
  Value temporary = init->get();
  auto alloc = temporary.getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc->getBlock() != op->getBlock() ||
      !op.getMatchingIndexingMap(init).isPermutation() ||
      !op.getMatchingBlockArgument(init).use_empty() ||
      llvm::is_contained(op.getDpsInputs(), temporary))
    return std::nullopt;
  for (Operation &inner : op.getRegion().front().without_terminator())
    if (inner.getNumRegions() != 0 || !isMemoryEffectFree(&inner))
      return std::nullopt;
  SmallVector<linalg::GenericOp> consumers;
  for (OpOperand &use : temporary.getUses()) {
    Operation *user = use.getOwner();
    if (user == op || isa<memref::DeallocOp>(user))
      continue;
    auto consumer = dyn_cast<linalg::GenericOp>(user);
    if (!consumer || consumer->getBlock() != op->getBlock() ||
        !op->isBeforeInBlock(consumer) || !consumer.isDpsInput(&use) ||
        llvm::count(consumer->getOperands(), temporary) != 1)
      return std::nullopt;
    consumers.push_back(consumer);
  }
  if (consumers.empty())
    return std::nullopt;
  // The producer's inputs keep their values until its last consumer.
  Operation *last = consumers.front();
  for (linalg::GenericOp consumer : consumers)
    if (last->isBeforeInBlock(consumer))
      last = consumer;
  SmallVector<Value> roots;
  for (Value input : op.getDpsInputs())
    if (isa<MemRefType>(input.getType()))
      roots.push_back(getRootBuffer(input));
  for (Operation *between = op->getNextNode(); between != last;
       between = between->getNextNode())
    for (Value root : roots)
      if (mayWrite(between, root))
        return std::nullopt;
  return consumers;
}

/// Replaces `consumer` by a generic that computes `producer`'s element
/// instead of reading it from the temporary.
static void fuseInto(linalg::GenericOp producer, linalg::GenericOp consumer) {
  Value temporary = producer.getDpsInits()[0];
  OpOperand *read = nullptr;
  for (OpOperand *input : consumer.getDpsInputOperands())
    if (input->get() == temporary)
      read = input;
  // Producer loops from the temporary's indices, as the consumer reads it.
  AffineMap toProducer = inversePermutation(producer.getMatchingIndexingMap(
                                                producer.getDpsInitOperand(0)))
                             .compose(consumer.getMatchingIndexingMap(read));
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (OpOperand *input : consumer.getDpsInputOperands()) {
    if (input == read)
      continue;
    inputs.push_back(input->get());
    maps.push_back(consumer.getMatchingIndexingMap(input));
  }
  for (OpOperand *input : producer.getDpsInputOperands()) {
    inputs.push_back(input->get());
    maps.push_back(producer.getMatchingIndexingMap(input).compose(toProducer));
  }
  for (OpOperand &init : consumer.getDpsInitsMutable())
    maps.push_back(consumer.getMatchingIndexingMap(&init));
  OpBuilder b(consumer);
  Location loc = consumer.getLoc();
  auto fused = linalg::GenericOp::create(b, loc, TypeRange{}, inputs,
                                         consumer.getDpsInits(), maps,
                                         consumer.getIteratorTypesArray());
  // The body: the producer's, then the consumer's on its result.
  Block *body = b.createBlock(&fused.getRegion());
  IRMapping mapping;
  for (OpOperand *input : consumer.getDpsInputOperands())
    if (input != read)
      mapping.map(consumer.getMatchingBlockArgument(input),
                  body->addArgument(
                      consumer.getMatchingBlockArgument(input).getType(), loc));
  for (OpOperand *input : producer.getDpsInputOperands())
    mapping.map(producer.getMatchingBlockArgument(input),
                body->addArgument(
                    producer.getMatchingBlockArgument(input).getType(), loc));
  for (OpOperand &init : consumer.getDpsInitsMutable())
    mapping.map(consumer.getMatchingBlockArgument(&init),
                body->addArgument(
                    consumer.getMatchingBlockArgument(&init).getType(), loc));
  for (Operation &inner : producer.getRegion().front().without_terminator())
    b.clone(inner, mapping);
  Value element = mapping.lookupOrDefault(
      producer.getRegion().front().getTerminator()->getOperand(0));
  mapping.map(consumer.getMatchingBlockArgument(read), element);
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
        Value temporary = producer.getDpsInits()[0];
        producer.erase();
        for (Operation *user : llvm::make_early_inc_range(temporary.getUsers()))
          user->erase(); // the deallocations
        temporary.getDefiningOp()->erase();
        changed = true;
        break;
      }
    }
  }
};
} // namespace
