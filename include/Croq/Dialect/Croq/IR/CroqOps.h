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

namespace mlir {
namespace croq {
/// Whether the valid part of copy source `source` can be smaller than
/// `destShape`, so that `zfill` has an effect (the copy verifier's rule).
bool copySourceCanBeSmaller(Value source, ArrayRef<int64_t> destShape);
} // namespace croq
} // namespace mlir

#endif // CROQ_DIALECT_CROQ_IR_CROQOPS_H
