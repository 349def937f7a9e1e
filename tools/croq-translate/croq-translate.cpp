//===- croq-translate.cpp - croq translation driver -----------------------===//
//
// The croq-translate executable of the shared build; its body is
// croqTranslateMain (CroqTranslateMain.cpp), which croq-tool also runs.
//
//===----------------------------------------------------------------------===//

#include "../CroqToolMains.h"

int main(int argc, char **argv) {
  return mlir::croq::croqTranslateMain(argc, argv);
}
