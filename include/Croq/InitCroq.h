//===- InitCroq.h - register everything croq provides -----------*- C++ -*-===//
//
// One entry point for each kind of thing croq adds to an MLIR tool, so that a
// host compiler's *-opt or *-translate gains every croq dialect, pass,
// pipeline and translation with a few lines.
//
//===----------------------------------------------------------------------===//
//
// A host *-opt tool, next to its own and the upstream registrations:
//
//   mlir::registerAllPasses();                 // upstream (optional)
//   mlir::croq::registerCroqPasses();          // croq passes + croq-to-nvvm
//   mlir::DialectRegistry registry;
//   mlir::registerAllDialects(registry);       // upstream; or, instead of
//   mlir::registerAllExtensions(registry);     // these three lines,
//   mlir::registerAllToLLVMIRTranslations(registry); // the one below
//   mlir::croq::registerCroqDialects(registry);
//   // mlir::croq::registerCroqPipelineDialects(registry);
//
// A host *-translate tool calls mlir::croq::registerCroqTranslations().
//
// Libraries to link (CMake, after find_package(Croq)): Croq::Dialect for
// registerCroqDialects, Croq::Conversion (which brings Croq::Transforms) for
// registerCroqPasses, Croq::Target for registerCroqTranslations and
// registerCroqPipelineDialects. See docs/embedding.md.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_INITCROQ_H
#define CROQ_INITCROQ_H

#include "Croq/Conversion/Passes.h"
#include "Croq/Dialect/Croq/IR/CroqDialect.h"
#include "Croq/Dialect/Croq/Transforms/Passes.h"
#include "Croq/Target/Translations.h"

#include "mlir/IR/DialectRegistry.h"

namespace mlir {
namespace croq {

/// Adds the croq dialect to `registry`. croq IR also uses the upstream
/// `func`, `arith`, `memref` and `scf` dialects, and the croq-to-nvvm
/// pipeline needs more (see registerCroqPipelineDialects): register those
/// too, or call registerCroqPipelineDialects instead.
inline void registerCroqDialects(DialectRegistry &registry) {
  registry.insert<CroqDialect>();
}

/// Registers every croq pass and pipeline with the global pass registry:
/// the croq-to-croq transforms (croq-normalize-views, ...), the conversions
/// (convert-croq-to-gpu, ...) and the croq-to-gpu and croq-to-nvvm
/// pipelines. Call it once:
/// MLIR treats a second registration of a pipeline as a fatal error.
inline void registerCroqPasses() {
  registerCroqTransformsPasses();
  registerCroqConversionPasses();
  registerCroqToGPUPipeline();
  registerCroqToNVVMPipeline();
}

// Declared in Croq/Target/Translations.h, defined in Croq::Target:
//   void registerCroqTranslations();
//   void registerCroqPipelineDialects(DialectRegistry &registry);

} // namespace croq
} // namespace mlir

#endif // CROQ_INITCROQ_H
