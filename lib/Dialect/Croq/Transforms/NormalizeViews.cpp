//===- NormalizeViews.cpp - resolve views to windows ----------------------===//
//
// Implements croq-normalize-views: every chunkat, subspan and chain of views
// becomes one croq.view of the root tensor or tile.
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/CroqOps.h"
#include "Croq/Dialect/Croq/IR/ViewUtils.h"
#include "Croq/Dialect/Croq/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace croq {
#define GEN_PASS_DEF_CROQNORMALIZEVIEWS
#include "Croq/Dialect/Croq/Transforms/Passes.h.inc"
} // namespace croq
} // namespace mlir

using namespace mlir;
using namespace mlir::croq;

namespace {
struct CroqNormalizeViewsPass
    : croq::impl::CroqNormalizeViewsBase<CroqNormalizeViewsPass> {
  void runOnOperation() override {
    // Walk in pre-order so that the source of a view is already normalized
    // when the view itself is visited.
    SmallVector<Operation *> views;
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isViewOp(op))
        views.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (Operation *op : views) {
      if (isa<ViewOp>(op) && !isViewOp(op->getOperand(0).getDefiningOp()))
        continue;
      rewriter.setInsertionPoint(op);
      FailureOr<ViewWindow> window = getViewWindow(rewriter, op);
      if (failed(window)) {
        op->emitOpError("cannot resolve this view: its chunk counts or "
                        "sizes are unknown");
        return signalPassFailure();
      }
      ViewWindow result = *window;
      if (Operation *inner = result.source.getDefiningOp();
          inner && isa<ViewOp>(inner)) {
        FailureOr<ViewWindow> innerWindow = getViewWindow(rewriter, inner);
        if (failed(innerWindow))
          return signalPassFailure();
        result = composeWindows(rewriter, op->getLoc(), *innerWindow, result);
      }
      auto type = cast<ViewType>(op->getResult(0).getType());
      for (auto [dim, size] : llvm::enumerate(type.getShape()))
        if (!ShapedType::isDynamic(size))
          result.sizes[dim] = rewriter.getIndexAttr(size);
      Value view = buildViewOp(rewriter, op->getLoc(), type, result);
      rewriter.replaceOp(op, view);
    }
    // Views whose only user was a folded chain are dead now.
    getOperation()->walk([&](ViewOp view) {
      if (view->use_empty())
        rewriter.eraseOp(view);
    });
  }
};
} // namespace
