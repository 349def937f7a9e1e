//===- CroqDialect.cpp - croq dialect registration ------------------------===//
//
// Registers the croq types and operations with the dialect.
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/CroqDialect.h"
#include "Croq/Dialect/Croq/IR/CroqOps.h"
#include "Croq/Dialect/Croq/IR/CroqTypes.h"

using namespace mlir;
using namespace mlir::croq;

#include "Croq/Dialect/Croq/IR/CroqDialect.cpp.inc"

void CroqDialect::initialize() {
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "Croq/Dialect/Croq/IR/CroqOps.cpp.inc"
      >();
}
