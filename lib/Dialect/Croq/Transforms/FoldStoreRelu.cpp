//===- FoldStoreRelu.cpp - a map's final ReLU folded into its store -------===//
//
// Implements croq-fold-store-relu: a croq.mma.map whose body ends in
// arith.maximumf(x, +0.0), stored by croq.mma.store into f16 or bf16, yields
// x instead and the store clamps negative elements in its conversion
// (cvt.rn.relu), one instruction less per element.
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/CroqOps.h"
#include "Croq/Dialect/Croq/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

namespace mlir {
namespace croq {
#define GEN_PASS_DEF_CROQFOLDSTORERELU
#include "Croq/Dialect/Croq/Transforms/Passes.h.inc"
} // namespace croq
} // namespace mlir

using namespace mlir;
using namespace mlir::croq;

/// croq.mma.store (croq.mma.map {... maximumf(x, +0.0)})
///   =>  croq.mma.store relu (croq.mma.map {... x})
/// where the store converts f32 to f16 or bf16, the map's result is used by
/// the store alone and the maximum's by the map's yield alone.
static void foldReluIntoStore(MmaStoreOp store) {
  if (store.getRelu())
    return;
  Type destElement =
      cast<ShapedType>(store.getDest().getType()).getElementType();
  if (!store.getAcc().getType().getElementType().isF32() ||
      !isa<Float16Type, BFloat16Type>(destElement))
    return;
  auto map = store.getAcc().getDefiningOp<MmaMapOp>();
  if (!map || !map.getResult().hasOneUse())
    return;
  auto yield = cast<YieldOp>(map.getBody().front().getTerminator());
  auto max = yield.getOperand(0).getDefiningOp<arith::MaximumFOp>();
  if (!max || !max->hasOneUse())
    return;
  Value kept;
  if (matchPattern(max.getRhs(), m_PosZeroFloat()))
    kept = max.getLhs();
  else if (matchPattern(max.getLhs(), m_PosZeroFloat()))
    kept = max.getRhs();
  else
    return;
  yield->setOperand(0, kept);
  max.erase();
  store.setRelu(true);
}

namespace {
struct CroqFoldStoreReluPass
    : croq::impl::CroqFoldStoreReluBase<CroqFoldStoreReluPass> {
  void runOnOperation() override {
    // Only the matched ops change: nothing else is folded or removed.
    getOperation()->walk(foldReluIntoStore);
  }
};
} // namespace
