//===- SetTarget.cpp - name the chip a module compiles for ----------------===//
//
// Implements croq-set-target: writes the module's `croq.target`, the one
// place in the IR that names the chip the passes after it read.
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/TargetDescription.h"
#include "Croq/Dialect/Croq/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir {
namespace croq {
#define GEN_PASS_DEF_CROQSETTARGET
#include "Croq/Dialect/Croq/Transforms/Passes.h.inc"
} // namespace croq
} // namespace mlir

using namespace mlir;
using namespace mlir::croq;

namespace {
struct CroqSetTargetPass : croq::impl::CroqSetTargetBase<CroqSetTargetPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    StringRef name = CroqDialect::TargetAttrHelper::getNameStr();
    auto named = module->getAttrOfType<StringAttr>(name);
    if (chip.empty()) {
      if (!named)
        module->setAttr(name, StringAttr::get(&getContext(), kDefaultChip));
      return;
    }
    if (failed(getTargetDescription(module.getLoc(), chip)))
      return signalPassFailure();
    if (named && named.getValue() != chip) {
      module.emitError("croq-set-target: chip=")
          << chip << " but the module's '" << name << "' names '"
          << named.getValue() << "'";
      return signalPassFailure();
    }
    module->setAttr(name, StringAttr::get(&getContext(), chip));
  }
};
} // namespace
