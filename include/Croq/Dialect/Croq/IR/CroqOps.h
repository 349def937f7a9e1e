//===- CroqOps.h - croq op declarations -------------------------*- C++ -*-===//
//
// Declares the croq operations.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_DIALECT_CROQ_IR_CROQOPS_H
#define CROQ_DIALECT_CROQ_IR_CROQOPS_H

#include "Croq/Dialect/Croq/IR/CroqDialect.h"
#include "Croq/Dialect/Croq/IR/CroqTypes.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#define GET_OP_CLASSES
#include "Croq/Dialect/Croq/IR/CroqOps.h.inc"

#endif // CROQ_DIALECT_CROQ_IR_CROQOPS_H
