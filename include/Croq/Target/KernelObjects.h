//===- KernelObjects.h - PTX and cubin out of a lowered module --*- C++ -*-===//
//
// Reads the GPU objects (PTX text or cubin) that the croq-to-nvvm pipeline
// leaves in the `gpu.binary` ops of a module, for croq-translate, the C API
// and any host that lowers croq IR in its own process.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_TARGET_KERNELOBJECTS_H
#define CROQ_TARGET_KERNELOBJECTS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir {
namespace croq {

/// The two kinds of GPU object croq emits: PTX assembly (pipeline option
/// `format=isa`) and cubin (`format=bin`, assembled by ptxas).
enum class KernelObjectKind { PTX, Cubin };

/// Calls `fn` with the symbol name of each `gpu.binary` op in `module` and
/// the whole of its object, in module order. Fails, with an error on the
/// binary, if an object is not of kind `kind`, and, with an error on the
/// module, if there is no object at all (the module was not lowered).
LogicalResult
forEachKernelObject(ModuleOp module, KernelObjectKind kind,
                    function_ref<void(StringRef name, StringRef object)> fn);

/// Writes every object of kind `kind` to `os` the way croq-translate prints
/// them: each PTX module after a `//--- <name>.ptx` line (a PTX comment, and
/// the marker `split-file` splits on), cubins back to back.
LogicalResult writeKernelObjects(ModuleOp module, KernelObjectKind kind,
                                 raw_ostream &os);

/// Writes `text` to the file `path`; reports why it cannot at `loc`.
LogicalResult writeFileOrEmitError(Location loc, StringRef path,
                                   StringRef text);

/// Finds ptxas: `hint` when not empty, else on PATH, else in `bin` of the
/// first CUDA toolkit candidate (getCudaToolkitCandidates) that has it;
/// empty when none is found.
std::string findPtxas(StringRef hint = "");

/// Assembles the PTX object of every `gpu.binary` op of `module` (lowered
/// with `format=isa`) with `ptxas -v -arch=<chip>`, the chip the module's
/// `croq.target` names (getModuleTarget), one process per kernel,
/// all at once, into `<cubinDir>/<name>.cubin`; with `embedCubins`, each PTX
/// object is then replaced by its cubin (format `bin`), so that the host
/// code embeds the cubin instead of JIT-compiling the PTX. `report`
/// receives ptxas's reports (registers, shared memory, spills) in module
/// order, each after a `== <name> (ptxas -v -arch=<chip>)` line. Fails, with
/// an error on the binary naming the kernel and quoting ptxas, on the first
/// kernel (in module order) that ptxas rejects.
LogicalResult assembleKernels(ModuleOp module, StringRef ptxas,
                              StringRef cubinDir, bool embedCubins,
                              std::string &report);

} // namespace croq
} // namespace mlir

#endif // CROQ_TARGET_KERNELOBJECTS_H
