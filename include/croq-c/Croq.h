/*===- Croq.h - C API of the croq dialect and pipeline ------------*- C -*-===*\
|*                                                                            *|
|* Lets a host written in C, or any language with a C FFI, embed croq: get    *|
|* the croq dialect into an MLIR context, register croq's passes, lower a     *|
|* module with the croq-to-nvvm pipeline and take the PTX or cubin out.       *|
|* Use it with the MLIR C API (mlir-c/IR.h, mlir-c/Pass.h, ...); the library  *|
|* libCroqCAPI.so carries those functions too (CMake target Croq::CAPI).      *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef CROQ_C_CROQ_H
#define CROQ_C_CROQ_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The croq dialect: `mlirGetDialectHandle__croq__()`, for
/// mlirDialectHandleRegisterDialect / mlirDialectHandleInsertDialect.
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Croq, croq);

/// Adds to `registry` the croq dialect and everything the croq-to-nvvm
/// pipeline needs from upstream MLIR: every upstream dialect, the dialect
/// extensions and the LLVM IR translations. croqRunPipeline adds the same to
/// the module's context itself; call this to parse croq IR, which also uses
/// upstream dialects (func, arith, memref, scf), before running it.
MLIR_CAPI_EXPORTED void
croqRegisterPipelineDialects(MlirDialectRegistry registry);

/// Registers every croq pass and the croq-to-nvvm pipeline with the global
/// pass registry, so that textual pipelines (mlirParsePassPipeline,
/// mlirOpPassManagerAddPipeline) can name them. Calls after the first do
/// nothing.
MLIR_CAPI_EXPORTED void croqRegisterAllPasses(void);

/// Lowers `module` in place with the croq-to-nvvm pipeline: croq IR becomes
/// host LLVM dialect code with one `gpu.binary` per kernel. `options` is the
/// pipeline's option string, as after `--croq-to-nvvm=` on the command line
/// (for example "chip=sm_90a format=bin"); NULL or "" takes the defaults
/// (chip=sm_90a features=+ptx80 opt-level=3 format=isa, i.e. PTX). Errors
/// go to the context's diagnostic handlers.
MLIR_CAPI_EXPORTED MlirLogicalResult croqRunPipeline(MlirModule module,
                                                     const char *options);

/// Writes the PTX of every kernel of `module`, which croqRunPipeline lowered
/// with format=isa, through `callback`: the text croq-translate
/// --croq-to-ptx prints, each kernel module after a `//--- <name>.ptx` line.
/// The text may arrive in several calls. Fails, with a diagnostic, when the
/// module holds no PTX.
MLIR_CAPI_EXPORTED MlirLogicalResult croqTranslateToPTX(
    MlirModule module, MlirStringCallback callback, void *userData);

/// Passes the cubin of every kernel of `module`, which croqRunPipeline
/// lowered with format=bin, to `callback`: one call per kernel module with
/// the whole ELF image, in module order. Fails, with a diagnostic, when the
/// module holds no cubin.
MLIR_CAPI_EXPORTED MlirLogicalResult croqTranslateToCubin(
    MlirModule module, MlirStringCallback callback, void *userData);

#ifdef __cplusplus
}
#endif

#endif // CROQ_C_CROQ_H
