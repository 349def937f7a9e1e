//===- croq-fuzz.cpp - libFuzzer target for croq-opt's pipeline -----------===//
//
// Feeds every input to what croq-opt does with a file: parse it as croq IR,
// verify it, print it, and run croq's passes and the croq-to-nvvm pipeline
// on copies. Any of these may fail with a diagnostic; none may crash, trip a
// sanitizer, leak or hang. Diagnostics are swallowed, never printed. A
// custom mutator also swaps integer literals for edge values.
//
//===----------------------------------------------------------------------===//

#include "Croq/Conversion/Passes.h"
#include "Croq/Dialect/Croq/Transforms/Passes.h"
#include "Croq/InitCroq.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <random>
#include <string>

using namespace mlir;

/// The context, with the dialects croq-opt registers, made once: building it
/// per input would dominate the run time.
static MLIRContext &getContext() {
  static MLIRContext *context = [] {
    DialectRegistry registry;
    registerAllDialects(registry);
    registerAllExtensions(registry);
    registerAllToLLVMIRTranslations(registry);
    croq::registerCroqDialects(registry);
    auto *ctx = new MLIRContext(registry, MLIRContext::Threading::DISABLED);
    // Keep the diagnostics away from the fuzzer's output.
    ctx->printOpOnDiagnostic(false);
    ctx->printStackTraceOnDiagnostic(false);
    return ctx;
  }();
  return *context;
}

namespace {
/// Aborts when a croq pass leaves IR that does not verify. The pass manager
/// verifies after every pass and reports a failure, which alone would look
/// like a rejected input; invalid IR out of valid IR is a bug in the pass.
struct CheckCroqPassOutput : public PassInstrumentation {
  void runAfterPassFailed(Pass *pass, Operation *op) override {
    StringRef arg = pass->getArgument();
    if (!arg.starts_with("croq-") && !arg.starts_with("convert-croq-"))
      return;
    if (succeeded(verify(op)))
      return;
    llvm::errs() << "croq-fuzz: " << arg << " left IR that does not verify\n";
    abort();
  }
};
} // namespace

/// How far the inputs got, printed at exit when CROQ_FUZZ_STATS is set.
namespace {
struct Stats {
  uint64_t inputs = 0, parsed = 0, verified = 0, lowered = 0, tiled = 0,
           pipelined = 0;
  ~Stats() {
    if (getenv("CROQ_FUZZ_STATS"))
      llvm::errs() << "croq-fuzz: " << inputs << " inputs, " << parsed
                   << " parsed, " << verified << " verified, " << lowered
                   << " through convert-croq-to-gpu, " << tiled
                   << " through the GEMM passes, " << pipelined
                   << " through croq-to-nvvm\n";
  }
};
} // namespace
static Stats stats;

/// Runs `buildPipeline`'s passes on a copy of `module`; whether they
/// succeed only counts in the statistics.
static bool runOnClone(ModuleOp module,
                       function_ref<void(PassManager &)> buildPipeline) {
  OwningOpRef<ModuleOp> clone = module.clone();
  PassManager pm(module.getContext());
  pm.addInstrumentation(std::make_unique<CheckCroqPassOutput>());
  buildPipeline(pm);
  return succeeded(pm.run(*clone));
}

/// Skips whitespace and `//` comments from `pos` on.
static size_t skipBlanks(StringRef text, size_t pos) {
  while (pos < text.size()) {
    if (isspace(static_cast<unsigned char>(text[pos]))) {
      ++pos;
    } else if (text.substr(pos).starts_with("//")) {
      pos = text.find('\n', pos);
      if (pos == StringRef::npos)
        return text.size();
    } else {
      break;
    }
  }
  return pos;
}

/// Whether `text` has `array` `<` `index` (the attribute parser takes the
/// bit width of `index` and dereferences null).
static bool hasIndexArray(StringRef text) {
  for (size_t pos = text.find("array"); pos != StringRef::npos;
       pos = text.find("array", pos + 1)) {
    size_t next = skipBlanks(text, pos + 5);
    if (next >= text.size() || text[next] != '<')
      continue;
    if (text.substr(skipBlanks(text, next + 1)).starts_with("index"))
      return true;
  }
  return false;
}

/// Whether `list` is blank or decimal integers separated by commas.
static bool isIntegerList(StringRef list) {
  if (list.trim().empty())
    return true;
  SmallVector<StringRef> items;
  list.split(items, ',');
  for (StringRef item : items) {
    item = item.trim();
    item.consume_front("-");
    if (item.empty() || item.find_first_not_of("0123456789") != StringRef::npos)
      return false;
  }
  return true;
}

/// Whether `text` has `keyword` `=` followed by anything but `[`, an
/// integer list (isIntegerList) and `]`: linalg.transpose's `permutation`
/// and linalg.broadcast's and linalg.reduce's `dimensions` parse their
/// list into a null attribute on an error and then set it, which
/// dereferences null (`permutation = [1, 0x]` makes mlir-opt segfault).
/// The generic form's `permutation = array<i64: ...>` is skipped too.
static bool hasBadI64List(StringRef text, StringRef keyword) {
  for (size_t pos = text.find(keyword); pos != StringRef::npos;
       pos = text.find(keyword, pos + 1)) {
    size_t next = skipBlanks(text, pos + keyword.size());
    if (next >= text.size() || text[next] != '=')
      continue;
    next = skipBlanks(text, next + 1);
    if (next >= text.size() || text[next] != '[')
      return true;
    size_t close = text.find(']', next);
    if (close == StringRef::npos)
      return true;
    if (!isIntegerList(text.slice(next + 1, close)))
      return true;
  }
  return false;
}

/// Whether `text` holds input that crashes upstream MLIR before croq sees
/// it (docs/robustness.md lists these).
static bool hitsKnownUpstreamCrash(StringRef text) {
  return hasIndexArray(text) || hasBadI64List(text, "permutation") ||
         hasBadI64List(text, "dimensions");
}

//===----------------------------------------------------------------------===//
// Mutations
//===----------------------------------------------------------------------===//

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

/// Integers at the edges of int64_t and of the hardware's limits: the
/// values that break size, offset and count arithmetic.
static const char *const kEdgeIntegers[] = {"0",
                                            "1",
                                            "-1",
                                            "2",
                                            "3",
                                            "8",
                                            "16",
                                            "64",
                                            "127",
                                            "128",
                                            "256",
                                            "257",
                                            "1024",
                                            "1025",
                                            "232448",
                                            "2147483647",
                                            "2147483648",
                                            "4294967295",
                                            "4294967296",
                                            "4611686018427387904",
                                            "4611686018427387905",
                                            "9223372036854775806",
                                            "9223372036854775807",
                                            "-9223372036854775808"};

/// Where integer literals start and end in `text`: runs of digits, with a
/// leading `-`, that are not part of a name (`%c16`, `f32`, `sm_90a`); a
/// digit run after `x` is a shape dimension (`16x16xf32`) and counts.
static SmallVector<std::pair<size_t, size_t>> findIntegers(StringRef text) {
  SmallVector<std::pair<size_t, size_t>> spans;
  for (size_t i = 0; i < text.size();) {
    if (!isdigit(static_cast<unsigned char>(text[i]))) {
      ++i;
      continue;
    }
    size_t begin = i;
    while (i < text.size() && isdigit(static_cast<unsigned char>(text[i])))
      ++i;
    char before = begin ? text[begin - 1] : ' ';
    if (before == '-')
      --begin;
    else if (before != 'x' && (isalpha(static_cast<unsigned char>(before)) ||
                               StringRef("_%#@$.^").contains(before)))
      continue;
    spans.push_back({begin, i});
  }
  return spans;
}

/// Half of the mutations replace one integer literal with an edge value
/// (kEdgeIntegers): byte-level mutations keep IR valid but rarely produce
/// such numbers. The other half are libFuzzer's own.
extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned seed) {
  std::minstd_rand rng(seed);
  StringRef text(reinterpret_cast<const char *>(data), size);
  SmallVector<std::pair<size_t, size_t>> spans = findIntegers(text);
  if (rng() % 2 || spans.empty())
    return LLVMFuzzerMutate(data, size, maxSize);
  auto [begin, end] = spans[rng() % spans.size()];
  StringRef value = kEdgeIntegers[rng() % std::size(kEdgeIntegers)];
  std::string mutated =
      (text.take_front(begin) + value + text.drop_front(end)).str();
  if (mutated.size() > maxSize)
    return LLVMFuzzerMutate(data, size, maxSize);
  memcpy(data, mutated.data(), mutated.size());
  return mutated.size();
}

//===----------------------------------------------------------------------===//
// The target
//===----------------------------------------------------------------------===//

/// Whether verified `module` holds IR that crashes upstream MLIR's own
/// patterns (docs/robustness.md lists these): `memref.dim` or `tensor.dim`
/// with a negative constant index verifies, and canonicalization then reads
/// the shape out of bounds.
static bool hasKnownUpstreamCrash(ModuleOp module) {
  WalkResult result = module.walk([](Operation *op) {
    StringRef name = op->getName().getStringRef();
    if ((name == "memref.dim" || name == "tensor.dim") &&
        op->getNumOperands() == 2) {
      std::optional<int64_t> index = getConstantIntValue(op->getOperand(1));
      if (index && *index < 0)
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  StringRef input(reinterpret_cast<const char *>(data), size);
  if (hitsKnownUpstreamCrash(input))
    return -1;
  MLIRContext &context = getContext();
  ScopedDiagnosticHandler discard(&context,
                                  [](Diagnostic &) { return success(); });

  // A copy: the lexer wants a null-terminated buffer.
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(input, "fuzz.mlir"), llvm::SMLoc());
  ParserConfig config(&context, /*verifyAfterParse=*/false);
  ++stats.inputs;
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, config);
  if (!module)
    return 0;
  ++stats.parsed;
  if (failed(verify(*module)))
    return 0;
  if (hasKnownUpstreamCrash(*module))
    return -1;
  ++stats.verified;

  // The printers, generic and custom.
  {
    std::string text;
    llvm::raw_string_ostream os(text);
    module->print(os);
    module->print(os, OpPrintingFlags().printGenericOpForm());
  }

  stats.lowered += runOnClone(*module, [](PassManager &pm) {
    pm.addPass(createCanonicalizerPass());
    pm.addPass(croq::createCroqAssignLayouts());
    pm.addPass(croq::createCroqNormalizeViews());
    pm.addPass(croq::createCroqWaitAsyncStores());
    pm.addPass(croq::createCroqDistributeCopies());
    pm.addPass(croq::createCroqPlanTmaBoxes());
    pm.addPass(croq::createCroqEmitTensorMaps());
    pm.addPass(croq::createCroqHostEntries());
    pm.addPass(croq::createCroqPlanSharedMemory());
    pm.addPass(croq::createCroqPlanEvents());
    pm.addPass(croq::createCroqPlanRegisters());
    pm.addPass(croq::createConvertCroqToGPU());
    pm.addPass(croq::createConvertCroqRegionsToGPU());
  });
  // The passes that choose a GEMM's form, with the tile and the K split
  // left to the cost model (a kernel per choice for dynamic shapes).
  stats.tiled += runOnClone(*module, [](PassManager &pm) {
    pm.addPass(croq::createConvertLinalgToCroq());
    pm.addPass(croq::createCroqPersistentBlocks());
    pm.addPass(croq::createCroqPipelineLoops());
    pm.addPass(croq::createCroqSplitAccumulators());
  });
  // The whole pipeline, with one kernel per GEMM (one tile, the K loop
  // whole): a kernel per tile and split would multiply the lowering of
  // every linalg product by seven, and the inputs of GEMM modules ran into
  // the fuzzer's 10 s limit under the sanitizers. The run above covers the
  // choice among tiles and splits.
  stats.pipelined += runOnClone(*module, [](PassManager &pm) {
    croq::CroqToNVVMPipelineOptions options;
    options.format = "none";
    options.gemmTileM = 128;
    options.gemmTileN = 128;
    options.gemmSplitK = 1;
    croq::buildCroqToNVVMPipeline(pm, options);
  });
  return 0;
}
