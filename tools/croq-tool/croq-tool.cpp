//===- croq-tool.cpp - croq-opt and croq-translate in one executable ------===//
//
// The static build (CROQ_STATIC_TOOLS) links MLIR and LLVM into the tools.
// Both tools would carry nearly the same 100+ MB of MLIR and LLVM code, so
// one executable runs either, chosen by the name it is called by (croq-opt,
// croq-translate: the symbolic links of the build tree) or by its first
// argument (`croq-tool opt ...`, `croq-tool translate ...`: the wheel, which
// cannot hold links).
//
//===----------------------------------------------------------------------===//

#include "../CroqToolMains.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using llvm::StringRef;

static int runTool(StringRef tool, int argc, char **argv) {
  if (tool == "opt" || tool == "croq-opt")
    return mlir::croq::croqOptMain(argc, argv);
  return mlir::croq::croqTranslateMain(argc, argv);
}

static bool isTool(StringRef name) {
  return name == "opt" || name == "translate" || name == "croq-opt" ||
         name == "croq-translate";
}

int main(int argc, char **argv) {
  StringRef called = llvm::sys::path::filename(argv[0]);
  if (called == "croq-opt" || called == "croq-translate")
    return runTool(called, argc, argv);
  if (argc >= 2 && isTool(argv[1])) {
    // The tool sees its own name as argv[0] (its --help and diagnostics
    // name it) and its arguments after it.
    std::string name = StringRef(argv[1]).starts_with("croq-")
                           ? std::string(argv[1])
                           : "croq-" + std::string(argv[1]);
    argv[1] = name.data();
    return runTool(name, argc - 1, argv + 1);
  }
  llvm::errs() << "usage: " << called
               << " opt|translate [options] [input]\n"
                  "  opt:       croq-opt (passes and pipelines)\n"
                  "  translate: croq-translate (PTX, cubin, host code)\n";
  return 2;
}
