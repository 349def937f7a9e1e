//===- CroqToolMains.h - entry points of croq's tools -----------*- C++ -*-===//
//
// The bodies of croq-opt and croq-translate as functions, so that the
// executables of the shared build and the multi-call croq-tool of the static
// build (CROQ_STATIC_TOOLS) run the same code.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_TOOLS_CROQTOOLMAINS_H
#define CROQ_TOOLS_CROQTOOLMAINS_H

namespace mlir {
namespace croq {

/// croq-opt: MlirOptMain with croq's and the upstream dialects and passes.
int croqOptMain(int argc, char **argv);

/// croq-translate: mlirTranslateMain with croq's and the upstream
/// translations.
int croqTranslateMain(int argc, char **argv);

} // namespace croq
} // namespace mlir

#endif // CROQ_TOOLS_CROQTOOLMAINS_H
