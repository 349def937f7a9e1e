//===- croq-opt.cpp - croq optimizer driver -------------------------------===//
//
// The croq-opt executable of the shared build; its body is croqOptMain
// (CroqOptMain.cpp), which croq-tool also runs.
//
//===----------------------------------------------------------------------===//

#include "../CroqToolMains.h"

int main(int argc, char **argv) { return mlir::croq::croqOptMain(argc, argv); }
