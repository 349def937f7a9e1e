//===- Translations.h - croq translations -----------------------*- C++ -*-===//
//
// Registers the translations croq-translate offers (croq IR to PTX, to
// cubin, to host LLVM IR or a host object with the GPU binaries embedded,
// and to a JSON description of the entry points), and what a context needs
// to run them.
// Implemented in the CroqTarget library.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_TARGET_TRANSLATIONS_H
#define CROQ_TARGET_TRANSLATIONS_H

namespace mlir {
class DialectRegistry;

namespace croq {

/// Registers --croq-to-ptx, --croq-to-cubin, --croq-to-host-llvmir,
/// --croq-to-host-object and --croq-to-signature-json with the global
/// translation registry.
void registerCroqTranslations();

/// Adds to `registry` the croq dialect and everything the croq-to-nvvm
/// pipeline needs from upstream MLIR: every upstream dialect, the dialect
/// extensions (the NVVM target attribute, the to-LLVM interfaces) and the
/// LLVM IR translations that gpu-module-to-binary uses.
void registerCroqPipelineDialects(DialectRegistry &registry);

} // namespace croq
} // namespace mlir

#endif // CROQ_TARGET_TRANSLATIONS_H
