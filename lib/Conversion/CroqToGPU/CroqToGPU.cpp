//===- CroqToGPU.cpp - convert-croq-to-gpu pass ---------------------------===//
//
// Lowers the data ops of croq kernels (allocations, copies, events, mma,
// element access, tensor maps) with dialect conversion, inside the parallel
// regions that tell which threads run them: checks first that the earlier
// stages have prepared the input (views normalized, layouts chosen, tensor
// maps emitted, shared memory and events planned), and last that only
// croq.parallel and croq.inthreads are left, for
// convert-croq-regions-to-gpu.
//
//===----------------------------------------------------------------------===//

#include "Croq/Conversion/Passes.h"
#include "Croq/Dialect/Croq/IR/TargetDescription.h"
#include "Croq/Dialect/Croq/IR/ViewUtils.h"
#include "LoweringUtils.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir {
namespace croq {
#define GEN_PASS_DEF_CONVERTCROQTOGPU
#include "Croq/Conversion/Passes.h.inc"
} // namespace croq
} // namespace mlir

using namespace mlir;
using namespace mlir::croq;

/// The feature of the target `op` needs and `target` lacks, or "".
static StringRef getMissingFeature(Operation *op,
                                   const TargetDescription &target) {
  auto copy = dyn_cast<CopyOp>(op);
  if (copy && copy.getEngine() == CopyEngine::TMA && !target.hasTma)
    return "the tensor memory accelerator";
  if (isa<MmaOp, MmaLoadOp, MmaCommitOp, MmaWaitOp, MmaStoreOp, MmaConvertOp,
          MmaSliceOp>(op) &&
      !target.hasWgmma)
    return "warpgroup mma";
  if (isa<EventWaitOp>(op) && !target.hasMbarrierTryWait)
    return "mbarrier try-wait on a phase parity";
  auto parallel = dyn_cast<ParallelOp>(op);
  if ((isa<ClusterRankOp, ClusterBarrierOp, MmaClusterSumOp>(op) ||
       (parallel && parallel.getCluster())) &&
      !target.hasClusters)
    return "thread block clusters";
  return "";
}

/// Reports every op this pass cannot lower, before anything is rewritten:
/// input the earlier stages have not prepared (views not normalized, layouts
/// not chosen), tma copies and mma ops the lowering cannot take, and croq
/// ops outside any kernel.
static LogicalResult checkLowerable(ModuleOp module,
                                    const TargetDescription &target) {
  bool ok = true;
  module.walk([&](Operation *op) {
    if (!isa<CroqDialect>(op->getDialect()))
      return;
    if (isa<ChunkatOp, SubspanOp>(op)) {
      op->emitOpError("is lowered once croq-normalize-views has resolved it "
                      "to a croq.view: run croq-normalize-views first");
      ok = false;
      return;
    }
    if (auto alloc = dyn_cast<AllocOp>(op)) {
      Type type = alloc.getResult().getType();
      if (getSwizzleOf(type) == Swizzle::Auto) {
        alloc.emitOpError("has no layout yet (swizzle = auto): run "
                          "croq-assign-layouts first");
        ok = false;
        return;
      }
      if (getMemorySpaceOf(type) == MemorySpace::Shared && !alloc.getOffset()) {
        alloc.emitOpError("shared buffer has no offset in the block's shared "
                          "memory: run croq-plan-shared-memory first");
        ok = false;
        return;
      }
    }
    if (auto events = dyn_cast<EventAllocOp>(op);
        events && !events.getArrivals()) {
      events.emitOpError("has no arrival count: run croq-plan-events first");
      ok = false;
      return;
    }
    if (auto events = dyn_cast<EventAllocOp>(op);
        events && events.getEvents().getType().getCount() >
                      EventsType::kMaxLoweredSlots) {
      events.emitOpError("event arrays of more than ")
          << EventsType::kMaxLoweredSlots << " slots are not lowered, got "
          << events.getEvents().getType().getCount();
      ok = false;
      return;
    }
    if (auto wait = dyn_cast<EventWaitOp>(op); wait && !wait.getPhases()) {
      wait.emitOpError("has no phases: run croq-carry-event-phases first");
      ok = false;
      return;
    }
    if (StringRef missing = getMissingFeature(op, target); !missing.empty()) {
      op->emitOpError("needs ")
          << missing << ", which " << target.chip << " does not have";
      ok = false;
      return;
    }
    if (auto copy = dyn_cast<CopyOp>(op);
        (copy && copy.getEngine() == CopyEngine::DMA) ||
        isa<TransposeOp, PadOp>(op)) {
      op->emitOpError("is not distributed over threads: run "
                      "croq-distribute-copies first");
      ok = false;
      return;
    }
    if (auto copy = dyn_cast<CopyOp>(op);
        copy && copy.getEngine() == CopyEngine::TMA && !copy.getMap()) {
      copy.emitOpError("has no tensor map: run croq-emit-tensor-maps first");
      ok = false;
      return;
    }
    if (auto copy = dyn_cast<CopyOp>(op); copy &&
                                          copy.getEngine() == CopyEngine::TMA &&
                                          failed(checkTmaLowerable(copy))) {
      ok = false;
      return;
    }
    if (auto load = dyn_cast<Im2colOp>(op); load && !load.getTrigger()) {
      load.emitOpError("completes on no event: run croq-lower-tma-futures "
                       "first");
      ok = false;
      return;
    }
    if (isa<MmaFillOp, MmaLoadOp, MmaOp, MmaCommitOp, MmaWaitOp, MmaStoreOp,
            MmaMapOp, VecMapOp, VecFillOp, MmaReduceOp, MmaConvertOp,
            MmaSliceOp>(op) &&
        failed(checkMmaLowerable(op))) {
      ok = false;
      return;
    }
    for (Value operand : op->getOperands())
      if (isa<ViewType>(operand.getType()) && isa<BlockArgument>(operand)) {
        op->emitOpError("reads a view passed in as an argument, which cannot "
                        "be lowered: pass the tensor and select the view in "
                        "the kernel");
        ok = false;
        return;
      }
    bool isKernel = isa<ParallelOp>(op) &&
                    cast<ParallelOp>(op).getLevel() == ParallelLevel::Block;
    if (!isKernel && !isViewOp(op) && !isa<TensorMapOp, Im2colMapOp>(op) &&
        !op->getParentOfType<ParallelOp>()) {
      op->emitOpError("must be inside a croq.parallel region to be lowered "
                      "to a GPU kernel");
      ok = false;
    }
  });
  return success(ok);
}

void mlir::croq::populateCroqDataToGPUConversionPatterns(
    CroqTypeConverter &converter, RewritePatternSet &patterns) {
  populateCroqDataToGPUPatterns(converter, patterns);
}

void mlir::croq::populateCroqTmaToGPUConversionPatterns(
    CroqTypeConverter &converter, RewritePatternSet &patterns) {
  populateCroqTmaToGPUPatterns(converter, patterns);
  populateCroqIm2colToGPUPatterns(converter, patterns);
  populateCroqTensorMapToHostPatterns(converter, patterns);
}

void mlir::croq::populateCroqEventToGPUConversionPatterns(
    CroqTypeConverter &converter, RewritePatternSet &patterns) {
  populateCroqEventToGPUPatterns(converter, patterns);
}

void mlir::croq::populateCroqMmaToGPUConversionPatterns(
    CroqTypeConverter &converter, const TargetDescription &target,
    RewritePatternSet &patterns) {
  populateCroqMmaToGPUPatterns(converter, target, patterns);
}

void mlir::croq::populateCroqToGPUConversionPatterns(
    CroqTypeConverter &converter, const TargetDescription &target,
    RewritePatternSet &patterns) {
  populateCroqDataToGPUConversionPatterns(converter, patterns);
  populateCroqTmaToGPUConversionPatterns(converter, patterns);
  populateCroqEventToGPUConversionPatterns(converter, patterns);
  populateCroqMmaToGPUConversionPatterns(converter, target, patterns);
}

/// Ends every kernel whose blocks reach into each other's shared memory
/// (multicast loads, cluster triggers) with a cluster barrier: no block
/// exits while another block of its cluster may still write its tiles or
/// arrive on its events.
static void insertClusterExitBarriers(ModuleOp module) {
  module.walk([](ParallelOp kernel) {
    if (kernel.getLevel() != ParallelLevel::Block || !kernel.getCluster())
      return;
    WalkResult reaches = kernel.walk([](Operation *op) {
      auto copy = dyn_cast<CopyOp>(op);
      auto trigger = dyn_cast<EventTriggerOp>(op);
      if ((copy && copy.getMulticast()) || (trigger && trigger.getCluster()))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (!reaches.wasInterrupted())
      return;
    Block &body = kernel.getBody().front();
    OpBuilder builder = OpBuilder::atBlockEnd(&body);
    ClusterBarrierOp::create(builder, kernel.getLoc());
  });
}

namespace {
struct ConvertCroqToGPUPass
    : croq::impl::ConvertCroqToGPUBase<ConvertCroqToGPUPass> {
  using ConvertCroqToGPUBase::ConvertCroqToGPUBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    FailureOr<const TargetDescription *> chipTarget = getModuleTarget(module);
    if (failed(chipTarget) || failed(checkLowerable(module, **chipTarget)))
      return signalPassFailure();

    insertWgmmaFences(module);
    insertClusterExitBarriers(module);
    // Data ops first, while the parallel regions that tell which threads
    // run them are still there.
    CroqTypeConverter converter(context);
    ConversionTarget target(*context);
    target.addLegalDialect<arith::ArithDialect, gpu::GPUDialect,
                           LLVM::LLVMDialect, memref::MemRefDialect,
                           nvgpu::NVGPUDialect, NVVM::NVVMDialect,
                           scf::SCFDialect, vector::VectorDialect>();
    target.addIllegalDialect<CroqDialect>();
    target.addLegalOp<ParallelOp, InthreadsOp, ViewOp>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    target.addDynamicallyLegalOp<math::Exp2Op>(
        [](math::Exp2Op op) { return !isApproximateKernelExp2(op); });
    RewritePatternSet patterns(context);
    populateCroqToGPUConversionPatterns(converter, **chipTarget, patterns);
    // Accumulators carried through loops and branches change type.
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();

    // The views' users are lowered; the views and the casts that fed them
    // are dead.
    SmallVector<Operation *> dead;
    module.walk([&](ViewOp view) { dead.push_back(view); });
    for (Operation *op : dead) {
      if (!op->use_empty()) {
        op->emitOpError("is still used after lowering its users");
        return signalPassFailure();
      }
      SmallVector<Value> operands(op->getOperands());
      op->erase();
      for (Value operand : operands)
        if (auto cast = operand.getDefiningOp<UnrealizedConversionCastOp>())
          if (cast->use_empty())
            cast->erase();
    }

    // What is left are the regions, for convert-croq-regions-to-gpu.
    WalkResult leftover = module.walk([](Operation *op) {
      if (isa<CroqDialect>(op->getDialect()) &&
          !isa<ParallelOp, InthreadsOp>(op)) {
        op->emitOpError("was not lowered by convert-croq-to-gpu");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (leftover.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
