//===- InitCroq.h - register everything croq provides -----------*- C++ -*-===//
//
// One entry point for each kind of thing croq adds to an MLIR tool, so that a
// host compiler's *-opt or *-translate gains every croq dialect, pass and
// translation with a few lines.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_INITCROQ_H
#define CROQ_INITCROQ_H

#include "Croq/Conversion/Passes.h"
#include "Croq/Dialect/Croq/IR/CroqDialect.h"
#include "Croq/Dialect/Croq/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"

namespace mlir {
namespace croq {

/// Adds the croq dialect to `registry`.
inline void registerCroqDialects(DialectRegistry &registry) {
  registry.insert<CroqDialect>();
}

/// Registers every croq pass and pipeline with the global pass registry.
inline void registerCroqPasses() {
  registerCroqTransformsPasses();
  registerCroqConversionPasses();
  registerCroqToNVVMPipeline();
}

} // namespace croq
} // namespace mlir

#endif // CROQ_INITCROQ_H
