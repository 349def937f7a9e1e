//===- AttachNVVMTarget.cpp - an NVVM target for the module's chip --------===//
//
// Implements croq-attach-nvvm-target: every gpu.module of the module gets an
// #nvvm.target for the chip the module's croq.target names, so that the
// binaries are compiled for the chip the croq passes planned for.
//
//===----------------------------------------------------------------------===//

#include "Croq/Conversion/Passes.h"
#include "Croq/Dialect/Croq/IR/TargetDescription.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir {
namespace croq {
#define GEN_PASS_DEF_CROQATTACHNVVMTARGET
#include "Croq/Conversion/Passes.h.inc"
} // namespace croq
} // namespace mlir

using namespace mlir;
using namespace mlir::croq;

namespace {
struct CroqAttachNVVMTargetPass
    : croq::impl::CroqAttachNVVMTargetBase<CroqAttachNVVMTargetPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<const TargetDescription *> target = getModuleTarget(module);
    if (failed(target))
      return signalPassFailure();
    auto nvvmTarget = NVVM::NVVMTargetAttr::get(&getContext(), optLevel,
                                                "nvptx64-nvidia-cuda",
                                                (*target)->chip, features);
    for (auto gpuModule : module.getOps<gpu::GPUModuleOp>()) {
      SmallVector<Attribute> targets;
      if (std::optional<ArrayAttr> existing = gpuModule.getTargets())
        llvm::append_range(targets, existing->getValue());
      if (!llvm::is_contained(targets, nvvmTarget))
        targets.push_back(nvvmTarget);
      gpuModule.setTargetsAttr(ArrayAttr::get(&getContext(), targets));
    }
  }
};
} // namespace
