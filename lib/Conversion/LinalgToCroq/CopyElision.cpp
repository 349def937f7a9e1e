//===- CopyElision.cpp - temporaries copied whole into a buffer -----------===//
//
// Part of convert-linalg-to-croq, before ops are sorted: bufferization
// without hoisted results (buffer-results-to-out-params without
// hoist-static-allocs, or linalg-fold-unit-extent-dims' reshapes around a
// result) computes a function's result into a temporary and copies it into
// the out-parameter at the end: a kernel that reads and writes the whole
// result once more. Where nothing else touches the out-parameter in
// between, the temporary is the out-parameter (or the reshape of it that
// has the temporary's shape), and the copy goes.
//
//===----------------------------------------------------------------------===//

#include "Classify.h"
#include "HostBuffers.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::croq;

/// Whether every use of `value` (and of the views of it) is in `block`
/// before `end`, or a deallocation after it.
static bool isUsedOnlyBefore(Value value, Operation *end) {
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (user == end)
      continue;
    if (user->getBlock() != end->getBlock())
      return false;
    if (isa<memref::DeallocOp>(user))
      continue;
    if (!user->isBeforeInBlock(end))
      return false;
    if (auto view = dyn_cast<ViewLikeOpInterface>(user);
        view && view.getViewSource() == value &&
        !isUsedOnlyBefore(user->getResult(0), end))
      return false;
  }
  return true;
}

/// `buffer` (of `view`'s result type) reshaped back to `view`'s source
/// type, so that `view` of the result is `buffer`'s shape again; null
/// where that takes an expansion into dynamic extents.
static Value undoReshape(OpBuilder &b, Location loc, Operation *view,
                         Value buffer) {
  if (auto expand = dyn_cast<memref::ExpandShapeOp>(view))
    return memref::CollapseShapeOp::create(b, loc, expand.getSrcType(), buffer,
                                           expand.getReassociationIndices());
  auto collapse = cast<memref::CollapseShapeOp>(view);
  MemRefType source = collapse.getSrcType();
  if (!source.hasStaticShape())
    return nullptr;
  return memref::ExpandShapeOp::create(b, loc, source, buffer,
                                       collapse.getReassociationIndices());
}

/// Makes the temporary that `copy` copies whole into its target the
/// target, where it can; returns whether it did.
static bool elide(memref::CopyOp copy) {
  Value source = copy.getSource(), target = copy.getTarget();
  // The source: a temporary of this block, or a reshape of one.
  Operation *view = source.getDefiningOp();
  if (!isa_and_nonnull<memref::ExpandShapeOp, memref::CollapseShapeOp>(view))
    view = nullptr;
  Value temporary = view ? view->getOperand(0) : source;
  auto alloc = temporary.getDefiningOp<memref::AllocOp>();
  auto targetType = dyn_cast<MemRefType>(target.getType());
  if (!alloc || alloc->getBlock() != copy->getBlock() || !targetType ||
      source.getType() != target.getType() ||
      !targetType.getLayout().isIdentity() ||
      !alloc.getType().getLayout().isIdentity())
    return false;
  // The target exists before the temporary does, and nothing touches it
  // until the copy.
  Value root = getRootBuffer(target);
  if (root == temporary)
    return false;
  if (Operation *def = target.getDefiningOp();
      def &&
      (def->getBlock() != alloc->getBlock() || !def->isBeforeInBlock(alloc)))
    return false;
  for (Operation *op = alloc->getNextNode(); op != copy; op = op->getNextNode())
    if (usesBuffer(op, root))
      return false;
  if (!isUsedOnlyBefore(temporary, copy))
    return false;
  OpBuilder b(alloc);
  Value replacement =
      view ? undoReshape(b, alloc.getLoc(), view, target) : target;
  if (!replacement || replacement.getType() != alloc.getType())
    return false;
  SmallVector<Operation *> deallocs;
  for (Operation *user : alloc->getUsers())
    if (isa<memref::DeallocOp>(user))
      deallocs.push_back(user);
  for (Operation *dealloc : deallocs)
    dealloc->erase();
  copy.erase();
  if (view && view->use_empty())
    view->erase();
  alloc.getResult().replaceAllUsesWith(replacement);
  alloc.erase();
  return true;
}

void mlir::croq::elideCopiesIntoBuffers(ModuleOp module) {
  SmallVector<memref::CopyOp> copies;
  // Copies of host code (in a function's body, outside kernels).
  module.walk([&](memref::CopyOp copy) {
    if (isa<func::FuncOp>(copy->getParentOp()))
      copies.push_back(copy);
  });
  for (memref::CopyOp copy : copies)
    (void)elide(copy);
}
