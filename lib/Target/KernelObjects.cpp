//===- KernelObjects.cpp - PTX and cubin out of a lowered module ----------===//
//
// Walks the gpu.binary ops that gpu-module-to-binary leaves at the end of the
// croq-to-nvvm pipeline and hands out their objects.
//
//===----------------------------------------------------------------------===//

#include "Croq/Target/KernelObjects.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

static StringRef kindName(croq::KernelObjectKind kind) {
  return kind == croq::KernelObjectKind::PTX ? "PTX" : "cubin";
}

LogicalResult croq::forEachKernelObject(
    ModuleOp module, KernelObjectKind kind,
    function_ref<void(StringRef name, StringRef object)> fn) {
  gpu::CompilationTarget expected = kind == KernelObjectKind::PTX
                                        ? gpu::CompilationTarget::Assembly
                                        : gpu::CompilationTarget::Binary;
  unsigned count = 0;
  WalkResult result = module.walk([&](gpu::BinaryOp binary) {
    for (Attribute attr : binary.getObjects()) {
      auto object = cast<gpu::ObjectAttr>(attr);
      if (object.getFormat() != expected) {
        binary.emitError("expected ")
            << kindName(kind) << " objects (croq-to-nvvm format="
            << (kind == KernelObjectKind::PTX ? "isa" : "bin") << ")";
        return WalkResult::interrupt();
      }
      fn(binary.getSymName(), object.getObject().getValue());
      ++count;
    }
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  if (count == 0)
    return module.emitError("the module has no GPU kernel to emit");
  return success();
}

LogicalResult croq::writeKernelObjects(ModuleOp module, KernelObjectKind kind,
                                       raw_ostream &os) {
  return forEachKernelObject(module, kind, [&](StringRef name, StringRef obj) {
    if (kind == KernelObjectKind::PTX)
      os << "//--- " << name << ".ptx\n";
    os << obj;
  });
}

LogicalResult croq::writeFileOrEmitError(Location loc, StringRef path,
                                         StringRef text) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (!ec) {
    os << text;
    os.close();
    ec = os.error();
  }
  if (ec)
    return emitError(loc, "cannot write ") << path << ": " << ec.message();
  return success();
}
