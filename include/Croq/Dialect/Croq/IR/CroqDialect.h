//===- CroqDialect.h - croq dialect declaration -----------------*- C++ -*-===//
//
// Declares the croq dialect class.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_DIALECT_CROQ_IR_CROQDIALECT_H
#define CROQ_DIALECT_CROQ_IR_CROQDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Dialect.h"

#include "Croq/Dialect/Croq/IR/CroqDialect.h.inc"

#endif // CROQ_DIALECT_CROQ_IR_CROQDIALECT_H
