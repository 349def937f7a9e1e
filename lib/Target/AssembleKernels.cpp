//===- AssembleKernels.cpp - ptxas on a lowered module's kernels ----------===//
//
// Turns the PTX objects that croq-to-nvvm (format=isa) leaves in a module's
// gpu.binary ops into cubins: one ptxas process per kernel, run together,
// whose reports are kept and whose cubins replace the PTX in the IR. One
// pipeline run then gives the PTX, the cubins, ptxas's reports and the host
// code that embeds the cubins, with ptxas run once per kernel.
//
//===----------------------------------------------------------------------===//

#include "Croq/Conversion/Passes.h"
#include "Croq/Dialect/Croq/IR/TargetDescription.h"
#include "Croq/Target/KernelObjects.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

std::string croq::findPtxas(StringRef hint) {
  if (!hint.empty())
    return hint.str();
  if (llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName("ptxas"))
    return *found;
  for (const std::string &root : getCudaToolkitCandidates()) {
    SmallString<128> path(root);
    llvm::sys::path::append(path, "bin", "ptxas");
    if (llvm::sys::fs::can_execute(path))
      return std::string(path);
  }
  return "";
}

namespace {
/// One kernel's ptxas run.
struct Assembly {
  gpu::BinaryOp binary;
  unsigned objectIndex;
  std::string name;
  SmallString<128> ptxPath;
  SmallString<128> cubinPath;
  SmallString<128> logPath;
  llvm::sys::ProcessInfo process;
  std::string startError;
};
} // namespace

/// The whole of `path`, or an empty string.
static std::string readFile(StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  return buffer ? (*buffer)->getBuffer().str() : std::string();
}

/// Collects the PTX objects of `module`, writes each to `<cubinDir>/
/// <name>.ptx` and starts ptxas on it.
static LogicalResult startAssemblies(ModuleOp module, StringRef ptxas,
                                     StringRef chip, StringRef cubinDir,
                                     std::vector<Assembly> &assemblies) {
  WalkResult walked = module.walk([&](gpu::BinaryOp binary) {
    for (auto [index, attr] : llvm::enumerate(binary.getObjects())) {
      auto object = cast<gpu::ObjectAttr>(attr);
      if (object.getFormat() != gpu::CompilationTarget::Assembly) {
        emitError(binary.getLoc(),
                  "expected PTX objects to assemble (croq-to-nvvm "
                  "format=isa)");
        return WalkResult::interrupt();
      }
      Assembly &a = assemblies.emplace_back();
      a.binary = binary;
      a.objectIndex = index;
      a.name = binary.getSymName().str();
      for (auto [path, ext] : {std::pair{&a.ptxPath, "ptx"},
                               {&a.cubinPath, "cubin"},
                               {&a.logPath, "ptxas.log"}}) {
        *path = cubinDir;
        llvm::sys::path::append(*path, a.name + "." + ext);
      }
      if (failed(croq::writeFileOrEmitError(binary.getLoc(), a.ptxPath,
                                            object.getObject().getValue())))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (walked.wasInterrupted())
    return failure();
  if (assemblies.empty())
    return emitError(module.getLoc(),
                     "the module has no GPU kernel to assemble");
  std::string arch = ("-arch=" + chip).str();
  for (Assembly &a : assemblies) {
    SmallVector<StringRef> args{ptxas,     "-v", arch,
                                a.ptxPath, "-o", a.cubinPath};
    std::optional<StringRef> redirects[] = {StringRef(""), a.logPath.str(),
                                            a.logPath.str()};
    bool failedToStart = false;
    a.process = llvm::sys::ExecuteNoWait(
        ptxas, args, /*Env=*/std::nullopt, redirects,
        /*MemoryLimit=*/0, &a.startError, &failedToStart);
    if (failedToStart && a.startError.empty())
      a.startError = "cannot start " + ptxas.str();
  }
  return success();
}

/// Waits for every run, then reports in module order; the first failure in
/// that order is the one reported.
static LogicalResult finishAssemblies(StringRef chip,
                                      std::vector<Assembly> &assemblies,
                                      std::string &report) {
  SmallVector<std::string> errors(assemblies.size());
  SmallVector<int> codes(assemblies.size(), -1);
  for (auto [i, a] : llvm::enumerate(assemblies)) {
    if (!a.startError.empty())
      continue;
    std::string waitError;
    llvm::sys::ProcessInfo done =
        llvm::sys::Wait(a.process, /*SecondsToWait=*/std::nullopt, &waitError);
    codes[i] = done.ReturnCode;
    errors[i] = waitError;
  }
  llvm::raw_string_ostream os(report);
  LogicalResult result = success();
  for (auto [i, a] : llvm::enumerate(assemblies)) {
    std::string log = StringRef(readFile(a.logPath)).rtrim().str();
    llvm::sys::fs::remove(a.logPath);
    llvm::sys::fs::remove(a.ptxPath);
    if (failed(result))
      continue;
    if (!a.startError.empty() || codes[i] != 0) {
      std::string why = !a.startError.empty() ? a.startError
                        : !errors[i].empty()
                            ? errors[i]
                            : "exit status " + std::to_string(codes[i]);
      emitError(a.binary.getLoc(), "ptxas failed on kernel '")
          << a.name << "' (" << why << ")" << (log.empty() ? "" : ":\n") << log;
      result = failure();
      continue;
    }
    if (i)
      os << "\n";
    os << "== " << a.name << " (ptxas -v -arch=" << chip << ")\n"
       << log << "\n";
  }
  return result;
}

/// Replaces each assembled PTX object with its cubin, with the target,
/// properties and kernel table kept.
static LogicalResult replaceWithCubins(MLIRContext *context,
                                       std::vector<Assembly> &assemblies) {
  for (Assembly &a : assemblies) {
    std::string cubin = readFile(a.cubinPath);
    if (cubin.empty())
      return emitError(a.binary.getLoc(), "ptxas wrote no cubin for kernel '")
             << a.name << "' at " << a.cubinPath;
    SmallVector<Attribute> objects(a.binary.getObjects().begin(),
                                   a.binary.getObjects().end());
    auto ptx = cast<gpu::ObjectAttr>(objects[a.objectIndex]);
    objects[a.objectIndex] = gpu::ObjectAttr::get(
        context, ptx.getTarget(), gpu::CompilationTarget::Binary,
        StringAttr::get(context, cubin), ptx.getProperties(), ptx.getKernels());
    a.binary.setObjectsAttr(ArrayAttr::get(context, objects));
  }
  return success();
}

LogicalResult croq::assembleKernels(ModuleOp module, StringRef ptxas,
                                    StringRef cubinDir, bool embedCubins,
                                    std::string &report) {
  FailureOr<const TargetDescription *> target = getModuleTarget(module);
  if (failed(target))
    return failure();
  StringRef chip = (*target)->chip;
  if (ptxas.empty())
    return emitError(module.getLoc(),
                     "ptxas not found (PATH, $CUDA_HOME/bin, "
                     "/usr/local/cuda/bin); it assembles the cubins");
  if (std::error_code ec = llvm::sys::fs::create_directories(cubinDir))
    return emitError(module.getLoc(), "cannot create ")
           << cubinDir << ": " << ec.message();
  // Every PTX file is written before the first ptxas starts, so a failure
  // there leaves nothing running.
  std::vector<Assembly> assemblies;
  if (failed(startAssemblies(module, ptxas, chip, cubinDir, assemblies)) ||
      failed(finishAssemblies(chip, assemblies, report)))
    return failure();
  return embedCubins ? replaceWithCubins(module.getContext(), assemblies)
                     : success();
}
