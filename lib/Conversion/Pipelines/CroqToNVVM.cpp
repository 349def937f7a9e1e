//===- CroqToNVVM.cpp - the croq-to-nvvm pipeline -------------------------===//
//
// The named pipeline from croq IR to host LLVM IR with embedded sm_90a GPU
// binaries: the croq passes, then the upstream conversions to NVVM and LLVM
// and gpu-module-to-binary.
//
//===----------------------------------------------------------------------===//

#include "Croq/Conversion/Passes.h"
#include "Croq/Dialect/Croq/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <cstdlib>

using namespace mlir;

SmallVector<std::string> croq::getCudaToolkitCandidates() {
  SmallVector<std::string> roots;
  for (const char *name : {"CUDA_ROOT", "CUDA_HOME", "CUDA_PATH"})
    if (const char *value = std::getenv(name); value && *value)
      roots.push_back(value);
  if (llvm::ErrorOr<std::string> ptxas = llvm::sys::findProgramByName("ptxas"))
    roots.push_back(
        llvm::sys::path::parent_path(llvm::sys::path::parent_path(*ptxas))
            .str());
  roots.push_back("/usr/local/cuda");
  return roots;
}

std::string croq::findCudaToolkit(StringRef hint) {
  // Without libdevice, calls to it (math functions in kernels) would stay
  // unresolved, and whether they do would depend on the environment.
  if (!hint.empty())
    return hint.str();
  for (const std::string &root : getCudaToolkitCandidates()) {
    SmallString<128> libdevice(root);
    llvm::sys::path::append(libdevice, "nvvm", "libdevice", "libdevice.10.bc");
    if (llvm::sys::fs::exists(libdevice))
      return root;
  }
  return "";
}

void croq::addBufferizationPasses(OpPassManager &pm) {
  // Input that verifies but would crash an upstream pass is declined.
  pm.addPass(createCroqCheckInput());
  // Calls into the module's own functions are inlined (without the
  // inliner's canonicalization), and the private functions left without
  // callers go: every function that launches kernels becomes an entry point
  // whose signature croq-host-entries changes, which a call to it would not
  // match.
  pm.addPass(createInlinerPass({}, [](OpPassManager &) {}));
  pm.addPass(createSymbolDCEPass());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.hoistStaticAllocs = true;
  outParams.modifyPublicFunctions = true;
  outParams.addResultAttribute = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
}

void croq::buildCroqToGPUPipeline(OpPassManager &pm,
                                  const CroqToNVVMPipelineOptions &options) {
  // The chip is named once, in the IR; every pass after reads it there.
  CroqSetTargetOptions setTarget;
  setTarget.chip = options.chip;
  pm.addPass(createCroqSetTarget(setTarget));
  // croq -> gpu, memref, scf, vector, nvgpu.
  CroqPipelineLoopsOptions pipelining;
  pipelining.stages = options.pipelineStages;
  pipelining.warpSpecialize = options.warpSpecialize;
  // linalg matrix products become croq kernels.
  ConvertLinalgToCroqOptions fromLinalg;
  fromLinalg.tileM = options.gemmTileM;
  fromLinalg.tileN = options.gemmTileN;
  fromLinalg.splitK = options.gemmSplitK;
  fromLinalg.streamK = options.gemmStreamK;
  fromLinalg.clusterK = options.gemmClusterK;
  fromLinalg.clusterM = options.gemmClusterM;
  fromLinalg.clusterN = options.gemmClusterN;
  fromLinalg.f8PromoteSteps = options.gemmF8PromoteSteps;
  fromLinalg.variants.assign(options.gemmVariants.begin(),
                             options.gemmVariants.end());
  fromLinalg.classify = options.gemmClassify;
  // Tensor input (linalg on tensors, as frontends emit it) becomes buffers
  // first, function results out-parameters; memref input is left as it is.
  addBufferizationPasses(pm);
  // Attention chains (matmul, softmax, matmul) become the flash kernel.
  pm.addPass(createCroqFuseLinalgAttention());
  // Contractions become named products in layouts the GEMM kernel reads.
  pm.addPass(createCroqSpecializeContractions());
  // Elementwise producers are recomputed in their consumers.
  pm.addPass(createCroqFuseElementwise());
  pm.addPass(createConvertLinalgToCroq(fromLinalg));
  // The temporaries of host code live in device memory.
  pm.addPass(createCroqAllocateOnDevice());
  // Blocks over 2-D tile grids that ask for it walk their tiles, one block
  // per multiprocessor.
  CroqPersistentBlocksOptions persistent;
  persistent.persistent = options.persistent;
  pm.addPass(createCroqPersistentBlocks(persistent));
  pm.addPass(createCroqPipelineLoops(pipelining));
  // Consumer warpgroups share the accumulators by rows.
  CroqSplitAccumulatorsOptions split;
  split.consumers = options.consumers;
  pm.addPass(createCroqSplitAccumulators(split));
  // A ReLU that ends an epilogue is left to the store's conversion.
  pm.addPass(createCroqFoldStoreRelu());
  pm.addPass(createCroqAssignLayouts());
  pm.addPass(createCroqNormalizeViews());
  pm.addPass(createCroqWaitAsyncStores());
  // Tiling: dma copies, transposes and pads become each thread's moves.
  pm.addPass(createCroqDistributeCopies());
  // Tiling: tma copies get the boxes they are made of.
  pm.addPass(createCroqPlanTmaBoxes());
  CroqEmitTensorMapsOptions tensorMaps;
  tensorMaps.tmaFallback = options.tmaFallback;
  tensorMaps.stageMisalignedInputs = options.stageMisalignedInputs;
  pm.addPass(createCroqEmitTensorMaps(tensorMaps));
  // Loops test the runtime's tma answers once, not every iteration.
  pm.addPass(createCroqUnswitchTmaFallbacks());
  // The host entry points take the stream to launch on, return a status.
  pm.addPass(createCroqHostEntries());
  // Every tma load completes on an event slot.
  pm.addPass(createCroqLowerTmaFutures());
  // Producer loops that only issue tma loads run on one warp.
  pm.addPass(createCroqSingleWarpProducers());
  // Plans the kernels' resources, each recorded in the IR.
  pm.addPass(createCroqPlanSharedMemory());
  pm.addPass(createCroqPlanEvents());
  pm.addPass(createCroqPlanRegisters());
  // Each thread's phase bits of each event array, as SSA values.
  pm.addPass(createCroqCarryEventPhases());
  pm.addPass(createConvertCroqToGPU());
  pm.addPass(createConvertCroqRegionsToGPU());
}

void croq::buildCroqToNVVMPipeline(OpPassManager &pm,
                                   const CroqToNVVMPipelineOptions &options) {
  buildCroqToGPUPipeline(pm, options);
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createLoopInvariantCodeMotionPass());

  // Kernels outlined; device and host code lowered towards LLVM.
  pm.addPass(createConvertNVGPUToNVVMPass());
  // Constants and dims the kernels compute from stay inside them instead of
  // becoming kernel parameters.
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertNVVMToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  CroqAttachNVVMTargetOptions target;
  target.features = options.features;
  target.optLevel = options.optLevel;
  pm.addPass(createCroqAttachNVVMTarget(target));
  pm.addPass(createLowerAffinePass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // Device code to NVVM, with the tensor maps passed by value and the
  // dynamic shared memory made an aligned extern.
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps());
  pm.addNestedPass<gpu::GPUModuleOp>(LLVM::createNVVMOptimizeForTargetPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createCanonicalizerPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createCSEPass());
  // Tensor maps become grid-constant parameters before the casts that lead
  // to them are reconciled, prefetched at each kernel's entry.
  pm.addNestedPass<gpu::GPUModuleOp>(croq::createCroqPassTensorMapsByValue());
  pm.addNestedPass<gpu::GPUModuleOp>(croq::createCroqPrefetchTensorMaps());
  pm.addNestedPass<gpu::GPUModuleOp>(createReconcileUnrealizedCastsPass());
  pm.addNestedPass<gpu::GPUModuleOp>(
      croq::createCroqExternDynamicSharedMemory());
  pm.addNestedPass<gpu::GPUModuleOp>(
      croq::createCroqRegisterReallocatingKernels());

  // Host code to LLVM, GPU modules to binaries.
  pm.addPass(createGpuToLLVMConversionPass());
  if (options.format != "none") {
    GpuModuleToBinaryPassOptions binary;
    binary.compilationTarget = options.format;
    binary.toolkitPath = findCudaToolkit(options.toolkit);
    pm.addPass(createGpuModuleToBinaryPass(binary));
  }
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  // Nothing the conversions above could not handle stays silently.
  pm.addPass(croq::createCroqCheckLowering());
}

bool croq::isCroqToNVVMFormat(StringRef format) {
  // What gpu-module-to-binary takes, and none. It reports an unknown format
  // but does not fail, so the pipeline checks first.
  return llvm::is_contained({"none", "isa", "assembly", "bin", "binary",
                             "fatbin", "fatbinary", "llvm", "offloading"},
                            format);
}

void croq::registerCroqToGPUPipeline() {
  // Nothing to check beyond the options' own parsing: upstream's
  // registration parses them and calls the builder.
  PassPipelineRegistration<CroqToNVVMPipelineOptions>(
      "croq-to-gpu",
      "Run croq's own passes only: croq IR (or linalg) to gpu.launch regions "
      "over the gpu, nvgpu, memref, scf and vector dialects, where "
      "croq-to-nvvm goes on with the upstream conversions. Takes "
      "croq-to-nvvm's options; features, opt-level, format and toolkit have "
      "no effect here",
      buildCroqToGPUPipeline);
}

void croq::registerCroqToNVVMPipeline() {
  registerPassPipeline(
      "croq-to-nvvm",
      "Lower croq IR to host LLVM IR with embedded GPU binaries (PTX for "
      "format=isa, cubin for format=bin) for the given chip",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        CroqToNVVMPipelineOptions options;
        if (failed(options.parseFromString(text)))
          return failure();
        if (!isCroqToNVVMFormat(options.format))
          return errorHandler("croq-to-nvvm: unknown format '" +
                              options.format +
                              "'; expected isa, bin, fatbin or none");
        buildCroqToNVVMPipeline(pm, options);
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)> optHandler) {
        optHandler(CroqToNVVMPipelineOptions());
      });
}
