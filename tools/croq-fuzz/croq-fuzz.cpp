//===- croq-fuzz.cpp - libFuzzer target for croq-opt's pipeline -----------===//
//
// Feeds every input to what croq-opt does with a file: parse it as croq IR,
// verify it, print it, and run croq's passes and the croq-to-nvvm pipeline
// on copies. Any of these may fail with a diagnostic; none may crash, trip a
// sanitizer, leak or hang. Diagnostics are swallowed, never printed.
//
//===----------------------------------------------------------------------===//

#include "Croq/Conversion/Passes.h"
#include "Croq/Dialect/Croq/Transforms/Passes.h"
#include "Croq/InitCroq.h"

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

#include <cstddef>
#include <cstdint>
#include <cstdlib>

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

/// Runs `buildPipeline`'s passes on a copy of `module`; the result, success
/// or failure, does not matter.
static void runOnClone(ModuleOp module,
                       function_ref<void(PassManager &)> buildPipeline) {
  OwningOpRef<ModuleOp> clone = module.clone();
  PassManager pm(module.getContext());
  pm.addInstrumentation(std::make_unique<CheckCroqPassOutput>());
  buildPipeline(pm);
  (void)pm.run(*clone);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext &context = getContext();
  ScopedDiagnosticHandler discard(&context, [](Diagnostic &) {
    return success();
  });

  // A copy: the lexer wants a null-terminated buffer.
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          StringRef(reinterpret_cast<const char *>(data), size), "fuzz.mlir"),
      llvm::SMLoc());
  ParserConfig config(&context, /*verifyAfterParse=*/false);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, config);
  if (!module || failed(verify(*module)))
    return 0;

  // The printers, generic and custom.
  {
    std::string text;
    llvm::raw_string_ostream os(text);
    module->print(os);
    module->print(os, OpPrintingFlags().printGenericOpForm());
  }

  runOnClone(*module, [](PassManager &pm) {
    pm.addPass(createCanonicalizerPass());
    pm.addPass(croq::createCroqNormalizeViews());
    pm.addPass(croq::createConvertCroqToGPU());
  });
  runOnClone(*module, [](PassManager &pm) {
    croq::CroqToNVVMPipelineOptions options;
    options.format = "none";
    croq::buildCroqToNVVMPipeline(pm, options);
  });
  return 0;
}
