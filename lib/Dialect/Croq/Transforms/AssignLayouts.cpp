//===- AssignLayouts.cpp - choose the swizzle of shared buffers -----------===//
//
// Implements croq-assign-layouts: every shared buffer declared with
// `swizzle = auto` gets the swizzle a copy or an mma load of it asks for, or
// the largest one its rows fill, and the stages and views derived from it
// follow. A copy and an mma load that ask for different layouts are an
// error.
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/CroqOps.h"
#include "Croq/Dialect/Croq/Transforms/Layouts.h"
#include "Croq/Dialect/Croq/Transforms/Passes.h"

#include "llvm/ADT/SmallPtrSet.h"

namespace mlir {
namespace croq {
#define GEN_PASS_DEF_CROQASSIGNLAYOUTS
#include "Croq/Dialect/Croq/Transforms/Passes.h.inc"
} // namespace croq
} // namespace mlir

using namespace mlir;
using namespace mlir::croq;

Swizzle mlir::croq::chooseSwizzle(int64_t rowBytes, int64_t stageBytes) {
  for (auto [swizzle, span] : {std::pair{Swizzle::B128, int64_t(128)},
                               {Swizzle::B64, int64_t(64)},
                               {Swizzle::B32, int64_t(32)}}) {
    if (rowBytes % span != 0)
      continue;
    if (stageBytes && stageBytes % (8 * span) != 0)
      continue;
    return swizzle;
  }
  return Swizzle::None;
}

/// The values derived from `root` without moving data: stages, views and
/// reshapes, which carry its layout in their types.
static void collectDerived(Value root, SmallVectorImpl<Value> &derived) {
  for (Operation *user : root.getUsers()) {
    if (!isa<StageOp, SpanAsOp, ChunkatOp, SubspanOp, ViewOp>(user) ||
        user->getOperand(0) != root)
      continue;
    derived.push_back(user->getResult(0));
    collectDerived(user->getResult(0), derived);
  }
}

/// `type` with swizzle `swizzle`.
static Type withSwizzle(Type type, Swizzle swizzle) {
  if (auto tile = dyn_cast<TileType>(type))
    return TileType::get(type.getContext(), tile.getShape(),
                         tile.getElementType(), tile.getMemorySpace(),
                         swizzle);
  if (auto tiles = dyn_cast<TilesType>(type))
    return TilesType::get(type.getContext(), tiles.getNumStages(),
                          tiles.getShape(), tiles.getElementType(),
                          tiles.getMemorySpace(), swizzle);
  if (auto view = dyn_cast<ViewType>(type))
    return ViewType::get(type.getContext(), view.getShape(),
                         view.getElementType(), view.getMemorySpace(),
                         swizzle);
  return type;
}

LogicalResult mlir::croq::assignLayouts(Operation *root) {
  WalkResult result = root->walk([&](AllocOp alloc) {
    Value buffer = alloc.getResult();
    if (getSwizzleOf(buffer.getType()) != Swizzle::Auto)
      return WalkResult::advance();
    SmallVector<Value> derived{buffer};
    collectDerived(buffer, derived);

    // A copy or mma load that states the layout fixes it; they are visited
    // in program order so that a conflict is reported on the later one.
    llvm::SmallPtrSet<Value, 8> derivedSet(derived.begin(), derived.end());
    std::optional<Swizzle> fixed;
    Operation *fixedBy = nullptr;
    WalkResult conflict =
        alloc->getParentRegion()->walk([&](Operation *op) {
          std::optional<Swizzle> asked;
          if (auto copy = dyn_cast<CopyOp>(op);
              copy && (derivedSet.contains(copy.getSource()) ||
                       derivedSet.contains(copy.getDest())))
            asked = copy.getSwizzle();
          else if (auto load = dyn_cast<MmaLoadOp>(op);
                   load && derivedSet.contains(load.getSource()))
            asked = load.getSwizzle();
          if (!asked)
            return WalkResult::advance();
          if (fixed && *fixed != *asked) {
            InFlightDiagnostic diag =
                op->emitOpError("asks for swizzle ")
                << stringifySwizzle(*asked) << " but ";
            if (fixedBy->getName() == op->getName())
              diag << "another " << (isa<CopyOp>(op) ? "copy" : "mma load");
            else
              diag << "a " << fixedBy->getName();
            diag << " of the same buffer asks for " << stringifySwizzle(*fixed);
            diag.attachNote(fixedBy->getLoc()) << "the layout was fixed here";
            return WalkResult::interrupt();
          }
          fixed = asked;
          fixedBy = op;
          return WalkResult::advance();
        });
    if (conflict.wasInterrupted())
      return WalkResult::interrupt();
    Swizzle swizzle;
    if (fixed) {
      swizzle = *fixed;
    } else {
      Type type = buffer.getType();
      ArrayRef<int64_t> shape;
      Type elementType;
      int64_t stageBytes = 0;
      if (auto tile = dyn_cast<TileType>(type)) {
        shape = tile.getShape();
        elementType = tile.getElementType();
      } else {
        auto tiles = cast<TilesType>(type);
        shape = tiles.getShape();
        elementType = tiles.getElementType();
        stageBytes = tiles.getTileType().getSizeInBytes();
      }
      swizzle = chooseSwizzle(shape.back() * getElementSizeInBytes(elementType),
                              stageBytes);
    }
    for (Value value : derived)
      value.setType(withSwizzle(value.getType(), swizzle));
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

namespace {
struct CroqAssignLayoutsPass
    : croq::impl::CroqAssignLayoutsBase<CroqAssignLayoutsPass> {
  void runOnOperation() override {
    if (failed(assignLayouts(getOperation())))
      signalPassFailure();
  }
};
} // namespace
