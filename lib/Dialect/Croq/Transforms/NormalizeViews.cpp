//===- NormalizeViews.cpp - resolve views to windows ----------------------===//
//
// Implements croq-normalize-views: every chunkat, subspan and chain of views
// becomes one croq.view of the root tensor or tile.
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/CroqOps.h"
#include "Croq/Dialect/Croq/IR/ViewUtils.h"
#include "Croq/Dialect/Croq/Transforms/Passes.h"


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
    if (failed(normalizeViews(getOperation())))
      signalPassFailure();
  }
};
} // namespace
