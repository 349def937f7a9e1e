//===- Passes.h - croq conversion passes ------------------------*- C++ -*-===//
//
// Declares the croq conversion passes, the croq-to-nvvm pipeline, and their
// registration.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_CONVERSION_PASSES_H
#define CROQ_CONVERSION_PASSES_H

#include "Croq/Dialect/Croq/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
namespace croq {

#define GEN_PASS_DECL
#include "Croq/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Croq/Conversion/Passes.h.inc"

/// Options of the croq-to-nvvm pipeline.
struct CroqToNVVMPipelineOptions
    : public PassPipelineOptions<CroqToNVVMPipelineOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("GPU architecture to compile for (croq-set-target "
                     "writes it as the module's croq.target; default: the "
                     "module's croq.target, else sm_90a)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> features{
      *this, "features", llvm::cl::desc("PTX features (PTX ISA version)"),
      llvm::cl::init("+ptx80")};
  PassOptions::Option<int> optLevel{
      *this, "opt-level", llvm::cl::desc("optimization level of NVVM codegen"),
      llvm::cl::init(3)};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("what the GPU modules become: isa (PTX), bin (cubin, "
                     "runs ptxas), fatbin, or none (stop at NVVM IR)"),
      llvm::cl::init("isa")};
  PassOptions::Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("CUDA toolkit whose libdevice serves math functions in "
                     "kernels and whose ptxas makes cubins (default: "
                     "CUDA_ROOT, CUDA_HOME, CUDA_PATH, the toolkit of the "
                     "ptxas on PATH, /usr/local/cuda)"),
      llvm::cl::init("")};
  PassOptions::Option<int64_t> pipelineStages{
      *this, "pipeline-stages",
      llvm::cl::desc("stages of the rings croq-pipeline-loops builds (0: as "
                     "many as fit, 1: no pipelining)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> gemmTileM{
      *this, "gemm-tile-m",
      llvm::cl::desc("rows of the block tiles of GEMMs from linalg (0: "
                     "chosen by the cost model)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> gemmTileN{
      *this, "gemm-tile-n",
      llvm::cl::desc("columns of the block tiles of GEMMs from linalg (0: "
                     "chosen by the cost model)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> gemmSplitK{
      *this, "gemm-split-k",
      llvm::cl::desc("K splits of GEMMs from linalg (0: chosen by the cost "
                     "model; 1: none)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> gemmClusterM{
      *this, "gemm-cluster-m",
      llvm::cl::desc("blocks of the thread block clusters of GEMMs from "
                     "linalg along M, sharing B by multicast (0: chosen by "
                     "the cost model; 1: none)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> gemmClusterN{
      *this, "gemm-cluster-n",
      llvm::cl::desc("blocks of the thread block clusters of GEMMs from "
                     "linalg along N, sharing A by multicast (1: none)"),
      llvm::cl::init(1)};
  PassOptions::Option<int64_t> gemmStreamK{
      *this, "gemm-stream-k",
      llvm::cl::desc("stream-K form of GEMMs from linalg (0: chosen by the "
                     "cost model; 1: never; 2: always, on the tiles that "
                     "have it)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> gemmClusterK{
      *this, "gemm-cluster-k",
      llvm::cl::desc("K loops of GEMMs from linalg split among the blocks "
                     "of a thread block cluster (0: chosen by the cost "
                     "model; 1: never; S > 1: always, in clusters of S)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> gemmF8PromoteSteps{
      *this, "gemm-f8-promote-steps",
      llvm::cl::desc("K steps an 8-bit float GEMM from linalg accumulates "
                     "in wgmma before adding into its f32 accumulator (0: "
                     "never; convert-linalg-to-croq's default: 1)"),
      llvm::cl::init(1)};
  PassOptions::ListOption<int64_t> gemmVariants{
      *this, "gemm-variants",
      llvm::cl::desc("for each GEMM from linalg whose variant the host code "
                     "chooses (dynamic extents): the one variant to compile "
                     "(a shape class), -1 for none (default: every "
                     "variant)")};
  PassOptions::Option<bool> gemmClassify{
      *this, "gemm-classify",
      llvm::cl::desc("compile no kernel: the GEMMs from linalg whose variant "
                     "the host code chooses report their choice to the "
                     "runtime (the classifier of compile on first call)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> persistent{
      *this, "persistent",
      llvm::cl::desc("make every 2-D block grid without a croq.persistent "
                     "attribute persistent (GEMMs from linalg are)"),
      llvm::cl::init(false)};
  PassOptions::Option<int64_t> consumers{
      *this, "consumers",
      llvm::cl::desc("consumer warpgroups, each on its rows of the "
                     "accumulators, of warp-specialized blocks without a "
                     "croq.consumers attribute (0: those croq-pipeline-loops "
                     "makes get two where the accumulators have 128 rows or "
                     "more, hand-written ones keep theirs)"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> warpSpecialize{
      *this, "warp-specialize",
      llvm::cl::desc("pipelined loads are issued by a producer warpgroup"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> stageMisalignedInputs{
      *this, "stage-misaligned-inputs",
      llvm::cl::desc("tensors a kernel only reads through tma copies are "
                     "staged into aligned buffers when TMA cannot describe "
                     "them"),
      llvm::cl::init(true)};
  PassOptions::Option<TmaFallback> tmaFallback{
      *this, "tma-fallback",
      llvm::cl::desc("where tma copies carry a software copy for tensors TMA "
                     "cannot take"),
      llvm::cl::init(TmaFallback::Auto),
      llvm::cl::values(
          clEnumValN(TmaFallback::Auto, "auto",
                     "where static shapes and strides do not prove TMA "
                     "usable (default)"),
          clEnumValN(TmaFallback::Always, "always", "on every tma copy"),
          clEnumValN(TmaFallback::Never, "never",
                     "nowhere; the call fails when TMA cannot take a "
                     "tensor"))};
};

/// Adds the passes that bufferize functions on tensors as croq-to-nvvm does
/// first (croq-check-input, which declines input that would crash them,
/// then one-shot-bufferize with function boundaries and identity layouts;
/// results become out-parameters marked `bufferize.result`); a module of
/// memrefs goes through unchanged. croq-translate runs them before it takes
/// a module's signature.
void addBufferizationPasses(OpPassManager &pm);

/// Adds croq's own passes, the first part of croq-to-nvvm: from croq IR (or
/// linalg) to gpu.launch regions over the gpu, nvgpu, memref, scf and vector
/// dialects, before any upstream conversion to NVVM or LLVM.
void buildCroqToGPUPipeline(OpPassManager &pm,
                            const CroqToNVVMPipelineOptions &options);

/// Adds every pass from croq IR to host LLVM IR with embedded GPU binaries:
/// buildCroqToGPUPipeline's, then the upstream conversions.
void buildCroqToNVVMPipeline(OpPassManager &pm,
                             const CroqToNVVMPipelineOptions &options);

/// Whether croq-to-nvvm takes `format` (what gpu-module-to-binary takes, or
/// none).
bool isCroqToNVVMFormat(StringRef format);

/// Where a CUDA toolkit is looked for, in order: CUDA_ROOT, CUDA_HOME,
/// CUDA_PATH, the toolkit of the ptxas on PATH, /usr/local/cuda.
SmallVector<std::string> getCudaToolkitCandidates();

/// The CUDA toolkit croq-to-nvvm makes binaries with: `hint`, else the
/// first candidate that has libdevice (math functions in kernels call it);
/// empty if none has.
std::string findCudaToolkit(StringRef hint = "");

/// Registers the croq-to-nvvm pipeline; it rejects unknown formats.
void registerCroqToNVVMPipeline();

/// Registers the croq-to-gpu pipeline (buildCroqToGPUPipeline).
void registerCroqToGPUPipeline();

} // namespace croq
} // namespace mlir

#endif // CROQ_CONVERSION_PASSES_H
