//===- Croq.cpp - C API of the croq dialect and pipeline ------------------===//
//
// Implements include/croq-c/Croq.h on top of the C++ registration entry
// points (Croq/InitCroq.h), the croq-to-nvvm pipeline and the kernel object
// reader of CroqTarget.
//
//===----------------------------------------------------------------------===//

#include "croq-c/Croq.h"

#include "Croq/InitCroq.h"
#include "Croq/Target/KernelObjects.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"
#include "mlir/Pass/PassManager.h"

#include <mutex>

using namespace mlir;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Croq, croq, mlir::croq::CroqDialect)

void croqRegisterPipelineDialects(MlirDialectRegistry registry) {
  croq::registerCroqPipelineDialects(*unwrap(registry));
}

// Registering a pipeline twice is a fatal error in MLIR; hosts that call
// this from several places need not coordinate.
void croqRegisterAllPasses(void) {
  static std::once_flag once;
  std::call_once(once, [] { croq::registerCroqPasses(); });
}

MlirLogicalResult croqRunPipeline(MlirModule module, const char *options) {
  ModuleOp op = unwrap(module);
  MLIRContext *context = op.getContext();

  DialectRegistry registry;
  croq::registerCroqPipelineDialects(registry);
  context->appendDialectRegistry(registry);

  croq::CroqToNVVMPipelineOptions pipelineOptions;
  std::string message;
  llvm::raw_string_ostream messageOs(message);
  if (failed(
          pipelineOptions.parseFromString(options ? options : "", messageOs))) {
    InFlightDiagnostic diag = op.emitError("invalid croq-to-nvvm options '")
                              << options << "'";
    if (!StringRef(message).trim().empty())
      diag << ": " << StringRef(message).trim();
    return mlirLogicalResultFailure();
  }

  PassManager pm(context, ModuleOp::getOperationName());
  croq::buildCroqToNVVMPipeline(pm, pipelineOptions);
  return wrap(pm.run(op));
}

MlirLogicalResult croqTranslateToPTX(MlirModule module,
                                     MlirStringCallback callback,
                                     void *userData) {
  detail::CallbackOstream stream(callback, userData);
  return wrap(croq::writeKernelObjects(unwrap(module),
                                       croq::KernelObjectKind::PTX, stream));
}

MlirLogicalResult croqTranslateToCubin(MlirModule module,
                                       MlirStringCallback callback,
                                       void *userData) {
  return wrap(croq::forEachKernelObject(
      unwrap(module), croq::KernelObjectKind::Cubin,
      [&](StringRef, StringRef object) { callback(wrap(object), userData); }));
}
