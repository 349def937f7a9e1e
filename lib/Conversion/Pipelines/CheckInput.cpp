//===- CheckInput.cpp - input the upstream passes would crash on ----------===//
//
// Implements croq-check-input: ops that verify but would crash an upstream
// pass of the croq-to-nvvm pipeline are reported at their location, and
// the pass fails before that pass runs.
//
//===----------------------------------------------------------------------===//

#include "Croq/Conversion/Passes.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir {
namespace croq {
#define GEN_PASS_DEF_CROQCHECKINPUT
#include "Croq/Conversion/Passes.h.inc"
} // namespace croq
} // namespace mlir

using namespace mlir;

/// Checks that `pad`'s `side` padding (its static list and operands) has one
/// operand per ShapedType::kDynamic entry.
static LogicalResult checkPadding(tensor::PadOp pad, StringRef side,
                                  ArrayRef<int64_t> entries,
                                  OperandRange operands) {
  int64_t dynamic = llvm::count(entries, ShapedType::kDynamic);
  if (dynamic == static_cast<int64_t>(operands.size()))
    return success();
  return pad.emitOpError("has ")
         << dynamic << " dynamic entries in its " << side << " padding ("
         << ShapedType::kDynamic << " is ShapedType::kDynamic) and "
         << operands.size() << " " << side << " operands";
}

namespace {
struct CroqCheckInputPass : croq::impl::CroqCheckInputBase<CroqCheckInputPass> {
  void runOnOperation() override {
    bool ok = true;
    getOperation().walk([&](tensor::PadOp pad) {
      if (failed(checkPadding(pad, "low", pad.getStaticLow(), pad.getLow())))
        ok = false;
      if (failed(checkPadding(pad, "high", pad.getStaticHigh(), pad.getHigh())))
        ok = false;
    });
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
