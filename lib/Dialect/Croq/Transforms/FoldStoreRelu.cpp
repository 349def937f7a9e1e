//===- FoldStoreRelu.cpp - a map's final ReLU folded into its store -------===//
//
// Implements croq-fold-store-relu: a croq.mma.map whose body ends in
// arith.maximumf(x, +0.0), stored by croq.mma.store into f16 or bf16 (whole,
// or in column parts taken by croq.mma.slice), yields x instead and the
// stores clamp negative elements in their conversion (cvt.rn.relu), one
// instruction less per element.
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

/// Whether `store` converts f32 to f16 or bf16 and does not clamp yet.
static bool canClamp(MmaStoreOp store) {
  Type destElement =
      cast<ShapedType>(store.getDest().getType()).getElementType();
  return !store.getRelu() &&
         store.getAcc().getType().getElementType().isF32() &&
         isa<Float16Type, BFloat16Type>(destElement);
}

/// The store that is the only use of `value` and can clamp, or null.
static MmaStoreOp getOnlyStore(Value value) {
  if (!value.hasOneUse())
    return {};
  auto store = dyn_cast<MmaStoreOp>(*value.getUsers().begin());
  if (!store || store.getAcc() != value || !canClamp(store))
    return {};
  return store;
}

/// The stores of `map`'s result where it is stored and nothing else: by
/// one croq.mma.store, or in column parts, each croq.mma.slice of it
/// stored by one. Empty otherwise, or where a store cannot clamp.
static SmallVector<MmaStoreOp> getOnlyStores(MmaMapOp map) {
  Value result = map.getResult();
  if (MmaStoreOp store = getOnlyStore(result))
    return {store};
  SmallVector<MmaStoreOp> stores;
  for (Operation *user : result.getUsers()) {
    auto slice = dyn_cast<MmaSliceOp>(user);
    MmaStoreOp store = slice ? getOnlyStore(slice.getResult()) : MmaStoreOp();
    if (!store)
      return {};
    stores.push_back(store);
  }
  return stores;
}

/// croq.mma.store (croq.mma.map {... maximumf(x, +0.0)})
///   =>  croq.mma.store relu (croq.mma.map {... x})
/// where the store converts f32 to f16 or bf16, the map's result is used by
/// the store alone (or by slices each stored alone, every store then
/// clamping) and the maximum's by the map's yield alone.
static void foldReluIntoStores(MmaMapOp map) {
  SmallVector<MmaStoreOp> stores = getOnlyStores(map);
  if (stores.empty())
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
  for (MmaStoreOp store : stores)
    store.setRelu(true);
}

namespace {
struct CroqFoldStoreReluPass
    : croq::impl::CroqFoldStoreReluBase<CroqFoldStoreReluPass> {
  void runOnOperation() override {
    // Only the matched ops change: nothing else is folded or removed.
    getOperation()->walk(foldReluIntoStores);
  }
};
} // namespace
