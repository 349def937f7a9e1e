//===- CheckInput.cpp - input the upstream passes would crash on ----------===//
//
// Implements croq-check-input: ops that verify but would crash an upstream
// pass of the croq-to-nvvm pipeline, or that no pass of it lowers, are
// reported at their location, and the pass fails before any pass runs.
//
//===----------------------------------------------------------------------===//

#include "Croq/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

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

/// Declines `op`, an op in the body of a linalg op (which becomes a
/// kernel's computation), if croq's kernels do not compute it.
static LogicalResult checkBodyOp(Operation *op) {
  if (isa<arith::RemFOp>(op))
    return op->emitOpError(
        "is a floating-point remainder, which croq's kernels do not compute "
        "(the NVVM target has no instruction for it)");
  if (isa<math::IPowIOp>(op))
    return op->emitOpError("is an integer power, which croq's kernels do not "
                           "compute (math.fpowi and math.powf they do)");
  return success();
}

/// Declines `op` if it takes (a function, as arguments) or makes a memref
/// whose layout is not strided (an affine map of several results), which
/// no lowering of croq-to-nvvm takes.
static LogicalResult checkLayouts(Operation *op) {
  auto isUnstrided = [](Type type) {
    auto memref = dyn_cast<MemRefType>(type);
    return memref && !memref.isStrided();
  };
  auto func = dyn_cast<FunctionOpInterface>(op);
  SmallVector<Type> types = func ? SmallVector<Type>(func.getArgumentTypes())
                                 : SmallVector<Type>(op->getResultTypes());
  auto *unstrided = llvm::find_if(types, isUnstrided);
  if (unstrided == types.end())
    return success();
  return op->emitOpError("takes or makes ")
         << *unstrided
         << ", whose layout is not strided; croq takes memrefs of the "
            "identity layout or strided<...> ones";
}

/// Declines `op` if no pass of croq-to-nvvm lowers it: a TOSA op left in
/// the input (tosa-to-arith leaves tosa.apply_scale in the bodies
/// tosa.rescale becomes unless told otherwise), or an op of a linalg body
/// croq's kernels do not compute.
static LogicalResult checkLowered(Operation *op) {
  if (op->getDialect() && op->getDialect()->getNamespace() == "tosa")
    return op->emitOpError("is a TOSA op; croq takes linalg, tensor, arith "
                           "and math: lower TOSA first (tosa-to-linalg-named, "
                           "tosa-to-linalg, "
                           "tosa-to-arith{include-apply-rescale=true}, "
                           "tosa-to-tensor)");
  if (isa_and_nonnull<linalg::LinalgOp>(op->getParentOp()))
    return checkBodyOp(op);
  return success();
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
    getOperation().walk([&](Operation *op) {
      if (failed(checkLayouts(op)) || failed(checkLowered(op)))
        ok = false;
    });
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
