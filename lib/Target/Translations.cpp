//===- Translations.cpp - croq to PTX, cubin and host LLVM IR -------------===//
//
// Translations that run the croq-to-nvvm pipeline on a croq module and emit
// what it produces: the PTX or cubin of each GPU module, or the host code as
// LLVM IR with the GPU binaries embedded and loaded by global constructors.
//
//===----------------------------------------------------------------------===//

#include "Croq/Target/Translations.h"
#include "Croq/Conversion/Passes.h"
#include "Croq/Dialect/Croq/IR/BufferUtils.h"
#include "Croq/Dialect/Croq/IR/CroqOps.h"
#include "Croq/Dialect/Croq/IR/ViewUtils.h"
#include "Croq/Dialect/Croq/Transforms/HostUtils.h"
#include "Croq/InitCroq.h"
#include "Croq/Target/KernelObjects.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CodeGen.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;

static llvm::cl::opt<std::string>
    clChip("croq-chip",
           llvm::cl::desc("GPU architecture (default: the module's "
                          "croq.target, else sm_90a)"),
           llvm::cl::init(""));
static llvm::cl::opt<std::string>
    clFeatures("croq-features", llvm::cl::desc("PTX features (default +ptx80)"),
               llvm::cl::init("+ptx80"));
static llvm::cl::opt<int64_t> clPipelineStages(
    "croq-pipeline-stages",
    llvm::cl::desc("stages of the rings croq-pipeline-loops builds (0, the "
                   "default: as many as fit; 1: no pipelining)"),
    llvm::cl::init(0));
static llvm::cl::opt<bool> clWarpSpecialize(
    "croq-warp-specialize",
    llvm::cl::desc("pipelined loads are issued by a producer warpgroup "
                   "(default true)"),
    llvm::cl::init(true));
static llvm::cl::list<int64_t> clGemmTile(
    "croq-gemm-tile",
    llvm::cl::desc("the block tile (rows,cols) of GEMMs from linalg, "
                   "instead of the cost model's choice"),
    llvm::cl::CommaSeparated);
static llvm::cl::list<int64_t> clGemmCluster(
    "croq-gemm-cluster",
    llvm::cl::desc("the thread block cluster (blocks along M,N, at most 8) "
                   "of GEMMs from linalg, whose blocks share B along M and "
                   "A along N by TMA multicast (default: chosen by the cost "
                   "model; 1,1: none)"),
    llvm::cl::CommaSeparated);
static llvm::cl::opt<int64_t> clGemmF8PromoteSteps(
    "croq-gemm-f8-promote-steps",
    llvm::cl::desc("K steps an 8-bit float GEMM from linalg accumulates in "
                   "wgmma before adding into its f32 accumulator (0: never; "
                   "default 1)"),
    llvm::cl::init(1));
static llvm::cl::opt<int64_t> clGemmSplitK(
    "croq-gemm-split-k",
    llvm::cl::desc("K splits of GEMMs from linalg (0, the default: chosen "
                   "by the cost model; 1: none)"),
    llvm::cl::init(0));
static llvm::cl::opt<int64_t> clGemmStreamK(
    "croq-gemm-stream-k",
    llvm::cl::desc("stream-K form of GEMMs from linalg (0, the default: "
                   "chosen by the cost model; 1: never; 2: always, on the "
                   "tiles that have it)"),
    llvm::cl::init(0));
static llvm::cl::opt<int64_t> clGemmClusterK(
    "croq-gemm-cluster-k",
    llvm::cl::desc("K loops of GEMMs from linalg split among the blocks of "
                   "a thread block cluster (0, the default: chosen by the "
                   "cost model; 1: never; S > 1: always, in clusters of S)"),
    llvm::cl::init(0));
static llvm::cl::list<int64_t> clGemmVariants(
    "croq-gemm-variants",
    llvm::cl::desc("for each GEMM from linalg whose variant the host code "
                   "chooses (dynamic extents, in program order): the one "
                   "variant to compile, -1 for none (default: every "
                   "variant)"),
    llvm::cl::CommaSeparated);
static llvm::cl::opt<bool> clGemmClassify(
    "croq-gemm-classify",
    llvm::cl::desc("compile the classifier: no kernel; the GEMMs from linalg "
                   "whose variant the host code chooses report their "
                   "choice to the runtime (croqRtGetReportedVariants)"),
    llvm::cl::init(false));
static llvm::cl::opt<int64_t> clConsumers(
    "croq-consumers",
    llvm::cl::desc("consumer warpgroups of warp-specialized blocks without "
                   "a croq.consumers attribute (0, the default: two for "
                   "blocks croq-pipeline-loops makes whose accumulators "
                   "have 128 rows or more)"),
    llvm::cl::init(0));
static llvm::cl::opt<bool> clPersistent(
    "croq-persistent",
    llvm::cl::desc("make every 2-D block grid without a croq.persistent "
                   "attribute persistent (default false)"),
    llvm::cl::init(false));
static llvm::cl::opt<croq::TmaFallback> clTmaFallback(
    "croq-tma-fallback",
    llvm::cl::desc("where tma copies carry a software copy for tensors TMA "
                   "cannot take"),
    llvm::cl::init(croq::TmaFallback::Auto),
    llvm::cl::values(
        clEnumValN(croq::TmaFallback::Auto, "auto",
                   "where static shapes and strides do not prove TMA usable "
                   "(default)"),
        clEnumValN(croq::TmaFallback::Always, "always", "on every tma copy"),
        clEnumValN(croq::TmaFallback::Never, "never",
                   "nowhere; the call fails when TMA cannot take a tensor")));
static llvm::cl::opt<std::string> clHostFormat(
    "croq-binary-format",
    llvm::cl::desc("what --croq-to-host-llvmir embeds: bin (cubin, default) "
                   "or isa (PTX, JIT-compiled when loaded)"),
    llvm::cl::init("bin"));

static llvm::cl::opt<std::string> clBundleDir(
    "croq-bundle-dir",
    llvm::cl::desc("where --croq-to-bundle writes its files (created if "
                   "missing)"));
static llvm::cl::opt<std::string> clBundleName(
    "croq-bundle-name",
    llvm::cl::desc("the base name of --croq-to-bundle's files (default "
                   "module)"),
    llvm::cl::init("module"));
static llvm::cl::opt<std::string> clPtxas(
    "croq-ptxas",
    llvm::cl::desc("the ptxas --croq-to-bundle runs (for format bin it is "
                   "searched on PATH, in $CUDA_HOME/bin and /usr/local/cuda/"
                   "bin if not given; format isa runs it only if given, for "
                   "the report)"));

void croq::registerCroqPipelineDialects(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  registerCroqDialects(registry);
}

/// `op` as a module, or null after an error on it.
static ModuleOp getModule(Operation *op) {
  auto module = dyn_cast<ModuleOp>(op);
  if (!module)
    op->emitError("expected a builtin.module, got '") << op->getName() << "'";
  return module;
}

/// Runs croq-to-nvvm with `format` on `module`.
/// Reads a two-number list option into `first` and `second` (left alone
/// when the option is not given); `what` starts the error for any other
/// count.
template <typename Option>
static LogicalResult readPair(ModuleOp module,
                              const llvm::cl::list<int64_t> &option,
                              StringRef what, Option &first, Option &second) {
  if (option.empty())
    return success();
  if (option.size() != 2)
    return module.emitError(what) << ", got " << option.size() << " numbers";
  first = option[0];
  second = option[1];
  return success();
}

static LogicalResult runPipeline(ModuleOp module, StringRef format) {
  if (!croq::isCroqToNVVMFormat(format))
    return module.emitError("unknown GPU binary format '")
           << format << "'; expected isa, bin or fatbin";
  PassManager pm(module->getName());
  croq::CroqToNVVMPipelineOptions options;
  options.chip = clChip;
  options.features = clFeatures;
  options.format = format.str();
  options.pipelineStages = clPipelineStages;
  options.warpSpecialize = clWarpSpecialize;
  options.tmaFallback = clTmaFallback;
  if (failed(readPair(module, clGemmTile, "--croq-gemm-tile takes rows,cols",
                      options.gemmTileM, options.gemmTileN)) ||
      failed(readPair(module, clGemmCluster, "--croq-gemm-cluster takes m,n",
                      options.gemmClusterM, options.gemmClusterN)))
    return failure();
  options.gemmSplitK = clGemmSplitK;
  options.gemmStreamK = clGemmStreamK;
  options.gemmClusterK = clGemmClusterK;
  options.gemmF8PromoteSteps = clGemmF8PromoteSteps;
  options.gemmVariants =
      SmallVector<int64_t>(clGemmVariants.begin(), clGemmVariants.end());
  options.gemmClassify = clGemmClassify;
  options.consumers = clConsumers;
  options.persistent = clPersistent;
  croq::buildCroqToNVVMPipeline(pm, options);
  return pm.run(module);
}

/// Fails when `module` has nothing that becomes a GPU kernel: no
/// block-level croq.parallel region, no linalg op (structured, or a
/// softmax) or memref.copy (convert-linalg-to-croq makes kernels of them)
/// and no gpu.launch, gpu.module or gpu.binary. Run after bufferization
/// (which copies a returned argument into its out-parameter) or lowering.
/// The error points at the first function, or at the module.
static LogicalResult checkHasKernel(ModuleOp module) {
  WalkResult found = module.walk([](Operation *op) {
    auto parallel = dyn_cast<croq::ParallelOp>(op);
    if ((parallel && parallel.getLevel() == croq::ParallelLevel::Block) ||
        isa<linalg::LinalgOp, linalg::SoftmaxOp, memref::CopyOp, gpu::LaunchOp,
            gpu::GPUModuleOp, gpu::BinaryOp>(op))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (found.wasInterrupted())
    return success();
  Operation *anchor = module;
  if (auto funcs = module.getOps<FunctionOpInterface>(); !funcs.empty())
    anchor = *funcs.begin();
  return anchor->emitError("the module has no GPU kernel to emit: no "
                           "function has a block-level croq.parallel region, "
                           "a linalg op or a memref.copy");
}

/// The attribute buffer-results-to-out-params puts on the out-parameters
/// that were a function's results.
static constexpr llvm::StringLiteral kResultAttrName = "bufferize.result";

/// The arguments of `func` that its ops may write: those under a value an
/// op declares a write effect on (croq's copies, stores and writes declare
/// theirs per operand), or that an op without declared effects uses.
static llvm::SmallDenseSet<unsigned> getWrittenArguments(func::FuncOp func) {
  using namespace mlir::croq;
  llvm::SmallDenseSet<unsigned> written;
  auto note = [&](Value value) {
    if (auto arg = dyn_cast<BlockArgument>(getUnderlyingBuffer(value));
        arg && arg.getOwner() == &func.getBody().front())
      written.insert(arg.getArgNumber());
  };
  func.walk([&](Operation *op) {
    if (isa<ViewLikeOpInterface>(op) || isViewOp(op) ||
        isa<SpanAsOp, StageOp>(op))
      return;
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects) {
      if (!op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
        for (Value operand : op->getOperands())
          if (isa<MemRefType, ViewType>(operand.getType()))
            note(operand);
      return;
    }
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffects(instances);
    for (const MemoryEffects::EffectInstance &instance : instances)
      if (isa<MemoryEffects::Write>(instance.getEffect()))
        if (Value value = instance.getValue())
          note(value);
  });
  return written;
}

/// Describes the entry points of `module` for hosts that call them: their
/// calling convention ("abi": 3, pointers to the descriptors and to the
/// scalars, then the stream, a status returned) and per function its name
/// and, per argument, the memref's element type, shape (-1 for dynamic),
/// strides (-1 for dynamic), offset, whether its layout is the identity
/// (row-major and contiguous, whatever the strides say: `memref<?x?xf32>`
/// reports strides [-1, 1] but needs a dense tensor), and whether the
/// function may write it, and whether it is an out-parameter that was a
/// result of the function on tensors ("result"); for a scalar its type and
/// "scalar": true.
static LogicalResult emitSignatures(ModuleOp module, raw_ostream &os) {
  llvm::json::Array functions;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isPrivate() || func.isExternal())
      continue;
    llvm::json::Array arguments;
    llvm::SmallDenseSet<unsigned> written = getWrittenArguments(func);
    for (auto [index, type] : llvm::enumerate(func.getArgumentTypes())) {
      std::string element;
      llvm::raw_string_ostream elementOs(element);
      if (croq::isEntryScalarType(type)) {
        elementOs << type;
        arguments.push_back(llvm::json::Object{{"element_type", element},
                                               {"scalar", true},
                                               {"shape", llvm::json::Array()},
                                               {"strides", llvm::json::Array()},
                                               {"offset", 0},
                                               {"written", false}});
        continue;
      }
      auto memref = dyn_cast<MemRefType>(type);
      if (!memref)
        return func.emitError("entry point argument ")
               << index << " has type " << type
               << "; entry points take memrefs and scalars of type i1, i8, "
                  "i16, i32, i64, index, f32 or f64";
      SmallVector<int64_t> strides;
      int64_t offset;
      if (failed(memref.getStridesAndOffset(strides, offset)))
        return func.emitError("entry point argument ")
               << index << " has a layout without strides";
      auto dyn = [](int64_t v) {
        return ShapedType::isDynamic(v) ? int64_t(-1) : v;
      };
      llvm::json::Array shape, strideList;
      for (int64_t d : memref.getShape())
        shape.push_back(dyn(d));
      for (int64_t s : strides)
        strideList.push_back(dyn(s));
      elementOs << memref.getElementType();
      arguments.push_back(llvm::json::Object{
          {"element_type", element},
          {"identity_layout", memref.getLayout().isIdentity()},
          {"shape", std::move(shape)},
          {"strides", std::move(strideList)},
          {"offset", dyn(offset)},
          {"written", written.contains(index)},
          {"result",
           static_cast<bool>(func.getArgAttr(index, kResultAttrName))}});
    }
    functions.push_back(llvm::json::Object{
        {"name", func.getSymName()}, {"arguments", std::move(arguments)}});
  }
  // The calling convention of the entry points (croq-host-entries): the
  // descriptors and the scalars by reference, then the stream; the status
  // returned.
  os << llvm::formatv("{0:2}",
                      llvm::json::Value(llvm::json::Object{
                          {"abi", 3}, {"functions", std::move(functions)}}))
     << "\n";
  return success();
}

/// Translates the host code of lowered `module` to LLVM IR.
static std::unique_ptr<llvm::Module>
translateHost(ModuleOp module, llvm::LLVMContext &llvmContext) {
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext);
  if (!llvmModule)
    module.emitError("cannot translate the host code to LLVM IR");
  return llvmModule;
}

/// Lowers `module` and translates its host code to LLVM IR.
static std::unique_ptr<llvm::Module>
lowerToHostLLVMIR(ModuleOp module, llvm::LLVMContext &llvmContext) {
  if (failed(runPipeline(module, clHostFormat)))
    return nullptr;
  return translateHost(module, llvmContext);
}

/// Compiles `llvmModule` for the host into a position-independent object.
static LogicalResult emitHostObject(ModuleOp module, llvm::Module &llvmModule,
                                    raw_ostream &os) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::Triple triple(llvm::sys::getDefaultTargetTriple());
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return module.emitError("no host target for ")
           << triple.str() << ": " << error;
  llvm::TargetOptions options;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, "generic", "", options, llvm::Reloc::PIC_));
  llvmModule.setDataLayout(machine->createDataLayout());
  llvmModule.setTargetTriple(triple);
  SmallString<0> buffer;
  llvm::raw_svector_ostream bufferOs(buffer);
  llvm::legacy::PassManager pm;
  if (machine->addPassesToEmitFile(pm, bufferOs, nullptr,
                                   llvm::CodeGenFileType::ObjectFile))
    return module.emitError("the host target cannot emit object files");
  pm.run(llvmModule);
  os << buffer;
  return success();
}

/// Lowers `op` (a module with kernels) with binary `format` and writes the
/// kernels' objects of `kind`.
static LogicalResult emitKernels(Operation *op, raw_ostream &os,
                                 StringRef format,
                                 croq::KernelObjectKind kind) {
  ModuleOp module = getModule(op);
  // Checked after lowering too: bufferization makes kernels of input that
  // has none (a function that returns its argument is copied into its
  // out-parameter), and upstream's canonicalization may leave none.
  if (!module || failed(runPipeline(module, format)) ||
      failed(checkHasKernel(module)))
    return failure();
  return croq::writeKernelObjects(module, kind, os);
}

/// Lowers `op` and writes its host code as LLVM IR, or as an object file.
static LogicalResult emitHost(Operation *op, raw_ostream &os, bool asObject) {
  ModuleOp module = getModule(op);
  if (!module)
    return failure();
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      lowerToHostLLVMIR(module, llvmContext);
  if (!llvmModule)
    return failure();
  if (asObject)
    return emitHostObject(module, *llvmModule, os);
  llvmModule->print(os, nullptr);
  return success();
}

/// Bufferizes the functions of `module` that take or return tensors (as
/// croq-to-nvvm does first), so that their signatures describe the buffers
/// the host passes: results become out-parameters marked
/// `bufferize.result`. A module without tensors is left as it is.
static LogicalResult bufferizeTensorFunctions(ModuleOp module) {
  auto isTensor = [](Type type) { return isa<TensorType>(type); };
  bool onTensors = false;
  for (auto func : module.getOps<func::FuncOp>())
    onTensors |= llvm::any_of(func.getArgumentTypes(), isTensor) ||
                 llvm::any_of(func.getResultTypes(), isTensor);
  if (!onTensors)
    return success();
  PassManager pm(module.getContext());
  croq::addBufferizationPasses(pm);
  return pm.run(module);
}

/// Lowers `op` once and writes everything a host needs into
/// --croq-bundle-dir: `<name>.json` (the signature of the input),
/// `<name>.ptx`, `cubin/<kernel>.cubin` and `<name>.ptxas.txt` (ptxas run once
/// per kernel; for format isa only with --croq-ptxas), and `<name>.o`
/// (the host code with the kernels embedded). Lists the files on `os`. The
/// classifier (--croq-gemm-classify) has no kernel: its PTX is empty and
/// ptxas does not run.
static LogicalResult emitBundle(Operation *op, raw_ostream &os) {
  ModuleOp module = getModule(op);
  if (!module || failed(bufferizeTensorFunctions(module)) ||
      failed(checkHasKernel(module)))
    return failure();
  if (clBundleDir.empty())
    return emitError(module.getLoc(),
                     "--croq-to-bundle needs --croq-bundle-dir");
  if (clHostFormat != "bin" && clHostFormat != "isa")
    return emitError(module.getLoc(),
                     "--croq-to-bundle embeds bin or isa objects, not '")
           << clHostFormat << "'";
  if (std::error_code ec = llvm::sys::fs::create_directories(clBundleDir))
    return emitError(module.getLoc(), "cannot create ")
           << clBundleDir << ": " << ec.message();
  auto pathOf = [](StringRef leaf) {
    SmallString<128> path(clBundleDir);
    llvm::sys::path::append(path, leaf);
    return std::string(path);
  };
  SmallVector<std::string> written;
  auto write = [&](StringRef leaf, StringRef text) {
    written.push_back(pathOf(leaf));
    return croq::writeFileOrEmitError(module.getLoc(), written.back(), text);
  };
  std::string name = clBundleName;
  std::string text;
  llvm::raw_string_ostream textOs(text);
  if (failed(emitSignatures(module, textOs)) ||
      failed(write(name + ".json", text)) || failed(runPipeline(module, "isa")))
    return failure();
  text.clear();
  // The classifier (--croq-gemm-classify) has host code only.
  if (!clGemmClassify && failed(croq::writeKernelObjects(
                             module, croq::KernelObjectKind::PTX, textOs)))
    return failure();
  if (failed(write(name + ".ptx", text)))
    return failure();

  bool embedCubins = clHostFormat == "bin";
  if (!clGemmClassify && (embedCubins || !clPtxas.empty())) {
    std::string ptxas = croq::findPtxas(clPtxas);
    if (!clPtxas.empty() && !llvm::sys::fs::can_execute(ptxas))
      return emitError(module.getLoc(), "--croq-ptxas: '")
             << ptxas << "' is not an executable file";
    std::string report;
    if (failed(croq::assembleKernels(module, ptxas, pathOf("cubin"),
                                     embedCubins, report)) ||
        failed(write(name + ".ptxas.txt", report)))
      return failure();
  }
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule = translateHost(module, llvmContext);
  if (!llvmModule)
    return failure();
  text.clear();
  if (failed(emitHostObject(module, *llvmModule, textOs)) ||
      failed(write(name + ".o", text)))
    return failure();
  for (const std::string &path : written)
    os << path << "\n";
  return success();
}

void croq::registerCroqTranslations() {
  TranslateFromMLIRRegistration signature(
      "croq-to-signature-json",
      "describe the module's entry points (names, memref arguments) as JSON",
      [](Operation *op, raw_ostream &os) -> LogicalResult {
        auto module = getModule(op);
        if (!module || failed(bufferizeTensorFunctions(module)))
          return failure();
        return emitSignatures(module, os);
      },
      croq::registerCroqPipelineDialects);

  TranslateFromMLIRRegistration ptx(
      "croq-to-ptx", "lower croq IR and emit the PTX of its kernels",
      [](Operation *op, raw_ostream &os) {
        return emitKernels(op, os, "isa", croq::KernelObjectKind::PTX);
      },
      croq::registerCroqPipelineDialects);

  TranslateFromMLIRRegistration cubin(
      "croq-to-cubin",
      "lower croq IR and emit the cubin of its kernels (runs ptxas)",
      [](Operation *op, raw_ostream &os) {
        return emitKernels(op, os, "bin", croq::KernelObjectKind::Cubin);
      },
      croq::registerCroqPipelineDialects);

  TranslateFromMLIRRegistration host(
      "croq-to-host-llvmir",
      "lower croq IR and emit the host code as LLVM IR, with the kernels "
      "embedded",
      [](Operation *op, raw_ostream &os) {
        return emitHost(op, os, /*asObject=*/false);
      },
      croq::registerCroqPipelineDialects);

  TranslateFromMLIRRegistration bundle(
      "croq-to-bundle",
      "lower croq IR once and write the signature, PTX, cubins, ptxas's "
      "report and the host object into --croq-bundle-dir",
      emitBundle, croq::registerCroqPipelineDialects);

  TranslateFromMLIRRegistration object(
      "croq-to-host-object",
      "lower croq IR and emit the host code as a position-independent "
      "object file, with the kernels embedded",
      [](Operation *op, raw_ostream &os) {
        return emitHost(op, os, /*asObject=*/true);
      },
      croq::registerCroqPipelineDialects);
}
