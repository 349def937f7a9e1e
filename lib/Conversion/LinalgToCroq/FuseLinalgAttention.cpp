//===- FuseLinalgAttention.cpp - attention chains into flash kernels ------===//
//
// croq-fuse-linalg-attention: the chain softmax(ops(Q K^T)) V of host code
// becomes the flash-attention kernel (AttentionMatch.cpp finds it,
// AttentionKernel.cpp emits the kernel). A chain it does not take stays as
// it is, for convert-linalg-to-croq to compile op by op.
//
//===----------------------------------------------------------------------===//

#include "AttentionChain.h"
#include "AttentionMatchUtils.h"

#include "Croq/Conversion/Passes.h"
#include "Croq/Dialect/Croq/IR/CroqOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir {
namespace croq {
#define GEN_PASS_DEF_CROQFUSELINALGATTENTION
#include "Croq/Conversion/Passes.h.inc"
} // namespace croq
} // namespace mlir

using namespace mlir;
using namespace mlir::croq;

namespace {
struct CroqFuseLinalgAttentionPass
    : croq::impl::CroqFuseLinalgAttentionBase<CroqFuseLinalgAttentionPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> products;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (!op->getParentOfType<ParallelOp>() &&
          succeeded(attention::analyzeProduct(op)))
        products.push_back(op);
    });
    DenseSet<Operation *> erased;
    for (linalg::LinalgOp product : products) {
      if (erased.contains(product))
        continue;
      std::string why;
      FailureOr<AttentionChain> chain = matchAttention(product, why);
      if (failed(chain)) {
        if (remarks)
          product->emitRemark("not fused as attention: ") << why;
        continue;
      }
      for (Operation *op : chain->ops)
        erased.insert(op);
      Location loc = product.getLoc();
      if (failed(emitAttentionKernel(*chain, why))) {
        emitError(loc) << "attention kernel: " << why;
        return signalPassFailure();
      }
      if (remarks)
        emitRemark(loc) << "fused as attention"
                        << (chain->causal ? " (causal)" : "") << " with "
                        << chain->steps.size() << " op(s) on the scores";
    }
  }
};
} // namespace
