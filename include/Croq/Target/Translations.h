//===- Translations.h - croq translations -----------------------*- C++ -*-===//
//
// Registers the translations croq-translate offers: croq IR to PTX, to cubin,
// and to host LLVM IR with the GPU binaries embedded.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_TARGET_TRANSLATIONS_H
#define CROQ_TARGET_TRANSLATIONS_H

namespace mlir {
namespace croq {

/// Registers --croq-to-ptx, --croq-to-cubin and --croq-to-host-llvmir.
void registerCroqTranslations();

} // namespace croq
} // namespace mlir

#endif // CROQ_TARGET_TRANSLATIONS_H
